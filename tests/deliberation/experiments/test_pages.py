"""The experiment pages and starting an experiment from the admin."""

from __future__ import annotations

import io
import json

from django.core.management import call_command
from django.urls import reverse

from deliberation.experiments import services
from deliberation.experiments.report import HUMAN_FIRST_BALLOT_WINS, HUMAN_HUNG_RATE, fraction
from deliberation.models import Experiment


def run_experiment(*args: str) -> Experiment:
    out = io.StringIO()
    call_command("experiment", *args, "--json", "--workers", "1", stdout=out, stderr=io.StringIO())
    return Experiment.objects.get(pk=json.loads(out.getvalue().strip().splitlines()[-1])["experiment_id"])


def test_the_experiment_page_shows_the_figures_beside_human_juries_and_links_every_transcript(library, client):
    experiment = run_experiment("--cases", "kessler-market-robbery,pruitt-basement-killing", "--runs", "2")
    page = client.get(reverse("experiments:detail", args=[experiment.pk])).content.decode()

    assert page.count("<svg") == 2  # the vote-change histogram and agreement by offence
    assert "Histogram of vote changes per run" in page and "violentTheft" in page
    assert fraction(HUMAN_HUNG_RATE) in page and fraction(HUMAN_FIRST_BALLOT_WINS) in page
    assert fraction(experiment.measures["hung_rate"]) in page
    for run in experiment.deliberations.all():
        link = reverse("review:transcript", args=[run.public_id])
        assert f'href="{link}"' in page
        assert client.get(link).status_code == 200
    assert 'http-equiv="refresh"' not in page  # finished: no more refreshing


def test_the_list_names_every_experiment_and_refreshes_while_one_is_pending(library, client):
    done = run_experiment("--cases", "kessler-market-robbery", "--runs", "1")
    waiting = services.experiment_create(case_selector="pruitt-basement-killing", runs_per_case=2)
    page = client.get(reverse("experiments:list")).content.decode()

    assert reverse("experiments:detail", args=[done.pk]) in page
    assert reverse("experiments:detail", args=[waiting.pk]) in page
    assert 'http-equiv="refresh"' in page
    detail = client.get(reverse("experiments:detail", args=[waiting.pk])).content.decode()
    assert "<progress" in detail and "0 of 2 runs stored" in detail


def test_an_experiment_added_in_the_admin_runs_and_its_progress_reaches_the_total(
    library, admin_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            reverse("admin:deliberation_experiment_add"),
            {"name": "from the admin", "case_selector": "alder-street-hit-and-run", "runs_per_case": 2,
             "engine": "offline", "seed": 3},
        )  # fmt: skip
    assert response.status_code == 302
    experiment = Experiment.objects.get(name="from the admin")
    assert experiment.status == Experiment.Status.DONE
    assert experiment.progress_done == experiment.progress_total == 2
    assert experiment.deliberations.count() == 2 and experiment.measures["runs"] == 2
    listing = admin_client.get(reverse("admin:deliberation_experiment_changelist")).content.decode()
    assert "2 / 2 (100%)" in listing


def test_the_admin_refuses_a_selector_with_nothing_playable(library, admin_client):
    response = admin_client.post(
        reverse("admin:deliberation_experiment_add"),
        {"name": "nothing", "case_selector": "copper-kettle-fire", "runs_per_case": 2, "engine": "offline", "seed": 0},
    )
    assert response.status_code == 200
    assert services.ERROR_NOTHING_TO_RUN in response.content.decode()
    assert not Experiment.objects.exists()


def test_in_service_mode_each_run_is_its_own_task_and_the_last_one_measures_the_experiment(
    library, django_capture_on_commit_callbacks
):
    experiment = services.experiment_create(case_selector="kessler-market-robbery", runs_per_case=3, seed=2)
    # ANGRY_TASKS is "sync" here: each enqueued run task runs right after the commit.
    with django_capture_on_commit_callbacks(execute=True):
        sent = services.experiment_dispatch(experiment_id=experiment.pk)
    experiment.refresh_from_db()

    assert sent == 3
    assert experiment.status == Experiment.Status.DONE and experiment.progress_done == 3
    assert sorted(experiment.deliberations.values_list("seed", flat=True)) == [2, 3, 4]
    assert experiment.measures["runs"] == 3
    # A repeated delivery of a stored run changes nothing.
    services.experiment_run_one(experiment_id=experiment.pk, case_id=experiment.deliberations.first().case_id, seed=2)
    assert experiment.deliberations.count() == 3
