"""`manage.py experiment` runs N deliberations per case, stores them and prints every measure."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from deliberation.experiments.selection import ERROR_SLUGS_UNKNOWN, NOTE_UNPLAYABLE
from deliberation.models import Deliberation, Experiment, Phase, TurnKind
from deliberation.selectors import deliberations_with_record, run_record

TWO_CASES = "kessler-market-robbery,pruitt-basement-killing"
JSON_KEYS = {
    "runs",
    "hung_rate",
    "first_ballot_majority_wins",
    "runs_with_vote_change",
    "mean_vote_changes",
    "mean_rounds",
    "historical_agreement",
    "historical_balanced_accuracy",
    "historical_agreement_by_category",
    "llm_calls",
    "prompt_tokens",
    "wall_seconds",
}


def experiment(*args: str) -> tuple[dict, str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("experiment", *args, "--json", stdout=out, stderr=err)
    return json.loads(out.getvalue().strip().splitlines()[-1]), out.getvalue(), err.getvalue()


def test_two_cases_by_three_runs_store_six_finished_runs_and_skip_the_unplayable_case(library):
    line, out, err = experiment("--cases", f"{TWO_CASES},copper-kettle-fire", "--runs", "3", "--seed", "5")
    stored = Experiment.objects.get(pk=line["experiment_id"])
    runs = list(stored.deliberations.select_related("case"))

    assert JSON_KEYS <= set(line)
    assert line["runs"] == 6 and len(runs) == 6
    assert stored.status == Experiment.Status.DONE and stored.progress_done == stored.progress_total == 6
    assert NOTE_UNPLAYABLE.format(slug="copper-kettle-fire") in stored.notes
    assert NOTE_UNPLAYABLE.format(slug="copper-kettle-fire") in line["notes"]
    assert not any(run.case.slug == "copper-kettle-fire" for run in runs)
    for slug in TWO_CASES.split(","):
        assert sorted(run.seed for run in runs if run.case.slug == slug) == [5, 6, 7]
    assert all(run.phase == Phase.VERDICT and run.verdict and run.seats.count() == 12 for run in runs)
    assert all(run.turns.filter(kind=TurnKind.SPEECH).exists() for run in runs)
    assert "first ballots" in out and "runs" in err  # the table on stdout, the progress bar on stderr


def test_the_json_figures_are_those_of_the_stored_runs(library):
    line, _, _ = experiment("--cases", TWO_CASES, "--runs", "3", "--seed", "11")
    runs = list(Deliberation.objects.filter(experiment_id=line["experiment_id"]).select_related("case"))
    hung = sum(1 for run in runs if run.verdict == "hung")
    agreeing = sum(1 for run in runs if run.verdict == run.case.historical_verdict)
    changes = [run.votes.filter(ballot="flip").count() for run in runs]

    assert line["hung_rate"] == pytest.approx(hung / 6, abs=1e-4)
    assert line["historical_agreement"] == pytest.approx(agreeing / 6, abs=1e-4)
    assert line["mean_vote_changes"] == pytest.approx(sum(changes) / 6, abs=1e-4)
    assert line["mean_rounds"] == pytest.approx(sum(run.round_number for run in runs) / 6, abs=1e-4)
    assert 0.0 <= line["runs_with_vote_change"] <= 1.0
    assert set(line["historical_agreement_by_category"]) == {run.case.offence_category for run in runs}


def test_a_run_is_the_deliberation_the_deliberate_command_holds_with_the_same_seed(library):
    line, _, _ = experiment("--cases", "pruitt-basement-killing", "--runs", "1", "--seed", "4")
    run = deliberations_with_record().get(experiment_id=line["experiment_id"])
    out = io.StringIO()
    call_command(
        "deliberate", "--case", "pruitt-basement-killing", "--seed", "4", "--json", stdout=out, stderr=io.StringIO()
    )
    played = json.loads(out.getvalue().strip().splitlines()[-1])

    ours = run_record(run)
    assert ours.pop("deliberation_id") != played.pop("deliberation_id")
    assert ours.pop("public_id") != played.pop("public_id")
    assert ours == played


def test_worker_processes_store_the_same_runs_as_a_single_process(library):
    single, _, _ = experiment("--cases", "kessler-market-robbery", "--runs", "3", "--workers", "1")
    parallel, _, _ = experiment("--cases", "kessler-market-robbery", "--runs", "3", "--workers", "2")

    def transcripts(experiment_id: int) -> dict[int, list[str]]:
        runs = Deliberation.objects.filter(experiment_id=experiment_id).prefetch_related("turns")
        return {run.seed: [turn.content for turn in run.turns.all()] for run in runs}

    assert transcripts(single["experiment_id"]) == transcripts(parallel["experiment_id"])
    assert single["hung_rate"] == parallel["hung_rate"] and single["mean_rounds"] == parallel["mean_rounds"]


def test_an_unknown_case_is_refused_with_its_slug(library):
    with pytest.raises(CommandError) as failure:
        experiment("--cases", "kessler-market-robbery,no-such-case", "--runs", "1")
    assert str(failure.value) == ERROR_SLUGS_UNKNOWN.format(slugs="no-such-case")
    assert not Experiment.objects.exists()
