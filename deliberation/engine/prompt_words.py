"""The words every prompt shares: clipping, positions and trust in words, seat labels, the case index.

Pure Python, no Django. The case reaches a model as a compact index (title, charges, defendant, a
short summary, one line per evidence item and witness) that is the same for every juror and every
round, so it can sit in the stable head of the prompt that providers cache; the detail a juror needs
comes from the passages looked up for them (``format_passages``), each said once. Nothing here
reads a field that is not named explicitly: no historical verdict or punishment can slip in.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from deliberation.engine.ports import HeardTurn
from deliberation.engine.types import CaseFile, JurorProfile, Passage

MAX_ITEM_CHARS = 400
INDEX_SUMMARY_CHARS = 90  # the case summary in the index: its opening sentences
INDEX_LINE_CHARS = 56  # one evidence item or witness in the index
INDEX_DEFENDANT_CHARS = 48  # the defendant's description in the index: who they are, in a phrase
INDEX_CHARGES_CHARS = 120  # the charges line, glosses included; past it the glosses go
GLOSS = re.compile(r"\s*\([^()]*\)")
SENTENCE_END = re.compile(r"[.!?][\"')]?(?=\s+[A-Z\"'(]|$)")
MAX_PASSAGES = 2
PASSAGE_CHARS = 130
TURN_CHARS = 240  # one remembered turn, whole
MAX_LABEL_CHARS = 40  # an item named in words where the index does not hold it
SIDE_WORDS = {"prosecution": "prosecution", "defense": "defence", "neutral": "neutral"}  # a witness's side


def clip(text: str, limit: int) -> str:
    """Tidy spacing (keeping line breaks) and cut to ``limit`` characters at a word boundary."""
    text = "\n".join(" ".join(line.split()) for line in text.splitlines() if line.strip())
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0]
    return cut + " …"


def conviction_to_text(conviction: float) -> str:
    """The juror's conviction in words: numbers invite false precision in a model's answer."""
    bands = (
        (0.15, "certain that the defendant is not guilty"),
        (0.30, "fairly sure that the defendant is not guilty"),
        (0.40, "leaning towards not guilty"),
        (0.60, "torn, on the fence"),
        (0.70, "leaning towards guilty"),
        (0.85, "fairly sure that the defendant is guilty"),
    )
    for upper, words in bands:
        if conviction < upper:
            return words
    return "certain that the defendant is guilty"


def stance_to_text(vote: str | None, conviction: float) -> str:
    """The vote and the conviction behind it in as few words as say both ("GUILTY, fairly sure"):
    the conviction's direction is spelled out only when it is torn or runs against the vote."""
    voted, words = vote_to_text(vote), conviction_to_text(conviction)
    towards = "not guilty" if words.endswith("not guilty") else "guilty" if words.endswith("guilty") else ""
    if towards and towards == voted.lower():
        return f"{voted}, {words.split(' that ')[0].replace('towards ' + towards, 'that way')}"
    return f"{voted}; {words}"


def trust_to_text(trust: float) -> str:
    if trust > 0.5:
        return "you trust them a great deal"
    if trust > 0.15:
        return "you tend to trust them"
    if trust >= -0.15:
        return "no strong feeling"
    if trust >= -0.5:
        return "you are wary of them"
    return "you distrust them"


def has_opinion(trust: float) -> bool:
    """Whether a juror feels anything about another: "no strong feeling" is not worth a line."""
    return trust > 0.15 or trust < -0.15


def vote_to_text(vote: str | None) -> str:
    return {"guilty": "GUILTY", "not_guilty": "NOT GUILTY"}.get(vote or "", "undecided")


def seat_label(seat: int, jury: Sequence[JurorProfile]) -> str:
    """A juror by name and seat ("Tom Reyes (Juror 3)"); the neutral "Juror 7" by seat once."""
    for juror in jury:
        if juror.seat == seat and juror.name != f"Juror {seat}":
            return f"{juror.name} (Juror {seat})"
    return f"Juror {seat}"


