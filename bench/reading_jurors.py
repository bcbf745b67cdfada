"""Do the AI jurors' own offline speeches read the way they argue? Each speech of a few AI-only
deliberations on the curated cases is read (``offline_reading``) and its direction compared with
the side its speaker argued.

Run: .venv/bin/python bench/reading_jurors.py [--seeds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deliberation.engine.rounds import run_round
from deliberation.engine.session import begin
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.offline.reading import read
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import build_jury
from tests.deliberation.minds.curated import SLUGS, curated_case


async def speeches(slug: str, seed: int) -> list[tuple[str, str]]:
    case = curated_case(slug)
    jury = build_jury()
    state = begin(case=case, jury=jury, seed=seed)
    said = []
    while not state.end_reason:
        result = await run_round(
            state, case=case, jury=jury, mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points
        )
        said += [(s.content, s.position or "") for s in result.speeches]
    return said


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    right = wrong = flat = 0
    for slug in SLUGS:
        for seed in range(args.seeds):
            for content, position in asyncio.run(speeches(slug, seed)):
                push = read(curated_case(slug), content).push
                if push == 0:
                    flat += 1
                elif (push > 0) == (position == "guilty"):
                    right += 1
                else:
                    wrong += 1
    total = right + wrong + flat
    print(f"AI jurors' speeches, curated cases, seeds 0-{args.seeds - 1}: {total} speeches")
    print(f"read the way the speaker argued: {right} ({right / total:.0%}), the other way: {wrong}, neither: {flat}")


if __name__ == "__main__":
    main()
