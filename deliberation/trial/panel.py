"""What the courtroom shows while the trial is played step by step: the on-the-stand panel and
the counsel's controls. A read of ``Deliberation.trial_state`` alone (no query of its own)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deliberation.engine.trial import counsel as trial_counsel
from deliberation.engine.trial import steps as trial_steps
from deliberation.engine.trial.course import TrialEvent, TrialState
from deliberation.engine.trial.rules import GROUND_WORDS, GROUNDS
from deliberation.models import Deliberation, Phase, PlayerSide

COUNSEL_SIDE = {PlayerSide.PROSECUTE: "prosecution", PlayerSide.DEFEND: "defense"}
PART_WORDS = {"chief": "examination in chief", "cross": "cross-examination"}
STAGE_WORDS = {
    "openings": "Opening speeches",
    "prosecution_case": "The case for the prosecution",
    "defence_case": "The case for the defence",
    "closings": "Closing speeches",
    "directions": "The judge's directions",
    "done": "The jury goes out",
}


@dataclass(frozen=True)
class StandLine:
    kind: str
    speaker: str
    side: str
    text: str
    ground: str = ""
    sustained: bool | None = None
    struck: bool = False
    index: int = 0
    earlier: bool = False  # the exchange before the one under way


@dataclass
class TrialView:
    stage: str
    witness: str = ""  # the name of the witness on the stand
    role: str = ""
    lines: list[StandLine] = field(default_factory=list)  # the exchange under way
    waiting: trial_steps.Waiting | None = None
    waiting_words: str = ""
    my_side: str = ""
    my_turn: str = ""  # speech | examine | review, when the person at this page must act
    part_words: str = ""
    grounds: list[tuple[str, str]] = field(default_factory=list)
    last_question: str = ""
    my_questions: int = 0
    events: int = 0
    opened: bool = True


def _exchange(events: list[TrialEvent]) -> tuple[list[TrialEvent], int]:
    """What the panel shows: the exchange under way (from the last question, call or speech) and the
    one before it, so a ruling stays in sight when the next question comes; and where the current
    exchange starts."""
    starts = [i for i, e in enumerate(events) if e.kind in ("question", "call", "speech", "directions")]
    if not starts:
        return [], 0
    first = starts[-2] if len(starts) > 1 else starts[-1]
    return events[first:], events[starts[-1]].index


def trial_view(
    deliberation: Deliberation, witnesses: dict[str, tuple[str, str]], *, side: str = ""
) -> TrialView | None:
    """The panel and controls of a trial under way; ``witnesses``: id -> (name, role).

    ``side`` is the side the person looking plays as counsel (empty: they watch)."""
    if deliberation.phase != Phase.TRIAL or not deliberation.trial_state:
        return None
    state = TrialState.from_dict(deliberation.trial_state["state"])
    side = side if side in state.people else ""  # AI counsel play both sides: the person watches
    waiting = trial_steps.awaiting(state) if deliberation.trial_state.get("opened", True) else None
    shown, current = _exchange(state.events)
    on_stand = state.on_stand or next((e.witness_id for e in reversed(shown) if e.witness_id), "")
    name, role = witnesses.get(on_stand, ("", ""))
    names = {key: value[0] for key, value in witnesses.items()}
    mine = waiting is not None and side and waiting.side == side
    last = next((e for e in reversed(state.events) if e.kind == "question"), None)
    return TrialView(
        stage=STAGE_WORDS.get(state.stage, ""),
        witness=name,
        role=role,
        lines=[
            StandLine(
                kind=e.kind,
                speaker=e.speaker,
                side=e.side,
                text=e.text,
                ground=e.ground,
                sustained=e.sustained,
                struck=e.struck,
                index=e.index,
                earlier=e.index < current,
            )
            for e in shown
        ],
        waiting=waiting,
        waiting_words=trial_steps.describe(waiting, names, state),
        my_side=side,
        my_turn=waiting.what if mine and waiting else "",
        part_words=PART_WORDS.get(waiting.part, "") if waiting else "",
        grounds=[(ground, GROUND_WORDS[ground]) for ground in GROUNDS],
        last_question=last.text if last else "",
        my_questions=sum(
            1
            for e in state.events
            if waiting
            and e.kind == "question"
            and e.side == side
            and e.witness_id == waiting.witness_id
            and e.part == waiting.part
        ),
        events=len(state.events),
        opened=bool(deliberation.trial_state.get("opened", True)),
    )


def counsel_side(deliberation: Deliberation) -> str:
    return COUNSEL_SIDE.get(deliberation.player_side, "")


def side_words(side: str) -> str:
    return trial_counsel.side_name(side) if side else ""


def trial_context(deliberation: Deliberation, witnesses: dict[str, tuple[str, str]], *, host: bool) -> dict[str, Any]:
    view = trial_view(deliberation, witnesses, side=counsel_side(deliberation) if host else "")
    return {
        "trial": view,
        "in_trial": view is not None,
        "counsel_words": side_words(counsel_side(deliberation)),
        "stand_from": None,  # a pushed step sets it: the lines from there are typed out
    }


RECENT_EVENTS = 12


def trial_state_for(deliberation: Deliberation, witnesses: dict[str, tuple[str, str]], *, seat: int) -> dict[str, Any]:
    """The trial as an agent reads it (MCP ``trial_state``): the stage, who is on the stand, the
    recent record, who plays counsel, what the trial waits for and whether it is this seat's move."""
    stored = deliberation.trial_state or {}
    if deliberation.phase != Phase.TRIAL or not stored:
        return {"under_way": False, "phase": deliberation.phase}
    state = TrialState.from_dict(stored["state"])
    counsel_seats: dict[str, int] = stored.get("counsel", {})
    mine = next((side for side, number in counsel_seats.items() if number == seat), "")
    waiting = trial_steps.awaiting(state) if stored.get("opened", True) else None
    on_stand = witnesses.get(state.on_stand, ("", ""))
    return {
        "under_way": True,
        "opened": bool(stored.get("opened", True)),
        "stage": state.stage,
        "on_stand": {"id": state.on_stand, "name": on_stand[0], "role": on_stand[1]} if state.on_stand else None,
        "counsel": {side: counsel_seats.get(side) for side in ("prosecution", "defense")},
        "your_side": mine,
        "waiting_for": (
            {
                "side": waiting.side,
                "move": waiting.what,
                "speech": waiting.kind,
                "witness": waiting.witness_id,
                "part": waiting.part,
            }
            if waiting
            else None
        ),
        "is_your_move": bool(waiting and mine and waiting.side == mine),
        "grounds": list(GROUNDS),
        "recent": [
            {
                "index": e.index,
                "kind": e.kind,
                "speaker": e.speaker,
                "side": e.side,
                "text": e.text,
                "witness": e.witness_id,
                "part": e.part,
                "ground": e.ground,
                "sustained": e.sustained,
                "struck": e.struck,
            }
            for e in state.events[-RECENT_EVENTS:]
        ],
    }


