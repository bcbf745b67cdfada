"""Where each juror starts: initial conviction from the persona's lean and the case file.

All rules read only the case file the jury may see (``CaseFile`` has no historical verdict).

The case lean
    ``evidence_balance`` weighs every evidence item by (strength_prosecution - strength_defense),
    a contestable item at ``CONTESTED_WEIGHT``, and every witness at ``WITNESS_WEIGHT`` (for the
    side they testify for, neutral witnesses not at all), less ``CREDIBILITY_PENALTY`` per
    credibility issue. The weighted mean lies in -1..1; the case lean is
    ``0.5 + CASE_LEAN_SCALE x balance``. The expected majority is guilty when the lean is at
    least 0.5.

The rules per initial lean (before noise)
    neutral           0.5 + NEUTRAL_PULL x (lean - 0.5): the case, held at arm's length.
    defense           lean - LEAN_SHIFT.
    prosecution       lean + LEAN_SHIFT.
    majority          lean + MAJORITY_SHIFT towards the expected majority.
    minority          the mirror of the lean (1 - lean), pushed MAJORITY_SHIFT further away from
                      the expected majority.
    first_impression  the first (opening) evidence item alone: 0.5 + CASE_LEAN_SCALE x its net
                      strength; the case lean when there is no evidence.
    gut_feeling       0.5 + half the case's pull, + GUT_SEVERITY_SHIFT when a charge is grave
                      (violence, robbery, arson and the like), - half of it otherwise.
    calculated        the case lean itself: every item weighed.
    best_story        0.5 + STORY_SCALE x story advantage: prosecution arguments and credible
                      prosecution witnesses against defense arguments, credible defense
                      witnesses and half a point per contestable item (each a hole in the
                      prosecution's story), capped at +-4.
    random            uniform(RANDOM_LOW, RANDOM_HIGH), ignoring the case.

Every rule except ``random`` then adds gauss(0, INITIAL_NOISE x (0.5 + volatility)) from the
state's generator (one draw per AI juror, in seat order) and is clamped to
[INITIAL_MIN, INITIAL_MAX].

The room's hunch
    Before a word is argued, the room shares a hunch about the prisoner (their bearing in the
    dock, how the trial struck everyone): gauss(0, HUNCH_SPREAD) drawn once per deliberation from
    a generator of its own, seeded by the seed and the case (the state's generator stays in step).
    Every AI juror adds it x (0.5 + volatility), clamped as above, and keeps what it added in
    ``JurorMemory.hunch``; it gives way to the evidence as the room argues (``engine.rounds``:
    HUNCH_FADE of what is left of it each round with a speech). On a close case the hunch can
    put the first majority against the evidence lean.

The first ballot is guilty above 0.5.

Human and external-agent seats do not get a conviction from the case: a player's side fixes
their ballot (defend: not guilty, prosecute: guilty), otherwise they start not guilty until they
cast a vote.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from deliberation.engine import params
from deliberation.engine.conviction import clamp, vote_from_conviction
from deliberation.engine.phases import require
from deliberation.engine.state import DeliberationState, EngineSettings, JurorMemory
from deliberation.engine.types import CaseFile, EvidenceItem, JurorProfile, WitnessItem

GRAVE_WORDS = (
    "murder",
    "manslaughter",
    "kill",
    "rape",
    "robbery",
    "assault",
    "wound",
    "stab",
    "arson",
    "violent",
    "highway",
    "burglary",
)
JURY_SIZE = 12
JURY_INCOMPLETE = "A jury needs twelve seats numbered 1 to 12."


def evidence_net(item: EvidenceItem) -> float:
    return item.strength_prosecution - item.strength_defense


def witness_weight(witness: WitnessItem) -> float:
    return params.WITNESS_WEIGHT * max(0.0, 1.0 - params.CREDIBILITY_PENALTY * len(witness.credibility_issues))


def evidence_balance(case: CaseFile) -> float:
    """The weighted mean of what the case file says, -1 (not guilty) .. +1 (guilty)."""
    total = 0.0
    weights = 0.0
    for item in case.evidence:
        weight = params.CONTESTED_WEIGHT if item.contestable else 1.0
        total += weight * evidence_net(item)
        weights += weight
    for witness in case.witnesses:
        if witness.side not in ("prosecution", "defense"):
            continue
        sign = 1.0 if witness.side == "prosecution" else -1.0
        total += sign * witness_weight(witness)
        weights += params.WITNESS_WEIGHT
    return clamp(total / weights, -1.0, 1.0) if weights else 0.0


def case_lean(case: CaseFile) -> float:
    return 0.5 + params.CASE_LEAN_SCALE * evidence_balance(case)


def story_advantage(case: CaseFile) -> float:
    prosecution = len(case.prosecution_arguments) + sum(
        1 for w in case.witnesses if w.side == "prosecution" and not w.credibility_issues
    )
    defense = (
        len(case.defense_arguments)
        + sum(1 for w in case.witnesses if w.side == "defense" and not w.credibility_issues)
        + 0.5 * sum(1 for item in case.evidence if item.contestable)
    )
    return clamp(prosecution - defense, -4.0, 4.0)


def is_grave(case: CaseFile) -> bool:
    text = " ".join(case.charges).lower()
    return any(word in text for word in GRAVE_WORDS)


def lean_rule(lean: str, case: CaseFile) -> float:
    """The initial conviction a lean gives before noise (``random`` is handled by the caller)."""
    base = case_lean(case)
    towards_majority = 1.0 if base >= 0.5 else -1.0
    if lean == "defense":
        return base - params.LEAN_SHIFT
    if lean == "prosecution":
        return base + params.LEAN_SHIFT
    if lean == "majority":
        return base + params.MAJORITY_SHIFT * towards_majority
    if lean == "minority":
        return (1.0 - base) - params.MAJORITY_SHIFT * towards_majority
    if lean == "first_impression":
        if not case.evidence:
            return base
        return 0.5 + params.CASE_LEAN_SCALE * evidence_net(case.evidence[0])
    if lean == "gut_feeling":
        severity = params.GUT_SEVERITY_SHIFT if is_grave(case) else -params.GUT_SEVERITY_SHIFT / 2
        return 0.5 + 0.5 * (base - 0.5) + severity
    if lean == "calculated":
        return base
    if lean == "best_story":
        return 0.5 + params.STORY_SCALE * story_advantage(case)
    return 0.5 + params.NEUTRAL_PULL * (base - 0.5)  # neutral, and any lean we do not know


def initial_conviction(juror: JurorProfile, case: CaseFile, rng: random.Random) -> float:
    """One AI juror's starting conviction: exactly one draw from ``rng``."""
    if juror.initial_lean == "random":
        value = rng.uniform(params.RANDOM_LOW, params.RANDOM_HIGH)
    else:
        value = lean_rule(juror.initial_lean, case) + rng.gauss(0.0, params.INITIAL_NOISE * (0.5 + juror.volatility))
    return clamp(value, params.INITIAL_MIN, params.INITIAL_MAX)


