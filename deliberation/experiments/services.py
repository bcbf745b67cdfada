"""Experiments: create one, run its deliberations in parallel, store every run, measure them.

Two ways to run, following ``settings.ANGRY_TASKS``:

* service mode (``celery``): ``experiment_dispatch`` sends one Celery task per run; each task
  deliberates, stores its run and counts it (``experiment_run_one``); the task that stores the
  last run computes the figures. PostgreSQL takes the concurrent writes.
* embedded mode (``inprocess`` or ``sync``): ``experiment_execute`` deliberates in worker
  processes that only compute (no database); this process stores each run as it comes back.

Either way progress is ``progress_done`` of ``progress_total`` on the experiment, and the figures
(``measures``) are computed from the stored runs, so both ways measure the same thing.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from angryagents.background import enqueue
from cases.retrieval import evidence_lookup
from deliberation.engine.rules import RULE_NAMES
from deliberation.experiments import measures, simulate
from deliberation.experiments.selection import select_cases
from deliberation.experiments.selectors import experiment_records
from deliberation.experiments.simulate import CaseInput, RunJob, RunOutcome, WorkerContext
from deliberation.experiments.storage import store_run
from deliberation.models import Experiment
from deliberation.services.formats import check_format_options
from jurors.models import Persona

ERROR_RULES_UNKNOWN = "Choose the jury rules: unanimous, england-wales, us-allen or historical-old-bailey."
ERROR_RUNS = "Runs per case must be between 1 and 1000."
ERROR_ENGINE_BLANK = "An engine is 'offline' or a LiteLLM model string."
ERROR_NOTHING_TO_RUN = "None of the selected cases can be played."
ERROR_NOT_PENDING = "This experiment has already been started."
NOTE_RUN_FAILED = "Run of {slug} with seed {seed} failed: {error}"
MAX_RUNS_PER_CASE = 1000

Progress = Callable[[int, int], None]


@transaction.atomic
def experiment_create(
    *,
    case_selector: str,
    runs_per_case: int,
    engine: str = "offline",
    seed: int = 0,
    name: str = "",
    trial: bool = False,
    rules: str = "unanimous",
    options: dict[str, Any] | None = None,
) -> Experiment:
    """A pending experiment; its cases are resolved now so a bad selector fails at once.
    ``options`` are engine settings every run takes (turn_mode, context_scope, last_n)."""
    check_format_options(options or {})
    if not 1 <= runs_per_case <= MAX_RUNS_PER_CASE:
        raise ValidationError(ERROR_RUNS)
    if rules not in RULE_NAMES:
        raise ValidationError(ERROR_RULES_UNKNOWN)
    engine = (engine or "").strip()
    if not engine:
        raise ValidationError(ERROR_ENGINE_BLANK)
    selection = select_cases(case_selector)
    experiment = Experiment(
        name=name or default_name(case_selector, runs_per_case, engine, rules),
        case_selector=case_selector,
        runs_per_case=runs_per_case,
        engine=engine,
        seed=seed,
        trial=trial,
        rules=rules,
        settings=dict(options or {}),
        notes=selection.notes,
        progress_total=len(selection.cases) * runs_per_case,
    )
    experiment.full_clean()
    experiment.save()
    return experiment


def default_name(case_selector: str, runs_per_case: int, engine: str, rules: str = "unanimous") -> str:
    cases = case_selector if len(case_selector) <= 80 else f"{len(case_selector.split(','))} cases"
    ruled = "" if rules == "unanimous" else f", {rules}"
    return f"{cases} x {runs_per_case} ({engine}{ruled})"[:200]


def experiment_jobs(experiment: Experiment) -> list[RunJob]:
    """Every run: each playable selected case with seeds seed .. seed + runs - 1."""
    cases = select_cases(experiment.case_selector).cases
    return [
        RunJob(case_id=case.pk, seed=experiment.seed + offset, engine=experiment.engine, trial=experiment.trial)
        for case in cases
        for offset in range(experiment.runs_per_case)
    ]


@transaction.atomic
def _begin(experiment_id: int) -> list[RunJob]:
    experiment = Experiment.objects.select_for_update().get(pk=experiment_id)
    if experiment.status != Experiment.Status.PENDING:
        raise ValidationError(ERROR_NOT_PENDING)
    jobs = experiment_jobs(experiment)
    if not jobs:
        experiment.status = Experiment.Status.FAILED
        experiment.error = ERROR_NOTHING_TO_RUN
        experiment.finished_at = timezone.now()
        experiment.save(update_fields=["status", "error", "finished_at"])
        return []
    experiment.status = Experiment.Status.RUNNING
    experiment.progress_total = len(jobs)
    experiment.progress_done = 0
    experiment.save(update_fields=["status", "progress_total", "progress_done"])
    return jobs


def _warm_indexes(case_ids: set[int]) -> dict[int, CaseInput]:
    """Read each case once and make sure its evidence index exists before workers search it
    (two workers building the same missing index at once would race)."""
    inputs = {}
    for case_id in sorted(case_ids):
        inputs[case_id] = simulate.case_input(case_id)
        evidence_lookup(inputs[case_id].case, "evidence", 1)
    return inputs


def _parallel(
    jobs: list[RunJob], inputs: dict[int, CaseInput], context: WorkerContext, workers: int
) -> Iterator[RunOutcome]:
    """Outcomes as they finish: in this process for one worker, else in worker processes."""
    if workers <= 1:
        for job in jobs:
            yield simulate.simulate_safely(job, inputs[job.case_id], context)
        return
    # "spawn": a fresh interpreter per worker, safe from a threaded web process too.
    with ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=simulate.worker_setup,
        initargs=(context.angry_settings,),
    ) as pool:
        futures = [pool.submit(simulate.simulate_safely, job, inputs[job.case_id], context) for job in jobs]
        for future in as_completed(futures):
            yield future.result()


@transaction.atomic
def _record(experiment_id: int, outcome: RunOutcome, personas: list[Persona], slugs: dict[int, str]) -> None:
    """Store one outcome (or a note on its failure) and count it."""
    if outcome.error:
        experiment = Experiment.objects.select_for_update().get(pk=experiment_id)
        slug = slugs.get(outcome.job.case_id, str(outcome.job.case_id))
        experiment.notes = [
            *experiment.notes,
            NOTE_RUN_FAILED.format(slug=slug, seed=outcome.job.seed, error=outcome.error),
        ]
        experiment.save(update_fields=["notes"])
    else:
        store_run(experiment_id=experiment_id, outcome=outcome, personas=personas)
    Experiment.objects.filter(pk=experiment_id).update(progress_done=F("progress_done") + 1)


def experiment_execute(*, experiment_id: int, workers: int = 2, on_progress: Progress | None = None) -> Experiment:
    """Embedded mode: run every deliberation of a pending experiment, store them, measure them.

    ``workers`` processes deliberate; this process stores. ``on_progress(done, total)`` is
    called after each stored run.
    """
    start = time.perf_counter()
    jobs = _begin(experiment_id)
    if not jobs:
        return Experiment.objects.get(pk=experiment_id)
    try:
        inputs = _warm_indexes({job.case_id for job in jobs})
        slugs = {case_id: data.case.slug for case_id, data in inputs.items()}
        rules, options = Experiment.objects.values_list("rules", "settings").get(pk=experiment_id)
        context = simulate.current_context(rules, options)
        personas = list(Persona.objects.jury())
        for done, outcome in enumerate(_parallel(jobs, inputs, context, workers), start=1):
            _record(experiment_id, outcome, personas, slugs)
            if on_progress is not None:
                on_progress(done, len(jobs))
    except Exception as exc:
        # The experiment's page is public: it names the kind of error; re-raised, the log has the rest.
        experiment_fail(experiment_id=experiment_id, error=type(exc).__name__)
        raise
    return experiment_finish(experiment_id=experiment_id, wall_seconds=time.perf_counter() - start)


def experiment_dispatch(*, experiment_id: int) -> int:
    """Service mode: one Celery task per run (sent after commit). Returns how many were sent."""
    jobs = _begin(experiment_id)
    for job in jobs:
        enqueue("deliberation.experiment_run", experiment_id, job.case_id, job.seed)
    return len(jobs)


def experiment_run_one(*, experiment_id: int, case_id: int, seed: int) -> None:
    """One run in a Celery worker: deliberate, store, count; the last run measures the lot."""
    experiment = Experiment.objects.get(pk=experiment_id)
    if experiment.status != Experiment.Status.RUNNING:
        return  # failed or already finished: a late or repeated delivery does nothing
    job = RunJob(case_id=case_id, seed=seed, engine=experiment.engine, trial=experiment.trial)
    if experiment.deliberations.filter(case_id=case_id, seed=seed).exists():
        return  # a repeated delivery of a run already stored
    data = simulate.case_input(case_id)
    context = simulate.current_context(experiment.rules, experiment.settings)
    outcome = simulate.simulate_safely(job, data, context)  # no transaction open
    with transaction.atomic():
        # The experiment's row lock makes the check and the store one step: of two deliveries of
        # the same run that deliberated side by side, only the first is stored and counted.
        experiment = Experiment.objects.select_for_update().get(pk=experiment_id)
        if experiment.deliberations.filter(case_id=case_id, seed=seed).exists():
            return
        _record(experiment_id, outcome, list(Persona.objects.jury()), {case_id: data.case.slug})
        experiment.refresh_from_db()
        if experiment.status == Experiment.Status.RUNNING and experiment.progress_done >= experiment.progress_total:
            wall = (timezone.now() - experiment.created_at).total_seconds()
            _finish(experiment, wall_seconds=wall)


def _finish(experiment: Experiment, *, wall_seconds: float) -> None:
    experiment.measures = measures.all_measures(experiment_records(experiment), wall_seconds=wall_seconds)
    experiment.wall_seconds = round(wall_seconds, 3)
    experiment.status = Experiment.Status.DONE
    experiment.finished_at = timezone.now()
    experiment.save(update_fields=["measures", "wall_seconds", "status", "finished_at"])


@transaction.atomic
def experiment_finish(*, experiment_id: int, wall_seconds: float) -> Experiment:
    """Measure the stored runs and mark the experiment done."""
    experiment = Experiment.objects.select_for_update().get(pk=experiment_id)
    _finish(experiment, wall_seconds=wall_seconds)
    return experiment


@transaction.atomic
def experiment_fail(*, experiment_id: int, error: str) -> None:
    Experiment.objects.filter(pk=experiment_id).update(
        status=Experiment.Status.FAILED, error=error[:2000], finished_at=timezone.now()
    )


def experiment_start(*, experiment_id: int) -> None:
    """Start a pending experiment in the background (the admin): Celery tasks in service mode,
    a background run with worker processes in embedded mode."""
    enqueue("deliberation.experiment_execute", experiment_id)
