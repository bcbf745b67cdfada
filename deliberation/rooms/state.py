"""A room's own state, kept in ``Deliberation.settings["room"]`` (no extra table or migration).

Keys: ``open_seats`` (list), ``autostart`` (bool), ``show_convictions`` (agents see the other
jurors' convictions), ``turn_seconds`` / ``pace_seconds`` (per-room overrides, else settings),
``start_by`` (ISO time an autostart room starts on its own), ``stage`` (waiting | ai | turns |
done), ``queue`` (participant seats still to take a turn this cycle, the first is speaking),
``deadline`` (ISO time the current turn passes on its own), ``serial`` (counts turns, so a late
timeout never passes a later turn), ``next_at`` (ISO time the next AI round is due), ``heard``
(last round whose turns were opened), ``votes`` (votes cast while a round ran, applied after it) and
``paused`` (set while the host pauses the room: ``at``, and ``left``, the seconds the current turn or
wait had left; see ``control``) and ``lesson`` (a lesson's length: the bell and the judge's times,
see ``lesson``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from deliberation.engine.rules import round_limit_of
from deliberation.models import Deliberation, RoundStatus

STAGE_WAITING = "waiting"  # before the start: people join, the host has not started
STAGE_AI = "ai"  # the AI jurors' round is due or running
STAGE_TURNS = "turns"  # participants take their turns in seat order
STAGE_DONE = "done"
STAGE_TRIAL = "trial"  # the trial before the first ballot (services/counsel.py); the clock opens it

DEFAULT_PACE_SECONDS = 3.0  # between AI rounds when nobody takes a turn in between
DEFAULT_AUTOSTART_SECONDS = 120.0


def round_now(deliberation: Deliberation) -> int:
    """The round the deliberation is in, as every page of it gives it (the room's and the court's
    banner, the teacher's view, the class card): the one the AI jurors are speaking while it runs
    ("Round N: the jurors are thinking"), else the one just heard, round 1 before any."""
    if deliberation.round_status == RoundStatus.RUNNING:
        return deliberation.round_number + 1
    return max(1, deliberation.round_number)


def planned_rounds(deliberation: Deliberation) -> int:
    """The round limit the deliberation was made with (a lesson's plan chose it, with one)."""
    return int((deliberation.settings or {}).get("max_rounds", settings.ANGRY_MAX_ROUNDS))


def round_limit(deliberation: Deliberation) -> int:
    """The round limit the deliberation plays under now, as every page of it gives it: its settings'
    limit (a lesson's plan chose it), capped by its jury rules (the Old Bailey's ten rounds) and
    lengthened by any further-deliberation instruction (``rules.round_limit_of``)."""
    return round_limit_of(deliberation.engine_summary or {}, planned_rounds(deliberation))


def rules_limit(deliberation: Deliberation) -> bool:
    """The jury rules cap the rounds below the limit it was made with: a lesson's pages say that
    limit beside the bell's minutes; a lesson plan's own cap they leave unsaid."""
    return round_limit(deliberation) < planned_rounds(deliberation)


def seats_words(numbers: list[int]) -> str:
    """Seats as a sentence says them: "seat 2", "seats 2 and 5", "seats 2, 4 and 5"."""
    if len(numbers) <= 1:
        return f"seat {numbers[0]}" if numbers else "no seat"
    return "seats " + ", ".join(str(n) for n in numbers[:-1]) + f" and {numbers[-1]}"


def room_of(deliberation: Deliberation) -> dict[str, Any]:
    """The room state (a copy: write it back with ``room_save``)."""
    return dict((deliberation.settings or {}).get("room") or {})


def is_room(deliberation: Deliberation) -> bool:
    return bool(deliberation.room_code) and "room" in (deliberation.settings or {})


def room_save(deliberation: Deliberation, room: dict[str, Any]) -> None:
    deliberation.settings = {**(deliberation.settings or {}), "room": room}
    deliberation.save(update_fields=["settings"])


def when(value: str | None) -> datetime | None:
    return parse_datetime(value) if value else None


def stamp(moment: datetime) -> str:
    return moment.isoformat()


def turn_seconds(room: dict[str, Any]) -> float:
    return float(room.get("turn_seconds") or settings.ANGRY_TURN_SECONDS)


def pace_seconds(room: dict[str, Any]) -> float:
    value = room.get("pace_seconds")
    if value is None:
        value = getattr(settings, "ANGRY_ROOM_PACE_SECONDS", DEFAULT_PACE_SECONDS)
    return float(value)


def current_seat(room: dict[str, Any]) -> int | None:
    """The participant whose turn it is, if any."""
    queue = room.get("queue") or []
    return queue[0] if room.get("stage") == STAGE_TURNS and queue else None


def seconds_left(room: dict[str, Any], now: datetime | None = None) -> int | None:
    paused = room.get("paused")
    if paused and current_seat(room) is not None:
        return max(0, round(float(paused.get("left") or 0)))
    deadline = when(room.get("deadline"))
    if deadline is None or current_seat(room) is None:
        return None
    return max(0, round((deadline - (now or timezone.now())).total_seconds()))


def clock_of(room: dict[str, Any], now: datetime | None = None) -> dict[str, Any]:
    """The current turn's clock as a page counts it down (static/js/countdown.js): the seconds left,
    the deadline and the server's time of rendering (epoch milliseconds, so a browser whose own
    clock is off still counts from the server's), and whether the host paused it (then it stands)."""
    now = now or timezone.now()
    left = seconds_left(room, now)
    deadline = when(room.get("deadline")) if left is not None else None
    paused = bool(room.get("paused"))
    return {
        "seconds_left": left,
        "paused": paused,
        "deadline_ms": int(deadline.timestamp() * 1000) if deadline is not None and not paused else None,
        "now_ms": int(now.timestamp() * 1000),
    }


def due_at(room: dict[str, Any]) -> datetime | None:
    """When this room next needs the clock: a turn ends, an AI round is due, an autostart, or the
    lesson's time for the trial or for the verdict comes (the bell rings in a paused room too)."""
    lesson = lesson_due(room)
    if room.get("paused"):  # the host paused the room: no round starts and no turn runs out
        return lesson
    due = due_unpaused(room)
    return min(due, lesson) if due is not None and lesson is not None else due or lesson


def lesson_due(room: dict[str, Any]) -> datetime | None:
    """When the judge must next act for the lesson's length (``rooms.lesson``): close the trial
    while it runs, else direct the verdict; None in a room without a lesson or once directed."""
    lesson = room.get("lesson") or {}
    if not lesson or lesson.get("directed") or room.get("stage") in (STAGE_WAITING, STAGE_DONE):
        return None
    direct = when(lesson.get("direct_at"))
    if room.get("stage") == STAGE_TRIAL and not lesson.get("trial_closed") and lesson.get("trial_by"):
        trial_by = when(lesson["trial_by"])
        return min(trial_by, direct) if trial_by and direct else trial_by or direct
    return direct


def lesson_left(room: dict[str, Any], now: datetime | None = None) -> int | None:
    """The seconds left before the lesson's bell (None in a room without a lesson or not started)."""
    ends = when((room.get("lesson") or {}).get("ends_at"))
    if ends is None:
        return None
    return max(0, round((ends - (now or timezone.now())).total_seconds()))


def due_unpaused(room: dict[str, Any]) -> datetime | None:
    """The room's next due time as if it were not paused."""
    stage = room.get("stage")
    if stage == STAGE_TURNS:
        return when(room.get("deadline"))
    if stage in (STAGE_AI, STAGE_TRIAL):
        return when(room.get("next_at"))
    if stage == STAGE_WAITING and room.get("autostart"):
        return when(room.get("start_by"))
    return None


def lesson_clock(room: dict[str, Any], now: datetime | None = None) -> dict[str, Any]:
    """The lesson's time left as the class page counts it down (minutes and seconds; empty in a room
    without a lesson, or before it starts). The bell does not stand when the host pauses."""
    now = now or timezone.now()
    left = lesson_left(room, now)
    if left is None:
        return {}
    ends = when((room.get("lesson") or {}).get("ends_at"))
    return {
        "seconds_left": left,
        "text": f"{left // 60}:{left % 60:02d}",
        "deadline_ms": int(ends.timestamp() * 1000) if ends is not None else None,
        "now_ms": int(now.timestamp() * 1000),
        "directed": bool((room.get("lesson") or {}).get("directed")),
    }
