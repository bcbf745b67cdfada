"""The offline engine's reading of the case file: what each side can argue, and how hard.

A ``Point`` is one item of the case file (evidence or witness) turned to a side, with a force
rated from the file itself: strength_prosecution against strength_defense, contestability
(``CONTEST_DISCOUNT``, ``CONTEST_BONUS``) and credibility issues (``ISSUE_FORCE``).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from deliberation.engine import params
from deliberation.engine.types import CaseFile, JurorProfile
from deliberation.minds import offline_voices as voices
from deliberation.minds.base import HeardTurn

GUILTY_MARKERS = ("guilty", "convict", "proves", "clearly", "lines up", "did this", "justice has to")
DOUBT_MARKERS = ("not guilty", "doubt", "innocent", "problem", "hole", "don't trust", "weak", "not convinced")


@dataclass(frozen=True)
class Point:
    """One thing a juror can argue: an item of the case file turned to a side."""

    item_id: str
    label: str
    angle: str  # support | contest | witness_support | witness_attack | rebut
    force: float  # 0..1, how much it should move a listener
    detail: str = ""
    reason: str = ""


def first_sentence(text: str, limit: int = 30) -> str:
    text = " ".join(text.split())
    sentence = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0]
    words = sentence.split()
    if len(words) > limit:
        sentence = " ".join(words[:limit]) + "..."
    if sentence and sentence[-1] not in ".!?":
        sentence += "."
    return sentence[:1].upper() + sentence[1:]


SENTENCE_STARTERS = {"the", "a", "an", "it", "he", "she", "they", "there", "no", "this", "his", "her", "their", "one"}


def lower_first(text: str) -> str:
    """Fit a file's sentence into ours: lower a leading common word, never a name."""
    text = text.strip().rstrip(".")
    first = text.split(" ", 1)[0]
    return text[:1].lower() + text[1:] if first.lower() in SENTENCE_STARTERS else text


def stance(text: str) -> float:
    """A rough reading of which way a statement argues: +1 guilty, -1 not guilty, 0 unclear."""
    low = text.lower()
    doubt = sum(low.count(marker) for marker in DOUBT_MARKERS)
    guilt = sum(low.count(marker) for marker in GUILTY_MARKERS) - low.count("not guilty")
    if guilt == doubt:
        return 0.0
    return 1.0 if guilt > doubt else -1.0


def evidence_points(case: CaseFile, side: str) -> list[Point]:
    """Points for ``side`` (guilty / not_guilty) from the evidence, each with a rated force."""
    points: list[Point] = []
    for item in case.evidence:
        detail = first_sentence(item.description)
        if side == "guilty":
            force = item.strength_prosecution - 0.5 * item.strength_defense
            if item.contestable:
                force *= params.CONTEST_DISCOUNT
            if force > 0.05:
                angle = "rebut" if item.contestable and item.contest_reason else "support"
                points.append(Point(item.id, item.label, angle, force, detail, lower_first(item.contest_reason)))
        else:
            if item.contestable and item.contest_reason:
                force = params.CONTEST_BONUS + 0.5 * item.strength_defense + 0.3 * item.strength_prosecution
                points.append(Point(item.id, item.label, "contest", force, detail, lower_first(item.contest_reason)))
            elif item.strength_defense > item.strength_prosecution:
                force = item.strength_defense - 0.5 * item.strength_prosecution
                points.append(Point(item.id, item.label, "support", force, detail))
    return points


def witness_points(case: CaseFile, side: str) -> list[Point]:
    points: list[Point] = []
    friendly = "prosecution" if side == "guilty" else "defense"
    for witness in case.witnesses:
        testimony = first_sentence(witness.testimony, 24)
        issues = witness.credibility_issues
        if witness.side == friendly:
            force = max(0.05, 0.5 - params.ISSUE_FORCE * len(issues))
            points.append(Point(witness.id, witness.name, "witness_support", force, testimony))
        elif issues and (side == "not_guilty" or witness.side == "defense"):
            force = 0.15 + params.ISSUE_FORCE * len(issues)
            points.append(Point(witness.id, witness.name, "witness_attack", force, testimony, lower_first(issues[0])))
    return points


