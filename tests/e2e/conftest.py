"""A live server and a real Chromium for end-to-end tests (shared by every tests/e2e module).

``live_daphne`` starts Daphne in a subprocess on a free loopback port. Embedded mode (the
default): a fresh SQLite file, migrated and loaded with the shipped cases, and rounds on the
server's background thread. Service mode, when both ``DATABASE_URL`` and ``REDIS_URL`` are set
(CI): a dedicated PostgreSQL database ``angry_e2e`` created and dropped around the session, the
Redis channel layer on its own Redis database, and a real Celery worker running the rounds.

``browser`` is Debian's Chromium through Playwright; tests skip without it (fail under CI).
Screenshots go to ``test-artifacts/`` (gitignored).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.conftest import need

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--autoplay-policy=no-user-gesture-required",
]
START_TIMEOUT = 60.0
E2E_DATABASE = "angry_e2e"
E2E_REDIS_DB = 9


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class LiveServer:
    url: str
    env: dict[str, str]
    log: Path
    service_mode: bool
    processes: list[subprocess.Popen] = field(default_factory=list)

    def manage(self, *args: str) -> str:
        """Run a management command against the server's database; its standard output."""
        done = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=180
        )
        if done.returncode != 0:
            raise AssertionError(f"manage.py {' '.join(args)} failed: {done.stderr[-2000:]}")
        return done.stdout

    def ws_url(self, path: str) -> str:
        return self.url.replace("http://", "ws://", 1) + path


def _with_path(url: str, path: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, parts.fragment))


def _postgres(url: str, statements: list[str]) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        for statement in statements:
            connection.execute(statement)


def _environment(tmp: Path) -> tuple[dict[str, str], bool]:
    database, redis = os.environ.get("DATABASE_URL"), os.environ.get("REDIS_URL")
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "ANGRY_TASKS"}}
    env.update(
        ANGRY_VAR_DIR=str(tmp / "var"),
        ANGRY_INDEX_DIR=str(tmp / "index"),
        MEDIA_ROOT=str(tmp / "media"),
        ANGRY_LLM_MODEL="offline",
        DJANGO_SETTINGS_MODULE="angryagents.settings",
        LITELLM_LOCAL_MODEL_COST_MAP="True",
        PYTHONUNBUFFERED="1",
    )
    service_mode = bool(database and redis)
    if service_mode:
        assert database is not None and redis is not None
        env.update(
            DATABASE_URL=_with_path(database, f"/{E2E_DATABASE}"),
            REDIS_URL=_with_path(redis, f"/{E2E_REDIS_DB}"),
            ANGRY_TASKS="celery",
        )
    else:
        env.update(SQLITE_PATH=str(tmp / "db.sqlite3"), ANGRY_TASKS="inprocess")
    return env, service_mode


def _wait_healthy(server: LiveServer, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            with urllib.request.urlopen(f"{server.url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"Daphne did not start: {server.log.read_text()[-3000:]}") from None
            time.sleep(0.2)


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)


@pytest.fixture(scope="session")
def live_daphne(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("e2e")
    env, service_mode = _environment(tmp)
    port = free_port()
    server = LiveServer(url=f"http://127.0.0.1:{port}", env=env, log=tmp / "daphne.log", service_mode=service_mode)
    admin_url = os.environ.get("DATABASE_URL", "")
    if service_mode:
        drop = f"DROP DATABASE IF EXISTS {E2E_DATABASE} WITH (FORCE)"
        _postgres(admin_url, [drop, f"CREATE DATABASE {E2E_DATABASE}"])
    try:
        server.manage("migrate", "--no-input")
        server.manage("load_cases")
        log = open(server.log, "w")
        daphne = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "angryagents.asgi:application"]
        process = subprocess.Popen(daphne, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        server.processes.append(process)
        if service_mode:
            worker = [sys.executable, "-m", "celery", "-A", "angryagents", "worker", "--pool=solo", "-l", "WARNING"]
            server.processes.append(subprocess.Popen(worker, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT))
        _wait_healthy(server, process)
        yield server
    finally:
        for process in reversed(server.processes):
            _stop(process)
        if service_mode:
            _postgres(admin_url, [f"DROP DATABASE IF EXISTS {E2E_DATABASE} WITH (FORCE)"])


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    need(Path(CHROMIUM).exists() or bool(shutil.which("chromium")), "Chromium is not installed at /usr/bin/chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def artifacts(request: pytest.FixtureRequest) -> Path:
    """A folder for this test's screenshots under test-artifacts/."""
    folder = ARTIFACTS / request.node.name
    folder.mkdir(parents=True, exist_ok=True)
    return folder
