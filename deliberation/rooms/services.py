"""Rooms: create one, join it, start it, and everything a participant or the host may do in it.

Every function locks the deliberation row, checks who is asking (a browser session or an agent's
token), writes in one transaction and announces the change through the one broadcaster. Turn order
and timeouts live in ``clock``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from cases.casefile import case_file
from cases.models import Case
from deliberation.engine.strategies import ITEM_STRATEGIES, MAX_TEXT, StrategyError, check_item, validate_move
from deliberation.engine.types import ARGUMENT_TYPES
from deliberation.models import Deliberation, Phase, PlayerSide, RoundStatus, Seat, SeatKind
from deliberation.rooms import clock, codes, control
from deliberation.rooms.access import (  # noqa: F401 (the refusals are part of this module's face)
    ERROR_NOT_HOST,
    ERROR_NOT_PARTICIPANT,
    ERROR_OTHER_SEAT,
    ERROR_TOKEN,
    NOBODY,
    Credential,
    acting_key,
    deliberation_for_token,
    is_host,
    new_token,
    participant,
    require_host,
    seat_of,
    token_hash,
)
from deliberation.rooms.state import (
    DEFAULT_AUTOSTART_SECONDS,
    STAGE_DONE,
    STAGE_TURNS,
    STAGE_WAITING,
    current_seat,
    is_room,
    room_of,
    room_save,
    seats_words,
    seconds_left,
    stamp,
)
from deliberation.rooms.words import check_words
from deliberation.services import lifecycle
from deliberation.services.broadcast import access_changed, announce, close_browser

OPENABLE_SEATS = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
MAX_CONTENT = MAX_TEXT
# Every seated person votes (or lets a turn run out) and has five turns before the jury may settle by
# itself: on a contested case a person in a room argues about as long as the courtroom's single player.
ROOM_TURNS_BEFORE_VERDICT = 5
MAX_NAME = 40

ERROR_ROOM_UNKNOWN = "No room has the code '{code}'. Check the code and try again."
ERROR_ROOM_FULL = "This room is full: every open seat is taken."
ERROR_SEAT_TAKEN = "Seat {seat} is already taken; choose another free seat."
ERROR_SEAT_NOT_OPEN = "Seat {seat} is not open to participants in this room."
ERROR_SEAT_NOT_OPENABLE = "Only seats 2-6 and 8-12 can be opened to others (got {seats})."
ERROR_ROOM_FINISHED = "This deliberation has finished; the verdict is in."
ERROR_HOST_JOINS = "You are this room's host; open the room page instead of joining it."
ERROR_ALREADY_STARTED = "The deliberation has already started."
ERROR_NOT_STARTED = "The deliberation has not started yet; wait for the host to start it."
ERROR_NOT_YOUR_TURN = "It is not your turn. {when}"
WHEN_WAITING = "The deliberation has not started yet."
WHEN_ROUND = "The AI jurors are speaking; every participant gets a turn, in seat order, after this round."
WHEN_IN_LINE = "Seat {current} has the floor ({seconds} s left); your turn comes after {before}."
WHEN_NEXT_CYCLE = "Seat {current} has the floor ({seconds} s left); your next turn comes after the next round."
ERROR_CONTENT_BLANK = "An argument needs some words."
ERROR_CONTENT_LONG = "An argument is at most {limit:,} characters; yours has {length:,}. Shorten it and send it again."
ERROR_ARGUMENT_TYPE = "An argument type is one of: " + ", ".join(ARGUMENT_TYPES) + "."
ERROR_TARGET = "A target is another juror's seat, 1-12 (not your own)."
ERROR_NOT_REMOVABLE = "Seat {seat} is not held by a participant the host can remove."
ERROR_SIDE = "The host who plays chooses a side: defend or prosecute."


def _lock(deliberation_id: int, *, with_state: bool = True) -> Deliberation:
    """The room's row, locked; ``with_state=False`` leaves out the engine state (most of the row),
    for a step that only reads the room and its seats."""
    rows = Deliberation.objects.select_for_update().select_related("case")
    return (rows if with_state else rows.defer("engine_state")).get(pk=deliberation_id)


def _by_code(code: str) -> Deliberation:
    cleaned = codes.normalise(code)
    found = Deliberation.objects.filter(room_code=cleaned).values_list("pk", flat=True).first()
    if not cleaned or found is None:
        raise ValidationError(ERROR_ROOM_UNKNOWN.format(code=(code or "").strip()[:20]))
    return _lock(found)


def _require_open(deliberation: Deliberation) -> None:
    if deliberation.phase == Phase.VERDICT:
        raise ValidationError(ERROR_ROOM_FINISHED)


def _require_deliberating(deliberation: Deliberation) -> None:
    _require_open(deliberation)
    if deliberation.phase != Phase.DELIBERATION:
        raise ValidationError(ERROR_NOT_STARTED)


# --- Creating and joining ------------------------------------------------------------------------------


@transaction.atomic
def room_create(
    *,
    case: Case,
    host_session_key: str = "",
    owner_id: int | None = None,
    host_plays: bool = True,
    open_seats: tuple[int, ...] = (),
    autostart: bool = False,
    show_convictions: bool = True,
    turn_seconds: float | None = None,
    pace_seconds: float | None = None,
    engine: str | None = None,
    seed: int | None = None,
    max_rounds: int | None = None,
    rules: str = "unanimous",
    options: dict[str, Any] | None = None,
) -> Deliberation:
    """A new room with its code, in phase ``presentation`` until it starts.

    ``owner_id``: the account the host was logged in with, if any; the room then belongs to it
    (listed under "My rooms", hosted from any browser that account logs in on). An autostart room
    has no host and no owner: seat 7 is the "Juror 7" persona, the side is none, and it
    starts when its first participant joins or ``ANGRY_ROOM_AUTOSTART_SECONDS`` after creation.
    The jury reaches no verdict by itself before every seated person has cast a vote of their own
    (or let a turn's time run out) and had ``ROOM_TURNS_BEFORE_VERDICT`` turns.
    """
    wrong = sorted(set(open_seats) - set(OPENABLE_SEATS))
    if wrong:
        raise ValidationError(ERROR_SEAT_NOT_OPENABLE.format(seats=", ".join(map(str, wrong))))
    now = timezone.now()
    room: dict[str, Any] = {
        "open_seats": sorted(set(open_seats)),
        "autostart": autostart,
        "show_convictions": show_convictions,
        "stage": STAGE_WAITING,
        "queue": [],
        "serial": 0,
        "heard": 0,
        "votes": {},
    }
    if turn_seconds is not None:
        room["turn_seconds"] = float(turn_seconds)
    if pace_seconds is not None:
        room["pace_seconds"] = float(pace_seconds)
    if autostart:
        wait = float(getattr(settings, "ANGRY_ROOM_AUTOSTART_SECONDS", DEFAULT_AUTOSTART_SECONDS))
        room["start_by"] = stamp(now + timedelta(seconds=wait))
    deliberation = lifecycle.deliberation_start(
        case=case,
        engine=engine,
        seed=seed,
        host_session_key="" if autostart else host_session_key,
        host_plays=host_plays and not autostart,
        max_rounds=max_rounds,
        open_seats=tuple(open_seats),
        # ``options``: the game settings (deliberation.game_settings); the room's own keys win.
        options={
            **(options or {}),
            "room": room,
            "turns_before_verdict": ROOM_TURNS_BEFORE_VERDICT,
            "rules": rules,
        },
    )
    owner = None if autostart else owner_id
    for _attempt in range(20):
        code = codes.new_code()
        try:
            with transaction.atomic():
                # A room starts when its host (or its clock) starts it (``clock.begin``), not now.
                Deliberation.objects.filter(pk=deliberation.pk).update(room_code=code, owner_id=owner, started_at=None)
        except IntegrityError:  # another room has it: draw again
            continue
        deliberation.room_code, deliberation.owner_id, deliberation.started_at = code, owner, None
        break
    else:  # 26**6 codes: only a nearly full table gets here
        raise ValidationError("No free room code could be drawn; try again.")
    clock.schedule(deliberation, room)
    return deliberation


@transaction.atomic
def room_join(
    *,
    code: str,
    credential: Credential = NOBODY,
    agent: bool = False,
    preferred_seat: int | None = None,
    name: str = "",
) -> tuple[Deliberation, Seat, str]:
    """Take a free open seat (the preferred one, else the lowest). Returns (room, seat, token).

    A person is bound to their browser session (joining twice finds the same seat); an agent gets
    a fresh secret token, returned once (only its hash is kept). The first participant starts an
    autostart room.
    """
    deliberation = _by_code(code)
    _require_open(deliberation)
    if not agent:
        if is_host(deliberation, credential.session_key):
            raise ValidationError(ERROR_HOST_JOINS)
        held = seat_of(deliberation, credential)
        if held is not None:
            return deliberation, held, ""
    seats = list(deliberation.seats.select_related("persona").filter(is_open=True))
    free = [s for s in seats if s.kind == SeatKind.AI]
    if preferred_seat is not None:
        chosen = next((s for s in seats if s.number == preferred_seat), None)
        if chosen is None:
            raise ValidationError(ERROR_SEAT_NOT_OPEN.format(seat=preferred_seat))
        if chosen.kind != SeatKind.AI:
            raise ValidationError(ERROR_SEAT_TAKEN.format(seat=preferred_seat))
    elif free:
        chosen = free[0]
    else:
        raise ValidationError(ERROR_ROOM_FULL)
    token = ""
    check_words(name or "")
    chosen.kind = SeatKind.AGENT if agent else SeatKind.HUMAN
    chosen.joined_at = timezone.now()
    chosen.vote = ""  # a participant casts their own vote; the AI juror's does not carry over
    chosen.display_name = (name or "").strip()[:MAX_NAME] or (
        chosen.persona.name if chosen.persona else f"Juror {chosen.number}"
    )
    if agent:
        token = new_token(deliberation.room_code or "", chosen.number)
        chosen.token_hash, chosen.session_key = token_hash(token), ""
    else:
        chosen.session_key, chosen.token_hash = credential.session_key, ""
        control.give_seat_code(chosen)
    chosen.full_clean()
    chosen.save(update_fields=["kind", "joined_at", "display_name", "token_hash", "session_key", "vote", "seat_code"])
    announce(deliberation.pk, "seats", {"seat": chosen.number})
    room = room_of(deliberation)
    if room.get("autostart") and room.get("stage") == STAGE_WAITING:
        clock.begin(deliberation, side=PlayerSide.NONE)
    return deliberation, chosen, token


# --- Hosting ---------------------------------------------------------------------------------------------


@transaction.atomic
def room_start(*, deliberation_id: int, session_key: str = "", side: str = "", by_clock: bool = False) -> None:
    """The host starts the deliberation (a host who plays chooses a side); the clock starts it for
    an autostart room nobody joined."""
    deliberation = _lock(deliberation_id)
    if not by_clock:
        require_host(deliberation, session_key, "start the deliberation")
    _require_open(deliberation)
    if deliberation.phase != Phase.PRESENTATION or room_of(deliberation).get("stage") != STAGE_WAITING:
        raise ValidationError(ERROR_ALREADY_STARTED)
    if deliberation.host_plays:
        if side not in (PlayerSide.DEFEND, PlayerSide.PROSECUTE):
            raise ValidationError(ERROR_SIDE)
    else:
        side = PlayerSide.NONE
    clock.begin(deliberation, side=side)


@transaction.atomic
def room_call_vote(*, deliberation_id: int, session_key: str = "") -> None:
    """Only the host calls the final vote; the verdict is read from the current votes."""
    deliberation = _lock(deliberation_id)
    require_host(deliberation, session_key, "call the final vote")
    _require_deliberating(deliberation)
    lifecycle.vote_call(deliberation_id=deliberation_id)
    deliberation.refresh_from_db()
    room = room_of(deliberation)
    room["stage"], room["queue"] = STAGE_DONE, []
    room_save(deliberation, room)


@transaction.atomic
def room_remove(*, deliberation_id: int, session_key: str = "", seat_number: int) -> None:
    """The host removes a participant: the seat goes back to its AI juror and closes, and the
    participant's open socket is closed (their controls go with it)."""
    deliberation = _lock(deliberation_id)
    require_host(deliberation, session_key, "remove someone")
    _require_open(deliberation)
    seat = deliberation.seats.select_related("persona").filter(number=seat_number).first()
    if seat is None or not seat.is_participant or seat.is_host or seat.persona is None:
        raise ValidationError(ERROR_NOT_REMOVABLE.format(seat=seat_number))
    close_browser(deliberation.pk, seat.session_key)
    seat.kind, seat.session_key, seat.token_hash, seat.joined_at = SeatKind.AI, "", "", None
    seat.display_name, seat.is_open, seat.seat_code, seat.away_since = seat.persona.name, False, "", None
    seat.save(
        update_fields=[
            "kind", "session_key", "token_hash", "joined_at", "display_name", "is_open", "seat_code", "away_since"
        ]
    )  # fmt: skip
    clock.seat_leaves(deliberation, seat_number)
    announce(deliberation.pk, "seats", {"seat": seat_number})
    access_changed(deliberation.pk)


# --- Playing ----------------------------------------------------------------------------------------------


def _require_turn(deliberation: Deliberation, seat: Seat) -> dict[str, Any]:
    room = room_of(deliberation)
    if current_seat(room) == seat.number:
        return room
    raise ValidationError(ERROR_NOT_YOUR_TURN.format(when=when_next_turn(room, seat.number)))


def when_next_turn(room: dict[str, Any], seat_number: int) -> str:
    """When this seat speaks next, in words (for refusals and pages)."""
    stage = room.get("stage")
    if stage == STAGE_WAITING:
        return WHEN_WAITING
    if stage != STAGE_TURNS:
        return WHEN_ROUND
    queue = list(room.get("queue") or [])
    current, seconds = queue[0], seconds_left(room)
    if seat_number in queue:
        before = seats_words(queue[: queue.index(seat_number)])
        return WHEN_IN_LINE.format(current=current, seconds=seconds, before=before)
    return WHEN_NEXT_CYCLE.format(current=current, seconds=seconds)


def _side_of(deliberation: Deliberation, seat: Seat) -> str:
    if seat.is_host and deliberation.player_side in (PlayerSide.DEFEND, PlayerSide.PROSECUTE):
        return deliberation.player_side
    return PlayerSide.PROSECUTE if seat.vote == "guilty" else PlayerSide.DEFEND


@transaction.atomic
def room_speak(
    *,
    deliberation_id: int,
    credential: Credential,
    seat_number: int | None = None,
    content: str = "",
    argument_type: str = "logical",
    target: int | None = None,
    strategy: str = "",
    item: str = "",
) -> int:
    """A participant speaks on their turn; returns the round in which the jury hears it.

    Typed words (a person's or an agent's) are stored verbatim as a ready speech; a strategy is
    crafted into an argument by the mind, like the single player's. Either way the AI jurors
    react to it with the same conviction mechanics, first thing in the next round.
    """
    deliberation = _lock(deliberation_id)
    _require_open(deliberation)
    seat = participant(deliberation, credential, seat_number)
    _require_deliberating(deliberation)
    control.require_unpaused(deliberation)
    room = _require_turn(deliberation, seat)
    check_words(content or "")
    if target is not None and (not 1 <= target <= 12 or target == seat.number):
        raise ValidationError(ERROR_TARGET)
    content = content or ""
    if len(content) > MAX_CONTENT:
        raise ValidationError(ERROR_CONTENT_LONG.format(limit=MAX_CONTENT, length=len(content)))
    if strategy:
        side = _side_of(deliberation, seat)
        picked = (item or "").strip() if strategy in ITEM_STRATEGIES else ""
        try:
            validate_move(strategy=strategy, side=side, target_seat=target, free_text=content)
            if picked:
                case = case_file(Case.objects.with_file().get(pk=deliberation.case_id))
                check_item(case, strategy=strategy, item_id=picked)
        except StrategyError as exc:
            raise ValidationError(str(exc)) from None
        move = {"kind": "move", "seat": seat.number, "side": side, "strategy": strategy, "target": target}
        entry: dict[str, Any] = {**move, "text": content, **({"item": picked} if picked else {})}
    else:
        if not content.strip():
            raise ValidationError(ERROR_CONTENT_BLANK)
        if argument_type not in ARGUMENT_TYPES:
            raise ValidationError(ERROR_ARGUMENT_TYPE)
        entry = {
            "kind": "speech",
            "seat": seat.number,
            "speaker_name": seat.display_name,
            "content": content,  # verbatim: never rewritten
            "argument_type": argument_type,
            "target": target,
            "strategy": "",
        }
        # Everyone sees the words now; the jury's reactions are added when the next round hears them.
        entry["turn_id"] = clock.record_speech(deliberation, seat, entry)
    lifecycle.record_turn(deliberation, seat.number)
    deliberation.pending = [*deliberation.pending, entry]
    deliberation.save(update_fields=["pending"])
    clock.turn_done(deliberation, room, seat.number)
    return deliberation.round_number + 1


@transaction.atomic
def room_pass(*, deliberation_id: int, credential: Credential, seat_number: int | None = None) -> None:
    """A participant passes their turn; the next participant (or the AI jurors) goes on."""
    deliberation = _lock(deliberation_id)
    _require_open(deliberation)
    seat = participant(deliberation, credential, seat_number)
    _require_deliberating(deliberation)
    control.require_unpaused(deliberation)
    room = _require_turn(deliberation, seat)
    clock.record_pass(deliberation, seat, timed_out=False)
    lifecycle.record_turn(deliberation, seat.number)
    clock.turn_done(deliberation, room, seat.number)


@transaction.atomic
def room_vote(
    *, deliberation_id: int, credential: Credential, value: str, seat_number: int | None = None
) -> dict[str, Any]:
    """A participant casts or changes their vote at any time during deliberation.

    While a round is running the vote waits and is applied as soon as it ends (the round's engine
    state would otherwise overwrite it). A person whose seat its AI juror was playing has it back
    (``control.seat_acts``). A vote cast while no round runs counts at once and replaces any
    vote of the seat's still waiting for the clock (its round has ended, the clock has not yet
    applied it): the latest vote stands. Returns {recorded, changed, deferred}.
    """
    if value not in ("guilty", "not_guilty"):
        raise ValidationError(lifecycle.ERROR_VOTE_UNKNOWN)
    # One lock, with the state the vote changes: the row is read once per vote (BENCHMARKS.md).
    deliberation = _lock(deliberation_id)
    _require_open(deliberation)
    seat = participant(deliberation, credential, seat_number)
    _require_deliberating(deliberation)
    control.seat_acts(deliberation, seat)  # a person who votes is at their seat
    if deliberation.round_status == RoundStatus.RUNNING:
        room = room_of(deliberation)
        room["votes"] = {**(room.get("votes") or {}), str(seat.number): value}
        room_save(deliberation, room)
        return {"recorded": True, "changed": seat.vote != value, "deferred": True}
    room = room_of(deliberation)
    waiting = dict(room.get("votes") or {})
    if waiting.pop(str(seat.number), None) is not None:
        room["votes"] = waiting
        room_save(deliberation, room)
    changed = lifecycle.vote_cast_locked(deliberation, seat, value)
    return {"recorded": True, "changed": changed, "deferred": False}


def room_for_session(code: str) -> Deliberation:
    """The room with this code (no lock; for pages)."""
    cleaned = codes.normalise(code)
    deliberation = Deliberation.objects.select_related("case").filter(room_code=cleaned).first()
    if deliberation is None or not is_room(deliberation):
        raise ValidationError(ERROR_ROOM_UNKNOWN.format(code=(code or "").strip()[:20]))
    return deliberation