def room_trial_context(
    deliberation: Deliberation, witnesses: dict[str, tuple[str, str]], seat: int | None
) -> dict[str, Any]:
    """A room viewer's trial controls: their counsel side (if any) and the sides still free to claim."""
    seats: dict[str, int] = (deliberation.trial_state or {}).get("counsel", {})
    side = next((s for s, number in seats.items() if number == seat), "") if seat else ""
    view = trial_view(deliberation, witnesses, side=side)
    opened = bool((deliberation.trial_state or {}).get("opened", True))
    names = dict(deliberation.seats.filter(number__in=seats.values()).values_list("number", "display_name"))
    return {
        # The window before the trial opens: who plays which side (None: AI counsel unless claimed).
        "counsel_window": not opened and view is not None,
        "counsel_board": [
            {
                "side": s,
                "words": trial_counsel.side_name(s),
                "seat": seats.get(s),
                "name": names.get(seats.get(s) or 0, ""),
                "mine": seats.get(s) == seat and seat is not None,
            }
            for s in ("prosecution", "defense")
        ],
        "other_counsel": names.get(seats.get(trial_counsel.other(side)) or 0, "") if side else "",
        "trial": view,
        "in_trial": view is not None,
        "counsel_words": side_words(side),
        "stand_from": None,
        "claimable": [(s, trial_counsel.side_name(s)) for s in ("prosecution", "defense") if s not in seats]
        if seat and not side
        else [],
    }


def trial_key(deliberation: Deliberation) -> str:
    """What a room's controls show of the trial, for the controls key (changes with every step, and
    as the trial opens after the claim window, when nothing has been said yet)."""
    stored = deliberation.trial_state or {}
    if deliberation.phase != Phase.TRIAL or not stored:
        return ""
    state = stored.get("state", {})
    counsel_seats = sorted(stored.get("counsel", {}).items())
    opened = bool(stored.get("opened", True))
    return f"{opened}:{stored.get('stored')}:{state.get('cursor')}:{state.get('review')}:{counsel_seats}"
