"""A witness answers a student's plain question from its record, typed as a student types it: lower
case, no apostrophes ("werent"), typos ("nigth"), a tag at the end ("right?"); and "I couldn't say"
only when nothing in its record answers."""

from __future__ import annotations

from collections import Counter

import pytest

from deliberation.engine.trial.witness import answer
from tests.deliberation.trial_questions import misses, students

ON_POINT = 0.8  # measured 51 of 60 on the set written before the selection was tuned (39 before)
WALK = {  # asked in a class's trial, each answered "I didn't see that" / "I couldn't say" or off the point before
    ("Ruth Adeyemi", "what did you see that nigth?", "chief"): "An SUV passed me on the right",
    ("Ruth Adeyemi", "what colour was the suv", "chief"): "The SUV was dark green or black",
    ("Ruth Adeyemi", "what did you write down about the plate", "chief"): "I wrote '7K...2?' on my route sheet",
    ("Ruth Adeyemi", "how far away were you", "chief"): "I was about 15 metres behind it",
    ("Ruth Adeyemi", "you werent sure if the last letter was a 2 or a Z right?", "cross"): "I am unsure whether",
    ("Miles Ferraro", "who did you see driving the car", "chief"): "It was a woman, long light hair",
    ("Tom Ibsen", "who was driving", "chief"): "the driver was a guy, I think, in a ball cap",
}


@pytest.mark.parametrize(("name", "question", "part"), list(WALK))
def test_a_class_s_plain_question_is_answered_from_the_line_of_the_record_that_answers_it(name, question, part):
    witness = next(item.witness for item in students() if item.witness.name == name)
    reply = answer(witness, question, part=part, said=set())
    assert reply.knows, reply.text
    assert WALK[(name, question, part)] in reply.text


def test_every_curated_case_has_five_typed_questions_and_most_are_answered_on_point():
    items = students()
    assert min(Counter(item.case for item in items).values()) >= 5
    asked, wrong = misses(answer, items)
    assert (asked - len(wrong)) / asked >= ON_POINT, wrong
