"""Counsel ask about the record's facts: who did what, when, where, how far, what was found, how
sure; cross-examination tests the weakness the record shows; the witness answers from the line the
question was made from."""

from __future__ import annotations

import random

import pytest

from deliberation.engine.trial import asking, counsel
from deliberation.engine.trial.course import run_trial
from deliberation.engine.trial.text import RecordLine
from deliberation.engine.trial.witness import answer
from deliberation.engine.types import WitnessItem
from tests.deliberation.engine.factories import build_case
from tests.deliberation.trial_facts import names_a_fact, record_runs


def _asked(text: str, record: str = "") -> str | None:
    question = asking.chief_question(RecordLine(text, "chief"), record or text, set())
    return question.text if question else None


@pytest.mark.parametrize(
    ("line", "question"),
    [
        (
            "At 10:04 p.m. I stopped a silver 2011 Honda Civic with a cracked right tail light on Salem Avenue, "
            "3.1 miles from the market.",
            "What time was it when you stopped a silver 2011 Honda Civic with a cracked right tail light on Salem "
            "Avenue?",
        ),
        (
            "The Prisoner came up to the Coach and demanded my money.",
            "Who came up to the Coach and demanded your money?",
        ),
        (
            "I have no doubt he is the same person that pawned the watch.",
            "How sure are you that he is the same person that pawned the watch?",
        ),
        (
            "I was about 40 feet from the door when I heard a bang.",
            "How far from the door were you when you heard a bang?",
        ),
        (
            "On the back seat I found a grey hooded sweatshirt with an orange logo.",
            "What did you find on the back seat?",
        ),
        ("When the bandana slipped I saw his chin and jaw.", "What did you see when the bandana slipped?"),
        (
            "I have been the night clerk at Kessler's Corner Market for four years.",
            "How long have you been the night clerk at Kessler's Corner Market?",
        ),
        ("The $412 was folded in the glovebox.", "Where was the $412 folded?"),
    ],
)
def test_counsel_ask_about_the_act_a_line_tells_in_the_second_person(line, question):
    assert _asked(line) == question


def test_a_line_that_tells_no_act_gives_no_question_rather_than_a_keyword_one():
    assert _asked("He ran.") is None
    assert _asked("Tuesday, January.") is None


def test_a_question_that_would_carry_too_little_of_its_line_is_not_asked():
    # "How far behind the bus were you?" names no four words of the line in a row: counsel move on
    assert _asked("I was about 15 metres behind the bus and to the left.") is None
    assert not asking.carries_record("What did you find in a cupboard?", "I found these articles in a cupboard.")
    assert asking.carries_record("Where was it that you found these articles?", "I found these articles in a cupboard.")
    assert asking.carries_record("What did you do with the $412?", "The $412 was folded in the glovebox.")


def test_a_line_spoken_to_the_prisoner_is_put_back_in_the_third_person_with_its_verb_agreeing():
    assert asking.put_to_witness("I did not know you were joking about the watch", "") == (
        "You did not know the prisoner was joking about the watch, did you?"
    )


def test_a_clause_that_has_lost_its_subject_is_not_put_to_the_witness():
    assert asking.put_to_witness("In the second certificate he is a widower, and she as a spinster", "") is None
    assert not asking.whole_clause("saw the cow lying there dead")
    assert asking.whole_clause("I saw the cow lying there dead")


def test_the_witnesss_quoted_words_stay_as_they_were_said():
    assert asking.you("Lindahl told me 'I don't keep gas around'") == "Lindahl told you 'I don't keep gas around'"


@pytest.mark.parametrize(
    ("line", "put"),
    [
        ("I did not examine the electrical circuits.", "You did not examine the electrical circuits, did you?"),
        ("I cannot say when the print was left.", "You cannot say when the print was left, can you?"),
        ("I visit him in jail every week.", "You visit him in jail every week, don't you?"),
        ("I am not a forensic scientist.", "You are not a forensic scientist, are you?"),
        (
            "I first told a detective he left around nine.",
            "You first told a detective he left around nine, didn't you?",
        ),
        (
            "My report says the hoodie was on the front seat.",
            "Isn't it right that your report says the hoodie was on the front seat?",
        ),
    ],
)
def test_cross_examination_puts_what_the_witness_concedes_back_to_it(line, put):
    assert asking.put_to_witness(line, line) == put