def short_name(seat: int | None, jury: Sequence[JurorProfile]) -> str:
    """A juror as the transcript lines name them: the name alone, else "Juror n"."""
    for juror in jury:
        if juror.seat == seat:
            return juror.name
    return f"Juror {seat}"


def one_line(text: str) -> str:
    return " ".join(text.split())


def index_summary(case: CaseFile) -> str:
    """The summary's opening sentences within ``INDEX_SUMMARY_CHARS`` (at least its first sentence)."""
    text = one_line(case.summary)
    if len(text) <= INDEX_SUMMARY_CHARS:
        return text
    ends = [match.end() for match in SENTENCE_END.finditer(text[: INDEX_SUMMARY_CHARS + 1])]
    return text[: ends[-1]].rstrip() if ends else clip(text, INDEX_SUMMARY_CHARS)


def index_charges(charges: Sequence[str]) -> str:
    """The charges, whole while they fit ``INDEX_CHARGES_CHARS``; past it each loses its gloss in
    brackets ("Assault in the third degree (recklessly causing ...)"): the offence names stay whole."""
    text = "; ".join(one_line(charge) for charge in charges)
    if len(text) <= INDEX_CHARGES_CHARS:
        return text
    return "; ".join(" ".join(GLOSS.sub("", one_line(charge)).split()) for charge in charges)


def marked_heading(title: str, marked: int, total: int, word: str) -> tuple[str, bool]:
    """A list's heading and whether its items carry a mark: "Evidence (all contested):" says it once
    for all, "Evidence (* contested):" marks the few, "Evidence:" marks none."""
    if marked == 0:
        return f"{title}:", False
    if marked == total:
        return f"{title} (all {word}):", False
    return f"{title} (* {word}):", True


def format_case_index(case: CaseFile) -> str:
    """The case as an index: enough to know what exists and what to ask about, the same for everyone.

    Compact by rule, whatever the case's size: each item is its id and its name on one line of at
    most ``INDEX_LINE_CHARS`` (a witness's side and role in two words); what all the items of a list
    share (contested, doubted) is said once in its heading, and a mark (`` *``) singles out the items
    when only some of them are. The detail (what an item shows, why it is contested, what a witness
    said and why they are doubted) comes from the passages looked up for each juror.
    """
    place = ", ".join(part for part in (case.jurisdiction, str(case.year) if case.year else "") if part)
    lines = [f"# THE CASE: {case.title}" + (f" ({place})" if place else "")]
    if case.charges:
        lines.append("Charges: " + index_charges(case.charges))
    for defendant in case.defendants:
        details = "".join(f", {part}" for part in (defendant.gender, str(defendant.age or "")) if part)
        described = f": {clip(one_line(defendant.description), INDEX_DEFENDANT_CHARS)}" if defendant.description else ""
        lines.append(f"Defendant: {defendant.name}{details}{described}")
    lines.append(index_summary(case))
    if case.evidence:
        contested = sum(1 for item in case.evidence if item.contestable)
        heading, marks = marked_heading("Evidence", contested, len(case.evidence), "contested")
        lines.append(heading)
        for item in case.evidence:
            mark = " *" if marks and item.contestable else ""
            lines.append(clip(f"[{item.id}] {item.label}", INDEX_LINE_CHARS) + mark)
    if case.witnesses:
        doubted = sum(1 for w in case.witnesses if w.credibility_issues)
        heading, marks = marked_heading("Witnesses", doubted, len(case.witnesses), "doubted")
        lines.append(heading)
        for witness in case.witnesses:
            mark = " *" if marks and witness.credibility_issues else ""
            role = " ".join(part for part in (SIDE_WORDS.get(witness.side, witness.side), witness.role) if part)
            lines.append(clip(f"[{witness.id}] {witness.name}, {role}", INDEX_LINE_CHARS) + mark)
    return "\n".join(lines)


