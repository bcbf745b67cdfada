"""The part of a room's clock the game services need: set a due time, save the room and ask the
clock to look at it then, open the rounds.

The clock itself (``deliberation.rooms.clock``) sits above the services and uses them; a service
that moves a room on (a trial's wait for counsel, its close) reaches the clock only through these
and the ``deliberation.room_tick`` task, which it enqueues by name.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from angryagents.background import enqueue
from deliberation.models import Deliberation
from deliberation.rooms.state import STAGE_AI, due_at, room_save, stamp
from deliberation.services.broadcast import announce

ROOM_TICK = "deliberation.room_tick"  # the clock's task (deliberation.rooms.tasks)


def schedule(deliberation: Deliberation, room: dict[str, Any]) -> None:
    """Ask the clock to look at this room when its next step is due (after commit)."""
    due = due_at(room)
    if due is None:
        return
    countdown = max(0.0, (due - timezone.now()).total_seconds())
    enqueue(ROOM_TICK, deliberation.pk, countdown=countdown + 0.05 if countdown else None)


def save(deliberation: Deliberation, room: dict[str, Any], event: str = "turn") -> None:
    """Store the room, schedule its clock and tell its pages."""
    room_save(deliberation, room)
    schedule(deliberation, room)
    announce(deliberation.pk, event, {"stage": room.get("stage"), "queue": room.get("queue", [])})


def cycle_begin(deliberation: Deliberation, room: dict[str, Any], now: datetime | None = None) -> None:
    """The deliberation has opened: the AI jurors take the first round at once."""
    room["stage"], room["queue"], room["next_at"] = STAGE_AI, [], stamp(now or timezone.now())
    save(deliberation, room)


def set_due(room: dict[str, Any], key: str, moment: datetime, now: datetime) -> None:
    """Set a due time ("deadline" or "next_at"); in a paused room it counts from the resume instead."""
    room[key] = stamp(moment)
    if room.get("paused"):
        room["paused"] = {**room["paused"], "left": max(0.0, (moment - now).total_seconds())}
