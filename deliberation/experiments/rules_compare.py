"""Rule sets side by side: the experiments run on the same cases, engine, seeds and runs per case
under each jury rule set (the newest finished one of each), with the figures that differ by rule."""

from __future__ import annotations

from typing import Any

from deliberation.engine.rules import RULE_SETS
from deliberation.experiments import report
from deliberation.models import Experiment


def rule_comparison(experiment: Experiment) -> list[dict[str, Any]]:
    """One row per rule set with a finished experiment like this one (one query); [] when this is
    the only rule set run on these cases."""
    siblings = Experiment.objects.filter(
        case_selector=experiment.case_selector,
        engine=experiment.engine,
        seed=experiment.seed,
        runs_per_case=experiment.runs_per_case,
        status=Experiment.Status.DONE,
    ).order_by("-created_at")
    newest: dict[str, Experiment] = {}
    for sibling in siblings.only("pk", "rules", "measures", "name", "created_at"):
        newest.setdefault(sibling.rules, sibling)
    if set(newest) <= {experiment.rules}:
        return []
    rows = []
    for name, rule in RULE_SETS.items():
        found = newest.get(name)
        if found is None:
            continue
        figures = found.measures or {}
        verdicts = figures.get("verdicts") or {}
        rows.append(
            {
                "rules": rule.label,
                "experiment": found,
                "current": found.pk == experiment.pk,
                "runs": figures.get("runs", 0),
                "hung": report.fraction(figures.get("hung_rate")),
                "first_ballot": report.fraction(figures.get("first_ballot_majority_wins")),
                "rounds": report.number(figures.get("mean_rounds")),
                "guilty": verdicts.get("guilty", 0),
                "not_guilty": verdicts.get("not_guilty", 0),
                "agreement": report.fraction(figures.get("historical_agreement")),
            }
        )
    return rows
