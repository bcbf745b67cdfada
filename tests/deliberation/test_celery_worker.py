"""Service mode: a real Celery worker, fed through Redis, runs the rounds a person asks for."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from cases.models import Case
from deliberation import services
from deliberation.models import Deliberation
from tests.conftest import need

ROOT = Path(__file__).resolve().parents[2]
WAIT_SECONDS = 60


def _database_url() -> str:
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgresql://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def worker(transactional_db, tmp_path):
    need(bool(os.environ.get("REDIS_URL")), "REDIS_URL is not set: no Redis broker for a Celery worker")
    need(connection.vendor == "postgresql", "DATABASE_URL is not set: the worker needs a shared PostgreSQL database")
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "ANGRY_TASKS": "celery",
        "MEDIA_ROOT": str(tmp_path / "media"),
        "ANGRY_INDEX_DIR": str(tmp_path / "index"),
    }
    log = open(tmp_path / "worker.log", "w")
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "angryagents", "worker", "--pool=solo", "-l", "info", "-n", "test@%h"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    from angryagents.celery import app

    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline and not app.control.ping(timeout=1):
        assert process.poll() is None, (tmp_path / "worker.log").read_text()
    yield process
    process.terminate()
    process.wait(timeout=20)
    log.close()


def test_a_pass_in_the_courtroom_is_run_by_the_celery_worker(worker, settings):
    settings.ANGRY_TASKS = "celery"
    call_command("load_cases", stdout=open(os.devnull, "w"))
    case = Case.objects.get(slug="kessler-market-robbery")
    deliberation = services.deliberation_start(case=case, seed=8, player_side="defend")
    services.turn_pass(deliberation_id=deliberation.pk, seat_number=7)
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        if Deliberation.objects.get(pk=deliberation.pk).round_number == 1:
            break
        time.sleep(0.2)
    deliberation.refresh_from_db()
    assert deliberation.round_number == 1
    assert deliberation.turns.filter(kind="speech").exists()
    assert deliberation.round_status == "idle"
