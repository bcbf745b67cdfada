"""The offline engine's reading of the case file: what each side can argue, and how hard.

A ``Point`` is one item of the case file (evidence or witness) turned to a side, with a force
rated from the file itself: strength_prosecution against strength_defense, contestability
(``CONTEST_DISCOUNT``, ``CONTEST_BONUS``) and credibility issues (``ISSUE_FORCE``).

A contest reason cuts against the side its item favours: on an item that helps the prosecution
it is the defence's argument, on one that helps the defence it is the State's. Each side argues
its own reasons and answers the other's.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace

from deliberation.engine import params
from deliberation.engine.ports import HeardTurn
from deliberation.engine.types import CaseFile, EvidenceItem, JurorProfile, WitnessItem
from deliberation.minds.offline import phrases, voices
from deliberation.minds.offline.naming import agree, item_name, label_plural, tidy
from deliberation.minds.offline.text import (
    DETERMINERS,
    SUBJECTS,
    VERBS,
    capital,
    clean_line,
    ends_dangling,
    first_sentence,
    fit,
    fresh,
    issues_text,
    quotes,
    reason_text,
    split_sentences,
)

GUILTY_MARKERS = ("guilty", "convict", "proves", "clearly", "lines up", "did this", "justice has to")
DOUBT_MARKERS = ("not guilty", "doubt", "innocent", "problem", "hole", "don't trust", "weak", "not convinced")
# A witness hedging in their own words is a doubt the defence can quote.
HEDGES = re.compile(
    r"\bI (believe|think|cannot say|can't say|could not say|am not (sure|certain|positive)|did not see|"
    r"could not see|do not know|don't know|cannot swear|can't swear|will not swear|would not swear)\b",
    re.I,
)
UNCORROBORATED_FORCE = 0.2
OWN_ACCOUNT_FORCE = 0.2
FIRST_PERSON = re.compile(r"\b(I|me|my|we|us|our)\b")


@dataclass(frozen=True)
class Point:
    """One thing a juror can argue: an item of the case file turned to a side."""

    item_id: str
    label: str  # as written in the file
    angle: str  # support | contest | rebut | witness_support | witness_attack | hedge | uncorroborated | own_account
    force: float  # 0..1, how much it should move a listener
    detail: str = ""  # the first quotable line
    reason: str = ""  # a contest reason or credibility issue, phrased to sit mid-sentence
    named: str = ""  # how it is named mid-sentence ("the money order receipt", "Dolores Finch")
    quotes: tuple[str, ...] = ()  # every quotable line, for variety

    @property
    def person(self) -> bool:
        return self.angle.startswith("witness") or self.angle in {"hedge", "uncorroborated", "own_account"}


def stance(text: str) -> float:
    """A rough reading of which way a statement argues: +1 guilty, -1 not guilty, 0 unclear."""
    low = text.lower()
    doubt = sum(low.count(marker) for marker in DOUBT_MARKERS)
    guilt = sum(low.count(marker) for marker in GUILTY_MARKERS) - low.count("not guilty")
    if guilt == doubt:
        return 0.0
    return 1.0 if guilt > doubt else -1.0


def favours_defence(item: EvidenceItem) -> bool:
    return item.strength_defense > item.strength_prosecution


def _evidence_point(item: EvidenceItem, angle: str, force: float, reason: str, case: CaseFile) -> Point:
    found = quotes(item.description) or (first_sentence(item.description),)
    return Point(item.id, item.label, angle, force, found[0], reason, item_name(item.label, case), found)


def evidence_points(case: CaseFile, side: str, rng: random.Random | None = None) -> list[Point]:
    """Points for ``side`` (guilty / not_guilty) from the evidence, each with a rated force."""
    rng = rng or random.Random(0)
    points: list[Point] = []
    for item in case.evidence:
        ours, theirs = (
            (item.strength_prosecution, item.strength_defense)
            if side == "guilty"
            else (item.strength_defense, item.strength_prosecution)
        )
        favours_us = favours_defence(item) == (side == "not_guilty")
        reason = reason_text(item.contest_reason, case, rng) if item.contestable and item.contest_reason else ""
        if favours_us:
            force = ours - 0.5 * theirs
            if item.contestable:
                force *= params.CONTEST_DISCOUNT
            if force > 0.05:
                points.append(_evidence_point(item, "rebut" if reason else "support", force, reason, case))
        elif reason:  # the reason cuts against the item's side: ours to argue
            force = params.CONTEST_BONUS + 0.5 * ours + 0.3 * theirs
            points.append(_evidence_point(item, "contest", force, reason, case))
    return points


def reported(line: str, name: str) -> str:
    """A line of testimony as the jury would repeat it: in quotes when the witness speaks in the first
    person, with the name in front when the file leaves the subject out ("Heard a thud" -> "X heard a thud")."""
    if FIRST_PERSON.search(line):
        return f"“{line}”"
    words = line.split()
    first = words[0].lower() if words else ""
    second = words[1].lower() if len(words) > 1 else ""
    verb_led = (
        first in VERBS
        or first.endswith(("ies", "ed"))
        or (first.endswith("s") and (second in DETERMINERS or second in SUBJECTS))
    )
    if verb_led and words[0][1:].islower():
        return f"{name} {line[:1].lower()}{line[1:]}"
    return line


def witness_lines(witness: WitnessItem) -> tuple[str, ...]:
    lines = [line for line in quotes(witness.testimony, role=witness.role, most=6) if not HEDGES.search(line)]
    return tuple(reported(line, witness.name) for line in lines[:4])


def witness_points(case: CaseFile, side: str, rng: random.Random | None = None) -> list[Point]:
    rng = rng or random.Random(0)
    points: list[Point] = []
    friendly = "prosecution" if side == "guilty" else "defense"
    for witness in case.witnesses:
        lines = witness_lines(witness)
        issues = witness.credibility_issues
        if witness.side == friendly and lines:
            force = max(0.05, 0.5 - params.ISSUE_FORCE * len(issues))
            points.append(Point(witness.id, witness.name, "witness_support", force, lines[0], "", witness.name, lines))
        elif issues and (side == "not_guilty" or witness.side == "defense"):
            force = 0.15 + params.ISSUE_FORCE * len(issues)
            reason = issues_text(issues, witness.name, case, rng)
            points.append(
                Point(
                    witness.id, witness.name, "witness_attack", force, lines[0] if lines else "", reason, witness.name
                )
            )
        if side == "not_guilty" and witness.side == "prosecution":
            hedges = tuple(
                f"“{clean_line(s).rstrip('.')}.”"
                for s in split_sentences(witness.testimony)
                if HEDGES.search(s) and len(s) < 220 and len(s.split()) >= 6 and not s.startswith("Q.")
            )
            if hedges:
                force = 0.15 + params.ISSUE_FORCE
                points.append(Point(witness.id, witness.name, "hedge", force, hedges[0], "", witness.name, hedges))
    if side == "not_guilty":
        points += doubt_points(case)
    return points


def doubt_points(case: CaseFile) -> list[Point]:
    """What the defence has when the file contests little: a lone accuser, the defendant's own account."""
    points: list[Point] = []
    accusers = [w for w in case.witnesses if w.side == "prosecution"]
    if 1 <= len(accusers) <= 2:
        for witness in accusers:
            lines = witness_lines(witness)
            reason = "nobody else in the file confirms it" if len(accusers) == 1 else "only two people speak to it"
            points.append(
                Point(
                    witness.id,
                    witness.name,
                    "uncorroborated",
                    UNCORROBORATED_FORCE,
                    lines[0] if lines else "",
                    reason,
                    witness.name,
                    lines,
                )
            )
    # Only the defendant's own words (the prisoner's defence, in the first person) are their account;
    # counsel's arguments are not, and are argued through the evidence they rest on.
    spoken = (first_sentence(a) for a in case.defense_arguments if FIRST_PERSON.search(a))
    accounts = tuple(f"“{a.rstrip('.')}.”" for a in spoken if a and not ends_dangling(a))
    if accounts and case.defendants:
        name = case.defendants[0].name
        points.append(Point("defence", name, "own_account", OWN_ACCOUNT_FORCE, accounts[0], "", name, accounts))
    return points


