"""The offline engine's player arguments: the six strategies, argued for the player's side.

Each strategy rests on one named point of the case file, so a crafted argument is as grounded as
a juror's. ``address_juror`` speaks to the target by name in the argument type that juror's
modifiers value most; ``free_argument`` uses the player's text verbatim and grounds it.
"""

from __future__ import annotations

import random

from deliberation.engine.types import CaseFile, JurorProfile
from deliberation.minds.base import CraftRequest
from deliberation.minds.offline_points import (
    Point,
    all_points,
    body,
    choose_point,
    defendant_name,
    evidence_points,
    fallback_point,
    first_sentence,
    mention,
    witness_points,
)

STRATEGY_TYPES = {
    "challenge_evidence": "evidence",
    "question_witness": "question",
    "reasonable_doubt": "logical",
    "alternative_theory": "narrative",
    "free_argument": "logical",
}


def _pick(points: list[Point], request: CraftRequest, rng: random.Random) -> Point:
    hot = " ".join(turn.content for turn in request.recent[-2:]) + " " + request.free_text
    return choose_point(points, rng, seat=request.player.seat, recent=request.recent, hot=hot)


def _challenge(case: CaseFile, side: str, request: CraftRequest, rng: random.Random) -> tuple[str, Point]:
    points = evidence_points(case, side) or [fallback_point(case, side)]
    point = _pick(points, request, rng)
    if side == "not_guilty":
        reason = point.reason or "nobody has tested it"
        text = (
            f"I want to challenge the {point.label}. The file itself admits it: {reason}. "
            f"If that piece can't be trusted, the case against {defendant_name(case)} is thinner than it looks."
        )
    else:
        text = (
            f"I want to challenge how the {point.label} is being waved away. {point.detail} "
            f"Whatever the objections, it points straight at {defendant_name(case)}."
        )
    return text, point


def _witness(case: CaseFile, side: str, request: CraftRequest, rng: random.Random) -> tuple[str, Point]:
    attacks = [p for p in witness_points(case, side) if p.angle == "witness_attack"]
    point = _pick(attacks or witness_points(case, side) or [fallback_point(case, side)], request, rng)
    issue = point.reason[:1].upper() + point.reason[1:]
    attacks_made = (
        f"Let's look hard at {point.label}. {issue}. {point.detail} Would any of you stake a verdict on that account?",
        f"How much is {point.label}'s word really worth? {issue}. Keep that in mind when you weigh it.",
        f"I keep coming back to {point.label}. On paper: {point.detail} In reality: {point.reason}.",
    )
    support_made = (
        f"Ask yourselves what {point.label} actually told the court. {point.detail} Nobody has shaken that.",
        f"{point.label} had no reason to lie. {point.detail}",
    )
    text = rng.choice(attacks_made if point.angle == "witness_attack" else support_made)
    return text, point


def _doubt(case: CaseFile, side: str, request: CraftRequest, rng: random.Random) -> tuple[str, Point]:
    point = _pick(all_points(case, side) or [fallback_point(case, side)], request, rng)
    name = defendant_name(case)
    if side == "not_guilty":
        detail = f"on the {point.label}, {point.reason}" if point.reason else f"the {point.label} cuts both ways"
        text = (
            f"The question isn't whether {name} might have done it. It's whether we are sure. "
            f"And we can't be: {detail}. That is what reasonable doubt means."
        )
    else:
        text = (
            f"Reasonable doubt isn't any doubt at all. It has to be a reason. "
            f"Look at the {point.label}: {point.detail} I haven't heard a reason that explains that away."
        )
    return text, point


def _alternative(case: CaseFile, side: str, request: CraftRequest, rng: random.Random) -> tuple[str, Point]:
    point = _pick(all_points(case, side) or [fallback_point(case, side)], request, rng)
    if side == "not_guilty":
        theory = rng.choice(case.defense_arguments) if case.defense_arguments else "someone else was there"
        text = (
            f"Consider another explanation: {first_sentence(theory)} "
            f"It fits the {point.label} as well as the prosecution's story does, maybe better."
        )
    else:
        theory = rng.choice(case.prosecution_arguments) if case.prosecution_arguments else first_sentence(case.summary)
        text = (
            f"Every alternative we've heard falls apart on the {point.label}. "
            f"The simple account is the true one: {first_sentence(theory)}"
        )
    return text, point


def _address(
    case: CaseFile, side: str, request: CraftRequest, rng: random.Random, target: JurorProfile | None
) -> tuple[str, str, Point]:
    point = _pick(all_points(case, side) or [fallback_point(case, side)], request, rng)
    name = target.name if target else "everyone"
    ranked = sorted((target.modifiers if target else {}).items(), key=lambda pair: -pair[1])
    kind = ranked[0][0] if ranked else "logical"
    others = [mention(p) for p in all_points(case, side) if p.label != point.label] or [mention(point)]
    text = f"{name}, I want to speak to you directly. {body(point, kind, rng.choice(others), rng)}"
    verdict = "guilty" if side == "guilty" else "not guilty"
    return f"{text} I think you can see why I say {verdict}.", kind, point


def craft(request: CraftRequest, side: str, rng: random.Random) -> tuple[str, str, Point]:
    """(content, argument type, the point it rests on) for the request's strategy."""
    case, strategy = request.case, request.strategy
    if strategy == "address_juror":
        target = next((j for j in request.jury if j.seat == request.target_seat), None)
        return _address(case, side, request, rng, target)
    if strategy == "free_argument":
        point = _pick(all_points(case, side) or [fallback_point(case, side)], request, rng)
        text = f"{request.free_text.strip()} And the file backs me up: the {point.label}. {point.detail}"
        return text, STRATEGY_TYPES[strategy], point
    builders = {
        "challenge_evidence": _challenge,
        "question_witness": _witness,
        "reasonable_doubt": _doubt,
        "alternative_theory": _alternative,
    }
    text, point = builders[strategy](case, side, request, rng)
    return text, STRATEGY_TYPES[strategy], point
