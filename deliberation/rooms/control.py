"""The host's hand on a running room, and a person's way back to their seat.

Host-only (``access.require_host``): pause and resume the clock, give the speaker more time, skip
a turn (at the trial as in deliberation: a counsel's move, or the wait for counsel), hide a
message, have the judge discharge an AI juror. Removing a participant and calling
the final vote live in ``services``.
Anyone seated: take the seat back from another device with its seat code (``seat_codes``), or say
"I'm back" after the seat was left empty long enough for its AI juror to step in.

Each function locks the deliberation row, writes in one transaction and announces through the one
broadcaster; the clock (``clock``) reschedules itself from the room state. A paused room runs no
round and lets no turn run out: the seconds the turn (or the wait for the next round) had left
are kept and start again at the resume.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from deliberation.engine.trial import counsel as trial_counsel
from deliberation.engine.trial import steps as trial_steps
from deliberation.models import SKIP_LINE, Deliberation, Phase, RoundStatus, Seat, SeatKind, Turn, TurnKind
from deliberation.rooms import clock, seat_codes, stage
from deliberation.rooms.access import Credential, is_host, require_host, seat_of
from deliberation.rooms.state import (
    STAGE_TRIAL,
    STAGE_TURNS,
    current_seat,
    due_unpaused,
    room_of,
    stamp,
    when,
)
from deliberation.services import counsel, counsel_claims, lifecycle
from deliberation.services import discharge as discharge_services
from deliberation.services.broadcast import announce, close_browser

ERROR_NOT_RUNNING = "The room is neither at its trial nor deliberating: there is nothing to {action}."
ERROR_ALREADY_PAUSED = "The room is already paused."
ERROR_NOT_PAUSED = "The room is not paused."
ERROR_PAUSED = "The host has paused the room; your turn goes on when they resume it."
ERROR_NO_TURN = "Nobody has the floor right now, so there is no turn to {action}."
ERROR_NO_TRIAL_MOVE = "AI counsel have the trial right now, so there is no counsel's move to {action}."
TRIAL_OPENED = "The trial opens now; AI counsel take the sides nobody claimed."
TRIAL_NEXT_STEP = "AI counsel go on to the next step of the trial now."
TRIAL_SKIPPED = {
    trial_steps.EXAMINE: "{who}'s examination is over: no further questions.",
    trial_steps.SPEECH: "AI counsel gave {who_lower}'s speech.",
    trial_steps.REVIEW: "{who} let the answer stand.",
}
# What skipping a counsel's move does: an examination ends (the next step takes over), a speech is
# AI counsel's, an answer stands.
TRIAL_SKIP_MOVES = {trial_steps.EXAMINE: "rest", trial_steps.SPEECH: "ai_speak", trial_steps.REVIEW: "no_objection"}
ERROR_EXTRA_SECONDS = "More time is between {low} and {high} seconds."
ERROR_TURN_UNKNOWN = "There is no such message in this room."
ERROR_SEAT_CODE = "No seat has the code '{code}'. Check the code on your other screen and try again."
ERROR_SEAT_FINISHED = "That deliberation has finished; the verdict is in."
ERROR_SEATED_ELSEWHERE = "This browser already holds seat {seat} in that room."
ERROR_HOST_SEAT_CODE = "You are this room's host; open the room page instead."
HIDDEN_BY_HOST = "the host"

EXTRA_SECONDS = 30  # the host's "more time" button
MIN_EXTRA, MAX_EXTRA = 5, 300
MAX_LEFT_SECONDS = 900.0  # however often the host gives more time, a turn never stretches past this


def _lock(deliberation_id: int) -> Deliberation:
    return Deliberation.objects.select_for_update().get(pk=deliberation_id)


def _running(deliberation: Deliberation, action: str, *, trial: bool = False) -> dict[str, Any]:
    """The room's state while it deliberates (with ``trial``, also while its trial runs)."""
    room = room_of(deliberation)
    if trial and at_trial(deliberation, room):
        return room
    if deliberation.phase != Phase.DELIBERATION:
        raise ValidationError(ERROR_NOT_RUNNING.format(action=action))
    return room


def at_trial(deliberation: Deliberation, room: dict[str, Any]) -> bool:
    """The room is holding its trial (counsel being chosen, or the trial under way)."""
    return deliberation.phase == Phase.TRIAL and room.get("stage") == STAGE_TRIAL