def item_ids(case: CaseFile) -> dict[str, str]:
    """Each evidence item's label and each witness's name (lowered), and each id, to the id the index shows."""
    ids = {item.id.lower(): item.id for item in case.evidence}
    ids.update({witness.id.lower(): witness.id for witness in case.witnesses})
    ids.update({item.label.lower(): item.id for item in case.evidence})
    ids.update({witness.name.lower(): witness.id for witness in case.witnesses})
    return ids


def item_ref(label: str, ids: dict[str, str], limit: int = MAX_LABEL_CHARS) -> str:
    """An item of the case once the index has named it: ``[E3]`` (its label again would be sent twice);
    a label the index does not hold stays in words."""
    known = ids.get(label.strip().lower())
    return f"[{known}]" if known else clip(label, limit)


def doubt_ref(doubt: str, ids: dict[str, str], limit: int) -> str:
    """A doubt led by its item ("Silver watch: found in a shared room") as ``[E1] found in a shared room``."""
    head, sep, reason = doubt.partition(": ")
    known = ids.get(head.strip().lower()) if sep else None
    return f"[{known}] {clip(reason, limit)}" if known else clip(doubt, limit)


def without_name(text: str, passage: Passage, role: str = "") -> str:
    """A passage without the item's name at its head ("Silver watch. Found ..." or "Mary Dunn,
    neighbour: I saw ..."): the index names every item beside its id."""
    name = passage.label.split(" (")[0].strip()
    if name and text.lower().startswith(name.lower()):
        text = text[len(name) :]
        if passage.kind == "witness":
            role, sep, said = text.partition(": ")
            text = said if sep and len(role) <= INDEX_LINE_CHARS else text
        return text.lstrip(" .,:;")
    if passage.kind == "witness" and role and text.lower().startswith(role.lower() + " "):
        return text[len(role) :].lstrip()  # the index gives the role too
    return text


def fresh_passages(passages: Sequence[Passage], case: CaseFile) -> list[tuple[Passage, str]]:
    """The looked-up passages worth sending, each with its text: one per item, none repeating the index.

    A summary passage keeps only what the index's short summary does not already say.
    """
    shown = index_summary(case).removesuffix(" …")
    roles = {witness.id: witness.role for witness in case.witnesses}
    seen: set[str] = set()
    kept: list[tuple[Passage, str]] = []
    for passage in passages:
        if passage.item_id in seen:
            continue
        seen.add(passage.item_id)
        text = one_line(passage.text)
        if passage.kind == "summary":
            text = text[len(shown) :].strip() if text.startswith(shown) else text
        else:
            text = without_name(text, passage, roles.get(passage.item_id, ""))
        if text:
            kept.append((passage, clip(text, PASSAGE_CHARS)))
        if len(kept) >= MAX_PASSAGES:
            break
    return kept


def format_passages(passages: Sequence[Passage], case: CaseFile) -> str:
    kept = fresh_passages(passages, case)
    if not kept:
        return ""
    lines = ["# LOOKED UP FOR YOU"]
    # The index already gives each item's label beside its id; a summary passage's id says what it is.
    lines.extend(f"[{p.item_id}] {text}" for p, text in kept)
    return "\n".join(lines)


def format_heard_turn(
    turn: HeardTurn, jury: Sequence[JurorProfile], limit: int = TURN_CHARS, *, marked: bool = True
) -> str:
    """Someone else's statement as the speaker heard it: ``[R3] Tom to Margaret: ...`` (``marked``
    False leaves out the round, when the turn before it already said it)."""
    if turn.kind == "process":
        who = turn.speaker_name or "The foreperson"
    elif turn.kind == "judge":
        who = turn.speaker_name or "The judge"
    else:
        who = short_name(turn.seat, jury) if turn.seat else turn.speaker_name
        if turn.target_seat is not None:
            who += f" to {short_name(turn.target_seat, jury)}"
    marker = f"[R{turn.round_number}] " if marked else ""
    return f"{marker}{who}: {clip(turn.content, limit)}"
