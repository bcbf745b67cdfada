"""The measures on a small hand-made set of runs whose answers are worked out by hand below."""

from __future__ import annotations

import pytest

from deliberation.experiments import measures


def run(case, verdict, first, changes, rounds, turns, historical, category, calls=0, tokens=0):
    guilty, not_guilty = first
    return {
        "case": case,
        "verdict": verdict,
        "first_ballot": {"guilty": guilty, "not_guilty": not_guilty},
        "vote_changes": changes,
        "rounds": rounds,
        "speaking_turns": turns,
        "historical_verdict": historical,
        "offence_category": category,
        "llm_calls": calls,
        "prompt_tokens": tokens,
        "wall_seconds": 0.1,
    }


# Seven runs over four cases. Case "b" always ends not guilty although its first ballots were
# close; case "c" always ends not guilty after one-sided first ballots (11-1 and 10-2 against).
RUNS = [
    run("a", "guilty", (8, 4), 3, 4, {"1": 2, "2": 1, "foreperson": 1}, "guilty", "theft", 10, 100),
    run("a", "hung", (7, 5), 0, 5, {"1": 1, "3": 2, "foreperson": 2}, "guilty", "theft", 12, 200),
    run("b", "not_guilty", (6, 6), 5, 3, {"2": 3, "foreperson": 1}, "not_guilty", "kill", 8),
    run("b", "not_guilty", (5, 7), 4, 3, {"6": 2, "foreperson": 1}, "not_guilty", "kill", 8),
    run("d", "guilty", (4, 8), 2, 2, {"4": 1, "foreperson": 1}, "guilty", "theft", 6),
    run("c", "not_guilty", (1, 11), 1, 1, {"5": 1}, None, "", 4),
    run("c", "not_guilty", (2, 10), 0, 1, {"5": 1, "foreperson": 1}, None, "", 4),
]


def test_hung_rate_counts_hung_runs_over_all_runs():
    assert measures.hung_rate(RUNS) == pytest.approx(1 / 7, abs=1e-4)


def test_first_ballot_majority_wins_leaves_out_tied_first_ballots_and_counts_a_hung_jury_as_a_loss():
    # Majorities: a1 guilty->guilty (win), a2 guilty->hung (loss), b1 6-6 (left out),
    # b2 not guilty->not guilty (win), d not guilty (4-8)->guilty (loss),
    # c1 and c2 not guilty->not guilty (wins): 4 wins of 6 runs with a majority.
    assert measures.first_ballot_majority_wins(RUNS) == pytest.approx(4 / 6, abs=1e-4)
    assert measures.first_ballot_ties(RUNS) == 1


def test_vote_changes_mean_share_and_distribution():
    assert measures.mean_vote_changes(RUNS) == pytest.approx((3 + 0 + 5 + 4 + 2 + 1 + 0) / 7, abs=1e-4)
    assert measures.runs_with_vote_change(RUNS) == pytest.approx(5 / 7, abs=1e-4)
    assert measures.vote_change_distribution(RUNS) == {0: 2, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1}


def test_mean_rounds_includes_hung_runs():
    assert measures.mean_rounds(RUNS) == pytest.approx((4 + 5 + 3 + 3 + 2 + 1 + 1) / 7, abs=1e-4)


def test_participation_counts_the_forepersons_process_lines_as_its_turns():
    # Turns: seat 1: 3, seat 2: 4, seat 3: 2, seat 4: 1, seat 5: 2, seat 6: 2, foreperson: 7 (21 in all).
    figures = measures.participation(RUNS)
    assert figures["turns"] == 21
    assert figures["shares"]["2"] == pytest.approx(4 / 21, abs=1e-4)
    assert figures["shares"]["12"] == 0.0
    assert figures["foreperson_share"] == pytest.approx(7 / 21, abs=1e-4)
    # The average juror holds (14 / 21) / 12 of the turns; the foreperson six times that.
    assert figures["foreperson_ratio"] == pytest.approx(6.0, abs=1e-3)


def test_juror_gini_matches_the_mean_absolute_difference_definition():
    counts = [3, 4, 2, 1, 2, 2, 0, 0, 0, 0, 0, 0]
    n, total = len(counts), sum(counts)
    expected = sum(abs(x - y) for x in counts for y in counts) / (2 * n * total)
    assert measures.participation(RUNS)["juror_gini"] == pytest.approx(expected, abs=1e-4)
    assert measures.gini([5, 5, 5]) == 0.0


def test_agreement_with_history_overall_by_category_and_by_verdict():
    # Known verdicts: a1 agrees, a2 hung (disagrees), b1 and b2 agree, d agrees: 4 of 5.
    assert measures.historical_agreement(RUNS) == pytest.approx(4 / 5, abs=1e-4)
    assert measures.historical_agreement_by(RUNS, "offence_category") == {
        "kill": 1.0,
        "theft": pytest.approx(2 / 3, abs=1e-4),
    }
    by_verdict = measures.historical_agreement_by(RUNS, "historical_verdict")
    assert by_verdict == {"guilty": pytest.approx(2 / 3, abs=1e-4), "not_guilty": 1.0}
    assert measures.historical_balanced_accuracy(RUNS) == pytest.approx((2 / 3 + 1.0) / 2, abs=1e-4)


def test_a_jury_that_always_convicts_scores_one_half_balanced_accuracy_however_often_juries_convicted():
    always = [run(f"g{i}", "guilty", (9, 3), 1, 2, {}, "guilty", "theft") for i in range(9)]
    always.append(run("n", "guilty", (9, 3), 1, 2, {}, "not_guilty", "theft"))
    assert measures.historical_agreement(always) == pytest.approx(0.9)
    assert measures.historical_balanced_accuracy(always) == pytest.approx(0.5)


def test_no_known_verdict_gives_no_agreement_figures():
    unknown = [r for r in RUNS if r["historical_verdict"] is None]
    assert measures.historical_agreement(unknown) is None
    assert measures.historical_balanced_accuracy(unknown) is None
    assert measures.historical_agreement_by(unknown, "offence_category") == {}


def test_cases_that_always_end_the_same_way_without_one_sided_first_ballots_are_named():
    outcomes = measures.case_outcomes(RUNS)
    assert outcomes["c"]["all_same"] and outcomes["c"]["one_sided"]
    assert not outcomes["a"]["all_same"]
    assert measures.uniform_cases_not_one_sided(RUNS) == ["b"]


def test_all_measures_holds_every_key_of_the_json_line():
    figures = measures.all_measures(RUNS, wall_seconds=1.5)
    required = {
        "runs", "hung_rate", "first_ballot_majority_wins", "runs_with_vote_change", "mean_vote_changes",
        "mean_rounds", "historical_agreement", "historical_balanced_accuracy", "historical_agreement_by_category",
        "llm_calls", "prompt_tokens", "wall_seconds",
    }  # fmt: skip
    assert required <= set(figures)
    assert figures["runs"] == 7
    assert figures["llm_calls"] == pytest.approx((10 + 12 + 8 + 8 + 6 + 4 + 4) / 7, abs=1e-4)
    assert figures["prompt_tokens"] == pytest.approx(300 / 7, abs=1e-3)
    assert figures["wall_seconds"] == 1.5
    assert figures["verdicts"] == {"guilty": 2, "hung": 1, "not_guilty": 4}


def test_no_runs_give_no_rates():
    figures = measures.all_measures([], wall_seconds=0.0)
    assert figures["runs"] == 0 and figures["hung_rate"] is None and figures["first_ballot_majority_wins"] is None
