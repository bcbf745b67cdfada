"""A player who clicks "Appeal to Reasonable Doubt" with no text every round, on the clear-guilty
robbery (kessler-market-robbery): how often does the jury acquit? Engine only, offline mind.

Run: .venv/bin/python bench/doubt_clicker.py [--seeds 20] [--case kessler-market-robbery]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deliberation.engine.results import PlayerMove
from deliberation.engine.rounds import run_round
from deliberation.engine.session import begin, finish
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import build_jury
from tests.deliberation.minds.curated import curated_case


async def one_run(slug: str, seed: int, strategy: str) -> tuple[str, int]:
    case = curated_case(slug)
    jury = build_jury(side="defend")
    state = begin(case=case, jury=jury, seed=seed, player_side="defend")
    mind = OfflineMind()
    while not state.end_reason:
        moves = (PlayerMove(seat=7, side="defend", strategy=strategy),) if strategy != "pass" else ()
        await run_round(
            state, case=case, jury=jury, mind=mind, injected=moves, fallback=OfflineMind(), reader=argued_points
        )
    return finish(state), state.tally()["guilty"]


def verdicts(slug: str, seeds: int, strategy: str = "reasonable_doubt") -> tuple[Counter[str], list[int]]:
    """Verdicts over ``seeds`` runs, and each run's final count of guilty votes."""
    runs = [asyncio.run(one_run(slug, seed, strategy)) for seed in range(seeds)]
    return Counter(verdict for verdict, _ in runs), [guilty for _, guilty in runs]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--case", default="kessler-market-robbery")
    parser.add_argument(
        "--strategy", default="reasonable_doubt", help="a strategy, or 'pass' (the player says nothing)"
    )
    args = parser.parse_args()
    counts, guilty = verdicts(args.case, args.seeds, args.strategy)
    print(
        f"{args.case}, {args.strategy} with no text every round, seeds 0-{args.seeds - 1}: "
        f"not guilty {counts['not_guilty']}, guilty {counts['guilty']}, hung {counts['hung']}"
    )
    print(f"guilty votes at the end of each run: {sorted(guilty)}")


if __name__ == "__main__":
    main()
