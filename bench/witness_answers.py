"""How witnesses answer students' typed questions, offline: the development and held-out sets of
tests/deliberation/data/trial_student_questions*.yaml (five curated cases, questions typed as a
15-year-old types them).

Run: .venv/bin/python bench/witness_answers.py [--missed] [--heldout]
Prints, for the development set (and the held-out set with ``--heldout``), the questions asked,
how many were answered from the record (a record line quoted), how many on point (the labelled
line, or a non-answer where the record does not answer), and how many non-answers ("I couldn't
say" / "I didn't see that"). ``--missed`` lists the answers off the point. Measure the held-out
set once, after tuning on the development set.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deliberation.engine.trial.witness import answer
from tests.deliberation.trial_questions import STUDENT_HELDOUT, STUDENT_QUESTIONS, figures, labelled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--missed", action="store_true", help="list the answers off the point")
    parser.add_argument("--heldout", action="store_true", help="measure the held-out set too (once, after tuning)")
    args = parser.parse_args()
    sets = [("dev", STUDENT_QUESTIONS)] + ([("held-out", STUDENT_HELDOUT)] if args.heldout else [])
    for name, path in sets:
        items = labelled(path)
        start = time.perf_counter()
        found = figures(answer, items)
        took = (time.perf_counter() - start) * 1000 / max(found.asked, 1)
        print(
            f"{name}: {found.asked} questions, answered from the record {found.answered}, "
            f"on point {found.on_point} ({found.on_point / found.asked:.0%}), non-answers {found.non_answers}; "
            f"{took:.2f} ms a question"
        )
        if args.missed:
            for line in found.missed:
                print(f"  off the point: {line}")


if __name__ == "__main__":
    main()
