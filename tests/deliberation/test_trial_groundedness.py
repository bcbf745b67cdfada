"""Witnesses at the trial answer from their own record: every answer in every shipped case is grounded."""

from __future__ import annotations

from cases.casefile import case_file
from cases.models import Case
from cases.services import oldbailey_import_paths
from deliberation.engine.trial.course import groundedness, run_trial
from deliberation.engine.trial.text import normalise
from deliberation.engine.trial.witness import DIDNT_SEE, answer, ungrounded
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


OPEN_QUESTIONS = (
    "what did you see that night",
    "What did you see?",
    "what happened",
    "Tell the jury what you saw that night.",
    "Can you describe what you saw?",
    "tell us what happened that day",
)


def test_every_curated_witness_answers_an_open_question_from_their_own_account(library):
    asked = 0
    for case in Case.objects.with_file().playable().filter(source="curated"):
        for witness in case_file(case).witnesses:
            for question in OPEN_QUESTIONS:
                given = answer(witness, question)
                assert given.knows and given.part == "chief", (case.slug, witness.name, question, given.text)
                assert ungrounded(given.text, witness) == [], (case.slug, witness.name, question, given.text)
                asked += 1
    assert asked > 100


def test_the_eyewitness_tells_what_she_saw_and_goes_on_with_her_story_when_asked_again(library):
    (ruth,) = [w for w in case_file(Case.objects.get(slug="alder-street-hit-and-run")).witnesses if "Ruth" in w.name]
    first = answer(ruth, "what did you see that night")
    assert "An SUV passed me on the right and struck the cyclist" in first.text
    then = answer(ruth, "what happened next?", said={normalise(line) for line in first.lines})
    assert then.knows and not set(then.lines) & set(first.lines)
    assert answer(ruth, "What did you see at the bakery?").text == DIDNT_SEE  # a question about something else


def test_a_direct_question_on_a_fact_of_the_witnesss_own_testimony_gets_that_line(library):
    witnesses = {
        w.name: w
        for slug in ("pruitt-basement-killing", "route-nine-fuel-stop-murder")
        for w in case_file(Case.objects.with_file().get(slug=slug)).witnesses
    }
    for name, question, fact in (
        ("Wade Pruitt", "How much money did you owe?", "I owed $18,000"),  # "owe", and the record's "owed"
        ("Brenda Kowalczyk", "How old was the man?", "maybe twenty"),  # his age, as she described him
    ):
        said = answer(witnesses[name], question, part="cross")
        assert said.knows and fact in said.text, (question, said.text)


def test_a_question_about_what_the_robber_wore_gets_the_line_about_his_clothes_not_one_that_names_him(library):
    clerk = next(
        w for w in case_file(Case.objects.with_file().get(slug="kessler-market-robbery")).witnesses if "Mehta" in w.name
    )
    for question in ("What was the robber wearing?", "What did he have on?"):
        said = answer(clerk, question, part="chief")
        assert said.knows and "hoodie" in said.text, (question, said.text)
        assert "twenty-five" not in said.text
