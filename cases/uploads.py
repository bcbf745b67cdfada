"""Uploaded import files never outlive their import.

The admin stores each uploaded Old Bailey file under ``MEDIA_ROOT/imports/`` and the import deletes
it as soon as it has read it, whatever the outcome (``services.import_job_run``). What that cannot
cover, the retention sweep does (``uploads_sweep``):

- a job whose worker died mid-import (``kill -9``, the machine restarted) or whose queued message
  was lost stays "running" or "pending" for ever: after ``STUCK_AFTER`` it is marked failed, saying
  so, and its files are deleted;
- a file no unfinished job names (its job finished or failed, or the upload stopped before its job
  was recorded) is deleted once it is ``ORPHAN_AFTER`` old (a file stored a moment ago may belong
  to the job the upload page is creating).
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.utils import timezone

from cases.models import ImportJob, ImportStatus

logger = logging.getLogger(__name__)

UPLOAD_DIR = "imports"
STUCK_AFTER = timedelta(hours=24)  # an import takes minutes; a day later its worker is gone
ORPHAN_AFTER = timedelta(minutes=10)
STUCK_SUMMARY = "The import stopped: the process running it was lost. Upload the files again to import them."
UNFINISHED = (ImportStatus.PENDING, ImportStatus.RUNNING)


def uploads_sweep(*, now: datetime | None = None) -> int:
    """Fail stuck import jobs and delete every upload no live job still needs; files deleted."""
    now = now or timezone.now()
    stuck = ImportJob.objects.filter(status__in=UNFINISHED, created_at__lt=now - STUCK_AFTER)
    for job in stuck:
        logger.warning("import job %s was still %s after %s: marked failed", job.pk, job.status, STUCK_AFTER)
    stuck.update(status=ImportStatus.FAILED, summary=STUCK_SUMMARY, finished_at=now)
    root = Path(settings.MEDIA_ROOT)
    needed = {
        root / name
        for files in ImportJob.objects.filter(status__in=UNFINISHED).values_list("files", flat=True)
        for name in files
    }
    folder = root / UPLOAD_DIR
    if not folder.is_dir():
        return 0
    oldest = time.time() - ORPHAN_AFTER.total_seconds()
    deleted = 0
    for path in folder.iterdir():
        if path in needed or not path.is_file() or path.stat().st_mtime > oldest:
            continue
        path.unlink(missing_ok=True)
        deleted += 1
    if deleted:
        logger.info("deleted %s uploaded import file(s) no import needs", deleted)
    return deleted
