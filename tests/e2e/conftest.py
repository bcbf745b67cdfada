"""A live server and a real Chromium for end-to-end tests (shared by every tests/e2e module).

``live_daphne`` is one live server for the whole session (tests/live.py): Daphne on a free
loopback port against a fresh SQLite file with rounds on the server's background thread, or, when
both ``DATABASE_URL`` and ``REDIS_URL`` are set (CI), against its own PostgreSQL database
``angry_e2e`` and Redis database 9 with a real Celery worker running the rounds.

``browser`` is Debian's Chromium through Playwright; tests skip without it (fail under CI).
Screenshots go to ``test-artifacts/`` (gitignored).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import need
from tests.live import LiveServer, live_server

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
E2E_SERVER = "e2e"  # database angry_e2e in service mode
E2E_REDIS_DB = 9


@pytest.fixture(scope="session")
def live_daphne(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("e2e"), name=E2E_SERVER, redis_db=E2E_REDIS_DB) as server:
        yield server


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


@pytest.fixture(autouse=True)
def _close_pages_left_open(request: pytest.FixtureRequest) -> Iterator[None]:
    """Close every page a test left open, failed tests included: a room left open in a browser
    keeps its sockets and its turn clock going on the shared server, and the next test would share
    the worker with a room nobody is in."""
    yield
    if "browser" in request.fixturenames:
        for context in list(request.getfixturevalue("browser").contexts):
            context.close()
    if "live_daphne" in request.fixturenames:
        # A room's clock goes on with nobody's page open: its AI rounds and trial steps would queue
        # on the shared server's one worker ahead of the next test's. The test is over: its rooms end.
        request.getfixturevalue("live_daphne").query(
            "UPDATE deliberation_deliberation SET phase = 'verdict' WHERE room_code IS NOT NULL AND phase <> 'verdict'"
        )


@pytest.fixture
def artifacts(request: pytest.FixtureRequest) -> Path:
    """A folder for this test's screenshots under test-artifacts/."""
    folder = ARTIFACTS / request.node.name
    folder.mkdir(parents=True, exist_ok=True)
    return folder
