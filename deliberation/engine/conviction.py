"""Conviction mechanics, exactly as the specification states them.

Conviction runs from 0.0 (certain not guilty) to 1.0 (certain guilty). A positive base impact
pushes towards guilty. For one listener and one argument::

    delta = base_impact x archetype_modifier x (1 - 0.7 x stubbornness) x (1 + 0.3 x trust)
            x (1 - 0.5 x |c - 0.5|) + gauss(0, 0.1 x volatility)

clamped to +-0.3; the conviction itself is clamped to [0, 1]. Votes change with hysteresis: a
guilty vote turns not guilty only below 0.4, a not-guilty vote turns guilty only above 0.6.
The only randomness is the ``random.Random`` passed in (the one carried in the state).
"""

from __future__ import annotations

import random

from deliberation.engine import params
from deliberation.engine.types import VoteValue


def clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


def archetype_modifier(modifiers: dict[str, float], argument_type: str) -> float:
    """The persona's multiplier for an argument type; an unknown type counts as neutral (1.0)."""
    return float(modifiers.get(argument_type, 1.0))


def conviction_delta(
    *,
    base_impact: float,
    modifier: float,
    stubbornness: float,
    trust: float,
    conviction: float,
    volatility: float,
    rng: random.Random,
) -> float:
    """The spec's formula. Always draws exactly one gauss from ``rng`` so runs stay in step."""
    noise = rng.gauss(0.0, params.VOLATILITY_NOISE * volatility)
    delta = (
        base_impact
        * modifier
        * (1.0 - params.STUBBORNNESS_WEIGHT * stubbornness)
        * (1.0 + params.TRUST_WEIGHT * trust)
        * (1.0 - params.EXTREME_RESISTANCE * abs(conviction - 0.5))
        + noise
    )
    return clamp(delta, -params.MAX_DELTA, params.MAX_DELTA)


def apply_delta(conviction: float, delta: float) -> float:
    return clamp(conviction + delta, 0.0, 1.0)


def vote_after(vote: VoteValue | str, conviction: float) -> VoteValue:
    """The vote a conviction supports, given the current vote (hysteresis)."""
    if vote == "guilty":
        return "not_guilty" if conviction < params.FLIP_TO_NOT_GUILTY_BELOW else "guilty"
    return "guilty" if conviction > params.FLIP_TO_GUILTY_ABOVE else "not_guilty"


def vote_from_conviction(conviction: float) -> VoteValue:
    """A first ballot has no previous vote: above 0.5 is guilty, 0.5 itself is not guilty."""
    return "guilty" if conviction > 0.5 else "not_guilty"


def trust_after(trust: float, *, agrees: bool, persuaded: bool) -> float:
    """Trust in a speaker grows when they argue the listener's side and shrinks when they do not."""
    change = params.TRUST_AGREE if agrees else -params.TRUST_DISAGREE
    if persuaded:
        change += params.TRUST_PERSUADED
    return clamp(trust + change, -1.0, 1.0)


def trust_decayed(trust: float) -> float:
    """Old grudges and alliances fade a little every round."""
    if trust > 0:
        return max(0.0, trust - params.TRUST_DECAY)
    return min(0.0, trust + params.TRUST_DECAY)