def is_paused(deliberation: Deliberation) -> bool:
    return bool(room_of(deliberation).get("paused"))


def require_unpaused(deliberation: Deliberation) -> None:
    """Participants do not speak or pass while the host has the room paused (votes are fine)."""
    if is_paused(deliberation):
        raise ValidationError(ERROR_PAUSED)


def _due_key(room: dict[str, Any]) -> str:
    return "deadline" if room.get("stage") == STAGE_TURNS else "next_at"


@transaction.atomic
def room_pause(*, deliberation_id: int, session_key: str, now: datetime | None = None) -> None:
    """The host stops the clock: no round starts and the current turn keeps its seconds left. At
    the trial, AI counsel's steps stop too and a counsel's move keeps its seconds left."""
    now = now or timezone.now()
    deliberation = _lock(deliberation_id)
    require_host(deliberation, session_key, "pause the room")
    room = _running(deliberation, "pause", trial=True)
    if room.get("paused"):
        raise ValidationError(ERROR_ALREADY_PAUSED)
    due = due_unpaused(room)
    left = max(0.0, (due - now).total_seconds()) if due is not None else 0.0
    room["paused"] = {"at": stamp(now), "left": left}
    clock._save(deliberation, room)


@transaction.atomic
def room_resume(*, deliberation_id: int, session_key: str, now: datetime | None = None) -> None:
    """The host starts the clock again: the turn (or the wait for the next round) gets the seconds it
    had left when paused (a turn that began during the pause, all of its time)."""
    now = now or timezone.now()
    deliberation = _lock(deliberation_id)
    require_host(deliberation, session_key, "resume the room")
    room = _running(deliberation, "resume", trial=True)
    paused = room.pop("paused", None)
    if not paused:
        raise ValidationError(ERROR_NOT_PAUSED)
    room[_due_key(room)] = stamp(now + timedelta(seconds=float(paused.get("left") or 0.0)))
    clock._save(deliberation, room)
    if at_trial(deliberation, room) and (deliberation.trial_state or {}).get("opened", True):
        if counsel.load(deliberation).people:  # AI counsel's steps up to a person's move go on (after commit)
            counsel.trial_play(deliberation_id=deliberation.pk)
        # a trial AI counsel hold on both sides goes on at its next step's time, as the clock has it


@transaction.atomic
def room_extend(
    *, deliberation_id: int, session_key: str, seconds: int = EXTRA_SECONDS, now: datetime | None = None
) -> int:
    """The host gives the participant who has the floor more time (at the trial, the counsel whose
    move it is, or everyone still choosing counsel); returns the seconds left."""
    now = now or timezone.now()
    if not MIN_EXTRA <= seconds <= MAX_EXTRA:
        raise ValidationError(ERROR_EXTRA_SECONDS.format(low=MIN_EXTRA, high=MAX_EXTRA))
    deliberation = _lock(deliberation_id)
    require_host(deliberation, session_key, "give more time")
    room = _running(deliberation, "give more time to", trial=True)
    if at_trial(deliberation, room):
        opened = (deliberation.trial_state or {}).get("opened", True)
        if opened and stage.trial_turn(deliberation, now) is None:
            raise ValidationError(ERROR_NO_TRIAL_MOVE.format(action="give more time to"))
        key = "next_at"  # a counsel's move, or the window to claim counsel
    elif current_seat(room) is None:
        raise ValidationError(ERROR_NO_TURN.format(action="give more time to"))
    else:
        key = "deadline"
    paused = room.get("paused")
    if paused:
        left = min(MAX_LEFT_SECONDS, float(paused.get("left") or 0.0) + seconds)
        room["paused"] = {**paused, "left": left}
    else:
        deadline = when(room.get(key)) or now
        left = min(MAX_LEFT_SECONDS, max(0.0, (deadline - now).total_seconds()) + seconds)
        room[key] = stamp(now + timedelta(seconds=left))
    clock._save(deliberation, room)
    return round(left)


