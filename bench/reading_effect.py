"""How the offline jury reads arguments, on every argument set side by side: each argument against a
control speech that says nothing, in the same seeded room (tests/deliberation/minds/reading_measure.py).

The sets, with the date each was written:

* ``old``: tests/deliberation/minds/reading_set.py (its 40 arguments and 15 pairs, and the 10 + 5
  written after them): what the earlier word rules were built on; used as development data since;
* ``dev``: tests/deliberation/minds/reading_dev.py, the development part of the 250-item set written
  by a separate test writer: the reading is tuned on it;
* ``heldout``: tests/deliberation/minds/reading_heldout.py, its held-out part: never opened by whoever
  tunes the reading, only measured here.

Run: .venv/bin/python bench/reading_effect.py [--sets old,dev,heldout] [--seeds 24] [--own] [--direct] [--verbose]
(``--own`` counts the listeners' move on hearing the argument itself, before the AI juror who speaks
after it in the same round answers it: what the reading does, without the answer's own push.
``--direct`` counts the sign of the reading's push alone, without any room.)
Seeds: the AI juror who answers says something different after each argument, and on one seed that
answer moves the room by up to 0.03, as much as a strong argument; over six seeds it still decides
some weak arguments either way, over 24 the mean settles (``--seeds 6`` gives the older figures).
(``--verbose`` lists what was read the wrong way, except on the held-out part, whose texts stay unread.)
Targets: >= 90% of directed arguments and >= 90% of pairs read the labelled way; off-topic text
moves listeners at most a third as much as strong arguments.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.deliberation.minds import reading_dev, reading_heldout, reading_set
from tests.deliberation.minds.reading_measure import Figures, measure, measure_direct

SETS = {
    "old": (
        "older set (written 2026-11-22; the word rules were built on it)",
        reading_set.ARGUMENTS + reading_set.HELD_OUT_ARGUMENTS,
        reading_set.PAIRS + reading_set.HELD_OUT_PAIRS,
    ),
    "dev": ("development part (written 2026-11-28; tuned on)", reading_dev.DEV_ARGUMENTS, reading_dev.DEV_PAIRS),
    "heldout": (
        "held-out part (written 2026-11-28; never tuned on)",
        reading_heldout.HELDOUT_ARGUMENTS,
        reading_heldout.HELDOUT_PAIRS,
    ),
}


def row(name: str, figures: Figures, seconds: float) -> str:
    directed = f"{figures.directed_right}/{figures.directed} ({figures.directed_right / figures.directed:.0%})"
    pairs = f"{figures.pairs_right}/{figures.pairs} ({figures.pairs_right / figures.pairs:.0%})"
    return (
        f"{name:8} {directed:>14} {pairs:>13} {figures.strong_mean:9.4f} {figures.off_topic_ratio:10.2f}"
        f" {figures.salad_ratio:8.2f} {seconds:7.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", default="old,dev,heldout")
    parser.add_argument("--seeds", type=int, default=24)
    parser.add_argument("--full", action="store_true", help="the full room: AI jurors speak after it")
    parser.add_argument("--own", action="store_true", help="the argument's own effect, before any AI answer")
    parser.add_argument("--direct", action="store_true", help="the sign of the reading's push, without the room")
    parser.add_argument("--verbose", action="store_true", help="list what was read the wrong way (not held out)")
    args = parser.parse_args()
    chosen = [name.strip() for name in args.sets.split(",") if name.strip()]
    room = "full room (AI jurors answer)" if args.full else "listening room (one AI juror answers)"
    if args.own:
        room += ", the argument's own effect"
    if args.direct:
        room = "the reading's push alone, no room"
    print(f"{room}, seeds 0-{args.seeds - 1}")
    for name in chosen:
        print(f"  {name}: {SETS[name][0]}")
    print(f"{'set':8} {'directed':>14} {'pairs':>13} {'strong':>9} {'off/strong':>10} {'salad/s':>8} {'s':>7}")
    wrong: list[str] = []
    for name in chosen:
        _, arguments, pairs = SETS[name]
        start = time.perf_counter()
        if args.direct:
            figures = measure_direct(arguments, pairs)
        else:
            figures = measure(arguments, pairs, seeds=tuple(range(args.seeds)), full=args.full, own=args.own)
        print(row(name, figures, time.perf_counter() - start), flush=True)
        if name != "heldout":
            wrong += [f"  wrong ({name}): {line}" for line in figures.wrong]
    print("targets: directed >= 90%, pairs >= 90%, off-topic / strong <= 0.33")
    if args.verbose:
        print("\n".join(wrong))


if __name__ == "__main__":
    main()
