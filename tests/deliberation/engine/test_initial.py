import dataclasses
import random
from dataclasses import replace

import pytest

from deliberation.engine import initial, params
from deliberation.engine.initial import case_lean, evidence_balance, lean_rule
from deliberation.engine.session import begin
from deliberation.engine.types import CaseFile
from tests.deliberation.engine.factories import build_case, build_jury


def test_the_case_lean_follows_the_weighted_evidence_balance() -> None:
    case = build_case()
    # evidence: 0.6 x (0.6-0.3) + 0.6 x (0.8-0.2) + (0.4-0.2) + (0.1-0.5) = 0.34 over weights 3.2;
    # witnesses, each at WITNESS_WEIGHT w: +w x (1-0.4) + w x 1 - w x (1-0.2) = 0.8 w over 3 w
    w = params.WITNESS_WEIGHT
    balance = (0.34 + 0.8 * w) / (3.2 + 3 * w)
    assert evidence_balance(case) == pytest.approx(balance)
    assert case_lean(case) == pytest.approx(0.5 + params.CASE_LEAN_SCALE * balance)


def test_each_lean_rule_moves_the_start_as_documented() -> None:
    case = build_case()
    lean = case_lean(case)
    assert lean_rule("calculated", case) == pytest.approx(lean)
    assert lean_rule("prosecution", case) == pytest.approx(lean + params.LEAN_SHIFT)
    assert lean_rule("defense", case) == pytest.approx(lean - params.LEAN_SHIFT)
    assert lean_rule("majority", case) == pytest.approx(lean + params.MAJORITY_SHIFT)
    assert lean_rule("minority", case) == pytest.approx(1 - lean - params.MAJORITY_SHIFT)
    assert lean_rule("neutral", case) == pytest.approx(0.5 + params.NEUTRAL_PULL * (lean - 0.5))
    assert lean_rule("first_impression", case) == pytest.approx(0.5 + params.CASE_LEAN_SCALE * 0.3)
    assert lean_rule("gut_feeling", case) == pytest.approx(0.5 + 0.5 * (lean - 0.5) + params.GUT_SEVERITY_SHIFT)


def test_a_prosecution_leaning_juror_starts_more_guilty_than_a_defense_leaning_one() -> None:
    jury = build_jury()
    state = begin(case=build_case(), jury=jury, seed=11)
    frank, sarah = state.memories[3], state.memories[2]
    assert frank.conviction > sarah.conviction
    assert state.first_ballot["guilty"] + state.first_ballot["not_guilty"] == 12


def test_random_lean_ignores_the_case() -> None:
    juror = replace(build_jury()[11], initial_lean="random")
    one_sided = replace(build_case(), evidence=build_case().evidence[:1])
    assert initial.initial_conviction(juror, build_case(), random.Random(4)) == initial.initial_conviction(
        juror, one_sided, random.Random(4)
    )


def test_the_player_side_fixes_the_player_ballot() -> None:
    jury = build_jury(side="defend")
    state = begin(case=build_case(), jury=jury, seed=1, player_side="defend")
    assert state.votes[7] == "not_guilty"


def test_the_case_file_has_no_historical_verdict_or_punishment() -> None:
    names = {field.name for field in dataclasses.fields(CaseFile)}
    assert not names & {"verdict", "punishment", "historical_verdict", "outcome", "sentence"}


def test_the_rooms_hunch_moves_every_ai_juror_the_same_way_and_leaves_the_other_draws_in_step() -> None:
    case, jury = build_case(), build_jury()
    moved = 0
    for seed in range(10):
        state = begin(case=case, jury=jury, seed=seed)
        replay = random.Random(seed)  # the jurors' own draws come from the state's generator, in seat order
        hunches = []
        for juror in jury:
            memory = state.memories[juror.seat]
            own = initial.initial_conviction(juror, case, replay)
            assert memory.conviction == pytest.approx(own + memory.hunch)
            hunches.append(memory.hunch)
        assert all(h >= 0 for h in hunches) or all(h <= 0 for h in hunches)
        moved += any(hunches)
    assert moved == 10


def test_first_ballots_sometimes_split_against_the_evidence_lean_but_mostly_follow_it() -> None:
    case, jury = build_case(), build_jury()
    lean = "guilty" if case_lean(case) >= 0.5 else "not_guilty"
    against = 0
    for seed in range(30):
        ballot = begin(case=case, jury=jury, seed=seed).first_ballot
        other = "not_guilty" if lean == "guilty" else "guilty"
        against += ballot[other] > ballot[lean]
    assert 0 < against < 15