def all_points(case: CaseFile, side: str, rng: random.Random | None = None) -> list[Point]:
    return evidence_points(case, side, rng) + witness_points(case, side, rng)


def fallback_point(case: CaseFile, side: str) -> Point:
    """When the file offers a side nothing: the summary and the burden of proof."""
    summary = first_sentence(case.summary)
    if side == "guilty":
        return Point("summary", "account of the events", "support", 0.15, summary, "", "the account of the events")
    return Point(
        "summary", "prosecution's case", "burden", 0.2, summary, "it rests on inference", "the prosecution's case"
    )


def plural(point: Point) -> bool:
    """Whether the point's item takes a plural verb ("the cell-site records still stand"); a person never."""
    return not point.person and point.item_id != "summary" and label_plural(point.label)


def mention(point: Point) -> str:
    """How a point is named mid-sentence: evidence takes "the" and loses its capital, a name does not."""
    if point.named:
        return point.named
    return point.label if point.person else item_name(point.label, None)


def label_short(label: str, case: CaseFile | None = None) -> str:
    """The first three words of a label (four after an article), fitted mid-sentence."""
    words = label.split()
    keep = 4 if words and words[0].lower() in {"the", "a", "an"} else 3
    return fit(" ".join(words[:keep]), case)


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


def heard_recently(recent: tuple[HeardTurn, ...], label: str) -> int:
    return sum(1 for turn in recent if label.lower() in turn.content.lower())


