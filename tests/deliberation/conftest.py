"""Fixtures shared across the deliberation tests: the shipped case library, a local ElevenLabs
server behind the real SDK, and a real Celery worker fed through Redis."""

from __future__ import annotations

import io
import os
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection

from tests.conftest import need
from tests.deliberation.elevenlabs_server import ElevenLabsServer
from tests.live import start_celery_worker, stop

WORKER_START_SECONDS = 60


@pytest.fixture
def library(db: None) -> None:
    """The shipped jury and curated cases."""
    call_command("load_cases", stdout=io.StringIO())


@pytest.fixture
def robbery(library: None) -> Any:
    from cases.models import Case

    return Case.objects.get(slug="kessler-market-robbery")


@pytest.fixture
def elevenlabs(settings: Any) -> Iterator[ElevenLabsServer]:
    """Narration through the real ElevenLabs SDK against a local server speaking its API."""
    with ElevenLabsServer() as server:
        settings.ELEVENLABS_API_KEY = "local-test-key"
        settings.ELEVENLABS_BASE_URL = server.base_url
        settings.ELEVENLABS_TIMEOUT = 0.5
        settings.ANGRY_NARRATION = "auto"
        yield server


def _database_url() -> str:
    """The test database as a URL, so the worker reads and writes what the test does."""
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgresql://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def celery_worker_process(transactional_db: None, tmp_path: Any) -> Iterator[subprocess.Popen]:
    """A real Celery worker on the tests' Redis broker and PostgreSQL test database, answering pings."""
    need(bool(os.environ.get("REDIS_URL")), "REDIS_URL is not set: no Redis broker for a Celery worker")
    need(connection.vendor == "postgresql", "DATABASE_URL is not set: the worker needs a shared PostgreSQL database")
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "ANGRY_TASKS": "celery",
        "MEDIA_ROOT": str(tmp_path / "media"),
        "ANGRY_INDEX_DIR": str(tmp_path / "index"),
    }
    log_path = tmp_path / "worker.log"
    with open(log_path, "w") as log:
        process = start_celery_worker(env, log, name="test", level="INFO")
        try:
            from angryagents.celery import app

            deadline = time.monotonic() + WORKER_START_SECONDS
            answered = False
            while not answered and time.monotonic() < deadline:
                assert process.poll() is None, log_path.read_text()
                answered = bool(app.control.ping(timeout=1))
            assert answered, f"the Celery worker did not answer a ping: {log_path.read_text()[-3000:]}"
            yield process
        finally:
            stop(process)
