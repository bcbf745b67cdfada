"""Celery tasks of experiments (registered through ``deliberation.tasks``). Each calls one service."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError

from deliberation.experiments import services

# Worker processes in embedded mode: the machine's cores, at most this many.
EMBEDDED_WORKERS = 2
RUN_SOFT_TIME_LIMIT = 540
RUN_TIME_LIMIT = 600


@shared_task(name="deliberation.experiment_execute")
def experiment_execute(experiment_id: int) -> None:
    """Start a pending experiment: fan out one task per run (Celery), or run it here with worker
    processes (embedded mode, on the web process's background thread)."""
    if settings.ANGRY_TASKS == "celery":
        services.experiment_dispatch(experiment_id=experiment_id)
    else:
        services.experiment_execute(experiment_id=experiment_id, workers=EMBEDDED_WORKERS)


@shared_task(
    name="deliberation.experiment_run",
    soft_time_limit=RUN_SOFT_TIME_LIMIT,
    time_limit=RUN_TIME_LIMIT,
    autoretry_for=(OperationalError, InterfaceError),
    max_retries=3,
    retry_backoff=True,
)
def experiment_run(experiment_id: int, case_id: int, seed: int) -> None:
    """One run of an experiment; a repeated delivery finds the run stored and does nothing."""
    services.experiment_run_one(experiment_id=experiment_id, case_id=case_id, seed=seed)
