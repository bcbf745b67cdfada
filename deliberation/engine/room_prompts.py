"""The room's two bookkeeping prompts: the jury's reactions to a round, and the rolling minutes.

Pure Python, no Django. Neither carries the case: the reaction call rates what was said against each
listener's character and position (the speeches name their evidence), and the minutes fold what
was said. The minutes are the room's, written once and neutrally, never one juror's copy.
"""

from __future__ import annotations

from collections.abc import Sequence

from deliberation.engine.ports import Listener, Message, ReactRequest, SummarizeRequest
from deliberation.engine.prompt_words import (
    clip,
    format_heard_turn,
    has_opinion,
    item_ids,
    stance_to_text,
    vote_to_text,
)
from deliberation.engine.types import Speech

SPEECH_CHARS = 150
MINUTES_CHARS = 800
FOLD_TURN_CHARS = 110
MAX_FOLD_TURNS = 24

REACT_SYSTEM = "Rate how each speech in a jury room moves each listener, by their character and position."
REACT_FORMAT = """JSON only, per listener one entry per speech:
{"juror_3": [{"speech": 1, "impact": 0.2, "thought": "ten words at most", "persuaded": false}]}
impact: -1 (to NOT GUILTY) .. +1 (to GUILTY); persuaded: it changed their mind."""

MINUTES_SYSTEM = "You keep a jury's minutes: short, faithful, neutral, the room's and no one juror's."
MINUTES_TASK = (
    "Rewrite the minutes to take in these turns: 3 to 5 lines starting with •: the key arguments,"
    " who persuaded whom, any change of position. Only the bullets."
)


def format_listener(listener: Listener, speeches: Sequence[Speech], names: dict[int, str], ids: dict[str, str]) -> str:
    """One listener as the reacting model needs them: character, stance, and what bears on these speeches."""
    juror, outlook = listener.juror, listener.outlook
    line = f"juror_{juror.seat}: {juror.name}, {juror.archetype}; "
    if not listener.active:
        return line + f"{vote_to_text(outlook.vote)} (half listening)."
    line += f"{stance_to_text(outlook.vote, outlook.conviction)}."
    # Not which argument types move them: the engine multiplies the model's impact by the juror's
    # archetype modifier for the speech's type (the spec's formula), so saying it here counts it twice.
    # A doubt counts here when a speech names or cites its item; it is named by the item, not its
    # reasons: the reacting model needs the direction, not the detail.
    said = " ".join(speech.content for speech in speeches).lower()
    cited = {item for speech in speeches for item in speech.cited}
    items = [doubt.split(": ", 1)[0].strip() for doubt in outlook.doubts[:2]]
    touched = [item for item in items if item and (item.lower() in said or ids.get(item.lower()) in cited)]
    if touched:
        line += " Doubts: " + "; ".join(clip(item, 40) for item in touched) + "."
    feelings = [
        f"{names.get(seat, f'Juror {seat}')} {outlook.opinions[seat]:+.1f}"
        for seat in dict.fromkeys(speech.seat for speech in speeches)
        if seat in outlook.opinions and has_opinion(outlook.opinions[seat])
    ]
    if feelings:
        line += " Trusts: " + ", ".join(feelings) + "."
    return line


def format_speech(index: int, speech: Speech, names: dict[int, str]) -> str:
    to = f" to {names.get(speech.target_seat, f'Juror {speech.target_seat}')}" if speech.target_seat is not None else ""
    said = clip(speech.content, SPEECH_CHARS)
    return f'{index}. {speech.speaker_name} (juror_{speech.seat}){to}, {speech.argument_type}: "{said}"'


def build_react_messages(request: ReactRequest) -> list[Message]:
    """One prompt for the whole jury's reaction to everything said this round (no case brief)."""
    jury = [listener.juror for listener in request.listeners]
    ids = item_ids(request.case)
    names = {speech.seat: speech.speaker_name for speech in request.speeches} | {j.seat: j.name for j in jury}
    speeches = "\n".join(format_speech(n, speech, names) for n, speech in enumerate(request.speeches, start=1))
    listeners = "\n".join(format_listener(listener, request.speeches, names, ids) for listener in request.listeners)
    user = f"Round {request.round_number}, the speeches:\n{speeches}\n\nThe listeners:\n{listeners}\n\n{REACT_FORMAT}"
    return [{"role": "system", "content": REACT_SYSTEM}, {"role": "user", "content": user}]


def build_summarize_messages(request: SummarizeRequest) -> list[Message]:
    """One prompt folding older turns into the room's minutes (the previous minutes included)."""
    jury = request.jurors
    turns = "\n".join(format_heard_turn(turn, jury, FOLD_TURN_CHARS) for turn in request.turns[-MAX_FOLD_TURNS:])
    previous = clip(request.previous_summary, MINUTES_CHARS) if request.previous_summary else "(none yet)"
    user = (
        f"The case: {request.case.title}.\nThe minutes so far:\n{previous}\n\n"
        f"Turns to take in (to round {request.round_number}):\n{turns}\n\n{MINUTES_TASK}"
    )
    return [{"role": "system", "content": MINUTES_SYSTEM}, {"role": "user", "content": user}]
