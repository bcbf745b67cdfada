"""What the reading of one person's argument costs, per vector source (ANGRY_READING): the first read
in a fresh process (loading the vectors and indexing the case), a new argument on a case already
indexed, and the process's memory after it.

Run: .venv/bin/python bench/reading_latency.py [--kind static|minilm]
Target: a person's argument read in under 100 ms.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

ARGUMENTS = (
    "the cctv is way to blurry to see his face tbh, could be any guy in a grey hoodie",
    "Six marked twenties from the till were in his glovebox twenty minutes later. That is the till money.",
    "The detective who ran the photo lineup already knew who the suspect was, and he was the only one in grey.",
    "his cousin says he was at a card game but she's family, of course she'd say that",
    "The phone mast covers hundreds of homes, so it can't put him inside the shop.",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kind", default="static", choices=("static", "minilm"))
    args = parser.parse_args()
    os.environ["ANGRY_READING"] = args.kind
    start = time.perf_counter()
    from deliberation.minds.offline.reading import read  # after ANGRY_READING is set: the reading reads it
    from tests.deliberation.minds.curated import curated_case

    case = curated_case("kessler-market-robbery")
    imported = time.perf_counter() - start
    first = time.perf_counter()
    read(case, "His thumbprint is on the counter.")
    first_read = time.perf_counter() - first
    times = []
    for text in ARGUMENTS:
        begin = time.perf_counter()
        read(case, text)
        times.append((time.perf_counter() - begin) * 1000)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"vectors: {args.kind} (machine shared: figures vary with load)")
    print(f"import: {imported * 1000:.0f} ms; first read (vectors loaded, case indexed): {first_read * 1000:.0f} ms")
    print(f"a new argument on an indexed case: median {statistics.median(times):.1f} ms, max {max(times):.1f} ms")
    print(f"peak memory of the process: {rss:.0f} MB")


if __name__ == "__main__":
    main()
