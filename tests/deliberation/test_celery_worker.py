"""Service mode: a real Celery worker, fed through Redis, runs the rounds a person asks for."""

from __future__ import annotations

import os
import time

from django.core.management import call_command

from cases.models import Case
from deliberation import services
from deliberation.models import Deliberation

WAIT_SECONDS = 60


def test_a_pass_in_the_courtroom_is_run_by_the_celery_worker(celery_worker_process, settings):
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
