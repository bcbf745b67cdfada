"""Celery tasks of the deliberation app. Each takes primary keys and calls one service."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from deliberation import narration_services

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
