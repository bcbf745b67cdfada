"""What a room page shows beside the courtroom: whose turn it is (the same for everyone) and each
viewer's own controls.

A room is the courtroom with more than one person in it, so every broadcast stays per-viewer
neutral and is rendered once for the whole room: the turn banner (``turn_context``) names the seat
that has the floor and its deadline, and carries, for every kind of viewer (each participant's
seat, the host, a watcher), the key of what that viewer's controls show (``controls_key``) and
each participant's "when is my turn" line. A browser fetches its own controls
(``controls_context``: enabled Speak/Pass only for the seat whose turn it is, Start/Call the vote/
Remove for the host, nothing for watchers) only when its key changed: on a turn change that is the
seat that had the floor and the seat that takes it, not the whole room (static/js/room.js). Both
read only the deliberation and its seats, loaded once by the caller, so their cost does not grow
with the rounds.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from deliberation.court.courtroom import STRATEGIES, discharge_choices, item_choices, outlook, stamp, witness_roles
from deliberation.engine.discharge import allows_discharge
from deliberation.engine.strategies import MAX_TEXT
from deliberation.engine.types import ARGUMENT_TYPES
from deliberation.models import Deliberation, Phase, RoundStatus, Seat, SeatKind
from deliberation.rooms.access import is_host
from deliberation.rooms.control import seat_code_for
from deliberation.rooms.stage import ai_counsel_hold, stage_words, trial_clock, trial_turn
from deliberation.rooms.state import (
    STAGE_AI,
    STAGE_TRIAL,
    STAGE_TURNS,
    STAGE_WAITING,
    clock_of,
    current_seat,
    room_of,
    seats_words,
    turn_seconds,
)
from deliberation.services import counsel_claims
from deliberation.trial.panel import room_trial_context, trial_key

OWN_WORDS = ""  # the strategy choice meaning "my words, verbatim"
WHEN_IN_LINE = "Your turn comes after {before}."
WHEN_NEXT_CYCLE = "You have had your turn; your next one comes after the AI jurors' next round."
WHEN_AFTER_ROUND = "The AI jurors speak first; every participant then gets a turn, in seat order."
VOTE_WORDS = {"guilty": "guilty", "not_guilty": "not guilty"}


def room_stamp(deliberation: Deliberation, room: dict[str, Any]) -> int:
    """The courtroom's stamp, refined by the turn serial, so an older turn never replaces a newer one."""
    return stamp(deliberation) * 100_000 + int(room.get("serial") or 0)


def _name(seats: list[Seat], number: int | None) -> str:
    seat = next((s for s in seats if s.number == number), None)
    return seat.display_name if seat else ""


def turn_context(deliberation: Deliberation, seats: list[Seat], *, pushed: bool = False) -> dict[str, Any]:
    """The turn banner: who has the floor, until when, and who follows (the same for everyone).

    ``pushed`` banners carry every viewer's controls key, "when is my turn" line and how close the
    jury is to a verdict, so a browser fetches its own controls only when they changed and updates
    those lines in place; the page itself already holds them.
    """
    room = room_of(deliberation)
    participants = [s for s in seats if s.kind in (SeatKind.HUMAN, SeatKind.AGENT)]
    seat_number = current_seat(room)
    clock = clock_of(room)
    stage = room.get("stage")
    return {
        "deliberation": deliberation,
        "room_code": deliberation.room_code,
        "room_stamp": room_stamp(deliberation, room),
        "refresh_controls": pushed,
        "finished": deliberation.phase == Phase.VERDICT,
        "waiting": stage == STAGE_WAITING,
        "ai_next": stage == STAGE_AI,
        "running": deliberation.round_status == RoundStatus.RUNNING,
        "floor_seat": seat_number,
        "floor_name": _name(seats, seat_number),
        "seconds_left": clock["seconds_left"],
        "clock": clock,
        "then": [(n, _name(seats, n)) for n in (room.get("queue") or [])[1:]] if stage == STAGE_TURNS else [],
        "autostart": bool(room.get("autostart")),
        "paused": bool(room.get("paused")),
        **trial_steering(deliberation, room),
        "control_keys": json.dumps(_all_keys(deliberation, room, participants, _discharged(seats))) if pushed else "",
        "when_by_seat": json.dumps({str(s.number): _when_next(room, s.number) for s in participants}) if pushed else "",
        # How close the jury is to a verdict, the same line for every participant: a pushed banner
        # carries it (a vote changes it), and each page updates its line in place (room.js).
        "room_outlook": outlook(deliberation, seats) if pushed and deliberation.phase == Phase.DELIBERATION else "",
    }


