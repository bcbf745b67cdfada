import random

import pytest

from deliberation.engine import conviction
from deliberation.engine.conviction import apply_delta, conviction_delta, trust_after, vote_after


def delta(**overrides: float) -> float:
    values = dict(base_impact=0.4, modifier=1.2, stubbornness=0.5, trust=-0.5, conviction=0.2, volatility=0.0)
    values.update(overrides)
    return conviction_delta(**values, rng=random.Random(1))


def test_delta_matches_the_formula_computed_by_hand() -> None:
    # 0.4 x 1.2 x (1 - 0.7 x 0.5) x (1 + 0.3 x -0.5) x (1 - 0.5 x |0.2 - 0.5|) = 0.22542
    assert delta() == pytest.approx(0.4 * 1.2 * 0.65 * 0.85 * 0.85)
    assert delta() == pytest.approx(0.22542)


def test_volatility_noise_is_one_seeded_gauss_draw() -> None:
    expected_noise = random.Random(42).gauss(0.0, 0.1 * 0.5)
    value = conviction_delta(
        base_impact=0.2,
        modifier=1.0,
        stubbornness=0.0,
        trust=0.0,
        conviction=0.5,
        volatility=0.5,
        rng=random.Random(42),
    )
    assert value == pytest.approx(0.2 + expected_noise)


def test_delta_is_clamped_to_three_tenths() -> None:
    assert delta(base_impact=1.0, modifier=3.0, stubbornness=0.0, trust=1.0, conviction=0.5) == 0.3
    assert delta(base_impact=-1.0, modifier=3.0, stubbornness=0.0, trust=1.0, conviction=0.5) == -0.3


def test_positive_base_impact_pushes_towards_guilty() -> None:
    assert delta(base_impact=0.3) > 0 > delta(base_impact=-0.3)


def test_stubborn_juror_moves_less_than_volatile_juror() -> None:
    assert abs(delta(stubbornness=0.9)) < abs(delta(stubbornness=0.2))


def test_trusted_speaker_moves_a_juror_more() -> None:
    assert delta(trust=0.8) > delta(trust=0.0) > delta(trust=-0.8)


def test_extreme_convictions_resist_change() -> None:
    assert abs(delta(conviction=0.95)) < abs(delta(conviction=0.5))


def test_conviction_stays_within_zero_and_one() -> None:
    assert apply_delta(0.9, 0.3) == 1.0
    assert apply_delta(0.1, -0.3) == 0.0


@pytest.mark.parametrize(
    ("vote", "value", "expected"),
    [
        ("guilty", 0.45, "guilty"),
        ("guilty", 0.41, "guilty"),
        ("guilty", 0.39, "not_guilty"),
        ("not_guilty", 0.55, "not_guilty"),
        ("not_guilty", 0.6, "not_guilty"),
        ("not_guilty", 0.61, "guilty"),
    ],
)
def test_votes_flip_only_past_the_hysteresis_thresholds(vote: str, value: float, expected: str) -> None:
    assert vote_after(vote, value) == expected


def test_trust_grows_with_agreement_and_shrinks_with_disagreement() -> None:
    assert trust_after(0.0, agrees=True, persuaded=False) > 0
    assert trust_after(0.0, agrees=False, persuaded=False) < 0
    assert trust_after(0.0, agrees=False, persuaded=True) > trust_after(0.0, agrees=False, persuaded=False)


def test_trust_stays_within_minus_one_and_one() -> None:
    value = 0.0
    for _ in range(100):
        value = trust_after(value, agrees=True, persuaded=True)
    assert value == 1.0
    assert conviction.trust_decayed(-0.01) == 0.0
