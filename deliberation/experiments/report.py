"""The experiment's figures as plain-text tables (the command line) and beside human juries."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

# Human juries, for comparison (see REALISM.md for the sources).
HUMAN_HUNG_RATE = 0.06  # Kalven and Zeisel; Sandys and Dillehay 1995
HUMAN_FIRST_BALLOT_WINS = 0.89  # Sandys and Dillehay 1995, after Kalven and Zeisel
HUMAN_FOREPERSON_RATIO = 3.0  # Hastie, Penrod and Pennington 1983
LLM_BENCHMARK_HUNG = 17 / 18  # twelve LLM jurors on "12 Angry Men": 17 of 18 runs hung
TARGETS = {
    "hung_rate": (0.02, 0.10),
    "first_ballot_majority_wins": (0.80, 0.95),
    "runs_with_vote_change": (0.60, 1.0),
}
SHORT = {"guilty": "G", "not_guilty": "NG", "hung": "H"}


def fraction(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:.1f}%"


def number(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def ballot_text(ballot: dict[str, int]) -> str:
    return f"{ballot.get('guilty', 0)}-{ballot.get('not_guilty', 0)}"


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    line = "  ".join(str(h).ljust(w) for h, w in zip(headers, widths, strict=True))
    out = [line, "  ".join("-" * w for w in widths)]
    out.extend("  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)) for row in rows)
    return "\n".join(out)


def case_rows(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per case: runs, first ballots, verdicts, mean changes and rounds, the real verdict."""
    by_case: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        by_case[record["case"]].append(record)
    rows = []
    for slug, runs in sorted(by_case.items()):
        verdicts = {v: sum(1 for r in runs if r["verdict"] == v) for v in SHORT}
        rows.append(
            {
                "case": slug,
                "title": runs[0].get("case_title", slug),
                "runs": len(runs),
                "first_ballots": [ballot_text(r["first_ballot"]) for r in runs],
                "verdicts": verdicts,
                "mean_vote_changes": sum(r["vote_changes"] for r in runs) / len(runs),
                "mean_rounds": sum(r["rounds"] for r in runs) / len(runs),
                "historical_verdict": runs[0].get("historical_verdict"),
                "offence_category": runs[0].get("offence_category", ""),
            }
        )
    return rows


def case_table(records: Sequence[dict[str, Any]]) -> str:
    rows = [
        [
            row["case"][:40],
            row["runs"],
            " ".join(row["first_ballots"][:8]) + (" ..." if len(row["first_ballots"]) > 8 else ""),
            " ".join(f"{SHORT[v]}:{n}" for v, n in row["verdicts"].items() if n),
            f"{row['mean_vote_changes']:.1f}",
            f"{row['mean_rounds']:.1f}",
            SHORT.get(row["historical_verdict"] or "", "?"),
        ]
        for row in case_rows(records)
    ]
    return _table(["case", "runs", "first ballots (G-NG)", "verdicts", "changes", "rounds", "real"], rows)


def comparison(measures: dict[str, Any]) -> list[dict[str, Any]]:
    """The figures that have a human reference, with the reference and the target band."""
    participation = measures.get("participation") or {}
    return [
        {
            "label": "Hung juries",
            "value": fraction(measures.get("hung_rate")),
            "human": fraction(HUMAN_HUNG_RATE),
            "target": "2-10%",
            "note": f"12 LLM jurors on 12 Angry Men: {fraction(LLM_BENCHMARK_HUNG)} (17 of 18 runs)",
            "ok": _within(measures.get("hung_rate"), TARGETS["hung_rate"]),
        },
        {
            "label": "First-ballot majority becomes the verdict",
            "value": fraction(measures.get("first_ballot_majority_wins")),
            "human": fraction(HUMAN_FIRST_BALLOT_WINS),
            "target": "80-95%",
            "note": f"{measures.get('first_ballot_ties', 0)} runs opened 6-6 (no majority) and are not counted",
            "ok": _within(measures.get("first_ballot_majority_wins"), TARGETS["first_ballot_majority_wins"]),
        },
        {
            "label": "Runs with at least one vote change",
            "value": fraction(measures.get("runs_with_vote_change")),
            "human": "",
            "target": "60% or more",
            "note": "",
            "ok": _within(measures.get("runs_with_vote_change"), TARGETS["runs_with_vote_change"]),
        },
        {
            "label": "Foreperson's turns over the average juror's",
            "value": number(participation.get("foreperson_ratio")),
            "human": number(HUMAN_FOREPERSON_RATIO),
            "target": "reported, no target",
            "note": "",
            "ok": None,
        },
    ]


def _within(value: float | None, band: tuple[float, float]) -> bool | None:
    if value is None:
        return None
    return band[0] <= value <= band[1]


def measure_table(measures: dict[str, Any]) -> str:
    rows = [[c["label"], c["value"], c["human"] or "-", c["target"]] for c in comparison(measures)]
    rows += [
        ["Runs", str(measures.get("runs")), "-", "-"],
        ["Mean vote changes per run", number(measures.get("mean_vote_changes")), "-", "-"],
        ["Mean rounds", number(measures.get("mean_rounds")), "-", "-"],
        ["Agreement with the real verdict", fraction(measures.get("historical_agreement")), "-", "-"],
        ["Balanced accuracy against history", fraction(measures.get("historical_balanced_accuracy")), "-", "-"],
        ["Model calls per run", number(measures.get("llm_calls")), "-", "-"],
        ["Prompt tokens per run", number(measures.get("prompt_tokens")), "-", "-"],
        ["Cases all one way, not one-sided", str(len(measures.get("cases_all_same_not_one_sided") or [])), "-", "0"],
        ["Wall time (s)", number(measures.get("wall_seconds")), "-", "-"],
    ]
    return _table(["measure", "this experiment", "human juries", "target"], rows)
