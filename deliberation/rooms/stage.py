"""Where a room stands, in words, for the teacher: the trial's stage (openings, which witness under
which examination, closings, the directions), whose move the trial waits for and until when, then
the deliberation's round. Read from the deliberation's row alone (its settings and stored trial):
no query, so the class page's cards and the teacher's view pay nothing for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone

from deliberation.engine.trial import counsel as trial_counsel
from deliberation.engine.trial import steps as trial_steps
from deliberation.engine.trial.course import TrialState
from deliberation.models import Deliberation, Phase
from deliberation.rooms.state import STAGE_TRIAL, room_of, round_now, when

PARTS = {"chief": "examination in chief", "cross": "cross-examination"}
STAGE_WORDS = {
    "openings": "Opening speeches",
    "closings": "Closing speeches",
    "directions": "The judge's directions",
}
DELIBERATION_WORDS = "Deliberation, round {round}"
MOVE_WORDS = {
    trial_steps.SPEECH: "to give the {kind} speech",
    trial_steps.EXAMINE: "to question the witness",
    trial_steps.REVIEW: "to object or let the answer stand",
}


def trial_stage_words(deliberation: Deliberation) -> str:
    """Where a room's trial stands: "Counsel are being chosen", "Opening speeches", "The
    prosecution's witness Ms Hale: cross-examination", "Closing speeches"... ("" outside the trial)."""
    stored = deliberation.trial_state or {}
    if deliberation.phase != Phase.TRIAL or not stored:
        return ""
    if not stored.get("opened", True):
        return "Counsel are being chosen"
    state = stored.get("state") or {}
    plan, cursor = state.get("plan") or [], int(state.get("cursor") or 0)
    if cursor >= len(plan):
        return STAGE_WORDS["directions"]
    item = plan[cursor]
    events = state.get("events") or []
    if state.get("review"):  # the answer to the last question awaits an objection: that question's stage
        asked = next((e for e in reversed(events) if e.get("kind") == "question"), None)
        if asked is not None:
            item = {"stage": asked.get("stage"), "witness": asked.get("witness_id"), "part": asked.get("part")}
    if item.get("stage") in STAGE_WORDS:
        return STAGE_WORDS[item["stage"]]
    witness = item.get("witness", "")
    called = (step.get("name", "") for step in plan if step.get("kind") == "call" and step.get("witness") == witness)
    name = next(called, "") or next(
        (
            e.get("speaker", "")
            for e in reversed(events)
            if e.get("witness_id") == witness and e.get("kind") == "answer"
        ),
        "",
    )  # the name the plan gave the witness when it was called; before that, the one its answers give
    part = PARTS.get(item.get("part", ""), "called to the stand")
    case = "prosecution" if item.get("stage") == "prosecution_case" else "defence"
    return f"The {case}'s witness{f' {name}' if name else ''}: {part}"


def stage_words(deliberation: Deliberation) -> str:
    """The room's stage for the teacher: the trial's (``trial_stage_words``) while it runs, then
    "Deliberation, round N" (``round_now``); "" before the start and after the verdict."""
    if deliberation.phase == Phase.TRIAL:
        return trial_stage_words(deliberation)
    if deliberation.phase == Phase.DELIBERATION:
        return DELIBERATION_WORDS.format(round=round_now(deliberation))
    return ""


@dataclass(frozen=True)
class TrialTurn:
    """A person's move the room's trial waits for, with its clock."""

    side: str
    what: str  # trial_steps.SPEECH | EXAMINE | REVIEW
    seat: int | None
    words: str  # "Counsel for the defence (seat 3) to question the witness"
    clock: dict[str, Any]


def ai_counsel_hold(deliberation: Deliberation) -> bool:
    """AI counsel hold both sides of the room's trial, which is under way: the clock plays it step by
    step, and the host's skip plays the next step at once."""
    stored = deliberation.trial_state or {}
    if deliberation.phase != Phase.TRIAL or not stored or not stored.get("opened", True):
        return False
    if room_of(deliberation).get("stage") != STAGE_TRIAL:
        return False
    state = TrialState.from_dict(stored["state"])
    return not state.people and not state.finished


def trial_turn(deliberation: Deliberation, now: datetime | None = None) -> TrialTurn | None:
    """The move a person (a student or an agent as counsel) must make before the room's trial goes
    on, with the seconds its clock has left (frozen while the host pauses), or None while AI counsel
    play or before the trial opens."""
    stored = deliberation.trial_state or {}
    if deliberation.phase != Phase.TRIAL or not stored or not stored.get("opened", True):
        return None
    room = room_of(deliberation)
    if room.get("stage") != STAGE_TRIAL:
        return None
    state = TrialState.from_dict(stored["state"])
    waiting = trial_steps.awaiting(state)
    if waiting is None:
        return None
    seat = (stored.get("counsel") or {}).get(waiting.side)
    who = trial_counsel.side_name(waiting.side) + (f" (seat {seat})" if seat is not None else "")
    move = MOVE_WORDS[waiting.what].format(kind=waiting.kind or "")
    return TrialTurn(
        side=waiting.side,
        what=waiting.what,
        seat=seat,
        words=f"{who} {move}",
        clock=trial_clock(room, now),
    )


def trial_clock(room: dict[str, Any], now: datetime | None = None) -> dict[str, Any]:
    """The clock of the trial's current wait (a counsel's move, or the window to claim counsel) as
    a page counts it down, shaped as ``state.clock_of``: the seconds left (those kept while paused),
    the deadline and the server's time in epoch milliseconds."""
    now = now or timezone.now()
    paused = room.get("paused")
    due = when(room.get("next_at"))
    if paused:
        left: int | None = max(0, round(float(paused.get("left") or 0)))
    elif due is not None:
        left = max(0, round((due - now).total_seconds()))
    else:
        left = None
    return {
        "seconds_left": left,
        "paused": bool(paused),
        "deadline_ms": int(due.timestamp() * 1000) if due is not None and not paused and left is not None else None,
        "now_ms": int(now.timestamp() * 1000),
    }
