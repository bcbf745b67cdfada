"""Wall time of a 20-round offline deliberation, engine only (no database). Target: under 0.5 s.

Run: .venv/bin/python bench/engine_offline.py [--runs N]
The jury is held apart (a player prosecuting, a human holding out) so every run lasts 20 rounds.
Also prints what the reading did (``offline_reading``): texts read per run, how many of those reads
the cache answered, and how many new sentences the stance model and the vectors had to compute. The
first run starts cold (vectors and stance weights loaded, the case indexed); later runs of the same
case meet texts already read, as a long-lived worker does.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deliberation.engine.rounds import run_round
from deliberation.minds.offline import stance as reading_stance
from deliberation.minds.offline import vectors as reading_vectors
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.offline.reading import _read
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import build_case
from tests.deliberation.engine.helpers import deadlocked


async def one_run(seed: int) -> tuple[float, int, int]:
    case = build_case()
    state, jury = deadlocked(seed)
    mind = OfflineMind()
    start = time.perf_counter()
    calls = 0
    while not state.end_reason:
        result = await run_round(state, case=case, jury=jury, mind=mind, fallback=OfflineMind(), reader=argued_points)
        calls += result.usage.calls
    return time.perf_counter() - start, state.round_number, calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    times = []
    counts = []
    for seed in range(args.runs):
        before = _read.cache_info()
        sentences, vectors = len(reading_stance._cache), len(reading_vectors._cache)
        seconds, rounds, calls = asyncio.run(one_run(seed))
        after = _read.cache_info()
        reads = after.hits + after.misses - before.hits - before.misses
        counts.append(
            (
                reads,
                after.hits - before.hits,
                len(reading_stance._cache) - sentences,
                len(reading_vectors._cache) - vectors,
            )
        )
        times.append(seconds)
    print(f"offline engine, {rounds} rounds, {calls} mind calls per run (last run), {args.runs} runs")
    for label, (reads, hits, sentences, vectors) in (("first run (cold)", counts[0]), ("last run", counts[-1])):
        print(
            f"reading, {label}: {reads} texts read, {hits} answered by the cache, "
            f"{sentences} new sentences through the stance model, {vectors} new texts embedded"
        )
    print(f"first run: {times[0] * 1000:.1f} ms")
    print(
        f"wall time per 20-round deliberation: median {statistics.median(times) * 1000:.1f} ms, "
        f"max {max(times) * 1000:.1f} ms (target < 500 ms)"
    )


if __name__ == "__main__":
    main()
