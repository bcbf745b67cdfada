"""How juries behave, measured over a list of run records. Pure functions, no Django.

A run record is a plain dict (``selectors.experiment_records`` builds them from stored runs)::

    {"deliberation_id": 12, "case": "t1744-29", "seed": 3, "verdict": "guilty" | "not_guilty" | "hung",
     "rounds": 4, "first_ballot": {"guilty": 8, "not_guilty": 4}, "vote_changes": 5,
     "speaking_turns": {"1": 2, ..., "12": 0, "foreperson": 2},
     "historical_verdict": "guilty" | "not_guilty" | None, "offence_category": "theft",
     "llm_calls": 11, "prompt_tokens": 0, "completion_tokens": 0, "wall_seconds": 0.05}

Definitions (rates are fractions 0..1; ``None`` when nothing could be measured):

* ``hung_rate``: runs ending hung / runs.
* ``first_ballot_majority_wins``: among runs whose first ballot had a majority (a 6-6 tie has
  none), the share whose verdict was that majority's side; a hung jury is not a win.
* ``runs_with_vote_change``: runs in which at least one juror changed their vote / runs.
* ``mean_vote_changes`` and ``vote_change_distribution`` (changes -> number of runs).
* ``mean_rounds``: rounds the jury deliberated, over all runs (hung ones included).
* ``participation``: each speaker's share of all speaking turns (seats "1".."12" and the
  foreperson, whose process lines are its turns); ``foreperson_ratio`` is the foreperson's share
  over the average juror's share (human juries: about 3); ``juror_gini`` the Gini coefficient of
  the twelve jurors' shares (0: everyone speaks equally).
* ``historical_agreement``: runs whose verdict equals the real jury's, over runs of trials whose
  verdict is known; hung counts as disagreeing. By offence category and by historical verdict too.
* ``historical_balanced_accuracy``: the mean of the agreement on historically guilty and on
  historically acquitted trials (a jury that always convicts scores 0.5).
* ``llm_calls``, ``prompt_tokens``, ``completion_tokens``: means per run.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from statistics import mean
from typing import Any

Record = dict[str, Any]
FOREPERSON = "foreperson"
JUROR_SEATS = tuple(str(seat) for seat in range(1, 13))
ONE_SIDED_MIN = 10  # a first ballot of at least 10-2 either way
KNOWN_VERDICTS = ("guilty", "not_guilty")
PLACES = 4


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, PLACES) if whole else None


def _mean(values: Iterable[float]) -> float | None:
    values = list(values)
    return round(mean(values), PLACES) if values else None


def first_majority(record: Record) -> str | None:
    """The first ballot's majority side, or None for a 6-6 tie."""
    ballot = record["first_ballot"]
    guilty, not_guilty = ballot.get("guilty", 0), ballot.get("not_guilty", 0)
    if guilty == not_guilty:
        return None
    return "guilty" if guilty > not_guilty else "not_guilty"


def is_one_sided(record: Record) -> bool:
    ballot = record["first_ballot"]
    return max(ballot.get("guilty", 0), ballot.get("not_guilty", 0)) >= ONE_SIDED_MIN


def hung_rate(records: Sequence[Record]) -> float | None:
    return _share(sum(1 for r in records if r["verdict"] == "hung"), len(records))


def first_ballot_majority_wins(records: Sequence[Record]) -> float | None:
    with_majority = [r for r in records if first_majority(r) is not None]
    return _share(sum(1 for r in with_majority if r["verdict"] == first_majority(r)), len(with_majority))


def first_ballot_ties(records: Sequence[Record]) -> int:
    return sum(1 for r in records if first_majority(r) is None)


def vote_change_distribution(records: Sequence[Record]) -> dict[int, int]:
    """Vote changes in a run -> how many runs had that many, in increasing order."""
    counts = Counter(int(r["vote_changes"]) for r in records)
    return dict(sorted(counts.items()))


def runs_with_vote_change(records: Sequence[Record]) -> float | None:
    return _share(sum(1 for r in records if r["vote_changes"] > 0), len(records))


def mean_vote_changes(records: Sequence[Record]) -> float | None:
    return _mean(r["vote_changes"] for r in records)


def mean_rounds(records: Sequence[Record]) -> float | None:
    return _mean(r["rounds"] for r in records)


def gini(values: Sequence[float]) -> float | None:
    """0 when all values are equal, towards 1 when one value holds everything."""
    if not values or sum(values) == 0:
        return None
    ordered = sorted(values)
    n = len(ordered)
    weighted = sum((i + 1) * v for i, v in enumerate(ordered))
    return round((2 * weighted) / (n * sum(ordered)) - (n + 1) / n, PLACES)


