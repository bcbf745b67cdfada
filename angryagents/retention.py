"""The retention sweep: what a school asked to keep for ``ANGRY_RETENTION_DAYS``, and no longer.

One sweep deletes:

- classes, rooms and games untouched for more than ``ANGRY_RETENTION_DAYS`` days, with everything
  their people wrote (``deliberation.services.retention``; 0 keeps them for ever);
- uploaded import files their import no longer needs (``cases.uploads``);
- browser sessions past their expiry (they hold a browser's key to its rooms and seats);
- counted wrong passwords whose lockout time has passed (``angryagents.logins``).

It runs every ``ANGRY_RETENTION_SWEEP_SECONDS``: from Celery beat in service mode
(``CELERY_BEAT_SCHEDULE``, the ``beat`` process of docker-compose.yml, ``make beat``), and on a
thread of the web process otherwise (``RetentionSweeps``, started by the first request, the first
sweep a minute after start). ``python manage.py retention_sweep`` runs one by hand.
"""

from __future__ import annotations

import importlib
import logging
import threading
import time
from datetime import datetime

from django.conf import settings
from django.db import close_old_connections

from angryagents import background

logger = logging.getLogger(__name__)

FIRST_SWEEP_SECONDS = 60.0  # after the web process starts: not in the way of its first pages

_started = False
_lock = threading.Lock()


def sweep(*, now: datetime | None = None) -> dict[str, int]:
    """Delete everything past its time; what went, by kind. Safe to run twice or at once in two
    processes (each delete is idempotent)."""
    from angryagents.logins import expired_attempts_delete  # axes's models load only once apps are ready
    from cases.uploads import uploads_sweep  # as above: each app's models, once apps are ready
    from deliberation.services.retention import expired_erase  # as above

    gone: dict[str, int] = {"classes": 0, "deliberations": 0}
    if settings.ANGRY_RETENTION_DAYS:
        gone |= expired_erase(days=settings.ANGRY_RETENTION_DAYS, now=now)
    gone["uploads"] = uploads_sweep(now=now)
    before = _session_count()
    importlib.import_module(settings.SESSION_ENGINE).SessionStore.clear_expired()
    gone["sessions"] = max(0, before - _session_count())
    gone["login_attempts"] = expired_attempts_delete()
    logger.info("retention sweep (%s days): %s", settings.ANGRY_RETENTION_DAYS or "keep", gone)
    return gone


def _session_count() -> int:
    from django.contrib.sessions.models import Session  # only the database session engine has rows

    return Session.objects.count() if settings.SESSION_ENGINE.endswith(".db") else 0


def _sweep_forever() -> None:
    time.sleep(min(FIRST_SWEEP_SECONDS, settings.ANGRY_RETENTION_SWEEP_SECONDS))
    while True:
        try:
            sweep()
        except Exception:  # a failed sweep is tried again next time; the web process goes on
            logger.exception("retention sweep failed")
        finally:
            close_old_connections()
        time.sleep(settings.ANGRY_RETENTION_SWEEP_SECONDS)


def start() -> bool:
    """Start the embedded sweeper once per web process; True the first time. In service mode
    Celery beat sweeps instead; tests and commands (``sync``) never start it."""
    global _started
    with _lock:
        if _started or background.mode() != "inprocess":
            return False
        _started = True
    threading.Thread(target=_sweep_forever, name="angry-retention", daemon=True).start()
    return True


class RetentionSweeps:
    """ASGI wrapper that starts the embedded sweeper on the first event the server delivers."""

    def __init__(self, app):  # type: ignore[no-untyped-def]
        self.app = app

    async def __call__(self, scope, receive, send):  # type: ignore[no-untyped-def]
        if not _started:
            start()
        return await self.app(scope, receive, send)
