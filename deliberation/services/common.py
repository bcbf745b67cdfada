"""What every write to a running deliberation shares: the row lock, the phase checks, the next turn.

A module of its own below ``lifecycle``, ``rounds`` and ``discharge``, which all use it.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError

from deliberation.models import Deliberation, Phase, Turn
from deliberation.services import claims

ERROR_NOT_DELIBERATING = "The jury is not deliberating right now (phase: {phase})."
ERROR_ROUND_RUNNING = "A round is under way; wait for it to finish."
ERROR_FINISHED = "This deliberation has finished; the verdict is in."


def round_busy(deliberation: Deliberation) -> bool:
    """A round is under way: claimed, and its process gave a sign of life within the stale limit.

    A round whose process died is not busy: the next action asks for it again and takes it over.
    """
    return claims.is_alive(deliberation.round_status, deliberation.round_heartbeat_at)


def lock(deliberation_id: int) -> Deliberation:
    """The deliberation's row, locked for the rest of the transaction (with its case)."""
    return Deliberation.objects.select_for_update().select_related("case").get(pk=deliberation_id)


def require_deliberating(deliberation: Deliberation) -> None:
    if deliberation.phase == Phase.VERDICT:
        raise ValidationError(ERROR_FINISHED)
    if deliberation.phase != Phase.DELIBERATION:
        raise ValidationError(ERROR_NOT_DELIBERATING.format(phase=deliberation.get_phase_display()))


def require_no_round(deliberation: Deliberation) -> None:
    """Refuse while a round is under way."""
    if round_busy(deliberation):
        raise ValidationError(ERROR_ROUND_RUNNING)


def next_sequence(deliberation: Deliberation) -> int:
    last = deliberation.turns.order_by("-sequence").values_list("sequence", flat=True).first()
    return (last or 0) + 1


def add_turn(deliberation: Deliberation, **fields: object) -> Turn:
    """Append one turn to the record, after the last one."""
    turn = Turn(deliberation=deliberation, sequence=next_sequence(deliberation), **fields)
    turn.save()
    return turn
