"""Counsel at a room's trial: who plays which side, claimed in a short window before the trial
opens (``CLAIM_SECONDS``), swapped while it has not, and each counsel's move (``seat_move``) played
for the side their seat holds. The trial's own steps are ``services.counsel``."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from deliberation.engine.trial import counsel as trial_counsel
from deliberation.models import Deliberation, SeatKind
from deliberation.rooms.state import is_room, room_of
from deliberation.services.broadcast import announce
from deliberation.services.counsel import ERROR_NOT_COUNSEL, load, lock_trial, trial_advance, trial_move

CLAIM_SECONDS = 30.0  # the window to claim (and swap) counsel before a room's trial opens
SIDES = ("prosecution", "defense")
ERROR_SIDE_TAKEN = "{counsel} is already taken by seat {seat}."
ERROR_SIDE_NAME = "Counsel is for the 'prosecution' or the 'defense'."
ERROR_ONE_SIDE = "Seat {seat} is already counsel for the {side}."
ERROR_NOT_A_PARTICIPANT = "Only a person or an agent in the room may be counsel."
ERROR_PAUSED = "The host has paused the room; your move at the trial waits until they resume it."


def counsel_side_of(deliberation: Deliberation, seat_number: int) -> str:
    """The side this seat plays as counsel at the trial (empty: none)."""
    seats = (deliberation.trial_state or {}).get("counsel", {})
    return next((side for side, seat in seats.items() if seat == seat_number), "")


def counsel_claim(*, deliberation_id: int, seat_number: int, side: str) -> None:
    """A room's participant (a person or an agent) takes counsel for ``side``.

    Before the trial opens (the short window ``CLAIM_SECONDS`` after the room starts) a claim only
    says who will play which side: every participant sees it, a counsel may move to the free side
    (or ``counsel_swap`` with the other counsel), and nobody's move begins before the window ends,
    when the clock opens the trial (``trial_open``) and AI counsel takes only the sides nobody
    claimed. After it opens, a side AI counsel holds may still be taken from the next move on. A
    side another seat holds is refused, and a seat plays one side. Announces "trial"."""
    if side not in SIDES:
        raise ValidationError(ERROR_SIDE_NAME)
    with transaction.atomic():
        deliberation = lock_trial(deliberation_id)
        seat = deliberation.seats.filter(number=seat_number).first()
        if seat is None or seat.kind == SeatKind.AI:
            raise ValidationError(ERROR_NOT_A_PARTICIPANT)
        stored = dict(deliberation.trial_state)
        opened = bool(stored.get("opened", True))
        seats: dict[str, int] = dict(stored.get("counsel", {}))
        if side in seats and seats[side] != seat_number:
            raise ValidationError(ERROR_SIDE_TAKEN.format(counsel=trial_counsel.side_name(side), seat=seats[side]))
        state = load(deliberation)
        mine = counsel_side_of(deliberation, seat_number)
        if mine and mine != side:
            if opened:
                raise ValidationError(ERROR_ONE_SIDE.format(seat=seat_number, side=mine))
            seats.pop(mine)  # before the start: the counsel moves to the free side
            state.people = [p for p in state.people if p != mine]
        if side not in state.people:
            state.people.append(side)
        if opened and seats.get(side) != seat_number:
            # What AI counsel said for the side before this claim is theirs, not the person's: the
            # record keeps where her moves begin (``trial.record.counsel_work``).
            stored["counsel_from"] = {**(stored.get("counsel_from") or {}), side: len(state.events)}
        seats[side] = seat_number
        stored.update(counsel=seats, state=state.to_dict())
        deliberation.trial_state = stored
        deliberation.save(update_fields=["trial_state"])
        announce(deliberation.pk, "trial", {"from": int(stored["base"]) + int(stored["stored"]), "struck": []})
    if opened:
        trial_advance(deliberation_id=deliberation_id)


ERROR_SWAP_STARTED = "The trial has begun: counsel keep their sides now."
ERROR_SWAP_NOT_COUNSEL = "Only counsel can swap sides; claim a side first."


def counsel_swap(*, deliberation_id: int, seat_number: int) -> str:
    """Before the trial opens, a counsel swaps sides: with the other counsel if both sides are
    claimed (both move), else onto the free side. Returns the seat's new side. Announces "trial"."""
    with transaction.atomic():
        deliberation = lock_trial(deliberation_id)
        stored = dict(deliberation.trial_state)
        if stored.get("opened", True):
            raise ValidationError(ERROR_SWAP_STARTED)
        seats: dict[str, int] = dict(stored.get("counsel", {}))
        mine = counsel_side_of(deliberation, seat_number)
        if not mine:
            raise ValidationError(ERROR_SWAP_NOT_COUNSEL)
        other = trial_counsel.other(mine)
        partner = seats.get(other)
        seats[other] = seat_number
        if partner is not None:
            seats[mine] = partner
        else:
            seats.pop(mine)
        state = load(deliberation)
        state.people = [s for s in SIDES if s in seats]
        stored.update(counsel=seats, state=state.to_dict())
        deliberation.trial_state = stored
        deliberation.save(update_fields=["trial_state"])
        announce(deliberation.pk, "trial", {"from": int(stored["base"]) + int(stored["stored"]), "struck": []})
    return other


def trial_open(*, deliberation_id: int) -> None:
    """A room's trial opens without counsel claimed for a side: AI counsel plays it (the clock calls
    this when ``CLAIM_SECONDS`` have passed)."""
    with transaction.atomic():
        try:
            deliberation = lock_trial(deliberation_id)
        except ValidationError:
            return
        if not deliberation.trial_state.get("opened", True):
            deliberation.trial_state = {**deliberation.trial_state, "opened": True}
            deliberation.save(update_fields=["trial_state"])
    trial_advance(deliberation_id=deliberation_id)


def seat_move(*, deliberation_id: int, seat_number: int, action: str, text: str = "", ground: str = "") -> None:
    """A room participant's or agent's move as counsel: ``trial_move`` for the side their seat plays
    (refused while the host has the room paused)."""
    deliberation = Deliberation.objects.get(pk=deliberation_id)
    if is_room(deliberation) and room_of(deliberation).get("paused"):
        raise ValidationError(ERROR_PAUSED)
    side = counsel_side_of(deliberation, seat_number)
    if not side:
        raise ValidationError(ERROR_NOT_COUNSEL)
    trial_move(deliberation_id=deliberation_id, side=side, action=action, text=text, ground=ground)
