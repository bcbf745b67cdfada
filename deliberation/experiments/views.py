"""The experiment pages: ``/experiments/`` (all of them) and ``/experiments/<id>/`` (one).

While an experiment runs its page refreshes itself and shows the figures of the runs stored so
far; the figures of a finished experiment are the ones stored with it.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from deliberation.engine.rules import RULE_SETS
from deliberation.experiments import charts, measures, report
from deliberation.experiments.rules_compare import rule_comparison
from deliberation.experiments.selectors import experiment_records, experiments_listed
from deliberation.models import Experiment

REFRESH_SECONDS = 3
HISTORICAL_LABELS = {"guilty": "Guilty", "not_guilty": "Not guilty"}


def _active(status: str) -> bool:
    return status in (Experiment.Status.PENDING, Experiment.Status.RUNNING)


def experiment_list(request: HttpRequest) -> HttpResponse:
    experiments = list(experiments_listed()[:200])
    return render(
        request,
        "experiments/list.html",
        {
            "experiments": experiments,
            "refresh": REFRESH_SECONDS if any(_active(e.status) for e in experiments) else None,
        },
    )


def experiment_detail(request: HttpRequest, pk: int) -> HttpResponse:
    experiment = get_object_or_404(Experiment, pk=pk)
    records = experiment_records(experiment)
    figures = experiment.measures
    if not figures and records:  # still running: the runs stored so far
        elapsed = (timezone.now() - experiment.created_at).total_seconds()
        figures = measures.all_measures(records, wall_seconds=elapsed)
    runs_by_case: dict[str, list[dict]] = {}
    for record in records:
        runs_by_case.setdefault(record["case"], []).append(record)
    rows = report.case_rows(records)
    for row in rows:
        row["run_list"] = runs_by_case[row["case"]]
        row["historical_label"] = HISTORICAL_LABELS.get(row["historical_verdict"] or "", "Unknown")
    participation = (figures or {}).get("participation") or {}
    return render(
        request,
        "experiments/detail.html",
        {
            "experiment": experiment,
            "figures": figures,
            "comparison": report.comparison(figures) if figures else [],
            "rule_rows": rule_comparison(experiment),
            "rule_label": RULE_SETS.get(experiment.rules, RULE_SETS["unanimous"]).label,
            "rows": rows,
            "histogram": charts.vote_change_histogram((figures or {}).get("vote_change_distribution") or {}),
            "categories": charts.category_agreement(
                (figures or {}).get("historical_agreement_by_category") or {},
                (figures or {}).get("historical_runs_by_category") or {},
            ),
            "summary": _summary(figures or {}),
            "shares": [
                {"speaker": "Foreperson" if k == measures.FOREPERSON else f"Seat {k}", "share": report.fraction(v)}
                for k, v in sorted((participation.get("shares") or {}).items(), key=lambda kv: kv[0] != "foreperson")
            ],
            "refresh": REFRESH_SECONDS if _active(experiment.status) else None,
            "progress_percent": (
                round(100 * experiment.progress_done / experiment.progress_total) if experiment.progress_total else 0
            ),
        },
    )


def _summary(figures: dict) -> list[tuple[str, str]]:
    """The figures without a human reference, formatted for the page."""
    if not figures:
        return []
    by_verdict = figures.get("historical_agreement_by_verdict") or {}
    participation = figures.get("participation") or {}
    uniform = figures.get("cases_all_same_not_one_sided") or []
    return [
        ("Runs", str(figures.get("runs", 0))),
        ("Cases", str(figures.get("cases", 0))),
        ("Verdicts", ", ".join(f"{k.replace('_', ' ')}: {v}" for k, v in (figures.get("verdicts") or {}).items())),
        ("Mean vote changes per run", report.number(figures.get("mean_vote_changes"))),
        ("Mean rounds", report.number(figures.get("mean_rounds"))),
        ("Agreement with the real verdict", report.fraction(figures.get("historical_agreement"))),
        ("... on trials the real jury convicted", report.fraction(by_verdict.get("guilty"))),
        ("... on trials the real jury acquitted", report.fraction(by_verdict.get("not_guilty"))),
        ("Balanced accuracy against history", report.fraction(figures.get("historical_balanced_accuracy"))),
        ("Juror participation (Gini, 0 = equal)", report.number(participation.get("juror_gini"))),
        ("Cases whose runs all ended alike without one-sided first ballots", str(len(uniform))),
        ("Model calls per run", report.number(figures.get("llm_calls"))),
        ("Prompt tokens per run", report.number(figures.get("prompt_tokens"))),
        ("Wall time", f"{figures.get('wall_seconds', 0):.1f} s"),
    ]
