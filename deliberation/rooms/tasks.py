"""Celery task of the room clock (service mode); in embedded mode the same function runs on a
timer thread of the web process. Takes a primary key and calls one service."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from deliberation.rooms import clock
from deliberation.services.rounds import ROUND_SOFT_TIME_LIMIT, ROUND_TIME_LIMIT


@shared_task(
    name="deliberation.room_tick",
    soft_time_limit=ROUND_SOFT_TIME_LIMIT,  # a tick may run the room's round
    time_limit=ROUND_TIME_LIMIT,
    autoretry_for=(OperationalError, InterfaceError),
    max_retries=3,
    retry_backoff=True,
)
def room_tick(deliberation_id: int) -> str:
    """Do what is due in one room; an early or repeated delivery does nothing."""
    return clock.room_tick(deliberation_id=deliberation_id)
