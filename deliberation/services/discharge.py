"""The judge discharges a juror (illness); the jury goes on with the jurors who remain.

The mechanics are the engine's (``engine.discharge``): the seat leaves turns, reactions, votes and
tallies, and the jury size the tally is taken on drops by one. Here the seat is marked in the
database, its vote cleared, and the judge's direction written into the transcript.
"""

from __future__ import annotations

import logging
import random

from django.core.exceptions import ValidationError
from django.db import transaction

from deliberation import jury as jury_build
from deliberation.engine.discharge import DischargeError, allows_discharge, discharge
from deliberation.engine.state import DeliberationState
from deliberation.models import Deliberation, NarrationKind, Phase, SeatKind, TurnKind
from deliberation.services import narration as narration_services
from deliberation.services.broadcast import announce
from deliberation.services.common import ERROR_ROUND_RUNNING, add_turn, lock, require_deliberating, round_busy

logger = logging.getLogger(__name__)
JUDGE_NAME = "The judge"
ERROR_NO_JUROR = "Choose the AI juror the judge should discharge."
DISCHARGED = "The judge discharged {name} (seat {seat}); the jury goes on with {size}."
DISCHARGE_DIRECTION = (
    "Members of the jury, {name} has been taken ill and I am discharging them from this jury. "
    "The {size} of you who remain will continue your deliberations, and your verdict will be taken on {size} votes."
)


@transaction.atomic
def juror_discharge(*, deliberation_id: int, seat_number: int) -> Deliberation:
    """Discharge the AI juror in ``seat_number`` before the next round, where the rules allow it.

    Refuses (``ValidationError`` with the engine's message) outside deliberation, while a round
    runs, under rules that forbid it, for a participant's seat or an already discharged one, and
    below the rules' minimum jury. Writes the judge's direction as a turn and announces "round".
    """
    deliberation = lock(deliberation_id)
    require_deliberating(deliberation)
    if round_busy(deliberation):
        raise ValidationError(ERROR_ROUND_RUNNING)
    seats = list(deliberation.seats.select_related("persona__archetype"))
    state = DeliberationState.from_dict(deliberation.engine_state)
    try:
        discharge(state, jury_build.profiles(seats), seat=seat_number)
    except DischargeError as exc:
        raise ValidationError(str(exc)) from None
    seat = next(s for s in seats if s.number == seat_number)
    seat.discharged_round = state.round_number + 1
    seat.vote = ""
    seat.is_open = False  # nobody joins a room in the seat of a discharged juror
    seat.save(update_fields=["discharged_round", "vote", "is_open"])
    deliberation.engine_state = state.to_dict()
    deliberation.save(update_fields=["engine_state"])
    direction = DISCHARGE_DIRECTION.format(name=seat.display_name, size=state.jury_size())
    add_turn(
        deliberation,
        round_number=state.round_number,
        kind=TurnKind.JUDGE,
        speaker_name=JUDGE_NAME,
        target_seat=seat_number,
        content=direction,
    )
    if deliberation.experiment_id is None:  # spoken, like the judge's other directions
        narration_services.narration_request(
            deliberation_id=deliberation.pk, kind=NarrationKind.LINE, text=direction, round_number=state.round_number
        )
    announce(deliberation.pk, "round", {"round": state.round_number, "discharged": seat_number})
    return deliberation


def scheduled_discharge(*, deliberation_id: int, round_number: int | None = None) -> int | None:
    """The game setting "a juror falls ill before round N": before that round runs, discharge one
    AI juror (drawn with the deliberation's seed, so a replay discharges the same one), once.

    Does nothing (None) when no discharge is set, it is not yet that round, a juror was already
    discharged, or the rules forbid it (logged). Returns the seat discharged. Called by
    ``round_run`` before it claims the round, so no round is running.
    """
    row = (
        Deliberation.objects.filter(pk=deliberation_id, phase=Phase.DELIBERATION)
        .values("settings", "round_number", "seed")
        .first()
    )
    if row is None:
        return None
    stored = row["settings"] or {}
    wanted = stored.get("discharge_round")
    next_round = row["round_number"] + 1
    if not wanted or int(wanted) != next_round or (round_number is not None and round_number != next_round):
        return None
    if not allows_discharge(str(stored.get("rules") or "unanimous")):
        return None
    seats = Deliberation.objects.get(pk=deliberation_id).seats
    if seats.filter(discharged_round__isnull=False).exists():
        return None
    ai = sorted(seats.filter(kind=SeatKind.AI).values_list("number", flat=True))
    if not ai:
        return None
    seat = random.Random(f"{row['seed']}-discharge").choice(ai)
    try:
        juror_discharge(deliberation_id=deliberation_id, seat_number=seat)
    except ValidationError as exc:
        logger.info("deliberation %s: no discharge before round %s (%s)", deliberation_id, next_round, exc.messages)
        return None
    return seat
