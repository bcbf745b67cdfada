"""Celery tasks of the deliberation app. Each takes primary keys and calls one service."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from deliberation import services
from deliberation.narration import services as narration_services
from deliberation.services import counsel
from deliberation.services.rounds import ROUND_SOFT_TIME_LIMIT, ROUND_TIME_LIMIT

# The chain's worst case is an ElevenLabs timeout followed by a slow espeak-ng run.
NARRATION_SOFT_TIME_LIMIT = 120
NARRATION_TIME_LIMIT = 150


@shared_task(
    name="deliberation.narration_render",
    soft_time_limit=NARRATION_SOFT_TIME_LIMIT,
    time_limit=NARRATION_TIME_LIMIT,
    # Engine failures are handled inside the service; only a lost database connection retries.
    autoretry_for=(OperationalError, InterfaceError),
    max_retries=3,
    retry_backoff=True,
    retry_jitter=True,
)
def narration_render(narration_id: int) -> None:
    """Render one narration; a second delivery finds it no longer pending and does nothing."""
    narration_services.narration_render(narration_id=narration_id)


@shared_task(
    name="deliberation.round_run",
    soft_time_limit=ROUND_SOFT_TIME_LIMIT,
    time_limit=ROUND_TIME_LIMIT,
    autoretry_for=(OperationalError, InterfaceError),
    max_retries=3,
    retry_backoff=True,
)
def round_run(deliberation_id: int, round_number: int | None = None) -> bool:
    """Run round ``round_number``; a repeated or late delivery of a stored or live round does nothing.

    Acknowledged late (settings): a worker killed mid-round leaves the message to be delivered
    again, and a round it left running is taken over once its heartbeat is stale.
    """
    return services.round_run(deliberation_id=deliberation_id, round_number=round_number)


TRIAL_SOFT_TIME_LIMIT = 1500  # a trial's every witness answer through a model, one call each
TRIAL_TIME_LIMIT = 1560


@shared_task(
    name="deliberation.trial_advance",
    soft_time_limit=TRIAL_SOFT_TIME_LIMIT,
    time_limit=TRIAL_TIME_LIMIT,
    autoretry_for=(OperationalError, InterfaceError),
    max_retries=3,
    retry_backoff=True,
)
def trial_advance(deliberation_id: int) -> None:
    """Play a trial's AI steps until a person must act or the jury goes out; a repeated delivery
    resumes where the trial stands (or does nothing once it is over)."""
    counsel.trial_advance(deliberation_id=deliberation_id)