def room_hunch(seed: int, case: CaseFile) -> float:
    """The room's shared hunch about the prisoner (their bearing in the dock, how the trial struck
    everyone), before a word of the evidence is argued: one draw per deliberation from a generator of
    its own (the seed and the case), so the state's generator stays in step and one seed does not give
    every case the same hunch."""
    return random.Random(f"hunch:{seed}:{case.slug}").gauss(0.0, params.HUNCH_SPREAD)


def juror_hunch(juror: JurorProfile, room: float) -> float:
    """How much of the room's hunch one juror takes into the first ballot: more the more volatile."""
    return room * (0.5 + juror.volatility)


def doubt_candidates(case: CaseFile) -> list[str]:
    """What the defense side of the file offers a doubting mind, each led by the item's name."""
    doubts = [
        f"{item.label}: {item.contest_reason}" for item in case.evidence if item.contestable and item.contest_reason
    ]
    for witness in case.witnesses:
        if witness.side != "defense":
            doubts.extend(f"{witness.name}: {issue}" for issue in witness.credibility_issues)
    return doubts


def initial_doubts(juror: JurorProfile, conviction: float, case: CaseFile) -> list[str]:
    """1-3 doubts, more for jurors leaning not guilty; rotated by seat so jurors differ."""
    candidates = doubt_candidates(case)
    if not candidates:
        return []
    count = min(len(candidates), 1 + round((1.0 - conviction) * 2))
    start = juror.seat % len(candidates)
    rotated = candidates[start:] + candidates[:start]
    return rotated[:count]


def first_reason(vote: str, case: CaseFile) -> str:
    if not case.evidence:
        return f"First ballot: {vote.replace('_', ' ')}, on the summary alone."
    if vote == "guilty":
        item = max(case.evidence, key=evidence_net)
        return f"First ballot: guilty, mostly because of the {item.label}."
    item = min(case.evidence, key=evidence_net)
    return f"First ballot: not guilty, the {item.label} does not convince me."


def new_state(
    *,
    jury: Sequence[JurorProfile],
    seed: int,
    player_side: str = "none",
    settings: EngineSettings | None = None,
) -> DeliberationState:
    """A fresh state in phase ``setup`` with an empty memory per seat."""
    seats = sorted(juror.seat for juror in jury)
    if seats != list(range(1, JURY_SIZE + 1)):
        raise ValueError(JURY_INCOMPLETE)
    state = DeliberationState(seed=seed, player_side=player_side, settings=settings or EngineSettings())
    for juror in jury:
        others = {other.seat: 0.0 for other in jury if other.seat != juror.seat}
        state.memories[juror.seat] = JurorMemory(seat=juror.seat, opinions=others)
    return state


def participant_vote(player_side: str) -> str:
    return "guilty" if player_side == "prosecute" else "not_guilty"


def cast_initial_ballot(state: DeliberationState, *, case: CaseFile, jury: Sequence[JurorProfile]) -> dict[str, int]:
    """Phase ``initial_vote``: give every seat its starting conviction and first vote."""
    require(state, "initial_vote")
    room = room_hunch(state.seed, case)
    for juror in sorted(jury, key=lambda j: j.seat):
        memory = state.memories[juror.seat]
        if juror.kind == "ai":
            memory.conviction = initial_conviction(juror, case, state.rng)
            hunch = juror_hunch(juror, room)
            with_hunch = clamp(memory.conviction + hunch, params.INITIAL_MIN, params.INITIAL_MAX)
            memory.hunch = with_hunch - memory.conviction
            memory.conviction = with_hunch
            memory.vote = vote_from_conviction(memory.conviction)
            memory.doubts = initial_doubts(juror, memory.conviction, case)
            memory.reasoning_chain = [first_reason(memory.vote, case)]
        else:
            memory.vote = state.votes.get(juror.seat) or participant_vote(state.player_side)
            memory.conviction = 1.0 if memory.vote == "guilty" else 0.0
        memory.conviction_history = [memory.conviction]
        state.votes[juror.seat] = memory.vote
    state.vote_history = [dict(state.votes)]
    state.first_ballot = state.tally()
    return dict(state.first_ballot)