def participation(records: Sequence[Record]) -> dict[str, Any]:
    """Speaking-turn shares per speaker over all runs, and the skew figures."""
    totals: Counter[str] = Counter()
    for record in records:
        totals.update({str(k): int(v) for k, v in record.get("speaking_turns", {}).items()})
    whole = sum(totals.values())
    speakers = [*JUROR_SEATS, FOREPERSON]
    shares = {speaker: _share(totals[speaker], whole) or 0.0 for speaker in speakers}
    juror_shares = [shares[seat] for seat in JUROR_SEATS]
    average = mean(juror_shares) if whole else 0.0
    return {
        "turns": whole,
        "shares": shares,
        "foreperson_share": shares[FOREPERSON] if whole else None,
        "foreperson_ratio": round(shares[FOREPERSON] / average, PLACES) if average else None,
        "juror_gini": gini([totals[seat] for seat in JUROR_SEATS]),
        "most_to_least": (
            round(max(juror_shares) / min(juror_shares), PLACES) if whole and min(juror_shares) > 0 else None
        ),
    }


def _agreement(records: Iterable[Record]) -> tuple[int, int]:
    known = [r for r in records if r.get("historical_verdict") in KNOWN_VERDICTS]
    return sum(1 for r in known if r["verdict"] == r["historical_verdict"]), len(known)


def historical_agreement(records: Sequence[Record]) -> float | None:
    return _share(*_agreement(records))


def historical_agreement_by(records: Sequence[Record], key: str) -> dict[str, float]:
    """Agreement per value of ``key`` (``offence_category`` or ``historical_verdict``)."""
    groups: dict[str, list[Record]] = defaultdict(list)
    for record in records:
        if record.get("historical_verdict") in KNOWN_VERDICTS:
            groups[record.get(key) or "unknown"].append(record)
    return {name: _share(*_agreement(group)) for name, group in sorted(groups.items())}  # type: ignore[misc]


def historical_runs_by(records: Sequence[Record], key: str) -> dict[str, int]:
    counts = Counter(r.get(key) or "unknown" for r in records if r.get("historical_verdict") in KNOWN_VERDICTS)
    return dict(sorted(counts.items()))


def historical_balanced_accuracy(records: Sequence[Record]) -> float | None:
    """Mean agreement on historically guilty and on historically acquitted trials; None unless
    both kinds of trial were run."""
    by_verdict = historical_agreement_by(records, "historical_verdict")
    if not all(by_verdict.get(v) is not None for v in KNOWN_VERDICTS):
        return None
    return round((by_verdict["guilty"] + by_verdict["not_guilty"]) / 2, PLACES)


def case_outcomes(records: Sequence[Record]) -> dict[str, dict[str, Any]]:
    """Per case: how its runs ended, and whether every first ballot was one-sided (10-2 or more)."""
    by_case: dict[str, list[Record]] = defaultdict(list)
    for record in records:
        by_case[record["case"]].append(record)
    out = {}
    for slug, runs in sorted(by_case.items()):
        verdicts = Counter(r["verdict"] for r in runs)
        out[slug] = {
            "runs": len(runs),
            "verdicts": dict(sorted(verdicts.items())),
            "all_same": len(runs) > 1 and len(verdicts) == 1,
            "one_sided": all(is_one_sided(r) for r in runs),
        }
    return out


def uniform_cases_not_one_sided(records: Sequence[Record]) -> list[str]:
    """Cases whose runs all ended the same way although not every first ballot was one-sided."""
    return [slug for slug, o in case_outcomes(records).items() if o["all_same"] and not o["one_sided"]]


def all_measures(records: Sequence[Record], *, wall_seconds: float) -> dict[str, Any]:
    """Every measure, under the keys the command's JSON line and the experiment page use."""
    outcomes = case_outcomes(records)
    return {
        "runs": len(records),
        "cases": len(outcomes),
        "hung_rate": hung_rate(records),
        "first_ballot_majority_wins": first_ballot_majority_wins(records),
        "first_ballot_ties": first_ballot_ties(records),
        "runs_with_vote_change": runs_with_vote_change(records),
        "mean_vote_changes": mean_vote_changes(records),
        "vote_change_distribution": {str(k): v for k, v in vote_change_distribution(records).items()},
        "mean_rounds": mean_rounds(records),
        "verdicts": dict(sorted(Counter(r["verdict"] for r in records).items())),
        "participation": participation(records),
        "historical_agreement": historical_agreement(records),
        "historical_balanced_accuracy": historical_balanced_accuracy(records),
        "historical_agreement_by_category": historical_agreement_by(records, "offence_category"),
        "historical_runs_by_category": historical_runs_by(records, "offence_category"),
        "historical_agreement_by_verdict": historical_agreement_by(records, "historical_verdict"),
        "cases_all_same": sum(1 for o in outcomes.values() if o["all_same"]),
        "cases_all_same_one_sided": sum(1 for o in outcomes.values() if o["all_same"] and o["one_sided"]),
        "cases_all_same_not_one_sided": uniform_cases_not_one_sided(records),
        "llm_calls": _mean(r.get("llm_calls", 0) for r in records),
        "prompt_tokens": _mean(r.get("prompt_tokens", 0) for r in records),
        "completion_tokens": _mean(r.get("completion_tokens", 0) for r in records),
        "mean_run_seconds": _mean(r.get("wall_seconds", 0.0) for r in records),
        "wall_seconds": round(wall_seconds, 3),
    }
