"""The judge rules on questions as students type them: a tag question or a statement put for assent
leads, with or without its apostrophe or comma, and a question asking the witness to guess at what
they did not see is speculation."""

from __future__ import annotations

import pytest

from deliberation.engine.trial.rules import is_leading, is_speculation, rule_on_question

LEADING_IN_CHIEF = [
    "it was a woman with long blond hair wasnt it",  # asked of a party's own witness in a class's trial
    "it was a woman with long blond hair, wasn't it?",
    "you werent sure if the last letter was a 2 or a Z right?",
    "the suv was dark green correct?",
    "he was in a ball cap, isnt that so?",
    "the driver was a woman",
    "she had long hair didnt she",
]
NOT_LEADING = [
    "what did you see that nigth?",
    "who was driving",
    "did the driver turn right?",
    "was it dark?",
    "Was it a man or a woman?",
    "how far away were you",
]


@pytest.mark.parametrize("question", LEADING_IN_CHIEF)
def test_a_tag_or_a_statement_put_for_assent_leads_in_chief(question):
    assert is_leading(question)
    ruling = rule_on_question("leading", question, cross=False, vocabulary=frozenset(), answered=())
    assert ruling.sustained and ruling.reason.startswith("Sustained:"), ruling.reason


@pytest.mark.parametrize("question", NOT_LEADING)
def test_an_open_or_a_plain_yes_or_no_question_does_not_lead(question):
    assert not is_leading(question)


def test_a_leading_question_may_be_put_in_cross():
    ruling = rule_on_question(
        "leading", "it was a woman with long blond hair wasnt it", cross=True, vocabulary=frozenset(), answered=()
    )
    assert not ruling.sustained


@pytest.mark.parametrize(
    "question",
    [
        "could it of been a woman with her hair under a hood",
        "could it have been a man?",
        "is it possible she wore a hood",
    ],
)
def test_asking_the_witness_to_guess_at_what_they_did_not_see_is_speculation(question):
    assert is_speculation(question)
    assert rule_on_question("speculation", question, cross=True, vocabulary=frozenset(), answered=()).sustained


def test_asking_whether_the_witness_could_be_mistaken_is_not_speculation():
    assert not is_speculation("Could you be mistaken?")