CLERK = WitnessItem(
    id="W1",
    name="Ann Webb",
    role="eyewitness",
    testimony="Saw the driver.",
    first_person=(
        "I was walking home on Alder Street. I saw the driver's face under a streetlight. "
        "It was a woman with long light hair. Cross-examined. I saw the driver for about one second."
    ),
    side="prosecution",
)
BAKER = WitnessItem(
    id="W2",
    name="Tom Ibsen",
    role="eyewitness",
    testimony="Saw a man.",
    first_person=(
        "I was leaving the bakery. I told the first officer the driver was a guy in a ball cap. Cross-examined. "
        "I said 'I think'."
    ),
    side="defense",
)


def test_cross_examination_puts_another_witnesss_contradiction_first():
    case = build_case(witnesses=(CLERK, BAKER))
    first = counsel.cross_plan(BAKER, case)[0]
    assert first.kind == "contradiction"
    assert first.text.startswith(
        'Ann Webb told the jury: "It was a woman with long light hair". You say you told the first'
    )


def test_an_old_bailey_label_sends_cross_examination_to_the_line_that_shows_it():
    pawnbroker = WitnessItem(
        id="W3",
        name="John Cole",
        role="pawnbroker",
        testimony=(
            "I am a pawnbroker in Holborn—the prisoner brought this watch to my shop—it was candle-light in the shop."
        ),
        credibility_issues=("Did not see clearly",),
    )
    probes = [q.text for q in counsel.cross_plan(pawnbroker, build_case(witnesses=(pawnbroker,))) if q.kind == "probe"]
    assert probes == ["You say it was candle-light in the shop. How much light was there, and how well could you see?"]


def test_what_happened_after_is_answered_with_the_next_line():
    reply = answer(CLERK, "What happened after you were walking home on Alder Street?")
    assert reply.text.startswith("I saw the driver's face under a streetlight")


def test_each_planned_question_is_answered_from_the_line_it_was_made_from():
    case = build_case(witnesses=(CLERK, BAKER))
    trial = run_trial(case, seed=3)
    planned = [s for s in trial.plan if s["kind"] == "question" and s.get("line")]
    answers = {(e.witness_id, e.index): e for e in trial.events if e.kind == "answer"}
    assert planned and answers
    for step in planned:
        asked = next(e for e in trial.events if e.kind == "question" and e.text == step["question"])
        reply = next((e for e in trial.events[asked.index + 1 :] if e.kind == "answer"), None)
        if reply is not None and reply.witness_id == step["witness"]:
            assert step["line"] in reply.quoted, (step["question"], reply.text)


def test_the_fact_check_fails_on_keyword_questions_and_passes_on_questions_about_the_record():
    runs = record_runs([CLERK.first_person, BAKER.first_person])
    for keyword in (
        "Tell us about Alder and the driver.",
        "What can you tell the jury about the face and the streetlight?",
    ):
        assert not names_a_fact(keyword, runs)
    assert names_a_fact("What did you see when you were walking home on Alder Street?", runs)


def test_counsel_plan_every_question_from_a_line_of_the_record():
    case = build_case(witnesses=(CLERK, BAKER))
    for witness in (CLERK, BAKER):
        for question in [*counsel.chief_plan(witness, random.Random(0)), *counsel.cross_plan(witness, case)]:
            assert question.line, question


def test_a_question_typed_in_a_hurry_is_read_as_the_words_it_means():
    reply = answer(CLERK, "how long did u see the driver for", part="cross")
    assert reply.text.startswith("I saw the driver for about one second")


def test_the_defence_closing_puts_an_unanswered_question_as_a_question_not_as_a_quote():
    speech = counsel.closing("defense", [], [], [("Ann Webb", "Could you see his face?")])
    assert 'Asked "Could you see his face?", Ann Webb could not say.' in speech
    assert "told you: \"I couldn't say" not in speech


def test_the_prosecution_closing_quotes_what_was_seen_before_who_the_witness_is():
    quotes = [("Ann Webb", "I am a clerk."), ("Ann Webb", "I saw the driver's face under a streetlight.")]
    speech = counsel.closing("prosecution", quotes, [])
    assert speech.index("streetlight") < speech.index("I am a clerk")
