"""Who is running a deliberation's round (or, at the trial, AI counsel's steps), and whether that
process is still alive.

A round is claimed with one conditional UPDATE (so two workers, two ticks or a repeated delivery
never run it twice) and keyed by its number: a claim for round N succeeds only while round N-1 is
the last one stored, so a late or repeated delivery of a round already stored does nothing.

While the engine thinks, a ``Heartbeat`` thread refreshes ``round_heartbeat_at`` every third of
``ANGRY_ROUND_STALE_SECONDS`` in its own short autocommit UPDATE (no transaction is held across
model calls). A running round whose heartbeat is older than that limit lost its process (a worker
or web process killed mid-round): the next tick, page action or worker claims it again. The dead
process had stored nothing of that round, so nothing is lost or doubled; if it was only slow and
comes back, the round number makes its late result a no-op when it tries to store it.

The trial (phase ``trial``, no round running) uses the same two columns for AI counsel's steps
(``trial_playing``): whoever plays them (the trial task, a room's clock, or a counsel's own move in
the web process) marks the trial with a claim and beats while a witness's answer is prepared, and
clears it when done. A claim whose heartbeat is stale lost its process mid-step: a room's clock
takes the step over when it comes due, and the web process's sweep hands a single-player trial to
``trial_advance`` (``stale_trials``). That step had stored nothing (each step is one transaction),
so it is played once; a late result of a process that was only slow is dropped, since the trial
has moved past the point its answer was prepared for. The claim is a mark, not a lock: two
players of one trial are safe (each step re-reads the trial under the row's lock).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection
from django.db.models import Q
from django.utils import timezone

from deliberation.models import Deliberation, Phase, RoundStatus

logger = logging.getLogger(__name__)

MIN_BEAT_SECONDS = 0.2


def stale_seconds() -> float:
    """How long a running round may go without a heartbeat before it is taken over."""
    return float(settings.ANGRY_ROUND_STALE_SECONDS)


def beat_seconds() -> float:
    """How often a running round's heartbeat is refreshed: three beats fit in the stale limit."""
    return max(MIN_BEAT_SECONDS, stale_seconds() / 3)


def stale_at(heartbeat: datetime | None) -> datetime | None:
    """When a round that last beat at ``heartbeat`` may be taken over (None: at once)."""
    return heartbeat + timedelta(seconds=stale_seconds()) if heartbeat else None


def is_alive(status: str, heartbeat: datetime | None, now: datetime | None = None) -> bool:
    """A round is under way: claimed, and its process gave a sign of life within the limit."""
    if status != RoundStatus.RUNNING or heartbeat is None:
        return False
    return heartbeat > (now or timezone.now()) - timedelta(seconds=stale_seconds())


def _dead(now: datetime) -> Q:
    before = now - timedelta(seconds=stale_seconds())
    return Q(round_status=RoundStatus.RUNNING) & (Q(round_heartbeat_at__lt=before) | Q(round_heartbeat_at__isnull=True))


def claim(deliberation_id: int, round_number: int | None = None) -> datetime | None:
    """Claim the next round (round ``round_number`` when given); the claim's time, or None.

    Succeeds when no round runs, or when the running one's heartbeat is stale (taken over).
    The claim's time identifies it: only its holder's heartbeat and release touch the row.
    """
    now = timezone.now()
    rows = Deliberation.objects.filter(pk=deliberation_id, phase=Phase.DELIBERATION)
    if round_number is not None:
        rows = rows.filter(round_number=round_number - 1)
    held = {"round_status": RoundStatus.RUNNING, "round_claimed_at": now, "round_heartbeat_at": now}
    if rows.filter(round_status=RoundStatus.IDLE).update(**held) == 1:
        return now
    if rows.filter(_dead(now)).update(**held) == 1:
        logger.warning("deliberation %s: a round whose process died is taken over", deliberation_id)
        return now
    return None


