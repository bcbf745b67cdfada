"""Witnesses at the trial answer from their own record: every answer in every shipped case is grounded."""

from __future__ import annotations

from cases.casefile import case_file
from cases.models import Case
from cases.services import oldbailey_import_paths
from deliberation.engine.trial.course import groundedness, run_trial
from deliberation.engine.trial.witness import ungrounded
from tests.cases.oldbailey_sample import TRIALS


def _answers(source: str) -> list[tuple[str, str, list[str]]]:
    found = []
    for case in Case.objects.with_file().playable().filter(source=source):
        file = case_file(case)
        trial = run_trial(file, seed=1)
        assert groundedness(trial.events) == 1.0, case.slug
        witnesses = {w.id: w for w in file.witnesses}
        for event in trial.events:
            if event.kind == "answer":
                found.append((case.slug, event.text, ungrounded(event.text, witnesses[event.witness_id])))
    return found


def test_every_answer_of_a_curated_trial_is_found_in_the_witnesss_record(library):
    answers = _answers("curated")
    assert len(answers) > 50
    assert [a for a in answers if a[2]] == []


def test_every_answer_of_an_old_bailey_trial_is_found_in_the_witnesss_record(db):
    oldbailey_import_paths(paths=TRIALS)
    answers = _answers("oldbailey")
    assert len(answers) > 500
    assert [a for a in answers if a[2]] == []
