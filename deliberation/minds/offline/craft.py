"""The offline engine's player arguments: the six strategies, argued for the player's side.

Each strategy rests on one named point of the case file, so a crafted argument is as grounded as
a juror's. ``address_juror`` speaks to the target by name in the argument type that juror's
modifiers value most. A free argument is never crafted: the person's words are the whole speech.
Only a reason that cuts for the player's side is ever used to argue it, a picked item is the only
item argued, and each strategy has several wordings so a player who keeps to one strategy does not
repeat the same sentence every round. The crafted part is read as the jury reads it before it is
used: a wording the jury would take for the other side is never said (``craft`` tries another).
"""

from __future__ import annotations

import random

from deliberation.engine.ports import CraftRequest
from deliberation.engine.types import CaseFile, JurorProfile
from deliberation.minds.offline.naming import agree, tidy
from deliberation.minds.offline.points import (
    Point,
    all_points,
    body,
    choose_point,
    defendant_name,
    evidence_points,
    fallback_point,
    item_name,
    mention,
    plural,
    quote_of,
    witness_lines,
    witness_points,
)
from deliberation.minds.offline.reading import read
from deliberation.minds.offline.text import capital, first_sentence, fresh, quotes

STRATEGY_TYPES = {
    "challenge_evidence": "evidence",
    "question_witness": "question",
    "reasonable_doubt": "logical",
    "alternative_theory": "narrative",
    "free_argument": "logical",
}
# Angles whose reason argues for the side holding the point (never the other side's rebuttal).
OWN_REASON = {"contest", "witness_attack", "uncorroborated", "burden"}

CHALLENGE_DOUBT = (
    "I want to challenge {label}. The file itself admits it: {reason}. "
    "If that piece can't be trusted, the case against {defendant} is thinner than it looks.",
    "Let's test {label} before we lean on [it|them]. {Reason}. That isn't something we can wave through.",
    "{Label} [is|are] doing a lot of work for the prosecution, and {reason}. Take [it|them] out and see what's left.",
)
CHALLENGE_HELPS = (
    "Look at what {label} actually shows: {detail} That helps {defendant}, not the prosecution.",
    "Nobody has dealt with {label}. {detail} That cuts in {defendant}'s favour.",
)
CHALLENGE_GUILT = (
    "I want to challenge how {label} [is|are] being waved away. {detail} "
    "Whatever the objections, [it points|they point] at {defendant}.",
    "Nobody has answered {label}. {detail}",
    "We can't just set {label} aside. {detail} [It leads|They lead] back to {defendant}.",
    "Objections are easy. {Label} [is|are] still there: {detail}",
)
CHALLENGE_COUNTER = (
    "The defense leans on {label}, but {reason}. It helps {defendant} less than it seems.",
    "Look again at {label}: {reason}. That isn't the answer the defense thinks it is.",
)
DOUBT_DEFEND = (
    "The question isn't whether {defendant} might have done it. It's whether we are sure. And we can't be. {doubt} "
    "That is what reasonable doubt means.",
    "Reasonable doubt doesn't mean a wild theory. It means a reason, and here's one. {doubt}",
    "I'm not asking anyone to believe {defendant} is innocent, only whether we're sure. {doubt}",
    "Being fairly sure isn't enough. {doubt} That's a doubt with a reason behind it.",
)
DOUBT_PROSECUTE = (
    "Reasonable doubt isn't any doubt at all. It has to be a reason. Look at {label}: {detail} "
    "I haven't heard a reason that explains that away.",
    "A doubt needs a reason behind it. What's the reason to set aside {label}? {detail}",
    "I've listened for a real doubt and haven't heard one. {Label} still [stands|stand]: {detail}",
    "Possible isn't the same as reasonable. {detail} That's {label}, and nobody has answered it.",
)
ALTERNATIVE_DEFEND = (
    "Consider another explanation: {theory} It fits {label} as well as the prosecution's story does, maybe better.",
    "There's another way to read this: {theory} Nothing about {label} rules it out.",
    "What if it happened differently? {theory} {Label} [fits|fit] that too.",
)
ALTERNATIVE_PROSECUTE = (
    "Every alternative we've heard falls apart on {label}. The simple account is the true one: {theory}",
    "I've tried the other explanations. None of them survives {label}. {theory}",
    "The plainest reading is usually right. {theory} {Label} [fits|fit] nothing else as well.",
)
ADDRESS_OPEN = (
    "{name}, I want to speak to you directly.",
    "{name}, this one is for you.",
    "{name}, you've been weighing this carefully, so hear me out.",
    "{name}, I'd like your honest view on this.",
)
ADDRESS_CLOSE = (
    "I think you can see why I say {verdict}.",
    "That's why I say {verdict}.",
    "Tell me if I'm wrong, but that makes it {verdict}.",
    "So I say {verdict}, and I hope you'll consider it.",
)
CRAFT_TRIES = 6  # wordings and points tried before the plainest line for the side is said
PLAIN_LINE = {
    "guilty": "Whatever is said of {label}, I say {defendant} is guilty.",
    "not_guilty": "Whatever is said of {label}, I have a reasonable doubt about {defendant}.",
}