def all_points(case: CaseFile, side: str) -> list[Point]:
    return evidence_points(case, side) + witness_points(case, side)


def fallback_point(case: CaseFile, side: str) -> Point:
    """When the file offers a side nothing: the summary and the burden of proof."""
    if side == "guilty":
        return Point("summary", "account of the events", "support", 0.15, first_sentence(case.summary))
    return Point("summary", "prosecution's case", "contest", 0.2, first_sentence(case.summary), "it rests on inference")


def mention(point: Point) -> str:
    """How a point is named mid-sentence: evidence takes "the", a witness's name does not."""
    return point.label if point.angle.startswith("witness") else f"the {point.label}"


def label_short(label: str) -> str:
    """The first three words, lowering a capitalised common word but not an acronym or name."""
    words = label.split()[:3]
    if words and not words[0].isupper() and words[0].lower() in SENTENCE_STARTERS:
        words[0] = words[0].lower()
    return " ".join(words)


def defendant_name(case: CaseFile) -> str:
    return case.defendants[0].name if case.defendants else "the defendant"


def voice(table: dict[str, tuple[str, ...]], archetype: str) -> tuple[str, ...]:
    return table.get(archetype) or table["everyman"]


def pick_type(juror: JurorProfile, rng: random.Random) -> str:
    """The archetype's own style most of the time, else what its modifiers value most."""
    preferred = voices.ARCHETYPE_TYPES.get(juror.archetype)
    if preferred and rng.random() < 0.8:
        return rng.choice(preferred)
    ranked = sorted(juror.modifiers.items(), key=lambda pair: -pair[1])[:3] or [("logical", 1.0)]
    return rng.choice([kind for kind, _ in ranked])


def used_recently(juror_seat: int, recent: tuple[HeardTurn, ...], label: str) -> int:
    return sum(1 for turn in recent if turn.seat == juror_seat and label.lower() in turn.content.lower())


def choose_point(
    points: list[Point], rng: random.Random, *, seat: int, recent: tuple[HeardTurn, ...], hot: str
) -> Point:
    """Weighted by force; an item the previous speaker raised is worth answering, one this
    juror has used lately is worth less."""
    weights = []
    for point in points:
        weight = 0.2 + point.force
        if hot and point.label.lower() in hot.lower():
            weight *= 2.0
        weight /= 1 + 2 * used_recently(seat, recent, point.label)
        weights.append(weight)
    return rng.choices(points, weights=weights, k=1)[0]


def body(point: Point, kind: str, other: str, rng: random.Random) -> str:
    values = {"label": point.label, "detail": point.detail, "reason": point.reason, "other": other}
    if point.angle == "witness_support":
        text = rng.choice(voices.BODY_WITNESS_SUPPORT)
        return text.format(witness=point.label, testimony=point.detail)
    if point.angle == "witness_attack":
        capital = point.reason[:1].upper() + point.reason[1:]
        return rng.choice(voices.BODY_WITNESS_ATTACK).format(witness=point.label, issue=point.reason, Issue=capital)
    if point.angle == "rebut" and rng.random() < 0.5:
        return rng.choice(voices.BODY_REBUT).format(**values)
    if point.angle == "contest":
        return rng.choice(voices.BODY_CONTEST.get(kind, voices.BODY_CONTEST["evidence"])).format(**values)
    return rng.choice(voices.BODY_SUPPORT.get(kind, voices.BODY_SUPPORT["evidence"])).format(**values)


def strength_of(point: Point, side: str, kind: str, certainty: float) -> float:
    """-1..1: the point's force, towards guilty or not, softened for questions, firmer when sure."""
    force = point.force * (params.QUESTION_FORCE if kind == "question" else 1.0)
    force *= 0.75 + 0.5 * certainty
    sign = 1.0 if side == "guilty" else -1.0
    return max(-1.0, min(1.0, sign * force))
