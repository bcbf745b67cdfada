"""The foreperson: a process voice (the timekeeper of seed 001), not a juror.

Its lines are rule-based turns of kind ``process`` that cost no model call. It never argues the
case: it does not mention evidence, witnesses or which way anyone should vote. Rules, checked at
the start of each round:

* round 1: opens the discussion with the first ballot's tally;
* every ``TIME_INTERVAL`` rounds: reminds the room how many rounds are left;
* every ``INVITE_INTERVAL`` rounds from round 2: invites by name the AI juror who has spoken
  least (and not in the last ``SILENT_ROUNDS`` rounds); the invited juror is favoured as a speaker;
* ``VOTE_CALL_MARGIN`` rounds before the limit, once: calls for a vote at the end of the round
  limit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from deliberation.engine.state import DeliberationState
from deliberation.engine.types import JurorProfile

FOREPERSON_NAME = "Foreperson"
TIME_INTERVAL = 4
INVITE_INTERVAL = 3
SILENT_ROUNDS = 3
VOTE_CALL_MARGIN = 2

OPENING = "Let's begin. The first ballot stands at {guilty} guilty, {not_guilty} not guilty. Who wants to start?"
TIME_REMINDERS = (
    "We're at round {round} of {max}. {left} rounds left, let's keep moving.",
    "A reminder on time: round {round} of {max}. Let's use the {left} rounds we have left well.",
    "Time check: {left} rounds to go. Let's hear the points we haven't heard yet.",
)
INVITATIONS = (
    "{name}, we haven't heard much from you. What do you make of all this?",
    "{name}, you've been quiet. I'd like to hear where you stand.",
    "Let's give {name} the floor. {name}, anything to add?",
)
VOTE_CALL = "We're nearly out of time. After round {max} we take the final vote, so say what still needs saying."


@dataclass(frozen=True)
class ProcessLine:
    """A non-juror line: the foreperson (kind ``process``) or an engine note (kind ``note``)."""

    round_number: int
    content: str
    kind: str = "process"
    speaker_name: str = FOREPERSON_NAME
    target_seat: int | None = None
    after_speeches: int = 0  # how many of the round's speeches come before it


def quietest(state: DeliberationState, jury: Sequence[JurorProfile]) -> JurorProfile | None:
    silent = [
        juror
        for juror in jury
        if juror.kind == "ai"
        and (
            state.memories[juror.seat].spoke_count == 0
            or state.round_number - state.memories[juror.seat].last_spoke_round >= SILENT_ROUNDS
        )
    ]
    if not silent:
        return None
    return min(
        silent, key=lambda j: (state.memories[j.seat].spoke_count, state.memories[j.seat].last_spoke_round, j.seat)
    )


def lines_for_round(state: DeliberationState, jury: Sequence[JurorProfile]) -> list[ProcessLine]:
    """The foreperson's lines at the start of ``state.round_number`` (already incremented)."""
    number = state.round_number
    limit = state.settings.max_rounds
    lines: list[ProcessLine] = []
    if number == 1:
        lines.append(ProcessLine(number, OPENING.format(**state.tally())))
    if number > 1 and number % TIME_INTERVAL == 0 and number < limit - VOTE_CALL_MARGIN:
        text = TIME_REMINDERS[(number // TIME_INTERVAL) % len(TIME_REMINDERS)]
        lines.append(ProcessLine(number, text.format(round=number, max=limit, left=limit - number)))
    if number >= 2 and number % INVITE_INTERVAL == 0:
        juror = quietest(state, jury)
        if juror is not None:
            text = INVITATIONS[(number // INVITE_INTERVAL) % len(INVITATIONS)]
            lines.append(ProcessLine(number, text.format(name=juror.name), target_seat=juror.seat))
    if not state.foreperson_called_vote and limit > VOTE_CALL_MARGIN and number >= limit - VOTE_CALL_MARGIN:
        state.foreperson_called_vote = True
        lines.append(ProcessLine(number, VOTE_CALL.format(max=limit)))
    return lines