@transaction.atomic
def room_skip(*, deliberation_id: int, session_key: str, now: datetime | None = None) -> int:
    """The host passes the turn of whoever has the floor (recorded as skipped); returns their seat."""
    deliberation = _lock(deliberation_id)
    require_host(deliberation, session_key, "skip a turn")
    room = _running(deliberation, "skip")
    number = current_seat(room)
    seat = deliberation.seats.filter(number=number).first() if number is not None else None
    if seat is None:
        raise ValidationError(ERROR_NO_TURN.format(action="skip"))
    clock.record_pass(deliberation, seat, timed_out=False, line=SKIP_LINE.format(name=seat.display_name))
    lifecycle.record_turn(deliberation, seat.number)
    clock.turn_done(deliberation, room, seat.number, now)
    return seat.number


def trial_skip(*, deliberation_id: int, session_key: str) -> str:
    """The host ends the step the room's trial waits on: before the trial opens, the window to
    claim counsel (AI counsel take the free sides); a counsel's examination (no further
    questions: the next step takes over), speech (AI counsel give it) or reply to an answer (it
    stands). Returns what was done, in words. The move itself is played as counsel's own
    (``counsel.trial_move``), outside this lock."""
    with transaction.atomic():
        deliberation = _lock(deliberation_id)
        require_host(deliberation, session_key, "skip a move at the trial")
        _running(deliberation, "skip", trial=True)
        if deliberation.phase != Phase.TRIAL:
            raise ValidationError(ERROR_NOT_RUNNING.format(action="skip at the trial"))
        opened = (deliberation.trial_state or {}).get("opened", True)
        trial = counsel.load(deliberation) if opened else None
        waiting = trial_steps.awaiting(trial) if trial is not None else None
        ai_only = trial is not None and not trial.people and not trial.finished
        if opened and waiting is None and not ai_only:
            raise ValidationError(ERROR_NO_TRIAL_MOVE.format(action="skip"))
    if waiting is None:  # the window to claim counsel, or AI counsel's next step, at once
        counsel_claims.trial_open(deliberation_id=deliberation_id)
        return TRIAL_NEXT_STEP if opened else TRIAL_OPENED
    counsel.trial_move(deliberation_id=deliberation_id, side=waiting.side, action=TRIAL_SKIP_MOVES[waiting.what])
    who = trial_counsel.side_name(waiting.side)
    return TRIAL_SKIPPED[waiting.what].format(who=who, who_lower=who[0].lower() + who[1:])


@transaction.atomic
def message_hide(
    *, deliberation_id: int, session_key: str, turn_id: int, by: str = HIDDEN_BY_HOST, now: datetime | None = None
) -> Turn:
    """The host hides a message: it stays in the record, marked with who hid it and when, and leaves
    every screen at once (chat, transcript, exports; only the host's transcript shows it, marked).
    Words the jury has not heard yet are withdrawn from the next round too. Hiding twice is a no-op."""
    deliberation = _lock(deliberation_id)
    require_host(deliberation, session_key, "hide a message")
    turn = Turn.objects.filter(deliberation=deliberation, pk=turn_id).first()
    if turn is None or turn.kind not in (TurnKind.SPEECH, TurnKind.PASS):
        raise ValidationError(ERROR_TURN_UNKNOWN)
    if turn.hidden_at is not None:
        return turn
    turn.hidden_at, turn.hidden_by = now or timezone.now(), (by or HIDDEN_BY_HOST)[:100]
    turn.save(update_fields=["hidden_at", "hidden_by"])
    pending = [entry for entry in deliberation.pending if entry.get("turn_id") != turn.pk]
    if len(pending) != len(deliberation.pending):
        deliberation.pending = pending
        deliberation.save(update_fields=["pending"])
    announce(deliberation.pk, "hide", {"turn": turn.pk})
    return turn


@transaction.atomic
def room_discharge(*, deliberation_id: int, session_key: str, seat_number: int) -> str:
    """The host has the judge discharge an AI juror (illness), where the room's rules allow it: the
    jury goes on without them and the verdict is taken on the jurors who remain
    (``services.discharge.juror_discharge``, which refuses under the rules, below the minimum jury
    or while a round runs, with its message). Returns what the host is told."""
    deliberation = _lock(deliberation_id)
    require_host(deliberation, session_key, "discharge a juror")
    _running(deliberation, "discharge")
    discharged = discharge_services.juror_discharge(deliberation_id=deliberation_id, seat_number=seat_number)
    seat = discharged.seats.get(number=seat_number)
    size = discharged.seats.filter(discharged_round__isnull=True).count()
    return discharge_services.DISCHARGED.format(name=seat.display_name, seat=seat_number, size=size)