def _heard(request: CraftRequest) -> str:
    return " ".join(turn.content for turn in request.recent)


def _picked_item(case: CaseFile, side: str, item_id: str) -> Point | None:
    """The item the player picked, as a point for their side when the file gives their side none."""
    for item in case.evidence:
        if item.id == item_id:
            found = quotes(item.description) or (first_sentence(item.description),)
            return Point(item.id, item.label, "support", 0.2, found[0], "", item_name(item.label, case), found)
    for witness in case.witnesses:
        if witness.id == item_id:
            lines = witness_lines(witness) or (first_sentence(witness.testimony),)
            if side == "guilty":
                return Point(witness.id, witness.name, "witness_support", 0.2, lines[0], "", witness.name, lines)
            reason = f"{witness.name}'s account stands alone, with nothing in the file to back it"
            return Point(witness.id, witness.name, "uncorroborated", 0.2, lines[0], reason, witness.name, lines)
    return None


def _with_item(points: list[Point], case: CaseFile, side: str, request: CraftRequest) -> list[Point]:
    """Only the picked item's points; the item itself when the side has no point on it."""
    if not request.item_id:
        return points
    chosen = [point for point in points if point.item_id == request.item_id]
    if chosen:
        return chosen
    built = _picked_item(case, side, request.item_id)
    return [built] if built else points


def _pick(points: list[Point], request: CraftRequest, rng: random.Random) -> Point:
    hot = " ".join(turn.content for turn in request.recent[-2:]) + " " + request.free_text
    return choose_point(points, rng, seat=request.player.seat, recent=request.recent, hot=hot)


def _values(point: Point, case: CaseFile, rng: random.Random, heard: str) -> dict[str, str]:
    named = mention(point)
    again = (  # the room has just heard every line of it: say so rather than quote it once more
        f"We've all heard what {named} says.",
        f"You know what {named} says; I won't read it out again.",
        f"It's the same evidence we keep coming back to, {named}.",
    )
    return {
        "label": named,
        "Label": capital(named),
        "detail": quote_of(point, rng, heard, fallback=False) or rng.choice(again),
        "reason": point.reason,
        "Reason": capital(point.reason),
        "defendant": defendant_name(case),
    }


def doubt_sentence(point: Point, rng: random.Random, heard: str) -> str:
    """The point as one sentence of doubt, using a reason only when it argues for the defence."""
    named, detail = mention(point), quote_of(point, rng, heard)
    if point.angle == "contest":
        return f"On {named}, {point.reason}."
    if point.angle in {"witness_attack", "uncorroborated"}:
        return f"{capital(point.reason)}." if point.reason.startswith(named) else f"As for {named}, {point.reason}."
    if point.angle == "hedge":
        return f"Even {named} said {detail}"
    if point.angle == "own_account":
        return f"{named} told us {detail} Nobody has disproved it."
    if point.angle == "burden":
        return f"{detail} The rest is inference."
    return f"{capital(named)} cuts the other way. {detail}"


