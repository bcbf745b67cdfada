"""The offline jury's verdicts on the Old Bailey trials and the curated cases, on the pure engine.

Run: .venv/bin/python bench/jury_verdicts.py [--runs N] [--seed S] [--workers W] [--sets dev,held-out,sample,curated]
     [--first-ballot] [--rules NAME]

Parses the Old Bailey files of each set of ``bench/oldbailey_split.py`` (dev: the sessions the
record's rules are tuned on; held-out: the sessions kept aside, measured only before and after a
pass), keeps the playable trials with a guilty or not-guilty verdict (each trial once), and
deliberates each N times (seeds S .. S+N-1) with the shipped jury (the "Juror 7"
persona in seat 7, no player), the offline mind and the engine's default settings, to the
verdict. No database and no retriever: the same deliberation the experiment command holds, less
the BM25 passages each speaker gets (which only boost the items a speech already names), so the
figures are close to ``manage.py experiment``'s, not identical. ``--first-ballot`` stops after
the first ballot and counts its majority as the verdict (a tie as hung): a quick look at where
the jury starts.

Prints per set the calibration measures of REALISM.md (hung, first-ballot majority wins, runs with
a vote change), the share of guilty verdicts, and the balanced accuracy against the real verdicts
(the mean of the agreement on convicted and on acquitted trials; a hung jury agrees with neither),
the Old Bailey sets side by side with their trial counts, overall and by decade, era and offence
category; for the curated cases, each case's verdicts and whether the cases
rated clear end their way in 85% of runs. The verdict is used only to score.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "angryagents.settings")

CURATED = (
    "alder-street-hit-and-run",
    "copper-kettle-fire",
    "kessler-market-robbery",
    "pruitt-basement-killing",
    "route-nine-fuel-stop-murder",
)
CLEAR = {"kessler-market-robbery": "guilty", "route-nine-fuel-stop-murder": "not_guilty"}
CLEAR_TARGET = 0.85

Job = tuple[str, Any, dict[str, str], str, int]  # name, case file, groups, real verdict, seed


def old_bailey(splits: tuple[str, ...]) -> Iterator[tuple[str, Any, dict[str, str], str]]:
    from oldbailey_split import playable_trials

    for trial in playable_trials(splits):
        offence = trial.record.offence_category or "unknown"
        groups = {"set": trial.split, "decade": trial.decade, "era": trial.era, "offence": offence}
        yield trial.record.slug, trial.file, groups, trial.verdict


def curated() -> Iterator[tuple[str, Any, dict[str, str], str]]:
    from prompt_growth import load_case

    for slug in CURATED:
        yield slug, load_case(slug), {"set": "curated"}, CLEAR.get(slug, "")


def shipped_jury() -> tuple[Any, ...]:
    from dataclasses import replace

    from prompt_growth import load_jury

    jury = load_jury()
    return tuple(replace(j, kind="ai") for j in jury)


def run_one(job: Job, first_ballot: bool) -> dict[str, Any]:
    from deliberation.engine.session import begin, run_to_end
    from deliberation.minds.offline.mind import OfflineMind
    from deliberation.minds.stand_ins import argued_points

    name, file, groups, real, seed = job
    from deliberation.engine.initial import case_lean
    from deliberation.engine.state import EngineSettings

    state = begin(case=file, jury=JURY, seed=seed, settings=EngineSettings(rules=RULES))
    first = dict(state.first_ballot)
    lean = "guilty" if case_lean(file) >= 0.5 else "not_guilty"
    if first_ballot:
        g, n = first["guilty"], first["not_guilty"]
        verdict = "hung" if g == n else ("guilty" if g > n else "not_guilty")
        changes = withdrew = 0
    else:
        results = asyncio.run(
            run_to_end(
                state, case=file, jury=list(JURY), mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points
            )
        )
        withdrew = sum(
            1 for result in results for line in result.process_lines if "withdraws from the discussion" in line.content
        )
        verdict = state.verdict
        changes = sum(
            1
            for before, after in zip(state.vote_history, state.vote_history[1:], strict=False)
            for seat in after
            if before.get(seat) != after[seat]
        )
    return {
        "name": name,
        "groups": groups,
        "real": real,
        "seed": seed,
        "first": first,
        "lean": lean,  # the side of the case file's evidence lean (initial.case_lean)
        "verdict": verdict,
        "changes": changes,
        "rounds": state.round_number,
        "end": state.end_reason or "",
        "withdrawals": withdrew,  # jurors' withdrawals in the run (a juror may withdraw, rejoin, withdraw)
    }


JURY: tuple[Any, ...] = ()
RULES = "unanimous"


def init_worker(overrides: tuple[str, ...] = (), rules: str = "unanimous") -> None:
    """Start Django in a worker; ``overrides`` ("params.NAME=VALUE" or "offline_reading.NAME=VALUE")
    try a parameter without editing the engine."""
    import importlib

    import django

    django.setup()
    for override in overrides:
        target, value = override.split("=", 1)
        module, name = target.rsplit(".", 1)
        found = importlib.import_module(
            f"deliberation.engine.{module}" if module == "params" else f"deliberation.minds.{module}"
        )
        setattr(found, name, float(value))
    global JURY, RULES
    JURY = shipped_jury()
    RULES = rules


def _run(args: tuple[Job, bool]) -> dict[str, Any]:
    return run_one(*args)


def share(part: float, whole: float) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "  n/a "


def balanced(rows: list[dict[str, Any]]) -> tuple[float | None, int, int]:
    guilty = [r for r in rows if r["real"] == "guilty"]
    acquitted = [r for r in rows if r["real"] == "not_guilty"]
    if not guilty or not acquitted:
        return None, len(guilty), len(acquitted)
    hit_g = sum(r["verdict"] == "guilty" for r in guilty) / len(guilty)
    hit_n = sum(r["verdict"] == "not_guilty" for r in acquitted) / len(acquitted)
    return (hit_g + hit_n) / 2, len(guilty), len(acquitted)


def first_majority(row: dict[str, Any]) -> str:
    g, n = row["first"]["guilty"], row["first"]["not_guilty"]
    return "guilty" if g > n else "not_guilty" if n > g else ""


def against_lean(rows: list[dict[str, Any]]) -> str:
    """How often the first ballot's majority stands against the evidence lean's side, and how
    often such a majority, and one with the lean, still becomes the verdict."""
    with_majority = [r for r in rows if first_majority(r)]
    against = [r for r in with_majority if first_majority(r) != r["lean"]]
    along = [r for r in with_majority if first_majority(r) == r["lean"]]
    won_against = sum(r["verdict"] == first_majority(r) for r in against)
    won_along = sum(r["verdict"] == first_majority(r) for r in along)
    return (
        f"first majorities against the lean {share(len(against), len(with_majority))} ({len(against)})"
        f", of which won {share(won_against, len(against))}; with the lean won {share(won_along, len(along))}"
    )


def calibration(rows: list[dict[str, Any]]) -> str:
    hung = sum(r["verdict"] == "hung" for r in rows)
    with_majority = [r for r in rows if first_majority(r)]
    wins = sum(r["verdict"] == first_majority(r) for r in with_majority)
    changed = sum(r["changes"] > 0 for r in rows)
    guilty = sum(r["verdict"] == "guilty" for r in rows)
    rounds = sum(r.get("rounds", 0) for r in rows) / len(rows) if rows else 0.0
    ends = Counter(r.get("end", "") for r in rows)
    withdrew = sum(r.get("withdrawals", 0) > 0 for r in rows)
    return (
        f"runs {len(rows)}  hung {share(hung, len(rows))}  first-ballot majority wins {share(wins, len(with_majority))}"
        f"  vote change {share(changed, len(rows))}  guilty verdicts {share(guilty, len(rows))}"
        f"\n   mean rounds {rounds:.2f}  ended by "
        + ", ".join(f"{k or '-'} {v}" for k, v in ends.most_common())
        + f"\n   {against_lean(rows)}"
        + f"\n   runs with a juror withdrawing {share(withdrew, len(rows))}"
        f" ({sum(r.get('withdrawals', 0) for r in rows)} withdrawals)"
    )


def report(rows: list[dict[str, Any]]) -> None:
    by_set: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_set[row["groups"]["set"]].append(row)
    for label, items in by_set.items():
        print(f"\n== {label}: {calibration(items)}")
        if label != "curated":
            continue
        for slug in CURATED:
            verdicts = Counter(r["verdict"] for r in items if r["name"] == slug)
            want = CLEAR.get(slug)
            mark = ""
            if want:
                rate = verdicts[want] / sum(verdicts.values())
                mark = f"  clear {want}: {100 * rate:.0f}% {'ok' if rate >= CLEAR_TARGET else 'BELOW 85%'}"
            counts = " ".join(f"{v} {verdicts[v]:3d}" for v in ("guilty", "not_guilty", "hung"))
            rounds = sorted(r["rounds"] for r in items if r["name"] == slug)
            pace = f"  rounds median {statistics.median(rounds):.1f} (range {rounds[0]}-{rounds[-1]})" if rounds else ""
            print(f"   {slug:30s} {counts}{mark}{pace}")
    sets = [label for label in by_set if label != "curated"]
    if not sets:
        return
    print("\nBalanced accuracy against the real verdicts (trials: convicted/acquitted; runs)")
    print(f"{'':8s} {'group':16s} " + " | ".join(f"{label:^38s}" for label in sets))
    for key in ("all", "decade", "era", "offence"):
        names = sorted({r["groups"].get(key, "all") for label in sets for r in by_set[label]})
        for name in names:
            cells = [_cell([r for r in by_set[label] if r["groups"].get(key, "all") == name]) for label in sets]
            print(f"{key:8s} {name:16s} " + " | ".join(cells))


def _cell(rows: list[dict[str, Any]]) -> str:
    """Trials (convicted/acquitted), runs and balanced accuracy of one group of one set."""
    trials = {(r["name"], r["real"]) for r in rows}
    convicted = sum(real == "guilty" for _, real in trials)
    value, _, _ = balanced(rows)
    shown = f"{value:.3f}" if value is not None else "  -  "
    return f"{len(trials):4d} ({convicted:4d}/{len(trials) - convicted:3d}) {len(rows):5d} runs {shown}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--sets", default="dev,curated", help="dev, held-out, sample (the 110 trials calibrated on), curated"
    )
    parser.add_argument("--curated-runs", type=int, default=20)
    parser.add_argument("--first-ballot", action="store_true")
    parser.add_argument("--rules", default="unanimous", help="the jury's rule set (engine.rules)")
    parser.add_argument("--set", action="append", default=[], help="params.NAME=VALUE, to try a value")
    args = parser.parse_args()
    import django

    django.setup()
    wanted = set(args.sets.split(","))
    cases: list[tuple[str, Any, dict[str, str], str]] = []
    if "more" in wanted:  # the thirteen more sessions cross the split: name the half you mean
        parser.error("--sets more: the more sessions are split into dev and held-out (bench/oldbailey_split.py)")
    unknown = wanted - {"dev", "held-out", "sample", "curated"}
    if unknown:
        parser.error(f"unknown set(s) {', '.join(sorted(unknown))}: expected dev, held-out, sample or curated")
    cases.extend(old_bailey(tuple(s for s in ("dev", "held-out", "sample") if s in wanted)))
    jobs: list[Job] = []
    for name, file, groups, real in cases:
        jobs.extend((name, file, groups, real, args.seed + k) for k in range(args.runs))
    if "curated" in wanted:
        for name, file, groups, real in curated():
            jobs.extend((name, file, groups, real, args.seed + k) for k in range(args.curated_runs))
    started = time.perf_counter()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers, initializer=init_worker, initargs=(tuple(args.set), args.rules)) as pool:
            rows = list(pool.map(_run, [(job, args.first_ballot) for job in jobs], chunksize=8))
    else:
        init_worker(tuple(args.set), args.rules)
        rows = [run_one(job, args.first_ballot) for job in jobs]
    print(
        f"{len(jobs)} runs ({'first ballot only' if args.first_ballot else 'to the verdict'}), seeds {args.seed}.."
        f"{args.seed + max(args.runs, args.curated_runs if 'curated' in wanted else 0) - 1}, {args.workers} worker(s),"
        f" {time.perf_counter() - started:.0f} s (machine shared)"
        + (f", with {' '.join(args.set)}" if args.set else "")
        + f", rules {args.rules}"
    )
    report(rows)


if __name__ == "__main__":
    main()