def release(deliberation_id: int, claimed_at: datetime) -> None:
    """Give up our claim (and only ours: a process that took over keeps its own)."""
    Deliberation.objects.filter(pk=deliberation_id, round_claimed_at=claimed_at).update(
        round_status=RoundStatus.IDLE, round_claimed_at=None, round_heartbeat_at=None
    )


def stale_rounds() -> list[tuple[int, int, bool]]:
    """Rounds left running by a dead process: (deliberation id, round to run, is a room)."""
    rows = (
        Deliberation.objects.filter(_dead(timezone.now()), phase=Phase.DELIBERATION, experiment__isnull=True)
        .values_list("pk", "round_number", "room_code")
        .order_by("pk")
    )
    return [(pk, number + 1, code is not None) for pk, number, code in rows]


def trial_alive(heartbeat: datetime | None, now: datetime | None = None) -> bool:
    """AI counsel's steps are being played at the trial by a process that gave a sign of life
    within the limit (``heartbeat``: the deliberation's ``round_heartbeat_at`` while its phase is
    ``trial``)."""
    return heartbeat is not None and heartbeat > (now or timezone.now()) - timedelta(seconds=stale_seconds())


@contextmanager
def trial_playing(deliberation_id: int) -> Iterator[None]:
    """Mark the trial as played by this process while the block runs, beating meanwhile; the mark
    is cleared at the end (unless another process has marked it since). Does nothing outside the
    trial."""
    now = timezone.now()
    marked = Deliberation.objects.filter(pk=deliberation_id, phase=Phase.TRIAL, round_status=RoundStatus.IDLE).update(
        round_claimed_at=now, round_heartbeat_at=now
    )
    if not marked:
        yield
        return
    try:
        with Heartbeat(deliberation_id, now, trial=True):
            yield
    finally:
        Deliberation.objects.filter(pk=deliberation_id, round_claimed_at=now, round_status=RoundStatus.IDLE).update(
            round_claimed_at=None, round_heartbeat_at=None
        )


def stale_trials() -> list[int]:
    """Single-player trials whose AI counsel's step lost its process (a room's clock sees to its own)."""
    before = timezone.now() - timedelta(seconds=stale_seconds())
    rows = Deliberation.objects.filter(
        phase=Phase.TRIAL,
        round_status=RoundStatus.IDLE,
        round_heartbeat_at__lt=before,
        room_code__isnull=True,
        experiment__isnull=True,
    )
    return list(rows.order_by("pk").values_list("pk", flat=True))


class Heartbeat:
    """Refreshes a claimed round's heartbeat (with ``trial``, the trial's mark: ``trial_playing``)
    from a thread while the engine thinks.

    Each beat is one autocommit UPDATE on the thread's own connection, closed when the round ends.
    A beat that finds the claim gone (taken over after a stall) stops beating: the round number
    then keeps this process's late result from being stored twice.
    """

    def __init__(self, deliberation_id: int, claimed_at: datetime, *, trial: bool = False) -> None:
        self.deliberation_id = deliberation_id
        self.claimed_at = claimed_at
        self.status = RoundStatus.IDLE if trial else RoundStatus.RUNNING  # a trial's steps are no round
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="angry-heartbeat", daemon=True)

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=beat_seconds() + 10)

    def _run(self) -> None:
        try:
            while not self._stop.wait(beat_seconds()):
                if not self.beat():
                    logger.warning("deliberation %s: this process's claim was taken over", self.deliberation_id)
                    return
        finally:
            connection.close()

    def beat(self) -> bool:
        """One sign of life; False when the claim is no longer ours."""
        try:
            return (
                Deliberation.objects.filter(
                    pk=self.deliberation_id, round_status=self.status, round_claimed_at=self.claimed_at
                ).update(round_heartbeat_at=timezone.now())
                == 1
            )
        except Exception:  # a failed beat must not kill the round; the next one may succeed
            logger.exception("heartbeat of deliberation %s failed", self.deliberation_id)
            return True
