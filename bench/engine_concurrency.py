"""The engine's own overhead with a slow model: a mind that sleeps 1 s per call.

Within a round the speakers are sequential by design (each answers the previous one) and the batch
reaction needs every speech, so the model's unavoidable time per round is (speakers + 1) x delay.
The summary (every 5th round) runs alongside and must not add to it. Prints the wall time against
that unavoidable time (target: the engine adds under 5%) and against running every call in a row.

Run: .venv/bin/python bench/engine_concurrency.py [--rounds N] [--delay S]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deliberation.engine.rounds import run_round
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import build_case
from tests.deliberation.engine.helpers import deadlocked


class SleepingMind(OfflineMind):
    """The offline engine's answers, each after ``delay`` seconds of pretend model time."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.name = "sleeping"

    async def speak(self, request, *, on_text=None):  # type: ignore[no-untyped-def]
        await asyncio.sleep(self.delay)
        return await super().speak(request, on_text=on_text)

    async def react_batch(self, request):  # type: ignore[no-untyped-def]
        await asyncio.sleep(self.delay)
        return await super().react_batch(request)

    async def summarize(self, request):  # type: ignore[no-untyped-def]
        await asyncio.sleep(self.delay)
        return await super().summarize(request)

    async def craft_argument(self, request, *, on_text=None):  # type: ignore[no-untyped-def]
        await asyncio.sleep(self.delay)
        return await super().craft_argument(request, on_text=on_text)


async def run(rounds: int, delay: float) -> None:
    case = build_case()
    state, jury = deadlocked(1, max_rounds=rounds)
    mind = SleepingMind(delay)
    wall = unavoidable = serial = 0.0
    summary_rounds = []
    while not state.end_reason:
        start = time.perf_counter()
        result = await run_round(state, case=case, jury=jury, mind=mind, fallback=OfflineMind(), reader=argued_points)
        took = time.perf_counter() - start
        critical = (len(result.speeches) + 1) * delay
        wall += took
        unavoidable += critical
        serial += result.usage.calls * delay
        if result.summarized:
            summary_rounds.append((result.round_number, result.usage.calls, critical, took))
    overhead = (wall - unavoidable) / unavoidable * 100
    print(f"{state.round_number} rounds, {delay:.1f} s per model call")
    print(
        f"wall {wall:.2f} s; unavoidable sequential model time {unavoidable:.2f} s; all calls in a row {serial:.2f} s"
    )
    print(f"engine overhead over the unavoidable time: {overhead:+.2f}% (target < 5%)")
    for number, calls, critical, took in summary_rounds:
        print(
            f"  summary round {number}: {calls} calls, critical path {critical:.1f} s, wall {took:.2f} s "
            f"(summary alongside, not after: saved {(calls * delay) - took:.2f} s)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--delay", type=float, default=1.0)
    args = parser.parse_args()
    asyncio.run(run(args.rounds, args.delay))


if __name__ == "__main__":
    main()
