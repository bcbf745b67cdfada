"""Run many AI-only deliberations per case and measure how the juries behave.

    python manage.py experiment --cases SLUG[,SLUG...]|all|source=oldbailey [--runs N]
        [--engine offline|MODEL] [--seed S] [--workers N] [--rules NAME] [--json]

Runs N deliberations per playable case (seeds S .. S+N-1, the "Juror 7" persona in seat 7, no
player) in parallel: Celery tasks in service mode, worker processes in embedded mode. Stores an
Experiment with every run, prints a summary table; progress goes to stderr. With ``--json`` the
last line of stdout is one JSON object holding every measure (see ``experiments.measures``).
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from deliberation.engine.rules import RULE_NAMES
from deliberation.experiments import services
from deliberation.experiments.report import case_table, measure_table
from deliberation.experiments.selectors import experiment_records
from deliberation.management.format_arguments import add_format_arguments, format_options
from deliberation.models import Experiment

POLL_SECONDS = 0.5
STALL_SECONDS = 900
ERROR_STALLED = "No run finished for {seconds} s: are the Celery workers running (make worker)?"
ERROR_FAILED = "The experiment failed: {error}"


class Command(BaseCommand):
    help = "Run N AI-only deliberations per case, store them as an experiment and measure them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--cases", required=True, help="SLUG[,SLUG...], 'all' or 'source=oldbailey'")
        parser.add_argument("--runs", type=int, default=5, help="runs per case (seeds S .. S+N-1)")
        parser.add_argument("--engine", default="offline", help="'offline' or a LiteLLM model string")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="worker processes")
        parser.add_argument("--name", default="")
        parser.add_argument("--trial", action="store_true", help="every run holds the trial before its first ballot")
        parser.add_argument("--rules", choices=RULE_NAMES, default="unanimous", help="the jury's rule set")
        parser.add_argument("--json", action="store_true", help="print every measure as one JSON line last")
        add_format_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        err = options.get("stderr") or sys.stderr  # call_command(stderr=...) passes its stream here
        try:
            experiment = services.experiment_create(
                case_selector=options["cases"],
                runs_per_case=options["runs"],
                engine=options["engine"],
                seed=options["seed"],
                name=options["name"],
                trial=options["trial"],
                rules=options["rules"],
                options=format_options(options),
            )
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from None
        for note in experiment.notes:
            err.write(note + "\n")
        err.write(
            f"Experiment {experiment.pk}: {experiment.progress_total} runs "
            f"({experiment.runs_per_case} per case, engine {experiment.engine}, rules {experiment.rules})\n"
        )
        if settings.ANGRY_TASKS == "celery":
            experiment = self._run_on_celery(experiment, err)
        else:
            experiment = self._run_here(experiment, max(1, options["workers"]), err)
        if experiment.status != Experiment.Status.DONE:
            raise CommandError(ERROR_FAILED.format(error=experiment.error or experiment.status))
        records = experiment_records(experiment)
        for note in experiment.notes:
            self.stdout.write(f"note: {note}")
        self.stdout.write(case_table(records))
        self.stdout.write(measure_table(experiment.measures))
        self.stdout.write(f"experiment {experiment.pk}: {len(records)} runs stored, see /experiments/{experiment.pk}/")
        if options["json"]:
            line = {
                "experiment_id": experiment.pk,
                "rules": experiment.rules,
                "notes": experiment.notes,
                **experiment.measures,
            }
            self.stdout.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")))

    def _run_here(self, experiment: Experiment, workers: int, err: Any) -> Experiment:
        with tqdm(total=experiment.progress_total, desc="runs", unit="run", file=err) as bar:

            def progress(done: int, total: int) -> None:
                bar.update(done - bar.n)

            try:
                return services.experiment_execute(experiment_id=experiment.pk, workers=workers, on_progress=progress)
            except ValidationError as exc:
                raise CommandError(" ".join(exc.messages)) from None

    def _run_on_celery(self, experiment: Experiment, err: Any) -> Experiment:
        services.experiment_dispatch(experiment_id=experiment.pk)
        last_change, done = time.monotonic(), 0
        with tqdm(total=experiment.progress_total, desc="runs (celery)", unit="run", file=err) as bar:
            while True:
                experiment.refresh_from_db()
                if experiment.progress_done != done:
                    done, last_change = experiment.progress_done, time.monotonic()
                    bar.update(done - bar.n)
                if experiment.status != Experiment.Status.RUNNING:
                    return experiment
                if time.monotonic() - last_change > STALL_SECONDS:
                    message = ERROR_STALLED.format(seconds=STALL_SECONDS)
                    services.experiment_fail(experiment_id=experiment.pk, error=message)
                    raise CommandError(message)
                time.sleep(POLL_SECONDS)
