"""A witness's "I couldn't say" is not an answer found in its record: the summary and the JSON count
such non-answers apart from the answers taken from the record, and groundedness is the share of
the latter."""

from __future__ import annotations

import dataclasses

from deliberation.engine.trial.course import TrialEvent, groundedness, non_answers
from deliberation.trial.record import trial_summary_lines


def _answer(index: int, text: str, quoted: tuple[str, ...] = ()) -> TrialEvent:
    return TrialEvent(
        index,
        "prosecution_case",
        "answer",
        "Ruth Adeyemi",
        "witness",
        text,
        "W1",
        "chief",
        grounded=True,
        quoted=quoted,
    )


def _events() -> list[TrialEvent]:
    line = "The SUV was dark green or black, Subaru-looking, boxy."
    return [
        _answer(0, line, (line,)),
        _answer(1, "I couldn't say."),
        _answer(2, "I didn't see that."),
        _answer(3, line, (line,)),
    ]


def test_non_answers_are_counted_apart_and_left_out_of_groundedness():
    events = [*_events(), dataclasses.replace(_answer(4, "It was a man."), grounded=False)]
    assert non_answers(events) == 2
    assert groundedness(events) == 2 / 3


def test_the_summary_does_not_count_i_couldnt_say_as_found_in_the_record():
    line = trial_summary_lines(_events())
    assert "100% found in the witness's record" not in line
    assert line.startswith(
        "Trial: 4 witness answers (2 from the witness's record, 100% of them with every fact in it; "
        '2 "I couldn\'t say" or "I didn\'t see that"), '
    )
