"""Celery tasks of the project itself (service mode): the retention sweep Celery beat sends."""

from __future__ import annotations

from celery import shared_task

SWEEP_TIME_LIMIT = 900


@shared_task(name="angryagents.retention_sweep", soft_time_limit=SWEEP_TIME_LIMIT - 60, time_limit=SWEEP_TIME_LIMIT)
def retention_sweep() -> dict[str, int]:
    """Delete what has outlived ANGRY_RETENTION_DAYS (angryagents.retention); a repeat does nothing more."""
    from angryagents.retention import sweep  # the sweep imports every app's models: only once Django is set up

    return sweep()
