"""A live Daphne for room tests: a subprocess on a free loopback port, against a fresh SQLite file
that has been migrated and loaded with the shipped cases first. Import ``daphne_server`` into a test
module to use it (the courtroom's e2e conftest may offer a shared one later)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
START_TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class LiveServer:
    url: str
    env: dict[str, str]
    log: Path

    def manage(self, *args: str) -> str:
        """Run a management command against the server's database; its standard output."""
        done = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=120
        )
        if done.returncode != 0:
            raise AssertionError(f"manage.py {' '.join(args)} failed: {done.stderr[-2000:]}")
        return done.stdout

    def room(self, *args: str) -> str:
        """A new room's code (the last line ``room_create`` prints)."""
        return self.manage("room_create", *args).strip().splitlines()[-1]


def _environment(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "ANGRY_TASKS"}}
    env.update(
        SQLITE_PATH=str(tmp / "db.sqlite3"),
        ANGRY_VAR_DIR=str(tmp / "var"),
        MEDIA_ROOT=str(tmp / "media"),
        ANGRY_TASKS="inprocess",
        ANGRY_NARRATION="text",
        ANGRY_LLM_MODEL="offline",
        DJANGO_SETTINGS_MODULE="angryagents.settings",
        LITELLM_LOCAL_MODEL_COST_MAP="True",
        PYTHONUNBUFFERED="1",
    )
    return env


@pytest.fixture(scope="module")
def daphne_server(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("live")
    env = _environment(tmp)
    port = free_port()
    server = LiveServer(url=f"http://127.0.0.1:{port}", env=env, log=tmp / "daphne.log")
    server.manage("migrate", "--no-input")
    server.manage("load_cases")
    with open(server.log, "w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "angryagents.asgi:application"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                with urllib.request.urlopen(f"{server.url}/healthz", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"Daphne did not start: {server.log.read_text()[-3000:]}") from None
                time.sleep(0.2)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
