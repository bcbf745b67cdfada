"""A juror's point in words: the item named as a person would, one short clause of the file about it,
in a frame of the juror's argument type, never said before in the game.

``say`` turns a ``Point`` into a sentence or two. The fact is a clause of the file (``saying.clauses``)
the game has not heard: a figure for the detail-obsessed juror when there is one, a short one for
the impatient juror; a witness speaks in their own words when the file has them (a curated
witness's first-person testimony), quoted briefly. When every clause of a point has been said, the
point is named again in a frame without them (``frames.BARE``). ``build_on`` answers the previous
speaker about the item they argued ("Frank's right about the receipt."), read with the offline
reading, so a speech builds on the one before it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from deliberation.engine.types import CaseFile, JurorProfile
from deliberation.minds.offline import frames
from deliberation.minds.offline.naming import Name, agree, item_name_of, tidy
from deliberation.minds.offline.points import HEDGES, Point, defendant_name
from deliberation.minds.offline.reading import read
from deliberation.minds.offline.saying import (
    CLAUSE_WORDS,
    SHORT_CLAUSE_WORDS,
    Said,
    clauses,
    pick,
    unsaid_clauses,
    words,
)
from deliberation.minds.offline.text import (
    ISSUE_CLAUSES,
    capital,
    clean_line,
    clip,
    ends_dangling,
    fit,
    mend,
    split_sentences,
    unstopped,
    verb_led,
    with_subject,
)

TITLES = frozenset(
    "dr dr. mr mr. mrs mrs. ms ms. miss pastor rev rev. reverend father captain capt capt. detective det "
    "det. officer sergeant sgt sgt. professor prof prof. judge sister brother".split()
)
FIGURE = re.compile(r"\d")
REPORTING = re.compile(r"^(Says|Testifies|States|Claims|Recalls|Insists|Maintains|Admits|Swears)(?: that)? ")
FIRST_PERSON = re.compile(r"\b(I|me|my|we|us|our)\b")
QUOTE_WORDS = 14
AGAINST = 0.05  # a clause the reading hears pushing this far the other way is the other side's


def short_name(name: str, jury: Sequence[JurorProfile] = ()) -> str:
    """How one juror addresses another: "Frank" for Frank Russo, "Dr. Wright" for Dr. James Wright,
    "Juror 7" as it is; the full name when two people in the room share the first name."""
    parts = name.split()
    if len(parts) < 2 or parts[-1].isdigit():
        return name
    if parts[0].lower() in TITLES:
        return f"{parts[0]} {parts[-1]}"
    firsts = [j.name.split()[0] for j in jury if j.name.split()]
    return name if firsts.count(parts[0]) > 1 else parts[0]


def seated_name(seat: int, said_by: str, jury: Sequence[JurorProfile] = ()) -> str:
    """Who a juror answers when it answers the speech ``said_by`` made from ``seat``: whoever holds
    the seat now (a student who took the seat of the AI juror that spoke there, or who is back in it
    after it stood in for her, is answered by her own name); ``said_by`` when the seat is not at the
    table (a witness at the trial, a juror discharged)."""
    holder = next((j for j in jury if j.seat == seat), None) if seat else None
    return holder.name if holder is not None and holder.name else said_by


def ref_of(point: Point, case: CaseFile) -> Name:
    """The point's item as said mid-sentence, with its number."""
    if point.person:
        return Name(point.label)
    item = next((e for e in case.evidence if e.id == point.item_id), None)
    if item is None:
        return Name(point.named or point.label)
    return item_name_of(item.label, case)


def _fitted(clause: str, case: CaseFile, plural: bool) -> str:
    """A clause fitted mid-sentence; a clause that starts on its verb ("Concludes the fire was
    incendiary") gets the item as its subject ("it concludes ..."); "" when a plural item would need
    the verb changed."""
    clause = unstopped(clause.strip())
    if verb_led(clause):
        if plural:
            return ""
        return "it " + clause[:1].lower() + clause[1:]
    return fit(clause, case)


