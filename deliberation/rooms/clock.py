"""The room clock: AI rounds, then one turn per participant in seat order, and nothing ever stalls.

A room moves through stages (see ``state``): ``ai`` (the AI jurors' round is due; it hears the
participants' queued words first) -> ``turns`` (each participant seat, in seat order, gets
``turn_seconds`` to speak or pass; the clock passes for whoever lets the time run out) -> ``ai``...

``room_tick`` is the one entry point of the clock. It looks at what is due and does it; calling it
early, twice, or from two processes does nothing extra (every step is checked under the row lock,
turns carry a serial and rounds their number). It is scheduled with ``background.enqueue(...,
countdown=...)`` after each change (a timer thread in embedded mode, a Celery countdown task in
service mode), and the web process also sweeps unfinished rooms (``driver``), so rooms created by
the command line, left behind by a restart or by a worker killed mid-round resume: a round whose
process died (stale heartbeat, see ``services.claims``) is taken over by the next tick, and a
round stored by a process that died before opening the participants' turns gets them opened.
Tests drive it with ``now=``.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from angryagents.background import enqueue
from deliberation.models import (
    PASS_LINE,
    TIMEOUT_LINE,
    Deliberation,
    Phase,
    PlayerSide,
    RoundStatus,
    Seat,
    SeatKind,
    Turn,
    TurnKind,
)
from deliberation.rooms import lesson
from deliberation.rooms.state import (
    STAGE_AI,
    STAGE_DONE,
    STAGE_TRIAL,
    STAGE_TURNS,
    STAGE_WAITING,
    due_at,
    is_room,
    lesson_due,
    pace_seconds,
    room_of,
    room_save,
    stamp,
    turn_seconds,
    when,
)
from deliberation.services import claims, counsel_claims, counsel_stand_in, lifecycle
from deliberation.services.broadcast import announce
from deliberation.services.room_clock import ROOM_TICK, cycle_begin, set_due
from deliberation.services.room_clock import save as _save
from deliberation.services.room_clock import schedule as schedule
from deliberation.services.rounds import round_run

logger = logging.getLogger(__name__)

RETRY_SECONDS = 5.0  # after a round that could not be completed


def begin(deliberation: Deliberation, *, side: str) -> None:
    """Open the deliberation; with the trial on, the trial first: participants may claim counsel,
    and the clock opens it after ``counsel_claims.CLAIM_SECONDS`` if nobody has (rounds begin at its end).

    With a lesson's length the lesson's clock runs from the start; in a class, from the class's first
    start: a group started later keeps the class's bell and plays a plan fitted to the time left
    (``lesson.late_plan``; ValidationError when too little is left)."""
    now = timezone.now()
    bell = class_bell(deliberation)
    _fit_late(deliberation, bell, now)
    Deliberation.objects.filter(pk=deliberation.pk).update(started_at=now)  # the pages' "Started"
    lifecycle.side_choose(deliberation_id=deliberation.pk, side=side, counsel=True)
    deliberation.refresh_from_db()
    room = room_of(deliberation)
    plan = (deliberation.settings or {}).get("lesson")
    if plan:
        room["lesson"] = lesson.lesson_times(plan, now, bell=bell)
    if deliberation.phase == Phase.TRIAL:
        room["stage"], room["queue"] = STAGE_TRIAL, []
        room["next_at"] = stamp(timezone.now() + timedelta(seconds=counsel_claims.CLAIM_SECONDS))
        room_save(deliberation, room)
        schedule(deliberation, room)
        announce(deliberation.pk, "turn", {"stage": STAGE_TRIAL})
        return
    cycle_begin(deliberation, room)


def class_bell(deliberation: Deliberation) -> datetime | None:
    """The bell of the class this room belongs to, if another of its groups has started: the
    earliest bell among them (None for a room alone, or the class's first start)."""
    if not (deliberation.settings or {}).get("lesson"):
        return None
    others = (
        Deliberation.objects.filter(class_sessions__rooms=deliberation)
        .exclude(pk=deliberation.pk)
        .distinct()
        .values_list("settings", flat=True)
    )
    bells = [when(((s or {}).get("room") or {}).get("lesson", {}).get("ends_at")) for s in others]
    return min((b for b in bells if b is not None), default=None)


def _fit_late(deliberation: Deliberation, bell: datetime | None, now: datetime) -> None:
    """A group started after the class's first start: its plan fitted to the time left."""
    chosen = deliberation.settings or {}
    if bell is None:
        return
    students = len((chosen.get("room") or {}).get("open_seats") or []) or 1
    fitted = lesson.late_plan(chosen["lesson"], bell=bell, now=now, trial=bool(chosen.get("trial")), students=students)
    if fitted is not None:
        deliberation.settings = lesson.with_plan(chosen, fitted)
        deliberation.save(update_fields=["settings"])


def participant_seats(deliberation: Deliberation) -> list[int]:
    """The seats that take turns: participants present (an away seat's AI juror speaks in rounds)."""
    return list(
        deliberation.seats.filter(kind__in=[SeatKind.HUMAN, SeatKind.AGENT], away_since__isnull=True)
        .order_by("number")
        .values_list("number", flat=True)
    )


def _open_turns(deliberation: Deliberation, room: dict[str, Any], now: datetime) -> None:
    seats = participant_seats(deliberation)
    room["heard"] = deliberation.round_number
    if not seats:  # nobody to wait for: the next AI round after a short pause
        room["stage"], room["queue"] = STAGE_AI, []
        # Everyone in the room is away: the next round waits a turn's length, the time they would
        # have had, so a student who missed one turn finds the jury still out when she is back.
        everyone_away = deliberation.seats.filter(kind__in=[SeatKind.HUMAN, SeatKind.AGENT]).exists()
        wait = turn_seconds(room) if everyone_away else pace_seconds(room)
        set_due(room, "next_at", now + timedelta(seconds=wait), now)
    else:
        room["stage"], room["queue"] = STAGE_TURNS, seats
        _start_turn(room, now)
    _save(deliberation, room)


def _start_turn(room: dict[str, Any], now: datetime) -> None:
    room["serial"] = int(room.get("serial") or 0) + 1
    set_due(room, "deadline", now + timedelta(seconds=turn_seconds(room)), now)


def turn_done(deliberation: Deliberation, room: dict[str, Any], seat_number: int, now: datetime | None = None) -> None:
    """The seat that had the floor spoke or passed: the next participant, or the AI jurors."""
    now = now or timezone.now()
    queue = [n for n in (room.get("queue") or []) if n != seat_number]
    room["queue"] = queue
    if queue:
        _start_turn(room, now)
    else:  # everyone had their turn: the jury hears the participants' words in the next round
        room["stage"], room["deadline"] = STAGE_AI, None
        set_due(room, "next_at", now, now)
    _save(deliberation, room)


def seat_leaves(deliberation: Deliberation, seat_number: int) -> None:
    """A participant was removed: drop them from the turn order (passing their turn if current)."""
    room = room_of(deliberation)
    queue = room.get("queue") or []
    if room.get("stage") == STAGE_TURNS and queue and queue[0] == seat_number:
        turn_done(deliberation, room, seat_number)
    elif seat_number in queue:
        room["queue"] = [n for n in queue if n != seat_number]
        _save(deliberation, room)


def seat_gone_quiet(deliberation: Deliberation, seat: Seat, now: datetime) -> None:
    """A person let a whole turn run out: their seat counts as empty, and its AI juror plays it
    (in the rounds, not in the turn order) until they act again or return with their seat code.
    The juror speaks for the seat but never casts its vote: that stays the person's."""
    if seat.kind != SeatKind.HUMAN or seat.is_host or seat.persona_id is None or seat.away_since is not None:
        return
    seat.away_since = now
    seat.save(update_fields=["away_since"])
    announce(deliberation.pk, "seats", {"seat": seat.number})


def _next_sequence(deliberation: Deliberation) -> int:
    last = deliberation.turns.order_by("-sequence").values_list("sequence", flat=True).first()
    return (last or 0) + 1


def record_pass(deliberation: Deliberation, seat: Seat, *, timed_out: bool, line: str = "") -> None:
    """A pass is part of the record (the transcript shows who let their turn go, or the host skipped it)."""
    line = line or (TIMEOUT_LINE if timed_out else PASS_LINE)
    Turn.objects.create(
        deliberation=deliberation,
        round_number=deliberation.round_number,
        sequence=_next_sequence(deliberation),
        kind=TurnKind.PASS,
        seat_number=seat.number,
        speaker_name=seat.display_name,
        content=line.format(name=seat.display_name),
    )


def record_speech(deliberation: Deliberation, seat: Seat, item: dict[str, Any]) -> int:
    """A participant's own words, in the record at once (heard in the next round); the Turn's id."""
    turn = Turn.objects.create(
        deliberation=deliberation,
        round_number=deliberation.round_number + 1,
        sequence=_next_sequence(deliberation),
        kind=TurnKind.SPEECH,
        seat_number=seat.number,
        speaker_name=item["speaker_name"],
        target_seat=item.get("target"),
        argument_type=item.get("argument_type", ""),
        content=item["content"],
    )
    return turn.pk


def room_tick(*, deliberation_id: int, now: datetime | None = None) -> str:
    """Do whatever is due in this room; returns what was done (for tests and logs).

    "start" (an autostart room's wait ran out), "lesson_trial" / "lesson_verdict" (the lesson's
    time for the trial, or for the deliberation, is up: the judge closes the trial, or directs the
    verdict; see ``rooms.lesson``), "trial" (the wait for counsel ran out: AI counsel
    begin the trial), "counsel" (a counsel's time for a move at the trial ran out: AI counsel make
    it), "timeout" (a participant's time ran out: passed for
    them), "round" (an AI round ran, or one whose process died was taken over), "turns" (a round
    stored by a process that died before opening the turns: they are opened now), "done" (the
    deliberation has ended) or "" (nothing due, or a round under way in a live process).
    """
    action, number = _tick_decide(deliberation_id, now or timezone.now())
    if action == "trial":  # nobody claimed counsel in time: AI counsel begin (outside the lock)
        counsel_claims.trial_open(deliberation_id=deliberation_id)
    if action == "counsel":  # AI counsel make the move a person's time ran out on (outside the lock)
        counsel_stand_in.counsel_stand_in(deliberation_id=deliberation_id, now=now)
    if action == "lesson_trial":  # outside the lock, as the trial's own steps are
        counsel_stand_in.trial_close_for_time(deliberation_id=deliberation_id)
    if action == "lesson_verdict":
        lesson_verdict(deliberation_id=deliberation_id)
    if action == "round":
        round_run(deliberation_id=deliberation_id, round_number=number)
    if action in ("round", "turns"):
        after_round(deliberation_id=deliberation_id, now=now)  # a given ``now`` keeps tests exact
    return action


@transaction.atomic
def _tick_decide(deliberation_id: int, now: datetime) -> tuple[str, int]:
    """What is due, and for "round" the number of the round to run."""
    deliberation = Deliberation.objects.select_for_update().filter(pk=deliberation_id).first()
    if deliberation is None or not is_room(deliberation):
        return "", 0
    room = room_of(deliberation)
    stage = room.get("stage")
    if deliberation.phase == Phase.VERDICT:
        if stage != STAGE_DONE:
            room["stage"], room["queue"] = STAGE_DONE, []
            room_save(deliberation, room)
            announce(deliberation.pk, "turn", {"stage": STAGE_DONE})
        return "done", 0
    lesson = lesson_due(room)
    if lesson is not None and lesson <= now:
        if stage == STAGE_TRIAL and deliberation.phase == Phase.TRIAL:
            return "lesson_trial", 0  # the trial's share of the lesson is spent: the judge closes it
        if deliberation.phase == Phase.DELIBERATION and deliberation.round_status == RoundStatus.IDLE:
            return "lesson_verdict", 0  # the bell is near: the judge directs the verdict
        # a round under way: it ends first (``after_round`` asks the clock again)
    due = due_at(room)
    if due is None or due > now:
        return "", 0
    if stage == STAGE_WAITING:
        begin(deliberation, side=PlayerSide.NONE)
        return "start", 0
    if stage == STAGE_TRIAL:
        if claims.trial_alive(deliberation.round_heartbeat_at, now):
            return "", 0  # a live process is playing AI counsel's steps, and sets the next due time after them
        # Hold the due time off while the step runs (its process marks the trial and beats, see
        # ``claims.trial_playing``) and sets the next one; if that process dies in the step, the
        # held time comes and the next tick plays the step again.
        room["next_at"] = stamp(now + timedelta(seconds=claims.stale_seconds()))
        room_save(deliberation, room)
        if room.get("trial_wait"):  # a counsel's time for their move ran out (or their move's steps died)
            return "counsel", 0
        return "trial", 0
    if stage == STAGE_TURNS:
        seat = deliberation.seats.filter(number=(room.get("queue") or [0])[0]).first()
        if seat is not None:
            record_pass(deliberation, seat, timed_out=True)
            # The last person present walking away leaves the ballot open: nobody is left at the
            # table, and the jury does not return its verdict by itself over their heads.
            others = [n for n in participant_seats(deliberation) if n != seat.number]
            lifecycle.record_turn(deliberation, seat.number, timed_out=True, settle=bool(others))
            seat_gone_quiet(deliberation, seat, now)
        turn_done(deliberation, room, seat.number if seat else 0, now)
        return "timeout", 0
    if stage != STAGE_AI or claims.is_alive(deliberation.round_status, deliberation.round_heartbeat_at):
        return "", 0  # a live process is running the round and opens the turns after it
    if deliberation.round_status == RoundStatus.IDLE and deliberation.round_number > int(room.get("heard") or 0):
        return "turns", 0
    # Hold the due time off while the round runs, so other ticks leave it alone (the heartbeat
    # then says whether its process lives); a round whose process died is taken over.
    room["next_at"] = stamp(now + timedelta(seconds=claims.stale_seconds()))
    room_save(deliberation, room)
    return "round", deliberation.round_number + 1


@transaction.atomic
def lesson_verdict(*, deliberation_id: int) -> bool:
    """The lesson's time is nearly up: the judge directs the jury to return its verdict now, read
    from the votes as they stand under the room's rules (``lifecycle.vote_call``, reason "time").
    Does nothing (False) once directed, after the verdict, or while a round runs (the clock asks
    again when it ends)."""
    deliberation = Deliberation.objects.select_for_update().filter(pk=deliberation_id).first()
    if deliberation is None:
        return False
    room = room_of(deliberation)
    lesson = dict(room.get("lesson") or {})
    if not lesson or lesson.get("directed") or deliberation.phase != Phase.DELIBERATION:
        return False
    if deliberation.round_status != RoundStatus.IDLE:
        return False
    lifecycle.vote_call(deliberation_id=deliberation_id, reason="time")
    deliberation.refresh_from_db()
    room = room_of(deliberation)
    room["lesson"] = {**lesson, "directed": True}
    room["stage"], room["queue"] = STAGE_DONE, []
    room.pop("paused", None)
    _save(deliberation, room)
    return True


@transaction.atomic
def after_round(*, deliberation_id: int, now: datetime | None = None) -> None:
    """A round has been stored (or failed): apply waiting votes and open the participants' turns.

    The votes cast while the round ran count as soon as no round runs, whether it was stored or
    failed (a failed round is tried again later; its votes do not wait for that)."""
    now = now or timezone.now()
    deliberation = Deliberation.objects.select_for_update().filter(pk=deliberation_id).first()
    if deliberation is None:  # deleted while its round ran (services.retention)
        return
    room = room_of(deliberation)
    if deliberation.phase == Phase.VERDICT:
        room["stage"], room["queue"] = STAGE_DONE, []
        _save(deliberation, room)
        return
    if room.get("stage") != STAGE_AI or deliberation.round_status != RoundStatus.IDLE:
        return
    returned = room.pop("returned", None) or []
    if returned:  # people back at their seats while the round ran: the jury waits for them again
        room_save(deliberation, room)
        for seat in returned:
            lifecycle.participant_returns_locked(deliberation, int(seat))
        deliberation.refresh_from_db()
        room = room_of(deliberation)
    votes = room.get("votes") or {}
    if votes:
        room["votes"] = {}
        room_save(deliberation, room)
        for seat, value in votes.items():
            try:
                lifecycle.vote_cast(deliberation_id=deliberation_id, seat_number=int(seat), value=value)
            except ValidationError:  # the seat was given up meanwhile
                logger.info("waiting vote of seat %s in deliberation %s dropped", seat, deliberation_id)
        deliberation.refresh_from_db()
        room = room_of(deliberation)
    if deliberation.round_number <= int(room.get("heard") or 0):  # the round failed: try again soon
        set_due(room, "next_at", now + timedelta(seconds=max(RETRY_SECONDS, pace_seconds(room))), now)
        _save(deliberation, room)
        return
    _open_turns(deliberation, room, now)


def room_due(room: dict[str, Any], round_status: str, heartbeat: datetime | None) -> datetime | None:
    """When a room next needs the clock: its own due time, or, while a round runs (or AI counsel's
    step at the trial: ``claims.trial_playing``), not before its heartbeat goes stale (only a dead
    process's work needs taking over)."""
    due = due_at(room)
    stage = room.get("stage")
    round_runs = stage == STAGE_AI and round_status == RoundStatus.RUNNING
    running = round_runs or (stage == STAGE_TRIAL and heartbeat is not None)
    if due is not None and running:
        stale = claims.stale_at(heartbeat)
        if stale is not None and stale > due:
            return stale
    return due


def rooms_unfinished() -> list[tuple[int, datetime | None]]:
    """Every room still running, with when it next needs the clock."""
    rows = (
        Deliberation.objects.filter(room_code__isnull=False)
        .exclude(phase=Phase.VERDICT)
        .values_list("pk", "settings", "round_status", "round_heartbeat_at")
    )
    return [
        (pk, room_due(options["room"], status, heartbeat))
        for pk, options, status, heartbeat in rows
        if (options or {}).get("room")
    ]


def rooms_resume() -> int:
    """Schedule the clock for every unfinished room (the web process calls this when it starts)."""
    count = 0
    for pk, due in rooms_unfinished():
        if due is None:
            continue
        countdown = max(0.0, (due - timezone.now()).total_seconds())
        enqueue(ROOM_TICK, pk, countdown=countdown or None)
        count += 1
    return count
