"""Reflection at the end of a round: why a juror changed their mind, who withdrew, who answers whom.

Pure Python, no Django. ``engine.rounds`` calls these; the offline mind's own reflection (noticing
a contradiction, deciding to withdraw) lives in ``minds.offline.reflection``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
REASON_OWN_FIRST = "on reflection, from what the jury has heard so far"  # round 1 has no earlier rounds
REASON_OWN_SPEECH = "on reflection, while making their own argument"


def flip_reason(
    memory: JurorMemory,
    round_number: int,
    after: str,
    named: Mapping[str, str] | None = None,
    *,
    spoke: bool = False,
) -> str:
    """The argument of this round that moved the juror furthest towards their new vote, in words
    (its item as it sits mid-sentence, ``named`` by item id: "on the thumbprint on the counter");
    when none did, the change came from their own reflection: while making their own argument
    (``spoke``: their speech this round moved them), else on what they had heard before (in round 1,
    what the jury has heard so far: there are no earlier rounds)."""
    sign = 1.0 if after == "guilty" else -1.0
    moving = [i for i in memory.impressions if i.round_number == round_number and sign * i.delta > 0]
    if not moving:
        return REASON_OWN_SPEECH if spoke else REASON_OWN if round_number > 1 else REASON_OWN_FIRST
    strongest = max(moving, key=lambda i: sign * i.delta)
    label = (named or {}).get(strongest.item_id) or strongest.label
    about = f" on {label}" if label else ""
    return REASON_MOVED.format(speaker=strongest.speaker_name, about=about)


def moving_speech(work: RoundWork, seat: int, after: str) -> int | None:
    """The index of this round's speech that moved the juror at ``seat`` furthest towards its new
    vote (the one ``flip_reason`` names), else the juror's own speech when it moved them as they
    spoke; None when neither (the change shows at the end of the round)."""
    sign = 1.0 if after == "guilty" else -1.0
    moving = [r for r in work.result.reactions if r.seat == seat and sign * r.delta > 0]
    if moving:
        return max(moving, key=lambda r: sign * r.delta).speech_index
    return own_speech(work, seat, after)


def own_speech(work: RoundWork, seat: int, after: str) -> int | None:
    """The juror's speech this round that moved their own conviction towards ``after`` as they
    spoke (``Speech.own_shift``), if any."""
    sign = 1.0 if after == "guilty" else -1.0
    return next(
        (i for i, s in reversed(list(enumerate(work.speeches))) if s.seat == seat and sign * s.own_shift > 0), None
    )


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
