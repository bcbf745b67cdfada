"""The retention sweep runs by itself: on the web process's own thread when embedded, from Celery
beat through a worker in service mode. Real processes: a game made by the command line is aged
over SQL, and the test waits (bounded) for the scheduled sweep to delete it and keep a young one."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import need
from tests.live import ROOT, LiveServer, live_server

CASE = "kessler-market-robbery"
SWEEP = {"ANGRY_RETENTION_DAYS": "30", "ANGRY_RETENTION_SWEEP_SECONDS": "2", "ANGRY_NARRATION": "text"}
WAIT_SECONDS = 120.0  # bounded: a sweep that never comes fails the test, never hangs it

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


def _game(server: LiveServer) -> int:
    server.manage("deliberate", "--case", CASE, "--max-rounds", "1", "--seed", "4")
    return server.query("SELECT max(id) FROM deliberation_deliberation")[0][0]


def _age(server: LiveServer, pk: int, days: int) -> None:
    then = f"now() - interval '{days} days'" if server.service_mode else f"datetime('now', '-{days} days')"
    server.query(f"UPDATE deliberation_deliberation SET created_at = {then}, started_at = {then}, "
                 f"finished_at = {then} WHERE id = ?", (pk,))  # fmt: skip
    server.query(f"UPDATE deliberation_turn SET created_at = {then} WHERE deliberation_id = ?", (pk,))


def _alive(server: LiveServer, pk: int) -> bool:
    return bool(server.query("SELECT count(*) FROM deliberation_deliberation WHERE id = ?", (pk,))[0][0])


def _swept(server: LiveServer) -> tuple[bool, bool]:
    """Plant an old game and a young one; whether each is still there once the old one went."""
    old, young = _game(server), _game(server)
    _age(server, old, 45)
    _age(server, young, 10)
    deadline = time.monotonic() + WAIT_SECONDS
    while _alive(server, old) and time.monotonic() < deadline:
        time.sleep(0.5)
    return _alive(server, old), _alive(server, young)


def test_the_web_process_sweeps_by_itself_when_embedded(tmp_path: Path) -> None:
    with live_server(tmp_path, name="retention_web", redis_db=15, env=SWEEP, embedded=True) as server:
        assert _swept(server) == (False, True)
        assert "retention sweep (30 days)" in server.log.read_text()


def test_celery_beat_sends_the_sweep_to_a_worker_in_service_mode(tmp_path: Path) -> None:
    need(
        bool(os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")),
        "DATABASE_URL and REDIS_URL are not both set: no Celery beat to schedule the sweep",
    )
    with live_server(tmp_path, name="retention_beat", redis_db=15, env=SWEEP) as server:
        assert server.service_mode
        with open(tmp_path / "beat.log", "w") as log:
            command = [sys.executable, "-m", "celery", "-A", "angryagents", "beat", "-l", "INFO"]
            beat = subprocess.Popen(command, cwd=ROOT, env=server.env, stdout=log, stderr=subprocess.STDOUT)
        server.processes.append(beat)  # stopped with the server
        assert _swept(server) == (False, True)
        assert "Sending due task retention-sweep (angryagents.retention_sweep)" in (tmp_path / "beat.log").read_text()
