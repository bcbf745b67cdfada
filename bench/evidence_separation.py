"""How well the imported evidence ratings separate the real convictions from the acquittals.

Run: .venv/bin/python bench/evidence_separation.py [--sets dev,held-out] [--rules]

Parses the Old Bailey files of each set of ``bench/oldbailey_split.py`` (dev: the sessions the
record's rules are tuned on; held-out: the sessions kept aside, measured only before and after a
pass), keeps the playable trials with a guilty or not-guilty verdict, and computes the engine's
case lean from what the jury may see (``deliberation.engine.initial.evidence_balance`` on the case
file; the verdict is used only to score). The side the lean points to is the first ballot's
expected majority, which the calibrated jury turns into its verdict in about 9 runs in 10. Prints
balanced accuracy (and AUC of the balance) with trial counts, the sets side by side, overall, by
decade, era and offence category.

``--rules`` also prints, per point of ``cases.importers.oldbailey_points``, how many dev trials make
it and how many of those were acquittals (the share to set against the set's own). It reads the
dev set only: the held-out sessions are never searched for what a rule would find.
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict

from _django import setup
from oldbailey_split import DEV, SPLITS, playable_trials

Row = tuple[str, float]  # (real verdict, balance)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", default=",".join(SPLITS), help="dev, held-out or both")
    parser.add_argument("--rules", action="store_true", help="per point: dev trials that make it, acquitted")
    args = parser.parse_args()
    setup()
    from cases.importers.oldbailey_points import POINTS
    from deliberation.engine.initial import evidence_balance

    splits = tuple(s for s in SPLITS if s in args.sets.split(","))
    grouped: dict[tuple[str, str, str], list[Row]] = defaultdict(list)  # (key, group, set) -> rows
    made: Counter[tuple[str, str]] = Counter()  # (point, verdict) -> dev trials
    for trial in playable_trials(splits):
        row = (trial.verdict, evidence_balance(trial.file))
        offence = trial.record.offence_category or "unknown"
        for key, group in (("all", "all"), ("decade", trial.decade), ("era", trial.era), ("offence", offence)):
            grouped[(key, group, trial.split)].append(row)
        if args.rules and trial.split == DEV:
            labels = {e.label for e in trial.record.evidence}
            for point in {p.label for p in POINTS if any(label.startswith(p.label) for label in labels)}:
                made[(point, trial.verdict)] += 1
            made[("(every trial)", trial.verdict)] += 1
    print(f"{'':8s} {'group':10s} " + " | ".join(f"{s:^66s}" for s in splits))
    for key in ("all", "decade", "era", "offence"):
        for group in sorted({g for k, g, _ in grouped if k == key}):
            print(f"{key:8s} {group:10s} " + " | ".join(_figures(grouped.get((key, group, s), [])) for s in splits))
    if args.rules:
        for point in ["(every trial)", *sorted({p.label for p in POINTS})]:
            acquitted = made[(point, "not_guilty")]
            n = made[(point, "guilty")] + acquitted
            share = f"{acquitted / n:.0%}" if n else "-"
            print(f"rule dev {point[:60]:60s} trials {n:4d} acquitted {acquitted:3d} ({share})")


def _figures(items: list[Row]) -> str:
    """Trials, balanced accuracy of the lean's side (convictions / acquittals hit) and the AUC, or a dash."""
    guilty = [b for v, b in items if v == "guilty"]
    acquitted = [b for v, b in items if v == "not_guilty"]
    if not guilty or not acquitted:
        return f"{len(items):4d} trials {'(one verdict only)' if items else '':50s}"
    hit_g = sum(b >= 0 for b in guilty) / len(guilty)
    hit_n = sum(b < 0 for b in acquitted) / len(acquitted)
    auc = sum((g > n) + 0.5 * (g == n) for g in guilty for n in acquitted) / (len(guilty) * len(acquitted))
    return (
        f"{len(items):4d} trials ({len(guilty):4d}/{len(acquitted):3d}) BA {(hit_g + hit_n) / 2:.3f}"
        f" ({hit_g:.2f}/{hit_n:.2f}) AUC {auc:.3f}"
    )


if __name__ == "__main__":
    main()
