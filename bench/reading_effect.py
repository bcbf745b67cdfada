"""How the offline jury reads arguments: each argument of the test set (tests/deliberation/minds/
reading_set.py, written in students' own words for the curated cases) against a control speech that
says nothing, in the same seeded room (see tests/deliberation/minds/reading_measure.py).

Run: .venv/bin/python bench/reading_effect.py [--seeds 6] [--verbose]
Targets (issue 13): >= 90% of on-topic arguments and >= 90% of pairs read the labelled way;
off-topic text moves listeners at most a third as much as strong arguments.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.deliberation.minds.reading_measure import measure
from tests.deliberation.minds.reading_set import HELD_OUT_ARGUMENTS, HELD_OUT_PAIRS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument("--full", action="store_true", help="the full room: AI jurors speak after it")
    parser.add_argument("--verbose", action="store_true", help="list what was read the wrong way")
    args = parser.parse_args()
    start = time.perf_counter()
    figures = measure(seeds=tuple(range(args.seeds)), full=args.full)
    room = "full room (AI jurors answer)" if args.full else "listening room (the argument alone)"
    print(f"{room}, seeds 0-{args.seeds - 1}, {time.perf_counter() - start:.1f} s")
    print(f"directed arguments read the labelled way: {figures.directed_right} of {figures.directed}")
    print(f"pairs read both ways: {figures.pairs_right} of {figures.pairs}")
    print(f"mean |net conviction change|: strong {figures.strong_mean:.4f}, off-topic {figures.off_topic_mean:.4f}")
    ratios = f"off-topic / strong: {figures.off_topic_ratio:.2f} (target <= 0.33)"
    print(f"{ratios}; keyword salad / strong: {figures.salad_ratio:.2f}")
    if args.verbose:
        for line in figures.wrong:
            print("  wrong:", line)
    held = measure(HELD_OUT_ARGUMENTS, HELD_OUT_PAIRS, seeds=tuple(range(args.seeds)), full=args.full)
    print(
        f"held-out set (written after tuning): {held.directed_right} of {held.directed} arguments, "
        f"{held.pairs_right} of {held.pairs} pairs the labelled way"
    )
    if args.verbose:
        for line in held.wrong:
            print("  wrong (held out):", line)


if __name__ == "__main__":
    main()