def _facts(point: Point, case: CaseFile, plural: bool, limit: int, side: str = "") -> list[str]:
    """Candidate clauses for the point, as they would sit in a frame; with ``side``, only those the
    offline reading does not hear arguing the other side (the neighbour who saw the defendant mowing
    is in the gas can's description, but it is the defence's answer to it, not the prosecution's point)."""
    found = _candidates(point, case, plural, limit)
    if not side or point.angle not in {"support", "rebut"}:  # an objection or a witness's issue is ours by nature
        return found
    towards = 1 if side == "guilty" else -1
    return [f for f in found if read(case, f).push * towards >= -AGAINST]


def _candidates(point: Point, case: CaseFile, plural: bool, limit: int) -> list[str]:
    item = next((e for e in case.evidence if e.id == point.item_id), None)
    if point.angle in {"support", "rebut"}:
        text = item.description if item else point.detail
    elif point.angle == "contest":
        reason = item.contest_reason if item else ""
        tags = [p.strip().lower() for p in reason.split(";") if p.strip()]
        if not reason or all(tag in ISSUE_CLAUSES for tag in tags):  # the importer's tags, phrased already
            return [point.reason] if point.reason and len(point.reason.split()) <= limit + 4 else []
        text = reason
    elif point.angle == "witness_attack":
        return _issue_clauses(point, case, limit)
    elif point.angle == "uncorroborated":
        return [point.reason]
    elif point.angle == "burden":
        text = case.summary
    elif point.angle == "witness_support":
        return _reported(point, case, limit)
    else:
        return []
    label = item.label if item else point.label
    return [f for f in (_fitted(c, case, plural) for c in clauses(text, limit=limit, label=label)) if f]


def _reported(point: Point, case: CaseFile, limit: int) -> list[str]:
    """A witness's evidence as a juror reports it, with the witness as the subject where the file
    leaves it out ("Testifies that the fire was set" -> "Captain Deckard testified that the fire was set")."""
    witness = next((w for w in case.witnesses if w.id == point.item_id), None)
    if witness is None:
        return []
    who = witness.name
    found: list[str] = []
    for clause in clauses(witness.testimony, role=witness.role, limit=limit):
        if FIRST_PERSON.search(clause):
            continue  # their own words are quoted, not reported
        said_that = REPORTING.match(clause)
        if said_that:
            found.append(f"{who} {said_that.group(1).lower()} {clause[said_that.end() :]}")
        elif verb_led(clause):
            found.append(f"{who} {clause[:1].lower()}{clause[1:]}")
        elif _names(clause, who):
            found.append(fit(clause, case))
        else:  # "He was struck from behind": whose evidence it is, said ("Tom Baker told us he was ...")
            found.append(f"{who} told us {fit(clause, case)}")
    return found


def _names(clause: str, who: str) -> bool:
    """Whether a clause names the witness, by full name or by surname."""
    low = clause.lower()
    return who.lower() in low or bool(re.search(rf"\b{re.escape(who.split()[-1].lower())}\b", low))


def _issue_clauses(point: Point, case: CaseFile, limit: int) -> list[str]:
    """A witness's credibility issues as short clauses with the witness as subject."""
    witness = next((w for w in case.witnesses if w.id == point.item_id), None)
    issues = witness.credibility_issues if witness else ()
    found: list[str] = []
    who = point.label
    for issue in issues:
        for clause in clauses(issue, limit=limit, split=True) or (
            [mend(issue.rstrip("."))] if len(issue.split()) <= limit else []
        ):
            low = clause[:1].lower() + clause[1:]
            if low.startswith(("not ", "no longer ")):
                found.append(f"{who} is {low}")
                continue
            if verb_led(clause) or low.startswith(("did ", "was ", "is ", "has ", "had ", "never ", "could")):
                found.append(f"{who} {low}")
            elif clause.lower().startswith(("admits", "cannot", "would", "will")):
                found.append(f"{who} {low}")
            elif with_subject(capital(clause), who) != capital(clause):  # "concedes ...", "Unsure whether ..."
                found.append(with_subject(capital(clause), who))
            else:  # spliced mid-sentence ("..., but she first told a detective"): a name keeps its capital
                found.append(fit(clause, case))
    if not found and point.reason and len(point.reason.split()) <= limit + 6:
        found.append(point.reason)
    return found


