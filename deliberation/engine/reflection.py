"""Reflection at the end of a round: why a juror changed their mind, who withdrew, who answers whom.

Pure Python, no Django. ``engine.rounds`` calls these; the offline mind's own reflection (noticing
a contradiction, deciding to withdraw) lives in ``minds.offline.reflection``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from deliberation.engine.foreperson import ProcessLine
from deliberation.engine.state import DeliberationState, JurorMemory
from deliberation.engine.types import Speech

if TYPE_CHECKING:
    from deliberation.engine.round_work import RoundWork

# The foreperson, as seed 001's timekeeper, knows who has withdrawn and says so for the record.
WITHDRAW_NOTE = "Noted: {name} withdraws from the discussion with nothing new to add, and will still vote."
REJOIN_NOTE = "Noted: {name} rejoins the discussion."
REASON_MOVED = "moved by {speaker}'s argument{about}"
REASON_YIELDED = "yielded to the rest of the jury, kept until agreed"
REASON_OWN = "on reflection, from the arguments of earlier rounds"


def flip_reason(memory: JurorMemory, round_number: int, after: str) -> str:
    """The argument of this round that moved the juror furthest towards their new vote, in words;
    when none did, the change came from their own reflection on what they had heard before."""
    sign = 1.0 if after == "guilty" else -1.0
    moving = [i for i in memory.impressions if i.round_number == round_number and sign * i.delta > 0]
    if not moving:
        return REASON_OWN
    strongest = max(moving, key=lambda i: sign * i.delta)
    about = f" on {strongest.label}" if strongest.label else ""
    return REASON_MOVED.format(speaker=strongest.speaker_name, about=about)


def reply_to(state: DeliberationState, speeches: Sequence[Speech]) -> int | None:
    """Whom the next speaker of a reply chain answers: the round's last speaker, else the last
    speaker of the round before who is still on the jury (a discharged juror is answered by no one)."""
    if speeches:
        return speeches[-1].seat
    present = [seat for seat in state.last_speakers if seat not in state.discharged]
    return present[-1] if present else None


def note_withdrawals(work: RoundWork) -> None:
    """A speech's withdrawal tag takes effect: the juror withdraws (or, speaking again without it,
    rejoins). A juror whose vote changed this round has something new to say, and rejoins too."""
    state, result = work.state, work.result
    flipped = {flip.seat for flip in result.flips}
    for index, speech in enumerate(work.speeches):
        memory = state.memories.get(speech.seat)
        if memory is None or work.by_seat[speech.seat].kind != "ai":
            continue
        withdrawing = speech.withdrawn and speech.seat not in flipped
        if withdrawing != memory.withdrawn:
            memory.withdrawn = withdrawing
            text = (WITHDRAW_NOTE if withdrawing else REJOIN_NOTE).format(name=speech.speaker_name)
            line = ProcessLine(state.round_number, text, kind="process")
            result.process_lines.append(_after(line, index + 1))
    for seat in flipped:
        memory = state.memories[seat]
        if memory.withdrawn:
            memory.withdrawn = False
            text = REJOIN_NOTE.format(name=work.by_seat[seat].name)
            line = ProcessLine(state.round_number, text, kind="process")
            result.process_lines.append(_after(line, len(work.speeches)))


def _after(line: ProcessLine, speeches: int) -> ProcessLine:
    return ProcessLine(line.round_number, line.content, line.kind, line.speaker_name, line.target_seat, speeches)
