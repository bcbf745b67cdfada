"""Verdicts printed as plain text in trials that carry no verdict tags (the OBC2 1744 session).

Some OBC2 trials have no ``verdictDescription``: the verdict is only words at the end of the
last utterance ("... and Mr. Cosby came and owned it. Guilty ."), sometimes followed by the
jury's recommendation or a printer's footnote. Left alone, those words reach the witnesses,
the evidence and the index, and the jury reads the answer.

The cut (the rule): in a trial without verdict tags, the printed verdict is looked for from
the last paragraph that holds speech (a ``<u>``; in a file without utterances, the last
paragraph that is not a footnote) to the end of the trial, and anywhere before that where
a verdict is directly followed by a new numbered indictment in the same account ("Acquitted.
217. Richard Carberry, was a second time indicted..."): the account then holds several
indictments and only the first, up to its verdict, is kept. The first verdict statement found
(a sentence that opens, after at most four capitalised names or a ``*`` mark, with guilty,
not guilty, acquitted, or a sentence of the court: death, transportation, branded,
whipped...) starts the answer: it and everything after it in the trial are removed from the
tree before any text is taken.

Reading it (the rule): the statements that follow one another from the cut ("Gregory guilty
4 s. 10 d. Robinson guilty 4 s. 10 d. Hayes * acquitted.") are read as (names, finding).
Guilty in any form ("Guilty 10 d.", "Guilty of the felony") is guilty; not guilty and
acquitted are not guilty; a sentence of the court alone is guilty. A statement without
names speaks for every defendant. When all statements agree, that is the verdict; when they
differ, the first defendant's (named by surname) is taken, as for tagged trials; when that
still leaves no single finding, or no statement is found at all, the verdict is unknown and
the trial is kept but not playable.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass

from cases.importers.oldbailey_reasons import REASON_NO_VERDICT, REASON_UNREADABLE_VERDICT
from cases.importers.oldbailey_xml import clean, text_of

_NAMES = r"(?P<who>(?:(?-i:[A-Z][\w'’]*)\s+|\*\s*){0,4})"
_FINDING = r"(?P<finding>not\s+guilty|guilty|acquitted|acquit)\b"
_SENTENCE = (
    r"(?P<sentence>death|transportation|transported|branded|whipped|to be whipped|burnt in the hand|"
    r"to be hanged|imprisoned|fined|pilloried)\b"
)
_VALUE = r"(?:\s*\d+\s*[sdl]\b\s*\.?|\s+of\s+[^.;*]*)*"
# A verdict statement opening a sentence: the start, or after . ; : ? ! ] ) or a dash.
# The words after it must still read as a verdict ("Guilty .", "Guilty 10 d.", "Guilty of the felony",
# "Transportation for 7 years"), so testimony such as "Death was instant" is never taken for one.
_AFTER_FINDING = r"(?=\s*(?:[.;,:*]|$|\d|of\b|death\b|transport))"
_AFTER_SENTENCE = r"(?=\s*(?:[.;,:*]|$|\d|for\b))"
VERDICT_START = re.compile(
    r"(?:^|(?<=[.;:?!\])])|(?<=\s-)|(?<=—))\s*(?P<start>"
    + _NAMES
    + r"\*?\s*(?:"
    + _FINDING
    + _AFTER_FINDING
    + "|"
    + _SENTENCE
    + _AFTER_SENTENCE
    + "))",
    re.IGNORECASE,
)
STATEMENT = re.compile(
    r"[\s.;,:*-]*" + _NAMES + r"\*?\s*(?:" + _FINDING + _VALUE + "|" + _SENTENCE + r"[^.;]*)[\s.;,*]*",
    re.IGNORECASE,
)
# A new numbered indictment in the same trial account ("217. Richard Carberry, was a second time indicted").
NEXT_INDICTMENT = re.compile(r"\s*\d+\s*\.\s+(?-i:[A-Z])[^.]{0,200}?\bindicted\b", re.IGNORECASE)
SKIP_TAGS = frozenset({"interp", "join"})


@dataclass(frozen=True)
class PrintedVerdict:
    text: str  # the words removed from the trial (for the record; never shown to the jury)
    verdict: str  # guilty | not_guilty | unknown
    punishment: str  # a sentence of the court printed with the verdict, if any
    reason: str  # why the trial cannot be played, when the verdict is unknown


def cut_printed_verdict(paragraphs: list[ET.Element], *, defendants: list[str]) -> PrintedVerdict:
    """Remove the printed verdict and all after it from ``paragraphs``; read what it says."""
    slots = [slot for p in paragraphs for slot in [*paragraph_slots(p), (None, "")]]  # None: a paragraph break
    texts = [slot_text(slot) for slot in slots]
    joined = " ".join(texts)
    last = _last_speech(paragraphs)
    region_start = sum(len(text) + 1 for text in texts[: _first_slot(slots, paragraphs[last])])
    start = _answer_start(joined, region_start)
    if start is None:
        return PrintedVerdict(text="", verdict="unknown", punishment="", reason=REASON_NO_VERDICT)
    tail = clean(joined[start:])
    truncate_at(paragraphs, slots, texts, start)
    verdict, punishment = read_statements(tail, defendants=defendants)
    return PrintedVerdict(
        text=tail,
        verdict=verdict,
        punishment=punishment,
        reason="" if verdict != "unknown" else REASON_UNREADABLE_VERDICT,
    )


def _answer_start(joined: str, region_start: int) -> int | None:
    """Where the first printed verdict starts: in the closing region, or before a new indictment."""
    for match in VERDICT_START.finditer(joined):
        start = match.start("start")
        if start >= region_start:
            return start
        if NEXT_INDICTMENT.match(joined, _statements(joined, start)[2]):
            return start
    return None


def read_statements(tail: str, *, defendants: list[str]) -> tuple[str, str]:
    """(verdict, punishment) from the printed statements at the start of ``tail``."""
    findings, punishment, _ = _statements(tail, 0)
    values = {finding for _, finding in findings}
    if len(values) == 1:
        return values.pop(), punishment
    if not values or not defendants:
        return "unknown", punishment
    surname = defendants[0].split()[-1].lower()
    own = {finding for who, finding in findings if not who or surname in who.lower().split()}
    return (own.pop() if len(own) == 1 else "unknown"), punishment


def _statements(text: str, at: int) -> tuple[list[tuple[str, str]], str, int]:
    """The run of verdict statements from ``at``: [(names, finding)], any sentence, where the run ends."""
    findings: list[tuple[str, str]] = []
    punishment = ""
    while True:
        match = STATEMENT.match(text, at)
        if match is None or match.end() == at:
            return findings, punishment, at
        at = match.end()
        who = clean(match.group("who").replace("*", " "))
        if match.group("finding"):
            guilty = not re.match(r"not|acquit", match.group("finding"), re.I)
            findings.append((who, "guilty" if guilty else "not_guilty"))
        else:
            punishment = punishment or clean(match.group(0).strip(" .;,*"))
            findings.append((who, "guilty"))


def _first_slot(slots: list[tuple[ET.Element | None, str]], paragraph: ET.Element) -> int:
    return next(i for i, (node, where) in enumerate(slots) if node is paragraph and where == "text")


def _last_speech(paragraphs: list[ET.Element]) -> int:
    speech = [i for i, p in enumerate(paragraphs) if any(text_of(u) for u in p.iter("u"))]
    if speech:
        return speech[-1]
    printed = [i for i, p in enumerate(paragraphs) if text_of(p) and not text_of(p).startswith(("*", "["))]
    return printed[-1] if printed else 0


def paragraph_slots(el: ET.Element, *, top: bool = True) -> Iterator[tuple[ET.Element, str]]:
    """Where the printed words of ``el`` live, in reading order: (element, "text" or "tail")."""
    if el.tag not in SKIP_TAGS:  # an interp's or join's own text is never printed; its tail is
        yield el, "text"
        for child in el:
            yield from paragraph_slots(child, top=False)
    if not top:
        yield el, "tail"


def slot_text(slot: tuple[ET.Element | None, str]) -> str:
    node, where = slot
    if node is None:
        return ""
    return (node.text if where == "text" else node.tail) or ""


def truncate_at(
    region: list[ET.Element], slots: list[tuple[ET.Element | None, str]], texts: list[str], start: int
) -> None:
    """Cut the region's words at ``start`` (an offset into the texts joined by spaces); drop the rest."""
    offset, index = 0, 0
    while start >= offset + len(texts[index]):
        offset += len(texts[index]) + 1
        index += 1
    node, where = slots[index]
    assert node is not None  # a paragraph break holds no text, so the match cannot start there
    setattr(node, where, texts[index][: start - offset])
    removed: set[int] = set()
    if where == "text":
        removed.update(id(c) for c in node.iter() if c is not node)
    for later, later_where in slots[index + 1 :]:
        if later is None:
            continue
        if later_where == "text" and later not in region:
            removed.add(id(later))
        else:
            setattr(later, later_where, "")
    for paragraph in region:
        _prune(paragraph, removed)


def _prune(el: ET.Element, removed: set[int]) -> None:
    for child in list(el):
        if id(child) in removed:
            el.remove(child)
        else:
            _prune(child, removed)
