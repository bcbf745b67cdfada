"""AI speeches per cycle in a room with 0, 2, 5 and 11 participants (engine only, offline mind).

Run: .venv/bin/python bench/room_speakers.py [--seeds N] [--rounds R]
Each cycle every participant has spoken once (a typed speech, as a person or an agent in a room
does on their turn) and the round then runs; the figure is how many of the round's speeches came
from AI jurors. Participants take seats 7, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12 in that order (the
room's host, then the seats a room can open), so with 11 participants one AI juror (seat 1) is
left and at most one AI speech is possible.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deliberation.engine.rounds import run_round
from deliberation.engine.session import begin
from deliberation.engine.state import EngineSettings
from deliberation.engine.types import Speech
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import build_case, build_jury

SEAT_ORDER = (7, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
LINES = (
    "I keep coming back to the hoodie; it was borrowed and that matters.",
    "The receipt puts him across town. I think that is reasonable doubt.",
    "The clerk saw him clearly. I think he did this.",
)


def room_jury(participants: int):  # type: ignore[no-untyped-def]
    people = set(SEAT_ORDER[:participants])
    jury = build_jury(side="defend") if 7 in people else build_jury()
    return tuple(replace(j, kind="human") if j.seat in people else j for j in jury), sorted(people)


async def ai_speeches_per_cycle(participants: int, seed: int, rounds: int) -> list[int]:
    case = build_case()
    jury, people = room_jury(participants)
    side = "defend" if people else "none"
    state = begin(case=case, jury=jury, seed=seed, player_side=side, settings=EngineSettings(stability_rounds=99))
    mind = OfflineMind()
    counts: list[int] = []
    for number in range(rounds):
        if state.end_reason:
            break
        injected = [
            Speech(seat=seat, speaker_name=f"Participant {seat}", content=LINES[(seat + number) % len(LINES)])
            for seat in people
        ]
        result = await run_round(
            state, case=case, jury=jury, mind=mind, injected=injected, fallback=OfflineMind(), reader=argued_points
        )
        counts.append(sum(1 for s in result.speeches if s.seat not in people))
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"{'participants':>12} {'cycles':>7} {'mean AI':>8} {'min':>4} {'max':>4} {'cycles with 0 AI':>17}")
    for participants in (0, 2, 5, 11):
        counts: list[int] = []
        for seed in range(args.seeds):
            counts.extend(asyncio.run(ai_speeches_per_cycle(participants, seed, args.rounds)))
        silent = sum(1 for c in counts if c == 0)
        print(
            f"{participants:>12} {len(counts):>7} {statistics.mean(counts):>8.2f} {min(counts):>4} {max(counts):>4}"
            f" {silent:>10} ({100 * silent / len(counts):.0f}%)"
        )


if __name__ == "__main__":
    main()