def trial_steering(deliberation: Deliberation, room: dict[str, Any]) -> dict[str, Any]:
    """Where the room stands (``stage_words``) and, at the trial, what the host's pause, more time
    and skip act on: the counsel's move awaited (``trial_turn``, with its clock), the window to
    claim counsel (``choosing_counsel``) or AI counsel's next step (``ai_trial``)."""
    at_trial = deliberation.phase == Phase.TRIAL and room.get("stage") == STAGE_TRIAL
    return {
        "stage_words": stage_words(deliberation),
        "at_trial": at_trial,
        "trial_turn": trial_turn(deliberation) if at_trial else None,
        "choosing_counsel": at_trial and not (deliberation.trial_state or {}).get("opened", True),
        "ai_trial": at_trial and ai_counsel_hold(deliberation),
        "trial_clock": trial_clock(room) if at_trial else {},
    }


def viewer_role(seat: Seat | None, host: bool) -> str:
    """Which kind of viewer a browser is, for the keys a pushed banner carries."""
    if seat is not None:
        return f"seat-{seat.number}"
    return "host" if host else "watch"


def controls_key(
    deliberation: Deliberation, room: dict[str, Any], seat: Seat | None, host: bool, people: str, discharged: str = ""
) -> str:
    """A digest of what one viewer's controls show, leaving out what changes by itself or is updated
    in place (the countdown, the "when is my turn" line, the seat the host's buttons name): a turn
    change alters it only for the seat that had the floor and the seat that takes it. ``people``
    lists the participants and ``discharged`` the discharged seats (the host's controls show both)."""
    finished = deliberation.phase == Phase.VERDICT
    deliberating = deliberation.phase == Phase.DELIBERATION and not finished
    shown = "|".join(
        str(part)
        for part in (
            deliberation.phase,
            room.get("stage") == STAGE_WAITING,
            bool(seat and deliberating and current_seat(room) == seat.number),
            VOTE_WORDS.get(seat.vote, "") if seat else "",
            bool(seat and seat.away_since),
            people if host else "",
            # The host's pause/resume follow the clock; more time and skip show while a person has
            # the floor, and the seat they name is updated in place (room.js), so a turn passing
            # from one person to the next does not make the host's browsers fetch their controls.
            f"{bool(room.get('paused'))}:{current_seat(room) is not None}" if host else "",
            discharged if host else "",
            trial_key(deliberation),
        )
    )
    return hashlib.sha1(shown.encode()).hexdigest()[:16]  # plain hex: compared as typed in the HTML


def _people(participants: list[Seat]) -> str:
    return ",".join(f"{s.number}:{s.display_name}" for s in participants if not s.is_host)


def _discharged(seats: list[Seat]) -> str:
    return ",".join(str(s.number) for s in seats if s.discharged_round)


def _all_keys(
    deliberation: Deliberation, room: dict[str, Any], participants: list[Seat], discharged: str = ""
) -> dict[str, str]:
    people = _people(participants)
    keys = {
        viewer_role(s, s.is_host): controls_key(deliberation, room, s, s.is_host, people, discharged)
        for s in participants
    }
    keys["host"] = controls_key(deliberation, room, None, True, people, discharged)
    keys["watch"] = controls_key(deliberation, room, None, False, people)
    return keys