def _own_words(point: Point, case: CaseFile, limit: int, side: str = "") -> list[str]:
    """Short first-person lines a juror would quote: the witness on the stand (a curated witness's own
    words), a hedge, the prisoner's own account; with ``side``, not a friendly witness's line the
    offline reading hears arguing the other side ("I cannot rule out arson", from the defence's expert)."""
    found = _first_person(point, case, limit)
    witness = next((w for w in case.witnesses if w.id == point.item_id), None)
    if not side or point.angle != "witness_support" or witness is None:
        return found
    return [line for line in found if not _against_own_side(line, witness.credibility_issues)]


CONCEDING = re.compile(r"\b(?:cannot|can't|could not|couldn't) (?:rule out|exclude|say)\b", re.I)
_CONTENT = re.compile(r"[a-z][a-z'’-]{3,}")
_PLAIN = frozenset("that this with from were have been they their there what when said about would could".split())


def _against_own_side(line: str, issues: Sequence[str]) -> bool:
    """A friendly witness's line that tells against its own side: a concession ("I cannot rule out
    arson") or the matter of one of its credibility issues ("I never visited the scene")."""
    if CONCEDING.search(line):
        return True
    said = set(_CONTENT.findall(line.lower())) - _PLAIN
    return any(len(said & (set(_CONTENT.findall(issue.lower())) - _PLAIN)) >= 2 for issue in issues)


def _first_person(point: Point, case: CaseFile, limit: int) -> list[str]:
    lines: list[str] = []
    if point.angle == "witness_support":
        witness = next((w for w in case.witnesses if w.id == point.item_id), None)
        source = (witness.first_person or witness.testimony) if witness else ""
        for sentence in split_sentences(source):
            low = sentence.lower()
            if "cross-examined" in low or HEDGES.search(sentence) or low.startswith(("q.", "i am a", "i have been a")):
                continue
            sentence = clean_line(sentence)
            if len(sentence.split()) > limit:
                sentence = clip(sentence, limit).rstrip(".")
            if 5 <= len(sentence.split()) <= limit and FIRST_PERSON.search(sentence) and not ends_dangling(sentence):
                lines.append(f"“{sentence.rstrip('.')}.”")
        return lines
    if point.angle in {"hedge", "own_account"}:
        return [q for q in point.quotes if len(q.split()) <= limit + 4]
    return []


def say(
    point: Point,
    kind: str,
    side: str,
    case: CaseFile,
    rng: random.Random,
    said: Said,
    *,
    archetype: str = "",
    other: str = "",
) -> str:
    """The point in a sentence or two the game has not heard (see the module)."""
    limit = SHORT_CLAUSE_WORDS if archetype == "impatient" else CLAUSE_WORDS
    ref = ref_of(point, case)
    opponents = "the prosecution" if side == "not_guilty" else "the defense"
    values = {
        "ref": ref.text,
        "Ref": ref.capital,
        "who": point.label,
        "other": other,
        "opponents": opponents,
        "Opponents": capital(opponents),
        "defendant": defendant_name(case),
    }
    angle = point.angle
    if angle == "rebut" and rng.random() < 0.5:
        angle = "support"
    quoted = unsaid_clauses(_own_words(point, case, QUOTE_WORDS, side), said)
    if quoted and angle in {"witness_support", "hedge", "own_account"}:
        table = {"witness_support": frames.WITNESS_QUOTE, "hedge": frames.HEDGE, "own_account": frames.OWN_ACCOUNT}
        return _render(table[angle], values, "quote", quoted, rng, said, ref.plural)
    facts = unsaid_clauses(_facts(point, case, ref.plural, limit, side), said)
    if archetype == "detail_obsessed" and any(FIGURE.search(f) for f in facts):
        facts = [f for f in facts if FIGURE.search(f)]
    if facts and angle not in {"hedge", "own_account"}:
        return _render(_table(angle, kind, side), values, "fact", facts, rng, said, ref.plural)
    bare_angle = angle if angle in frames.BARE else "contest" if angle == "contest" else "support"
    options = [(t, _fill(t, values, ref.plural)) for t in frames.BARE[bare_angle]]
    return pick(options, rng, said)


