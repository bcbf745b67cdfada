"""Who speaks this round, and who listens closely.

Speakers are drawn without replacement from the AI seats (human and external-agent seats speak
only when their participant does, so they are never chosen here, and their speeches never count
against the 1-4 AI speakers of a round), with weights::

    1 + FENCE_BONUS   (conviction within 0.35..0.65: undecided jurors talk it through)
      + ADDRESSED_BONUS (addressed by the last round's speakers, or invited by the foreperson)
      + INFLUENCE_BONUS x influence
      + QUIET_BONUS x max(0, 1 - own turns / average turns)   (participation weighting)
      + VERBOSITY_BONUS x verbosity
    then x RECENCY_PENALTY if the juror spoke last round (x RECENCY_PENALTY_2 two rounds ago).

Other turn modes (round-robin, random, reply-chain) live in ``engine.formats``.

Active listeners (who fully update their reasoning) favour jurors on the fence, jurors who just
changed their vote and jurors addressed this round; the others listen passively.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from deliberation.engine import formats, params
from deliberation.engine.state import DeliberationState
from deliberation.engine.types import JurorProfile


def ai_seats(jury: Sequence[JurorProfile]) -> list[JurorProfile]:
    return [juror for juror in jury if juror.kind == "ai"]


def on_the_fence(conviction: float) -> bool:
    return params.FENCE_LOW <= conviction <= params.FENCE_HIGH


def speaker_weight(state: DeliberationState, juror: JurorProfile, addressed: set[int], mean_turns: float) -> float:
    memory = state.memories[juror.seat]
    weight = 1.0
    if on_the_fence(memory.conviction):
        weight += params.FENCE_BONUS
    if juror.seat in addressed:
        weight += params.ADDRESSED_BONUS
    weight += params.INFLUENCE_BONUS * juror.influence
    if mean_turns > 0:
        weight += params.QUIET_BONUS * max(0.0, 1.0 - memory.spoke_count / mean_turns)
    else:
        weight += params.QUIET_BONUS
    weight += params.VERBOSITY_BONUS * juror.verbosity
    rounds_since = state.round_number - memory.last_spoke_round if memory.spoke_count else None
    if rounds_since == 1:
        weight *= params.RECENCY_PENALTY
    elif rounds_since == 2:
        weight *= params.RECENCY_PENALTY_2
    return weight


def weighted_sample(items: list[int], weights: list[float], count: int, rng: random.Random) -> list[int]:
    """Draw ``count`` distinct items, each draw proportional to weight (one rng draw per pick)."""
    pool = list(zip(items, weights, strict=True))
    chosen: list[int] = []
    while pool and len(chosen) < count:
        total = sum(weight for _, weight in pool)
        point = rng.random() * total
        for index, (item, weight) in enumerate(pool):
            point -= weight
            if point <= 0 or index == len(pool) - 1:
                chosen.append(item)
                pool.pop(index)
                break
    return chosen


def speaker_count(state: DeliberationState, rng: random.Random) -> int:
    """How many AI jurors speak: a draw in [min, max].

    Participants (people and external agents) add their turns to the round; they never use up the
    AI jurors' share, however many of them speak (the house rule "people add turns, never take the
    jury's")."""
    return rng.randint(state.settings.min_speakers, state.settings.max_speakers)


def select_speakers(
    state: DeliberationState,
    jury: Sequence[JurorProfile],
    *,
    count: int,
    addressed: Iterable[int] = (),
    rng: random.Random,
    first: int | None = None,
) -> list[int]:
    """Seats of this round's AI speakers, in speaking order, drawn by the settings' turn mode
    (``engine.formats``). Discharged seats never speak; a juror who withdrew speaks only when addressed.
    ``first``: the juror the foreperson gave the floor to, who speaks first (in place of the last
    one drawn when the draw left them out), so the floor goes to the juror it was given to."""
    seats = _drawn(state, jury, count=count, addressed=addressed, rng=rng)
    if first is None or not seats or first in state.discharged or first not in {j.seat for j in ai_seats(jury)}:
        return seats
    return [first, *[seat for seat in seats if seat != first]][: len(seats)]


def _drawn(
    state: DeliberationState, jury: Sequence[JurorProfile], *, count: int, addressed: Iterable[int], rng: random.Random
) -> list[int]:
    seated = [juror for juror in ai_seats(jury) if juror.seat not in state.discharged]
    addressed_set = set(addressed)
    candidates = [j for j in seated if not state.memories[j.seat].withdrawn or j.seat in addressed_set]
    if not candidates or count <= 0:
        return []
    mode = state.settings.turn_mode
    if mode == "round-robin":
        seats = [j.seat for j in seated]
        return formats.round_robin(seats, [j.seat for j in candidates], state.last_speakers, count)
    if mode == "random":
        return formats.uniform([j.seat for j in candidates], count, rng)
    mean_turns = sum(state.memories[j.seat].spoke_count for j in candidates) / len(candidates)
    weights = [speaker_weight(state, juror, addressed_set, mean_turns) for juror in candidates]
    return weighted_sample([j.seat for j in candidates], weights, count, rng)


def select_active_listeners(
    state: DeliberationState,
    jury: Sequence[JurorProfile],
    *,
    addressed: Iterable[int],
    rng: random.Random,
) -> set[int]:
    """Spec priorities: recently flipped 3, on the fence 2, addressed 2, everyone else 1."""
    addressed_set = set(addressed)
    seats: list[int] = []
    weights: list[float] = []
    for juror in ai_seats(jury):
        memory = state.memories[juror.seat]
        weight = 1.0
        if memory.flipped_round and state.round_number - memory.flipped_round <= 1:
            weight += 3.0
        if on_the_fence(memory.conviction):
            weight += 2.0
        if juror.seat in addressed_set:
            weight += 2.0
        seats.append(juror.seat)
        weights.append(weight)
    return set(weighted_sample(seats, weights, state.settings.active_listeners, rng))
