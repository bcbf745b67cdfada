"""Curating past deliberations: deleting one, and sharing it read-only through a revocable link.

Who may call these is the caller's check (views let curators delete and owners share); the
functions themselves only guarantee the write is valid and complete.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from deliberation.models import Deliberation, RoundStatus, new_share_token
from deliberation.services.broadcast import access_changed

ERROR_DELETE_RUNNING = "A round is under way in this deliberation; delete it once the round is stored."


def _lock(deliberation_id: int) -> Deliberation:
    return Deliberation.objects.select_for_update().get(pk=deliberation_id)


@transaction.atomic
def deliberation_delete(*, deliberation_id: int) -> None:
    """Delete a deliberation with its seats, turns, votes, snapshots, figures and narrations.

    Refused while a round is running, because the worker would store that round into a
    deliberation that no longer exists. Narration audio files stay: the audio cache shares
    them between narrations with the same text and voice. Raises ``Deliberation.DoesNotExist``.
    """
    deliberation = _lock(deliberation_id)
    if deliberation.round_status == RoundStatus.RUNNING:
        raise ValidationError(ERROR_DELETE_RUNNING)
    deliberation.delete()


@transaction.atomic
def share_link_create(*, deliberation_id: int) -> str:
    """The deliberation's read-only share token, made now if it has none (idempotent).

    The token is ``secrets.token_urlsafe(24)``: 192 random bits, not derived from the id.
    """
    deliberation = _lock(deliberation_id)
    if deliberation.share_token:
        return deliberation.share_token
    deliberation.share_token = new_share_token()
    deliberation.full_clean()
    deliberation.save(update_fields=["share_token"])
    return deliberation.share_token


@transaction.atomic
def share_link_revoke(*, deliberation_id: int) -> bool:
    """Forget the share token so the old link answers 404, and close the sockets it had opened (after
    commit, through the one broadcaster). True when there was one to revoke."""
    deliberation = _lock(deliberation_id)
    if not deliberation.share_token:
        return False
    deliberation.share_token = None
    deliberation.save(update_fields=["share_token"])
    access_changed(deliberation.pk)
    return True