# --- Coming back ----------------------------------------------------------------------------------------


def seat_code_for(seat: Seat) -> str:
    """The seat code as its holder's screen shows it ("" for the host, an agent, or an AI seat)."""
    return seat_codes.shown(seat.seat_code) if seat.kind == SeatKind.HUMAN and not seat.is_host else ""


def give_seat_code(seat: Seat) -> None:
    """A new seat code for a person's seat (on joining, and after each return)."""
    seat.seat_code = seat_codes.new_seat_code()


def seat_for_code(code: str) -> Seat:
    """The person's seat this code opens, or a refusal naming the code (counted by the throttle)."""
    cleaned = seat_codes.normalise(code)
    seat = (
        Seat.objects.select_related("deliberation")
        .filter(seat_code=cleaned, kind=SeatKind.HUMAN, deliberation__room_code__isnull=False)
        .first()
        if seat_codes.looks_like_seat_code(cleaned)
        else None
    )
    if seat is None:
        raise ValidationError(ERROR_SEAT_CODE.format(code=(code or "").strip()[:20]))
    return seat


@transaction.atomic
def seat_rejoin(*, code: str, credential: Credential, now: datetime | None = None) -> tuple[Deliberation, Seat]:
    """The seat this code opens moves to this browser: the old browser loses it (its socket is closed
    and its controls go), the seat gets a new code, and a seat its AI juror was playing is the
    person's again."""
    found = seat_for_code(code)
    deliberation = _lock(found.deliberation_id)
    seat = deliberation.seats.select_for_update().get(pk=found.pk)
    if seat.seat_code != seat_codes.normalise(code) or seat.kind != SeatKind.HUMAN:  # moved meanwhile
        raise ValidationError(ERROR_SEAT_CODE.format(code=(code or "").strip()[:20]))
    if deliberation.phase == Phase.VERDICT:
        raise ValidationError(ERROR_SEAT_FINISHED)
    if is_host(deliberation, credential.session_key):
        raise ValidationError(ERROR_HOST_SEAT_CODE)
    held = seat_of(deliberation, credential)
    if held is not None and held.pk != seat.pk:
        raise ValidationError(ERROR_SEATED_ELSEWHERE.format(seat=held.number))
    old = seat.session_key
    seat.session_key = credential.session_key
    give_seat_code(seat)
    seat.save(update_fields=["session_key", "seat_code"])
    if old and old != credential.session_key:
        close_browser(deliberation.pk, old)
    _back(deliberation, seat)
    announce(deliberation.pk, "seats", {"seat": seat.number})
    return deliberation, seat


@transaction.atomic
def seat_return(*, deliberation_id: int, credential: Credential) -> bool:
    """The person is back at a seat its AI juror was playing: they take turns again from the next
    cycle. Returns whether the seat was empty."""
    deliberation = _lock(deliberation_id)
    seat = seat_of(deliberation, credential)
    if seat is None or seat.away_since is None:
        return False
    _back(deliberation, seat)
    announce(deliberation.pk, "seats", {"seat": seat.number})
    return True


def seat_acts(deliberation: Deliberation, seat: Seat) -> None:
    """The person acted from a seat its AI juror was playing (they voted): the seat is theirs again,
    as after "I'm back" (the juror never cast the seat's vote meanwhile). Call it with
    the deliberation row locked; announces "seats" when the seat was empty."""
    if seat.away_since is None:
        return
    _back(deliberation, seat)
    announce(deliberation.pk, "seats", {"seat": seat.number})


def _back(deliberation: Deliberation, seat: Seat) -> None:
    if seat.away_since is None:
        return
    seat.away_since = None
    seat.save(update_fields=["away_since"])
    room = room_of(deliberation)
    if deliberation.round_status == RoundStatus.RUNNING:  # the jury waits for them again after the round
        room["returned"] = sorted({*(room.get("returned") or []), seat.number})
        clock._save(deliberation, room)
    else:
        lifecycle.participant_returns_locked(deliberation, seat.number)
    if room.get("stage") == STAGE_TURNS and seat.number not in (room.get("queue") or []):
        # Back during the turns: a place at the end of this cycle's queue.
        room["queue"] = [*(room.get("queue") or []), seat.number]
        clock._save(deliberation, room)