def _challenge(case: CaseFile, side: str, request: CraftRequest, rng: random.Random) -> tuple[str, Point]:
    points = _with_item(evidence_points(case, side, rng) or [fallback_point(case, side)], case, side, request)
    point = _pick(points, request, rng)
    heard = _heard(request)
    table: tuple[str, ...]
    if side == "not_guilty":
        table = CHALLENGE_DOUBT if point.angle in OWN_REASON and point.reason else CHALLENGE_HELPS
    else:
        table = CHALLENGE_COUNTER if point.angle == "contest" else CHALLENGE_GUILT
    return tidy(agree(fresh(table, rng, heard), plural(point)).format(**_values(point, case, rng, heard))), point


def _witness(case: CaseFile, side: str, request: CraftRequest, rng: random.Random) -> tuple[str, Point]:
    found = witness_points(case, side, rng)
    attacks = [p for p in found if p.angle in {"witness_attack", "hedge", "uncorroborated"}]
    if request.item_id:
        attacks = [p for p in attacks if p.item_id == request.item_id]
        found = _with_item(found, case, side, request)
    point = _pick(attacks or found or [fallback_point(case, side)], request, rng)
    heard = _heard(request)
    values = _values(point, case, rng, heard)
    if point.angle == "witness_attack":
        table = (
            "Let's look hard at {label}. {Reason}. Would any of you stake a verdict on that account?",
            "How much is {label}'s word really worth? {Reason}. Keep that in mind when you weigh it.",
            "I keep coming back to {label}. {Reason}, and we're asked to convict on that account.",
        )
        return tidy(agree(fresh(table, rng, heard), plural(point)).format(**values)), point
    if point.angle == "witness_support":
        table = (
            "Ask yourselves what {label} actually told the court. {detail} Nobody has shaken that.",
            "{Label} had no reason to lie. {detail}",
            "Think about {label}'s evidence. {detail} It was never broken down.",
        )
        return tidy(agree(fresh(table, rng, heard), plural(point)).format(**values)), point
    return body(point, "question", mention(point), rng, heard, side), point


def _doubt(case: CaseFile, side: str, request: CraftRequest, rng: random.Random) -> tuple[str, Point]:
    points = _with_item(all_points(case, side, rng) or [fallback_point(case, side)], case, side, request)
    point = _pick(points, request, rng)
    heard = _heard(request)
    values = _values(point, case, rng, heard)
    if side == "not_guilty":
        values["doubt"] = doubt_sentence(point, rng, heard)
        return tidy(agree(fresh(DOUBT_DEFEND, rng, heard), plural(point)).format(**values)), point
    return tidy(agree(fresh(DOUBT_PROSECUTE, rng, heard), plural(point)).format(**values)), point


def _theory(texts: tuple[str, ...], case: CaseFile, rng: random.Random) -> str:
    theory = first_sentence(rng.choice(texts))
    if theory.lower().startswith(("i ", "i'", "take notice")) or " I " in f" {theory} ":
        return f"{defendant_name(case)} told the court: “{theory}”"
    return theory


