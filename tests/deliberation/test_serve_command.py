"""``manage.py serve``: several Daphne processes accepting on one port, in service mode only."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from deliberation.management.commands.serve import ERROR_PROCESSES_NEED_REDIS
from tests.live import ROOT, free_port, live_server


def test_more_than_one_web_process_without_redis_is_refused_with_the_reason(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    with pytest.raises(CommandError) as refused:
        call_command("serve", processes=2, port=free_port())
    assert str(refused.value) == ERROR_PROCESSES_NEED_REDIS


def _children(pid: int) -> list[int]:
    found = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(child) for child in found.read_text().split()] if found.exists() else []


def _serve(env: dict[str, str], port: int, processes: int) -> subprocess.Popen:
    command = [sys.executable, "manage.py", "serve", "--port", str(port), "--processes", str(processes)]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _answers(url: str, limit: float = 120.0) -> bool:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                return response.status == 200
        except OSError:
            time.sleep(0.3)
    return False


@pytest.mark.timeout(900)  # a migrated database and two Daphnes start slowly on a loaded machine
@pytest.mark.parametrize("processes", [1, 2])
def test_every_web_process_serves_the_same_port_and_all_stop_with_the_command(tmp_path, processes):
    service = bool(os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL"))
    if processes > 1 and not service:
        pytest.skip("two web processes need PostgreSQL and Redis (DATABASE_URL, REDIS_URL)")
    with live_server(tmp_path, name="serve", redis_db=13, embedded=processes == 1) as server:
        port = free_port()
        served = _serve(server.env, port, processes)
        try:
            assert all(_answers(f"http://127.0.0.1:{port}/healthz") for _ in range(10))
            children = _children(served.pid)
            assert len(children) == processes
        finally:
            served.terminate()
            served.wait(timeout=60)
        assert not any(Path(f"/proc/{child}").exists() for child in children)