def has_news(point: Point, case: CaseFile, said: Said, archetype: str = "", side: str = "") -> bool:
    """Whether the point has a clause or a witness's line the game has not heard."""
    limit = SHORT_CLAUSE_WORDS if archetype == "impatient" else CLAUSE_WORDS
    if unsaid_clauses(_own_words(point, case, QUOTE_WORDS, side), said):
        return True
    return point.angle not in {"hedge", "own_account"} and bool(
        unsaid_clauses(_facts(point, case, ref_of(point, case).plural, limit, side), said)
    )


def _table(angle: str, kind: str, side: str) -> tuple[str, ...]:
    if angle == "contest":
        table = frames.COUNTER if side == "guilty" else frames.CONTEST
        return table.get(kind, table["evidence"])
    if angle == "rebut":
        return frames.REBUT
    if angle == "witness_support":
        return frames.WITNESS_REPORT
    if angle == "witness_attack":
        return frames.WITNESS_ATTACK
    if angle == "uncorroborated":
        return frames.UNCORROBORATED
    if angle == "burden":
        return frames.BURDEN
    return frames.SUPPORT.get(kind, frames.SUPPORT["evidence"])


def _fill(template: str, values: dict[str, str], plural: bool) -> str:
    return tidy(agree(template, plural).format(**values))


def _render(
    table: Sequence[str],
    values: dict[str, str],
    slot: str,
    pieces: Sequence[str],
    rng: random.Random,
    said: Said,
    plural: bool,
) -> str:
    options = []
    for piece in pieces[:4]:
        filled = {**values, slot: piece, capital(slot): capital(piece)}
        options += [(t, _fill(t, filled, plural)) for t in table]
    # A point names what it is about: a frame that leaves the item out is for a fact that names it.
    names = (values["ref"].lower(), values["who"].lower())
    named = [(t, r) for t, r in options if any(n and n in r.lower() for n in names)]
    return pick(named or options, rng, said)


def build_on(
    previous_name: str,
    their: Name | None,
    agreeing: bool,
    rng: random.Random,
    said: Said,
) -> str:
    """An answer to the previous speaker about the item they argued ("" when nothing new fits)."""
    if their is None:
        return ""
    table = frames.BUILD_AGREE if agreeing else frames.BUILD_DISAGREE
    values = {"name": previous_name, "their": their.text}
    options = [(t, capital(agree(t, their.plural).format(**values))) for t in table]
    return pick(options, rng, said, required=False)


def speech_words(text: str) -> int:
    return len(words(text))


def their_item(case: CaseFile, text: str) -> Name | None:
    """The item a speech argued most plainly, as the offline reading reads it (None when it named none)."""
    touches = [t for t in read(case, text).touches if t.facet.kind in {"evidence", "contest", "witness", "issue"}]
    if not touches:
        return None
    item_id = max(touches, key=lambda t: (t.relevance, abs(t.push))).facet.item_id
    item = next((e for e in case.evidence if e.id == item_id), None)
    if item is not None:
        return item_name_of(item.label, case)
    witness = next((w for w in case.witnesses if w.id == item_id), None)
    return Name(witness.name) if witness is not None else None
