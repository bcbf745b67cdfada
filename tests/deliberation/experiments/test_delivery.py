"""Service mode: a run delivered twice at the same time is stored and counted once."""

from __future__ import annotations

from cases.models import Case
from deliberation.experiments import services, simulate
from deliberation.models import Experiment


def test_two_deliveries_of_one_run_deliberating_side_by_side_store_it_once(library, monkeypatch):
    experiment = services.experiment_create(case_selector="kessler-market-robbery", runs_per_case=2, seed=0)
    services._begin(experiment.pk)  # what experiment_dispatch does before sending the tasks
    case_id = Case.objects.get(slug="kessler-market-robbery").pk
    real = simulate.simulate_safely
    overlapped = []

    def side_by_side(job, data, context):
        outcome = real(job, data, context)
        if not overlapped:  # the other delivery finishes and stores while this one was thinking
            overlapped.append(True)
            services.experiment_run_one(experiment_id=experiment.pk, case_id=case_id, seed=0)
        return outcome

    monkeypatch.setattr(simulate, "simulate_safely", side_by_side)
    services.experiment_run_one(experiment_id=experiment.pk, case_id=case_id, seed=0)
    experiment.refresh_from_db()
    assert experiment.deliberations.filter(seed=0).count() == 1
    assert experiment.progress_done == 1 and experiment.status == Experiment.Status.RUNNING
