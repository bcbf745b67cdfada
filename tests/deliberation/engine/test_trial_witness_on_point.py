"""A witness answers the question asked: from the line about the thing asked, the same line again
when asked again, and "I couldn't say" when only an incidental word of the question is in its record."""

from __future__ import annotations

from deliberation.engine.trial.text import normalise
from deliberation.engine.trial.witness import AS_I_SAID, DIDNT_SEE, DONT_KNOW, answer, is_grounded
from deliberation.engine.types import WitnessItem
from tests.deliberation.trial_questions import labelled, misses

ON_POINT = 0.9
CLERK = WitnessItem(
    id="W1",
    name="Anjali Mehta",
    role="victim",
    testimony=(
        "Night clerk for four years. She saw his chin and jaw when the bandana slipped and remembers "
        "'a dark spot' on the jaw. She watched him drive off in a silver car."
    ),
    credibility_issues=("Her view of the face lasted about two seconds while she was looking mostly at the gun.",),
)
COACHMAN = WitnessItem(
    id="W2",
    name="William Herne",
    role="victim",
    testimony=(
        "The Prisoner came up to the Coach between 9 and 10 in the Morning. "
        "Q. What Horse had I? A. A dark bay Horse. Q. Was there any Marks upon it? A. I could not see any."
    ),
)


def test_nine_in_ten_labelled_questions_are_answered_from_the_line_a_careful_reader_would_pick():
    items = labelled()
    asked, wrong = misses(answer, items)
    assert asked >= 30
    assert {item.witness.name for item in items if not item.lines}, "the set holds questions the record cannot answer"
    assert (asked - len(wrong)) / asked >= ON_POINT, wrong


def test_was_it_dark_is_answered_by_the_line_about_the_view_not_the_line_with_a_dark_spot():
    reply = answer(CLERK, "Was it dark? Did you see his face?", part="cross")
    assert reply.lines == (CLERK.credibility_issues[0],)


def test_a_question_about_time_is_answered_by_the_line_that_gives_a_time():
    reply = answer(COACHMAN, "What time was it when he came up to the coach?")
    assert "between 9 and 10 in the Morning" in reply.text


def test_one_shared_incidental_word_is_not_enough_and_the_witness_did_not_see_it():
    reply = answer(COACHMAN, "Was it dark? Did you see his face?")
    assert (reply.text, reply.lines) == (DIDNT_SEE, ())
    assert answer(CLERK, "What colour was the car's roof rack?").text == DONT_KNOW


def test_a_question_asked_again_gets_the_line_already_said_as_said_before():
    first = answer(CLERK, "Was it dark? Did you see his face?", part="cross")
    said = {normalise(line) for line in first.lines}
    again = answer(CLERK, "Was it dark? Did you see his face?", part="cross", said=said)
    assert again.lines == first.lines
    view = "her view of the face lasted about two seconds while she was looking mostly at the gun."
    assert again.text == AS_I_SAID + view
    assert is_grounded(again.text, again.lines, CLERK)


def test_a_name_keeps_its_capital_when_a_line_is_said_again():
    first = answer(COACHMAN, "What time did the Prisoner come up to the coach?")
    again = answer(COACHMAN, "What time did the Prisoner come up to the coach?", said={normalise(first.lines[0])})
    assert again.text.startswith(AS_I_SAID + "the Prisoner came up to the Coach")
