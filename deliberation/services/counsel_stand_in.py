"""The clock's hand in a room's trial: AI counsel stand in for a counsel whose time ran out
(``counsel_stand_in``, tried again a few times when its move is refused, then the trial closes),
and the judge closes a trial that has had its share of the lesson (``trial_close_for_time``). The
trial's own steps are ``services.counsel``."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from deliberation.engine.trial import steps as trial_steps
from deliberation.rooms.state import room_of, room_save
from deliberation.services import room_clock as clock
from deliberation.services.counsel import (
    close_trial,
    load,
    lock_trial,
    save_trial,
    trial_advance,
    trial_case,
    trial_move,
    wait_mark,
)

logger = logging.getLogger(__name__)

STAND_IN = {trial_steps.EXAMINE: "ai_ask", trial_steps.SPEECH: "ai_speak", trial_steps.REVIEW: "no_objection"}
STAND_IN_TRIES = 3  # AI counsel's tries at a move for a counsel whose time ran out; then the trial closes
STAND_IN_RETRY_SECONDS = 5.0  # how long after a refused try the clock tries again
RETRIED = "retry"  # ``counsel_stand_in``'s answer when its move was refused and will be tried again
CLOSED = "closed"  # ... when its move was refused too often and the trial was closed early


def counsel_stand_in(*, deliberation_id: int, now: datetime | None = None) -> str:
    """A room's counsel let their time run out: AI counsel makes the move the trial waits for (the
    next question, the speech, or letting the answer stand), then the trial goes on. Returns the
    action taken, or "" when the wait was already over (they moved meanwhile: the clock then holds
    the wait the trial is in now).

    A refused move (``trial_move`` raised: the trial's state or the case no longer allow it) is
    logged and tried again ``STAND_IN_RETRY_SECONDS`` later (``RETRIED``); the last of
    ``STAND_IN_TRIES`` refusals closes the trial early (``CLOSED``) and the room's rounds begin.
    A move that was made but whose following steps failed, or died with their process (the
    counsel's request in a web process that was killed), is followed by AI counsel's steps alone
    (``trial_advance``: "advance"), counted the same way."""

    with transaction.atomic():
        try:
            deliberation = lock_trial(deliberation_id)
        except ValidationError:
            return ""
        state = load(deliberation)
        room = room_of(deliberation)
        held = str(room.get("trial_wait") or "")
        waiting = trial_steps.awaiting(state)
        if waiting is not None and held == wait_mark(state, waiting):
            action = STAND_IN[waiting.what]
        elif held and (waiting is None or room.get("stand_in_refused")):
            # The move was made, but the trial did not go on after it (the process playing AI
            # counsel's next steps died, or the stand-in's own steps failed): play on.
            action = "advance"
        elif waiting is not None:
            action = ""  # they moved meanwhile: the wait the trial is in now gets its own time
        else:
            return ""
    try:
        if waiting is not None and action not in ("advance", ""):
            trial_move(deliberation_id=deliberation_id, side=waiting.side, action=action)
        else:
            trial_advance(deliberation_id=deliberation_id)  # up to the next person's move, and its time
    except Exception:  # whatever refused it, the room must not hang at the trial
        logger.exception("AI counsel's move %r was refused at the trial of deliberation %s", action, deliberation_id)
        return _stand_in_refused(deliberation_id, held, now or timezone.now())
    return action


def _stand_in_refused(deliberation_id: int, mark: str, now: datetime) -> str:
    """Count the refusal against this wait: try again on a later tick, or close the trial early."""

    with transaction.atomic():
        try:
            deliberation = lock_trial(deliberation_id)
        except ValidationError:
            return ""  # the trial ended meanwhile
        room = room_of(deliberation)
        if room.get("trial_wait") != mark:
            return ""  # the wait moved on meanwhile: its own clock carries it
        refused = int(room.get("stand_in_refused") or 0) + 1
        if refused < STAND_IN_TRIES:
            room["stand_in_refused"] = refused
            clock.set_due(room, "next_at", now + timedelta(seconds=STAND_IN_RETRY_SECONDS), now)
            room_save(deliberation, room)
            clock.schedule(deliberation, room)
            return RETRIED
        logger.error(
            "The trial of deliberation %s is closed early: AI counsel's move was refused %s times",
            deliberation_id,
            refused,
        )
        room.pop("stand_in_refused", None)
        room["trial_wait"] = ""
        room_save(deliberation, room)
        state = load(deliberation)
        trial_steps.close_early(state, trial_case(deliberation_id))
        save_trial(deliberation, state)
        close_trial(deliberation, state)
    return CLOSED


def trial_close_for_time(*, deliberation_id: int) -> bool:
    """A room's trial has had its share of the lesson (``rooms.lesson``): the judge closes it as it
    stands (``trial_steps.close_early``, the directions given) and the deliberation begins. False
    when no trial is under way any more."""
    with transaction.atomic():
        try:
            deliberation = lock_trial(deliberation_id)
        except ValidationError:
            return False
        room = room_of(deliberation)
        room["lesson"] = {**(room.get("lesson") or {}), "trial_closed": True}
        room["trial_wait"] = ""
        room_save(deliberation, room)
        state = load(deliberation)
        trial_steps.close_early(state, trial_case(deliberation_id), text=TIME_CLOSED)
        save_trial(deliberation, state)
        close_trial(deliberation, state)
    return True


TIME_CLOSED = (
    "Members of the jury, the time this court has for the trial is over. What you have heard stands; "
    "I give you my directions now."
)
