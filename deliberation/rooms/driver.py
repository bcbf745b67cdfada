"""Who drives rooms: the web process, from its first ASGI event.

Daphne sends no lifespan event, so the driver starts on the first connection of any kind (HTTP,
websocket, or a lifespan startup where a server sends one); management commands and tests never
load the ASGI application, so they never start it. Starting it:

- schedules the clock for every unfinished room (``clock.rooms_resume``): after a restart, turns
  that ran out are passed and due rounds run;
- in embedded mode (``ANGRY_TASKS=inprocess``) also starts a sweeper thread that looks every
  ``SWEEP_SECONDS`` for rooms whose next step is due and hands them to the clock. It catches rooms
  the command line created (their timers died with the command) and anything a lost timer missed.
  In service mode Celery countdown tasks do this work (the command line enqueues them too).
"""

from __future__ import annotations

import logging
import threading
import time

from django.db import close_old_connections
from django.utils import timezone

from angryagents import background

logger = logging.getLogger(__name__)

SWEEP_SECONDS = 1.0

_started = False
_lock = threading.Lock()


def start() -> bool:
    """Start driving rooms once per process; True the first time."""
    global _started
    with _lock:
        if _started or background.mode() == "sync":
            return False
        _started = True
    try:
        resumed = _resume()
        logger.info("room driver started (%s unfinished room(s) resumed)", resumed)
    except Exception:  # a database not migrated yet must not take the web process down
        logger.exception("resuming rooms failed")
    if background.mode() == "inprocess":
        threading.Thread(target=_sweep_forever, name="angry-room-clock", daemon=True).start()
    return True


def _resume() -> int:
    from deliberation.rooms.clock import rooms_resume

    try:
        return rooms_resume()
    finally:
        close_old_connections()


def sweep_once() -> list[int]:
    """Hand every room whose next step is due to the clock; returns their ids."""
    from deliberation.rooms import tasks
    from deliberation.rooms.clock import rooms_unfinished

    now = timezone.now()
    due = [pk for pk, when in rooms_unfinished() if when is not None and when <= now]
    for pk in due:
        background.enqueue(tasks.room_tick, pk)
    return due


def _sweep_forever() -> None:
    while True:
        time.sleep(SWEEP_SECONDS)
        try:
            sweep_once()
        except Exception:
            logger.exception("room sweep failed")
        finally:
            close_old_connections()


class RoomDriver:
    """ASGI wrapper that starts the driver on the first event the server delivers."""

    def __init__(self, app):  # type: ignore[no-untyped-def]
        self.app = app

    async def __call__(self, scope, receive, send):  # type: ignore[no-untyped-def]
        if not _started:
            from asgiref.sync import sync_to_async

            await sync_to_async(start, thread_sensitive=False)()
        return await self.app(scope, receive, send)
