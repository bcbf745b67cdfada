"""Reads for experiments: the run records the measures take, in five queries whatever the size."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db.models import Count, QuerySet, Sum

from cases.models import HistoricalVerdict
from deliberation.experiments.measures import FOREPERSON
from deliberation.models import BallotKind, Deliberation, Experiment, Turn, TurnKind, Vote


def experiments_listed() -> QuerySet[Experiment]:
    return Experiment.objects.annotate(stored_runs=Count("deliberations")).order_by("-created_at")


def experiment_runs(experiment: Experiment) -> QuerySet[Deliberation]:
    return (
        Deliberation.objects.filter(experiment=experiment)
        .select_related("case")
        .annotate(
            calls=Sum("round_stats__llm_calls"),
            prompt=Sum("round_stats__prompt_tokens"),
            completion=Sum("round_stats__completion_tokens"),
        )
        .order_by("case__slug", "seed", "pk")
    )


def experiment_records(experiment: Experiment) -> list[dict[str, Any]]:
    """One record per stored run (see ``measures`` for the format), in case and seed order."""
    first: dict[int, dict[str, int]] = defaultdict(lambda: {"guilty": 0, "not_guilty": 0})
    for row in (
        Vote.objects.filter(deliberation__experiment=experiment, ballot=BallotKind.INITIAL)
        .values("deliberation_id", "value")
        .annotate(n=Count("id"))
    ):
        first[row["deliberation_id"]][row["value"]] = row["n"]
    changes = dict(
        Vote.objects.filter(deliberation__experiment=experiment, ballot=BallotKind.FLIP)
        .values("deliberation_id")
        .annotate(n=Count("id"))
        .values_list("deliberation_id", "n")
    )
    turns: dict[int, dict[str, int]] = defaultdict(dict)
    for row in (
        Turn.objects.filter(deliberation__experiment=experiment, kind__in=(TurnKind.SPEECH, TurnKind.PROCESS))
        .values("deliberation_id", "kind", "seat_number")
        .annotate(n=Count("id"))
    ):
        speaker = FOREPERSON if row["kind"] == TurnKind.PROCESS else str(row["seat_number"])
        counts = turns[row["deliberation_id"]]
        counts[speaker] = counts.get(speaker, 0) + row["n"]
    records = []
    for run in experiment_runs(experiment):
        known = run.case.historical_verdict != HistoricalVerdict.UNKNOWN
        seconds = (run.finished_at - run.started_at).total_seconds() if run.finished_at and run.started_at else 0.0
        records.append(
            {
                "deliberation_id": run.pk,
                "public_id": run.public_id,
                "case": run.case.slug,
                "case_title": run.case.title,
                "seed": run.seed,
                "verdict": run.verdict or "hung",
                "end_reason": run.end_reason,
                "rounds": run.round_number,
                "first_ballot": dict(first[run.pk]),
                "vote_changes": changes.get(run.pk, 0),
                "speaking_turns": dict(sorted(turns[run.pk].items())),
                "historical_verdict": run.case.historical_verdict if known else None,
                "offence_category": run.case.offence_category,
                "llm_calls": run.calls or 0,
                "prompt_tokens": run.prompt or 0,
                "completion_tokens": run.completion or 0,
                "wall_seconds": round(seconds, 4),
            }
        )
    return records