def _alternative(case: CaseFile, side: str, request: CraftRequest, rng: random.Random) -> tuple[str, Point]:
    points = _with_item(all_points(case, side, rng) or [fallback_point(case, side)], case, side, request)
    point = _pick(points, request, rng)
    heard = _heard(request)
    values = _values(point, case, rng, heard)
    if side == "not_guilty":
        if case.defense_arguments:
            values["theory"] = _theory(case.defense_arguments, case, rng)
        else:
            values["theory"] = (
                f"someone other than {values['defendant']} did it, and nothing in the file excludes that."
            )
            values["theory"] = capital(values["theory"])
        return tidy(agree(fresh(ALTERNATIVE_DEFEND, rng, heard), plural(point)).format(**values)), point
    values["theory"] = (
        _theory(case.prosecution_arguments, case, rng) if case.prosecution_arguments else values["detail"]
    )
    return tidy(agree(fresh(ALTERNATIVE_PROSECUTE, rng, heard), plural(point)).format(**values)), point


def _address(
    case: CaseFile, side: str, request: CraftRequest, rng: random.Random, target: JurorProfile | None
) -> tuple[str, str, Point]:
    points = _with_item(all_points(case, side, rng) or [fallback_point(case, side)], case, side, request)
    point = _pick(points, request, rng)
    heard = _heard(request)
    name = target.name if target else "everyone"
    ranked = sorted((target.modifiers if target else {}).items(), key=lambda pair: -pair[1])
    kind = ranked[0][0] if ranked else "logical"
    others = [mention(p) for p in points if p.label != point.label] or [mention(point)]
    verdict = "guilty" if side == "guilty" else "not guilty"
    parts = (
        fresh(ADDRESS_OPEN, rng, heard).format(name=name),
        body(point, kind, rng.choice(others), rng, heard, side),
        fresh(ADDRESS_CLOSE, rng, heard).format(verdict=verdict),
    )
    return " ".join(parts), kind, point


def reads_for(case: CaseFile, text: str, side: str) -> float:
    """How far the jury's reading of ``text`` goes the side's way (negative: against it)."""
    return read(case, text).push * (1 if side == "guilty" else -1)


def _craft_once(request: CraftRequest, side: str, rng: random.Random) -> tuple[str, str, Point]:
    case, strategy = request.case, request.strategy
    if strategy == "address_juror":
        target = next((j for j in request.jury if j.seat == request.target_seat), None)
        return _address(case, side, request, rng, target)
    builders = {
        "challenge_evidence": _challenge,
        "question_witness": _witness,
        "reasonable_doubt": _doubt,
        "alternative_theory": _alternative,
    }
    text, point = builders[strategy](case, side, request, rng)
    return text, STRATEGY_TYPES[strategy], point


def craft(request: CraftRequest, side: str, rng: random.Random) -> tuple[str, str, Point]:
    """(crafted part, argument type, the point it rests on) for the request's strategy.

    The crafted part argues the person's side as the jury reads it: a wording read the other way
    (an objection quoted in full that restates the evidence, a witness's line that helps the other
    side) is dropped for the next one, and the plainest line for the side is said when none holds.
    A free argument is not crafted at all (the caller speaks the person's words as typed)."""
    if request.strategy == "free_argument":
        raise ValueError("a free argument is spoken as typed, never crafted")
    best: tuple[float, tuple[str, str, Point]] | None = None
    for _ in range(CRAFT_TRIES):
        found = _craft_once(request, side, rng)
        lean = reads_for(request.case, found[0], side)
        if lean > 0:
            return found
        if lean == 0 and best is None:
            best = (lean, found)
    if best is not None:
        return best[1]
    _, kind, point = found
    values = {"Label": capital(mention(point)), "label": mention(point), "defendant": defendant_name(request.case)}
    return PLAIN_LINE[side].format(**values), kind, point


def free_point(request: CraftRequest, side: str, rng: random.Random) -> Point:
    """The point a free argument rests on: the item the jury reads it as most about (else one of the side's)."""
    reading = read(request.case, request.free_text)
    if reading.touches:
        touched = max(reading.touches, key=lambda t: (t.relevance, abs(t.push))).facet
        built = _picked_item(request.case, side, touched.item_id)
        if built is not None:
            return built
    return _pick(all_points(request.case, side, rng) or [fallback_point(request.case, side)], request, rng)
