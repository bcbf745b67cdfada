"""Service mode: the experiment command hands each run to a real Celery worker fed through Redis."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from deliberation.models import Experiment
from tests.conftest import need

ROOT = Path(__file__).resolve().parents[3]
START_SECONDS = 60


def database_url() -> str:
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgresql://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def celery_worker_process(transactional_db, tmp_path):
    need(bool(os.environ.get("REDIS_URL")), "REDIS_URL is not set: no Redis broker for a Celery worker")
    need(connection.vendor == "postgresql", "DATABASE_URL is not set: the worker needs a shared PostgreSQL database")
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "ANGRY_TASKS": "celery",
        "ANGRY_INDEX_DIR": str(tmp_path / "index"),
    }
    log_path = tmp_path / "worker.log"
    with open(log_path, "w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "angryagents", "worker", "--pool=solo", "-n", "experiments@%h"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        from angryagents.celery import app

        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline and not app.control.ping(timeout=1):
            assert process.poll() is None, log_path.read_text()
        yield process
        process.terminate()
        process.wait(timeout=20)


def test_the_command_waits_for_the_celery_worker_to_run_and_measure_every_run(celery_worker_process, settings):
    settings.ANGRY_TASKS = "celery"
    call_command("load_cases", stdout=io.StringIO())
    out = io.StringIO()
    call_command(
        "experiment", "--cases", "kessler-market-robbery", "--runs", "3", "--seed", "4", "--json",
        stdout=out, stderr=io.StringIO(),
    )  # fmt: skip
    line = json.loads(out.getvalue().strip().splitlines()[-1])
    experiment = Experiment.objects.get(pk=line["experiment_id"])

    assert experiment.status == Experiment.Status.DONE and experiment.progress_done == 3
    assert sorted(experiment.deliberations.values_list("seed", flat=True)) == [4, 5, 6]
    assert line["runs"] == 3 and experiment.measures["runs"] == 3