def choose_point(
    points: list[Point], rng: random.Random, *, seat: int, recent: tuple[HeardTurn, ...], hot: str
) -> Point:
    """Weighted by force; an item the previous speaker raised is worth answering, one this
    juror has used lately is worth less, and one the whole room keeps raising a little less."""
    weights = []
    for point in points:
        weight = 0.2 + point.force
        key = mention(point).removeprefix("the ")
        if hot and key.lower() in hot.lower():
            weight *= 2.0
        weight /= 1 + 2 * used_recently(seat, recent, key) + 0.5 * heard_recently(recent, key)
        weights.append(weight)
    return rng.choices(points, weights=weights, k=1)[0]


def quote_of(point: Point, rng: random.Random, heard: str, *, fallback: bool = True) -> str:
    """One of the point's quotable lines the room has not just heard; when it has heard them all,
    the first line (``fallback``) or "" so the caller can name the point without quoting it again."""
    low = heard.lower()
    pool = [q for q in point.quotes if q.lower().strip("“”").rstrip(".") not in low]
    if pool:
        return rng.choice(pool)
    return (point.quotes[0] if point.quotes else point.detail) if fallback else ""


def unheard(reason: str, heard: str) -> str:
    """A reason of several sentences without the later ones the room has just heard: a point made
    again persuades less (``offline_reading``), so it is made shorter rather than word for word."""
    parts = split_sentences(reason)
    if len(parts) <= 1:
        return reason
    low = heard.lower()
    kept = [parts[0]] + [part for part in parts[1:] if part.lower().rstrip(".") not in low]
    return " ".join(kept).rstrip(".")


def body(point: Point, kind: str, other: str, rng: random.Random, heard: str = "", side: str = "") -> str:
    """The argument itself, in a template that fits the point's angle, the side and the argument type."""
    detail = quote_of(point, rng, heard, fallback=False)
    named = mention(point)
    opponents = "the prosecution" if side == "not_guilty" else "the defense"
    point = replace(point, reason=unheard(point.reason, heard))
    values = {
        "label": named,
        "Label": capital(named),
        "detail": detail,
        "detail_low": detail if detail.startswith("“") else fit(detail) + ".",
        "reason": point.reason,
        "Reason": capital(point.reason),
        "other": other,
        "witness": point.label,
        "testimony": detail,
        "issue": point.reason,
        "Issue": capital(point.reason),
        "opponents": opponents,
        "Opponents": capital(opponents),
    }
    angle = point.angle
    if angle == "rebut":  # the template names the other side already: "the State says" once is enough
        values["reason"] = re.sub(r"^the (state|prosecution|defen[cs]e) says (that )?", "", point.reason, flags=re.I)
    if angle == "rebut" and rng.random() >= 0.5:
        angle = "support"
    quoting = angle in {"support", "witness_support", "rebut", "hedge", "own_account", "burden"}
    if quoting and not detail:
        form = "bare"
        if angle in {"support", "rebut"} and point.person:
            angle = "witness_support"
    elif angle == "witness_attack":
        form = "named" if point.reason.startswith(point.label) else "plain"
    else:
        form = "direct" if detail.startswith("“") else "named" if detail.startswith(point.label) else "plain"
    return tidy(
        agree(fresh(phrases.table_for(angle, kind, side, form=form), rng, heard), plural(point)).format(**values)
    )


def strength_of(point: Point, side: str, kind: str, certainty: float) -> float:
    """-1..1: the point's force, towards guilty or not, softened for questions, firmer when sure."""
    force = point.force * (params.QUESTION_FORCE if kind == "question" else 1.0)
    force *= 0.75 + 0.5 * certainty
    sign = 1.0 if side == "guilty" else -1.0
    return max(-1.0, min(1.0, sign * force))
