"""Celery tasks of the case library. Each takes ids (or a slug) and calls one service."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from cases import retrieval, services

IMPORT_SOFT_TIME_LIMIT = 540
IMPORT_TIME_LIMIT = 600


@shared_task(
    name="cases.import_job_run",
    soft_time_limit=IMPORT_SOFT_TIME_LIMIT,
    time_limit=IMPORT_TIME_LIMIT,
    autoretry_for=(OperationalError, InterfaceError),
    max_retries=2,
    retry_backoff=True,
)
def import_job_run_task(job_id: int) -> None:
    """Run one admin upload; a second delivery finds the job no longer pending and does nothing."""
    services.import_job_run(job_id=job_id)


@shared_task(name="cases.rebuild_case_index", soft_time_limit=120, time_limit=150, max_retries=2)
def rebuild_case_index_task(case_id: int) -> None:
    """Rebuild one case's evidence index (idempotent: the same case gives the same index)."""
    retrieval.rebuild_case_index(case_id=case_id)


@shared_task(name="cases.rebuild_case_indexes", soft_time_limit=600, time_limit=660, max_retries=2)
def rebuild_case_indexes_task(case_ids: list[int]) -> None:
    """Rebuild the evidence indexes of a batch of cases (one imported file); idempotent."""
    retrieval.rebuild_case_indexes(case_ids=case_ids)


@shared_task(name="cases.drop_case_index", soft_time_limit=60, time_limit=90)
def drop_case_index_task(slug: str) -> None:
    retrieval.drop_case_index(slug)