def _when_next(room: dict[str, Any], seat_number: int) -> str:
    """When this seat speaks next, without a number of seconds (the banner counts those down)."""
    queue = list(room.get("queue") or [])
    if room.get("stage") == STAGE_TURNS and seat_number in queue:
        return WHEN_IN_LINE.format(before=seats_words(queue[: queue.index(seat_number)]))
    if room.get("stage") == STAGE_TURNS:
        return WHEN_NEXT_CYCLE
    return WHEN_AFTER_ROUND


def viewer_seat(seats: list[Seat], session_key: str) -> Seat | None:
    """The seat this browser session holds, from seats already loaded (see ``access.seat_of``)."""
    if not session_key:
        return None
    return next((s for s in seats if s.session_key == session_key and s.kind in (SeatKind.HUMAN, SeatKind.AGENT)), None)


def controls_context(
    deliberation: Deliberation, seats: list[Seat], *, session_key: str, form: dict[str, Any] | None = None
) -> dict[str, Any]:
    """One viewer's controls: a participant's turn and vote, the host's start, call and remove."""
    room = room_of(deliberation)
    seat = viewer_seat(seats, session_key)
    host = is_host(deliberation, session_key)
    stage = room.get("stage")
    finished = deliberation.phase == Phase.VERDICT
    deliberating = deliberation.phase == Phase.DELIBERATION and not finished
    my_turn = bool(seat and deliberating and current_seat(room) == seat.number)
    participants = [s for s in seats if s.kind in (SeatKind.HUMAN, SeatKind.AGENT) and not s.is_host]
    context: dict[str, Any] = {
        "deliberation": deliberation,
        "room_code": deliberation.room_code,
        "room_stamp": room_stamp(deliberation, room),
        "seat": seat,
        "is_host": host,
        "watching": seat is None and not host,
        "waiting": stage == STAGE_WAITING and not finished,
        "deliberating": deliberating,
        "finished": finished,
        "my_turn": my_turn,
        "clock": clock_of(room),  # the speaker's own countdown
        "when_next": _when_next(room, seat.number) if seat and deliberating and not my_turn else "",
        "your_vote": VOTE_WORDS.get(seat.vote, "") if seat else "",
        "outlook": outlook(deliberation, seats) if deliberating else "",
        **(item_choices(deliberation.case) if seat and deliberating else {}),
        "max_text": MAX_TEXT,
        "turn_seconds": int(turn_seconds(room)),
        # Before the start: a room that holds the trial first tells its students they may claim counsel.
        "holds_trial": stage == STAGE_WAITING and bool((deliberation.settings or {}).get("trial")),
        "claim_seconds": int(counsel_claims.CLAIM_SECONDS),
        "participants": participants,
        "discharge_choices": discharge_choices(deliberation, seats) if host and deliberating else [],
        "discharge_allowed": allows_discharge(deliberation.jury_rules.name),
        "paused": bool(room.get("paused")),
        "floor_seat": current_seat(room),
        **trial_steering(deliberation, room),
        "away": bool(seat and seat.away_since),
        "seat_code": seat_code_for(seat) if seat else "",
        "strategies": STRATEGIES,
        "argument_types": ARGUMENT_TYPES,
        "targets": [s for s in seats if seat is None or s.number != seat.number],
        "error": "",
        "notice": "",
        "form_strategy": OWN_WORDS,
        "form_argument_type": "logical",
        "form_text": "",
        "form_target": None,
        **(form or {}),
    }
    if deliberation.phase == Phase.TRIAL:  # counsel at the room's trial (services/counsel.py)
        witnesses = witness_roles(deliberation.case)
        context.update(room_trial_context(deliberation, witnesses, seat.number if seat else None))
    # A refresh with the same key leaves the form (and whatever the participant is typing) alone.
    context["role"] = viewer_role(seat, host)
    context["key"] = controls_key(deliberation, room, seat, host, _people(participants), _discharged(seats))
    return context
