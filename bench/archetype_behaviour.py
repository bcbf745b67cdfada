"""How often the acting archetypes act, and how jurors use their memory, over AI-only runs.

Run: .venv/bin/python bench/archetype_behaviour.py [--seeds N]
The five curated cases x N seeds (default 20), the shipped jury (jurors/data/jurors.yaml, the
"Juror 7" persona in seat 7), the offline mind, the engine's default settings, every run to its
end. Everything is counted from what the engine returns (speeches, reactions, flips) and the
tally each speaker saw, so the same script measures any version of the engine:

* contrarian: of its speeches made while a large majority (9 of 12 or more) held, the share that
  argued against that majority (devil's advocate when the contrarian itself voted with it);
* conformist: the share of its speeches that argued the side of the last juror who moved it its
  own way in the last two rounds (from its reactions), or else the majority's;
* impatient: the share of its speeches from round 2 on that press the foreperson for a vote;
* wildcard: the share of its speeches arguing against its own vote, and of those, how many turned
  its vote that round;
* every juror: the share of speeches that repeat an item the speaker argued before, that recall a
  round ("round N") of the deliberation, and, when the speaker has heard an argument against its
  vote that left it unmoved and not yet answered that juror, that address one such juror;
* how the runs ended, and each case's verdicts (kessler-market-robbery is curated as clear
  guilty, route-nine-fuel-stop-murder as clear innocent, the others as ambiguous).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from prompt_growth import load_case, load_jury  # noqa: E402

from deliberation.engine.rounds import run_round  # noqa: E402
from deliberation.engine.session import begin, finish  # noqa: E402
from deliberation.minds.offline.mind import OfflineMind  # noqa: E402
from deliberation.minds.stand_ins import argued_points  # noqa: E402

CASES = (
    "alder-street-hit-and-run",
    "copper-kettle-fire",
    "kessler-market-robbery",
    "pruitt-basement-killing",
    "route-nine-fuel-stop-murder",
)
LARGE = 9
ECHO_ROUNDS = 2
ECHO_DELTA = 0.04


def majority(tally: dict[str, int]) -> tuple[str, int]:
    guilty, not_guilty = tally["guilty"], tally["not_guilty"]
    if guilty == not_guilty:
        return "", guilty
    return ("guilty", guilty) if guilty > not_guilty else ("not_guilty", not_guilty)


async def one_run(slug: str, seed: int, counts: Counter[str]) -> None:
    case, jury = load_case(slug), load_jury()
    by_arch = {j.archetype: j.seat for j in jury}
    state = begin(case=case, jury=jury, seed=seed)
    mind = OfflineMind()
    moved: list[tuple[int, str, float]] = []  # the conformist's (round, speaker side, delta towards it)
    made: dict[int, set[str]] = defaultdict(set)
    owed: dict[int, set[int]] = defaultdict(set)  # seats whose arguments against a juror's vote left it unmoved
    while not state.end_reason:
        tally, votes = state.tally(), dict(state.votes)
        number = state.round_number + 1
        result = await run_round(state, case=case, jury=jury, mind=mind, fallback=OfflineMind(), reader=argued_points)
        flipped = {f.seat for f in result.flips}
        side, count = majority(tally)
        persuader = next(
            (pos for rnd, pos, towards in reversed(moved) if number - rnd <= ECHO_ROUNDS and towards >= ECHO_DELTA),
            None,
        )
        for speech in result.speeches:
            seat, position = speech.seat, speech.position
            counts["speeches"] += 1
            cited = speech.cited[0] if speech.cited else ""
            if cited and cited in made[seat]:
                counts["repeats"] += 1
            made[seat].add(cited)
            if owed[seat]:
                counts["owing"] += 1
                counts["answered"] += speech.target_seat in owed[seat]
                owed[seat].discard(speech.target_seat or 0)
            if "round " in speech.content.lower() and any(f"round {n}" in speech.content for n in range(1, number)):
                counts["recalls"] += 1
            if seat == by_arch.get("contrarian") and side and count >= LARGE:
                counts["contrarian_large"] += 1
                counts["contrarian_against"] += position != side
                if votes[seat] == side:
                    counts["contrarian_with_majority"] += 1
                    counts["contrarian_devil"] += position != side
            if seat == by_arch.get("conformist"):
                counts["conformist"] += 1
                expected = persuader or side
                if expected:
                    counts["conformist_expected"] += 1
                    counts["conformist_echo"] += position == expected
            if seat == by_arch.get("impatient") and number >= 2:
                counts["impatient"] += 1
                counts["impatient_press"] += "foreperson" in speech.content.lower()
            if seat == by_arch.get("wildcard"):
                counts["wildcard"] += 1
                if position != votes[seat]:
                    counts["wildcard_turn"] += 1
                    counts["wildcard_flipped"] += seat in flipped
        conformist = by_arch.get("conformist")
        for record in result.reactions:
            said = result.speeches[record.speech_index]
            if said.position and said.position != votes.get(record.seat) and not record.persuaded:
                owed[record.seat].add(said.seat)
            if record.seat == conformist:
                speech = result.speeches[record.speech_index]
                towards = record.delta if speech.position == "guilty" else -record.delta
                if record.persuaded:
                    towards = max(towards, ECHO_DELTA)
                moved.append((number, speech.position or "", towards))
    counts["runs"] += 1
    counts["rounds"] += state.round_number
    counts[f"verdict {slug} {finish(state)}"] += 1
    counts[f"end {state.end_reason}"] += 1


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}% ({part}/{whole})" if whole else "n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=20)
    args = parser.parse_args()
    counts: Counter[str] = Counter()
    for slug in CASES:
        for seed in range(args.seeds):
            asyncio.run(one_run(slug, seed, counts))
    c = counts
    print(f"{c['runs']} AI-only runs, {c['rounds']} rounds, {c['speeches']} speeches")
    print("contrarian argues against a 9+ majority:", pct(c["contrarian_against"], c["contrarian_large"]))
    print(
        "  ... while itself voting with it (devil's advocate):",
        pct(c["contrarian_devil"], c["contrarian_with_majority"]),
    )
    print("conformist echoes its last persuader or the majority:", pct(c["conformist_echo"], c["conformist_expected"]))
    print("impatient presses the foreperson (round 2 on):", pct(c["impatient_press"], c["impatient"]))
    print("wildcard argues against its own vote:", pct(c["wildcard_turn"], c["wildcard"]))
    print("  ... and its vote turns that round:", pct(c["wildcard_flipped"], c["wildcard_turn"]))
    print("speeches repeating an item the speaker argued before:", pct(c["repeats"], c["speeches"]))
    print("speeches recalling an earlier round:", pct(c["recalls"], c["speeches"]))
    print("speeches by a juror with an unanswered opponent that answer one:", pct(c["answered"], c["owing"]))
    print("endings:", ", ".join(f"{k[4:]} {v}" for k, v in sorted(c.items()) if k.startswith("end ")))
    for slug in CASES:
        verdicts = {v: c[f"verdict {slug} {v}"] for v in ("guilty", "not_guilty", "hung")}
        print(f"  {slug}: " + ", ".join(f"{v} {n}" for v, n in verdicts.items()))


if __name__ == "__main__":
    main()
