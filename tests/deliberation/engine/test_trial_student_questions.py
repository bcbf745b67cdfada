"""A student types a question to a witness as a 15-year-old types it ("wat colour was the car", "hw far
away were u", "it was dark, wasnt it?"): the witness answers from the line of its record that
answers it, and a tag question put to one's own witness is ruled leading."""

from __future__ import annotations

import pytest

from deliberation.engine.trial import rules
from deliberation.engine.trial.text import typed
from deliberation.engine.trial.witness import DONT_KNOW, answer
from tests.deliberation.trial_questions import STUDENT_QUESTIONS, _curated, figures, labelled

ON_POINT = 0.9
RUTH = _curated("alder-street-hit-and-run", "Ruth Adeyemi")
WHITLOCK = _curated("kessler-market-robbery", "Officer Dana Whitlock")
BRENDA = _curated("route-nine-fuel-stop-murder", "Brenda Kowalczyk")


def test_nine_in_ten_of_the_students_typed_questions_are_answered_on_point():
    items = labelled(STUDENT_QUESTIONS)
    found = figures(answer, items)
    assert found.asked >= 60
    assert any(not item.lines for item in items), "the set holds questions the record cannot answer"
    assert found.on_point / found.asked >= ON_POINT, found.missed


@pytest.mark.parametrize(
    ("witness", "question", "line"),
    [
        (RUTH, "wat colour was the car", "The SUV was dark green or black"),
        (RUTH, "hw far away were u", "I was about 15 metres behind it"),
        (RUTH, "what did you write in your notes", "I wrote '7K...2?'"),
        (RUTH, "wat time was it when it happened", "At about 6:40 p.m."),
        (RUTH, "which way did the suv go after", "turned north on 39th"),
        (WHITLOCK, "who was driving", "Curtis Hale was driving"),
        (WHITLOCK, "wher was the gun", "under the driver's seat"),
        (WHITLOCK, "where did u find the money", "The $412 was folded in the glovebox"),
        (BRENDA, "how far away were u from the door", "about 40 feet from the door"),
    ],
)
def test_a_plain_typed_question_is_answered_from_the_record_line_that_answers_it(witness, question, line):
    reply = answer(witness, question)
    assert reply.knows and line in reply.lines[0], reply.text


def test_a_narrow_question_the_record_does_not_answer_gets_i_couldnt_say():
    assert answer(BRENDA, "wat colour was his car").text == DONT_KNOW  # her record has a mask, no car
    assert answer(WHITLOCK, "was hale drunk").text == DONT_KNOW  # a line naming Hale says nothing of drink


def test_typed_reads_text_speak_and_contractions_without_apostrophes():
    assert typed("wat time did u leave, wasnt it") == "what time did you leave, wasn't it"
    assert typed("hw far r u, didnt he, isnt that true") == "how far are you, didn't he, isn't that true"


@pytest.mark.parametrize(
    "question",
    [
        "it was dark, wasnt it?",
        "It was dark, wasn't it?",
        "it was dark wasnt it",
        "he was driving the car right?",
        "He was driving, right?",
        "he drove off north, didn't he",
        "he drove off north didnt he",
        "isnt that true",
        "you saw the plate, isnt that true?",
        "It was raining, correct?",
    ],
)
def test_a_tag_question_to_ones_own_witness_is_ruled_leading(question):
    ruling = rules.rule_on_question("leading", question, cross=False, vocabulary={"dark"}, answered=[])
    assert ruling.sustained and ruling.reason.startswith("Sustained"), ruling.reason
    assert rules.rule_on_question("leading", question, cross=True, vocabulary={"dark"}, answered=[]).sustained is False


@pytest.mark.parametrize(
    "question",
    ["Was it dark?", "Is that right?", "Why didnt he?", "Did he turn left or right?", "Was the dent on the right?"],
)
def test_a_question_that_only_asks_is_not_leading(question):
    assert not rules.is_leading(question)


def test_a_tag_question_is_answered_from_the_statement_it_puts():
    reply = answer(_curated("alder-street-hit-and-run", "Tom Ibsen"), "it was a man driving, wasnt it?")
    assert reply.knows and "the driver was a guy" in reply.lines[0]


def test_a_negated_opening_or_tag_is_no_word_the_line_must_hold():
    # "isn't", "shouldn't" ask nothing of the record: the line that says it answers.
    assert "It was raining" in answer(RUTH, "Isn't it right that it was raining?", part="cross").lines[0]
    assert "It was raining" in answer(RUTH, "It was raining, shouldn't you say?", part="cross").lines[0]
    assert "I wrote '7K...2?'" in answer(RUTH, "You wrote on your route sheet, didn't you?", part="cross").lines[0]
