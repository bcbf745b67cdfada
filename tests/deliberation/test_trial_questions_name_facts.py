"""Every question counsel ask at a whole trial names a fact of the record (``trial_facts``: a run of
four words of a record line, two of them content words, or a figure of it), defective ones
included, on every curated case and on the Old Bailey trials counsel's rules were written on; the
witness answers each from the line it was made from."""

from __future__ import annotations

from cases.casefile import case_file
from cases.models import Case
from cases.services import oldbailey_import_paths
from deliberation.engine.trial.course import run_trial
from deliberation.engine.trial.text import normalise
from tests.cases.oldbailey_sample import TRIALS
from tests.deliberation.trial_facts import names_a_fact, record_runs


def _shares(source: str) -> tuple[int, float, float]:
    asked = named = answers = on_line = 0
    for case in Case.objects.with_file().playable().filter(source=source):
        file = case_file(case)
        runs = record_runs(t for w in file.witnesses for t in (w.testimony, w.first_person, *w.credibility_issues) if t)
        trial = run_trial(file, seed=0)
        planned = {(s["witness"], s["question"]): s.get("line", "") for s in trial.plan if s["kind"] == "question"}
        for at, event in enumerate(trial.events):
            if event.kind != "question":
                continue
            asked += 1
            named += names_a_fact(event.text, runs)
            reply = trial.events[at + 1] if at + 1 < len(trial.events) else None
            if reply is not None and reply.kind == "answer" and planned.get((event.witness_id, event.text)):
                answers += 1
                on_line += normalise(planned[(event.witness_id, event.text)]) in {normalise(q) for q in reply.quoted}
    return asked, named / asked, on_line / answers


def test_counsel_name_a_fact_of_the_record_in_every_curated_trial(library):
    asked, named, on_line = _shares("curated")
    assert asked > 80
    assert named == 1.0
    assert on_line >= 0.9


def test_counsel_name_a_fact_of_the_record_in_the_old_bailey_trials(db):
    oldbailey_import_paths(paths=TRIALS)
    asked, named, on_line = _shares("oldbailey")
    assert asked > 500
    assert named == 1.0
    assert on_line >= 0.85
