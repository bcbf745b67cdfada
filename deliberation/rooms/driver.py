"""Who drives rooms and rescues rounds: the web process, from its first ASGI event.

Daphne sends no lifespan event, so the driver starts on the first connection of any kind (HTTP,
websocket, or a lifespan startup where a server sends one); management commands and tests never
load the ASGI application, so they never start it. Starting it:

- schedules the clock for every unfinished room (``clock.rooms_resume``) and sweeps at once:
  after a restart, turns that ran out are passed, due rounds run, and rounds left running by the
  killed process (rooms and single-player games alike) are taken over once their heartbeat is
  stale (``services.claims``), as are the steps of a trial it was playing;
- starts a sweeper thread that looks every ``SWEEP_SECONDS`` for rooms whose next step is due and
  for rounds and trial steps whose process died, and hands them to the clock, to ``round_run`` or
  to ``trial_advance``. In embedded mode (``ANGRY_TASKS=inprocess``) it catches rooms the command
  line created (their timers died with the command) and anything a lost timer missed. In service
  mode Celery countdown tasks drive the rooms; the sweeper only steps in ``SERVICE_GRACE_SECONDS``
  after a room's step was due, because a worker killed with ``kill -9`` takes the countdown tasks
  it had reserved with it (Redis gives unacknowledged messages back only after the broker's
  visibility timeout, see settings).

Whatever it hands over is idempotent (the room clock re-checks everything under the row lock, a
round is keyed by its number, a trial's step re-reads the trial under the lock), so two web
processes sweeping the same rooms do no harm; each asks again for the same room, round or trial
at most every ``RESWEEP_SECONDS``.
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import timedelta

from django.db import close_old_connections
from django.utils import timezone

from angryagents import background
from deliberation.rooms.clock import rooms_resume, rooms_unfinished
from deliberation.services.claims import stale_rounds, stale_trials

logger = logging.getLogger(__name__)

SWEEP_SECONDS = 1.0
SERVICE_GRACE_SECONDS = 5.0
RESWEEP_SECONDS = 10.0

_started = False
_lock = threading.Lock()
_asked: dict[tuple[str, int], float] = {}  # what this process last handed over, and when (monotonic)


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
    threading.Thread(target=_sweep_forever, name="angry-room-clock", daemon=True).start()
    return True


def _resume() -> int:
    try:
        resumed = rooms_resume()
        sweep_once()
        return resumed
    finally:
        close_old_connections()


def _ask(kind: str, pk: int) -> bool:
    """True when this process has not asked for this room or round in the last ``RESWEEP_SECONDS``."""
    now = time.monotonic()
    for key in [k for k, at in _asked.items() if now - at >= RESWEEP_SECONDS]:
        del _asked[key]
    if (kind, pk) in _asked:
        return False
    _asked[(kind, pk)] = now
    return True


def sweep_once() -> list[int]:
    """Hand every room whose next step is due to the clock, every single-player round whose
    process died to ``round_run``, and every single-player trial whose AI counsel's step died with
    its process to ``trial_advance``; returns the ids handed over."""
    grace = SERVICE_GRACE_SECONDS if background.mode() == "celery" else 0.0
    cutoff = timezone.now() - timedelta(seconds=grace)
    handed = []
    for pk, when in rooms_unfinished():
        if when is not None and when <= cutoff and _ask("room", pk):
            background.enqueue("deliberation.room_tick", pk, expires=RESWEEP_SECONDS)
            handed.append(pk)
    for pk, number, is_room in stale_rounds():  # no grace: nothing else will come for these
        if is_room and _ask("room", pk):  # a room's own clock takes its round over
            background.enqueue("deliberation.room_tick", pk, expires=RESWEEP_SECONDS)
            handed.append(pk)
        elif not is_room and _ask("round", pk):
            background.enqueue("deliberation.round_run", pk, number, expires=RESWEEP_SECONDS)
            handed.append(pk)
    for pk in stale_trials():  # a room's clock takes its trial's step over when it comes due
        if _ask("trial", pk):
            background.enqueue("deliberation.trial_advance", pk, expires=RESWEEP_SECONDS)
            handed.append(pk)
    return handed


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
