"""Groundedness of witness answers in offline trials: every curated case and the Old Bailey sample.

Run: .venv/bin/python bench/trial_groundedness.py [--seeds N]
Prints, per source, the trials run, the witness answers, the share of those from the record that
are grounded (target 100%; a non-answer is counted apart), the share of "I couldn't say" answers
and of answers repeated ("As I said, ..."), objections and how many were sustained, answers
struck, and the wall time of a trial (engine only). Then the share of the labelled questions
(tests/deliberation/data/trial_witness_questions.yaml) answered on point, and those that were not.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _django import DATA, setup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    setup()
    from django.core.management import call_command

    from cases.casefile import case_file
    from cases.models import Case
    from cases.services import oldbailey_import_paths
    from deliberation.engine.trial.course import run_trial, score_counsel
    from deliberation.engine.trial.witness import answer, is_non_answer
    from tests.deliberation.trial_questions import misses

    call_command("load_cases", stdout=io.StringIO())
    oldbailey_import_paths(paths=sorted((DATA / "trials").glob("*.xml")))
    for source in ("curated", "oldbailey"):
        files = [case_file(c) for c in Case.objects.with_file().playable().filter(source=source)]
        answers = grounded = unknown = repeated = objections = sustained = struck = 0
        times: list[float] = []
        for case in files:
            for seed in range(args.seeds):
                start = time.perf_counter()
                trial = run_trial(case, seed=seed)
                times.append(time.perf_counter() - start)
                said = [e for e in trial.events if e.kind == "answer"]
                answers += len(said)
                grounded += sum(1 for e in said if e.grounded and not is_non_answer(e.text))
                unknown += sum(1 for e in said if is_non_answer(e.text))
                repeated += sum(1 for e in said if e.text.startswith("As I said"))
                struck += sum(1 for e in said if e.struck)
                score = score_counsel(trial.events)
                objections += sum(s["objections"] for s in score.values())
                sustained += sum(s["objections_sustained"] for s in score.values())
        print(
            f"{source}: {len(files)} cases x {args.seeds} seeds, {answers} witness answers, "
            f"grounded {grounded / max(answers - unknown, 1):.1%} of those from the record (target 100%), "
            f'"couldn\'t say" {unknown / max(answers, 1):.1%}, "as I said" {repeated / max(answers, 1):.1%}, '
            f"objections {objections} (sustained {sustained}), struck {struck}; "
            f"trial wall time median {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms"
        )
    asked, wrong = misses(answer)
    print(f"labelled questions: {asked}, answered on point {(asked - len(wrong)) / asked:.1%}")
    for line in wrong:
        print(f"  off the point: {line}")


if __name__ == "__main__":
    main()
