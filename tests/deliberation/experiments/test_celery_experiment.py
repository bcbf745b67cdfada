"""Service mode: the experiment command hands each run to a real Celery worker fed through Redis."""

from __future__ import annotations

import io
import json

from django.core.management import call_command

from deliberation.models import Experiment


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
