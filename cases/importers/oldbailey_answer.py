"""Post-verdict text printed without tags, in any era, found and cut before any text is taken.

The tagged ``verdictDescription`` and ``punishmentDescription`` are removed by
``oldbailey_text.mark_answer_paragraphs``; this module finds the answer the Proceedings print
as plain words in the paragraphs before them (the tags often cover only part of it), in
tagged and untagged trials alike. Each rule below was met in the record:

- A verdict in capitals, alone or after the prisoner's name, anywhere after the indictment:
  "(Property produced and sworn to.) GUILTY. Aged 18." (1826), "GUILTY, aged 10," followed by
  "Of stealing, but not in the dwelling-house." (1814), "I should be ashamed of it GUILTY, aged
  19." (1801), "POWER - GUILTY. Aged 12. BLAKE - GUILTY. Aged 10." (1826), "To this part of
  the charge they both PLEADED GUILTY." (1862: a previous conviction, admitted after the
  verdict). Testimony never prints a verdict in capitals; "He pleaded NOT GUILTY" (a plea,
  not a finding) is the only exception and is kept.
- A sentence that opens with the verdict, the jury's finding or the court's direction:
  "Verdict, both prisoners Guilty, with a recommendation to mercy" (1909), "Guilty." or
  "Acquitted." as a sentence, "The Jury retired at a quarter before five..." (1826), "the
  COURT directed the Jury to find a verdict of" (1854), "the JURY returned a verdict of"
  (1896), "Recommended to mercy by the Prosecutor and Jury" (1826), "Judgment respited", the court's
  opinion that the case fails ("The RECORDER considered that this evidence failed to establish a case of
  manslaughter", 1887: an acquittal directed in all but words),
  "Sentence: ...", "The prisoners were further charged with having been before convicted"
  (1862), "(There were two other indictments against the prisoner.)" (1846).
- From 1837 (the Prisoners' Counsel and previous-conviction practice of 6 & 7 Will. IV c. 111:
  a former conviction is proved only after the jury has convicted), the proof of a former
  conviction when nothing but such proofs and bracketed notes follow it: "PHILIP DONOVAN. I
  produce a certificate of the prisoner's former conviction at this Court—(read—Convicted
  16th June, 1845, and confined six months)—he is the person." (1846). Where the former
  conviction is the offence itself (returning from transportation, a coiner's second
  uttering) it is proved first, among the other witnesses, and stays.

The first match, searched from the end of the indictment paragraph, starts the answer: it and
everything after it are removed from the tree (the cut shared with ``oldbailey_verdict``).
The verdict is then read from the removed words (guilty or not guilty for the first
defendant, as ``oldbailey_verdict.read_statements`` reads a printed verdict), so that a trial
whose tags say nothing still gets the verdict the record states.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from cases.importers.oldbailey_reasons import REASON_PLEA_DURING_TRIAL
from cases.importers.oldbailey_verdict import paragraph_slots, slot_text, truncate_at
from cases.importers.oldbailey_xml import clean

# The year from which a former conviction is proved after the verdict (6 & 7 Will. IV c. 111, 1836).
PREVIOUS_CONVICTION_AFTER_VERDICT_FROM = 1837

_CAPS_NAME = r"(?:[A-Z][A-Z'’.]*(?:\s+[A-Z][A-Z'’.]*){0,3}\s*[-—,]\s*)?"
CAPS_VERDICT = re.compile(
    r"(?<![A-Za-z])(?P<start>" + _CAPS_NAME + r")(?P<finding>NOT\s+GUILTY|GUILTY|ACQUITTED)\b(?![a-z])"
)
PLEA_NOT_GUILTY = re.compile(r"\bplead(?:ed|s)?\s+(?:\w+\s+)?$", re.IGNORECASE)
# Where a sentence may open: after . ; : ? ! ) ] or a dash (matched, then ANSWER_SENTENCE is tried there).
SENTENCE_OPEN = re.compile(r"[.;:?!\])—]|\s-\s")
ANSWER_SENTENCE = re.compile(
    r"[\s(\[]*(?P<start>"
    + r"verdict\s*[,:(—-]|verdict\s+(?:of\s+the\s+jury|guilty|not\s+guilty)"
    + r"|(?:not\s+guilty|guilty|acquitted)\s*(?:[.;:,]|$|\d|of\b|aged\b|on\b|—|-)"
    + r"|the\s+jury\s+(?:retired|returned|found|find|then\s+found|acquitted|convicted|stated\s+that\s+they\s+found)"
    + r"|recommended\s+(?:to\s+mercy|by\s+the\s+jury)|(?:strongly\s+)?recommended\s+(?:him|her|them)\s+to\s+mercy"
    + r"|judgment\s+respited|sentence[d]?\s*[,:(—-]|sentence[d]?\s+(?:of|to)\b|to\s+be\s+(?:hanged|transported)"
    + r"|the\s+prisoners?\s+(?:was|were)\s+(?:further|also)\s+charged\s+with\s+having\s+been"
    + r"|(?:a\s+|the\s+)?previous\s+convictions?\s+(?:was|were)\s+(?:proved|admitted|then\s+proved)"
    + r"|there\s+(?:was|were)\s+(?:\w+\s+){0,2}other\s+(?:indictments?|charges?)\s+against"
    + r"|the\s+(?:recorder|common\s+serjeant|court|judge|learned\s+judge)\s+(?:expressed\s+an\s+opinion|(?:was|being)"
    + r"\s+of\s+opinion|considered|held|ruled)\s+that\s+(?:(?:this|the)\s+(?:evidence|case)\s+(?:did\s+not|failed"
    + r"|was\s+not|could\s+not)|there\s+was\s+no\s+(?:case|evidence))"
    + r")",
    re.IGNORECASE,
)
# The court's direction or the jury's finding inside a sentence: cut from that sentence's start.
DIRECTED = re.compile(
    r"(?:directed|direct|directing|returned|return|returning|found|find|finding)\s+(?:the\s+jury\s+)?"
    r"(?:to\s+(?:return|find|acquit)\s+)?a\s+verdict\b|(?:directed|directing)\s+(?:an?\s+)?acquittal"
    r"|directed\s+the\s+jury\s+to\s+acquit|the\s+jury\s+(?:then\s+)?(?:found|returned|acquitted)"
    r"|(?:would|wished\s+to|desired\s+to)\s+(?:plead|admit\s+that\s+(?:he|she)\s+was)\s+guilty"
    r"|withdr[ae]w\s+(?:his|her|their|the)\s+plea",
    re.IGNORECASE,
)
# Every DIRECTED form holds one of these words; DIRECTED is searched from 80 characters before the first.
DIRECTED_KEYWORD = re.compile(r"verdict|acquit|jury|guilty|plea", re.IGNORECASE)
PREVIOUS_CONVICTION = re.compile(
    r"certificate\s+of\s+(?:the\s+)?(?:prisoner'?s?'?|his|her|(?:\w+'s\s+)?)\s*(?:former\s+|previous\s+)?conviction"
    r"|\(\s*read\b[\s—-]*(?:convicted|certifying)|former\s+conviction|previous\s+conviction"
    r"|pleaded\s+guilty\s+to\s+(?:a|the)\s+previous|(?:convicted|pleaded\s+guilty)\b[^.]{0,120}?\bcertificate\b",
    re.IGNORECASE,
)
SENTENCE_START = re.compile(r"(?:^|(?<=[.;?!—)\]])|(?<=\s-\s))\s*")
SENTENCE_END = re.compile(r"[.;?!—]|\s-\s|$")
SHORT_NOTE = 300
# What may follow the proof of a former conviction: a bracketed note, or the prisoner's reply to it
# ("Prisoner. This witness has been in custody twice", "Frary. I have been at work ever since"), or
# the proof's own words going on in a new paragraph after a page break ("months)—I was present...").
AFTER_PROOF = re.compile(r"[(\[]|(?-i:[a-z])|(?:the\s+)?prisoner\b|(?-i:[A-Z][a-z'’]+)\.\s", re.IGNORECASE)


# A plea of guilty made during the trial ends the jury's work as surely as one made at the start.
# The words before it may hold counsel's "MR." ("MR. ROBINSON, for the prisoner, stated that the prisoner
# would plead guilty to unlawfully wounding", 1862), or be a co-defendant's plea ("THOMAS WELLER PLEADED GUILTY").
PLEA_DURING_TRIAL = re.compile(
    r"^(?:[^.]|(?<=MR)\.|(?<=MESSRS)\.){0,300}?(?:(?:would|wished\s+to|desired\s+to)\s+"
    r"(?:plead|admit\s+that\s+(?:he|she)\s+was)\s+guilty|withdr[ae]w\s+(?:his|her|their|the)\s+plea"
    r"|(?-i:PLEADED\s+GUILTY))",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class AnswerCut:
    text: str  # the words removed (kept for the record, never shown to the jury)
    verdict: str  # guilty | not_guilty | unknown: what the removed words say of the first defendant
    reason: str = ""  # why the trial cannot be played, when the words removed say so


NO_CUT = AnswerCut(text="", verdict="unknown")


@dataclass(frozen=True)
class _Text:
    """The paragraphs' printed words as one string, with where each paragraph starts in it."""

    slots: list[tuple[ET.Element | None, str]]  # (None, "") is a paragraph break, read as one space
    pieces: list[str]
    joined: str
    starts: list[int]  # offset of each paragraph in ``joined``

    @classmethod
    def of(cls, paragraphs: list[ET.Element]) -> _Text:
        slots: list[tuple[ET.Element | None, str]] = []
        starts: list[int] = []
        at = 0
        for paragraph in paragraphs:
            starts.append(at)
            for slot in paragraph_slots(paragraph):
                slots.append(slot)
                at += len(slot_text(slot))
            slots.append((None, ""))
            at += 1
        pieces = [slot_text(slot) if slot[0] is not None else " " for slot in slots]
        return cls(slots=slots, pieces=pieces, joined="".join(pieces), starts=starts)

    def cut(self, paragraphs: list[ET.Element], start: int) -> None:
        """Remove the words from ``start`` on (``truncate_at`` counts one space between slots)."""
        offset = spaced = 0
        for index, piece in enumerate(self.pieces):
            if start < offset + len(piece) and self.slots[index][0] is not None:
                break
            if start < offset + len(piece):  # a paragraph break: the cut starts with the next slot
                start = offset + len(piece)
            offset += len(piece)
            spaced += len(slot_text(self.slots[index])) + 1
        else:
            return
        texts = [slot_text(slot) for slot in self.slots]
        truncate_at(paragraphs, self.slots, texts, spaced + start - offset)


def cut_untagged_answer(paragraphs: list[ET.Element], *, year: int | None, defendants: list[str]) -> AnswerCut:
    """Remove the first post-verdict words printed as plain text, and all after them."""
    if len(paragraphs) < 2:
        return NO_CUT
    text = _Text.of(paragraphs)
    start = _answer_start(text, paragraphs, year=year)
    if start is None:
        return NO_CUT
    removed = clean(text.joined[start:])
    text.cut(paragraphs, start)
    reason = REASON_PLEA_DURING_TRIAL if PLEA_DURING_TRIAL.match(removed) else ""
    return AnswerCut(text=removed, verdict=read_verdict(removed, defendants=defendants), reason=reason)


def _answer_start(text: _Text, paragraphs: list[ET.Element], *, year: int | None) -> int | None:
    """The earliest start of post-verdict words after the indictment paragraph, if any."""
    joined, after = text.joined, text.starts[1]
    found: list[int] = []
    for match in CAPS_VERDICT.finditer(joined, after):
        plea = PLEA_NOT_GUILTY.search(joined[max(0, match.start() - 30) : match.start("finding")])
        if not (match.group("finding").startswith("NOT") and plea):
            found.append(_name_start(joined, match))
            break
    for at in [after, *(m.end() for m in SENTENCE_OPEN.finditer(joined, after))]:
        match = ANSWER_SENTENCE.match(joined, at)
        if match is not None and not _asked(joined, match.end()):
            found.append(match.start("start"))
            break
    keyword = DIRECTED_KEYWORD.search(joined, after)
    for match in DIRECTED.finditer(joined, max(after, keyword.start() - 80)) if keyword else ():
        if not _asked(joined, match.end()):
            found.append(_sentence_start(joined, match.start(), after))
            break
    if year is not None and year >= PREVIOUS_CONVICTION_AFTER_VERDICT_FROM:
        proof = _trailing_previous_conviction(text, paragraphs)
        if proof is not None:
            found.append(proof)
    return min(found) if found else None


def _asked(joined: str, at: int) -> bool:
    """Counsel asking about another trial ("And then the Jury acquitted Jones?") states no verdict."""
    end = SENTENCE_END.search(joined, at)
    return end is not None and end.group(0) == "?"


def _name_start(joined: str, match: re.Match[str]) -> int:
    """A capitals verdict starts at the name before it only when that name opens its sentence."""
    start = match.start("start")
    if start == match.start("finding"):
        return start
    before = joined[:start].rstrip()
    if not before or before[-1] in ".;:?!)]—-":
        return start
    return match.start("finding")


def _sentence_start(joined: str, at: int, floor: int) -> int:
    best = floor
    for match in SENTENCE_START.finditer(joined, floor, at):
        if match.end() <= at:
            best = match.end()
    return best


def _trailing_previous_conviction(text: _Text, paragraphs: list[ET.Element]) -> int | None:
    """Where the proof of a former conviction starts, if only such proofs, notes and the prisoner's reply follow it."""
    bounds = [*text.starts, len(text.joined)]
    first: int | None = None
    for index in range(len(paragraphs) - 1, 0, -1):
        words = text.joined[bounds[index] : bounds[index + 1]].strip()
        if PREVIOUS_CONVICTION.search(words):
            first = index
        elif words and not (len(words) <= SHORT_NOTE and AFTER_PROOF.match(words)):
            break  # only notes and the prisoner's answer to it may follow a proof
    if first is None:
        return None
    match = PREVIOUS_CONVICTION.search(text.joined, bounds[first], bounds[first + 1])
    assert match is not None
    # The proof starts with the sentence that names it ("I produce a certificate of..."); the
    # witness's name before it stays and, left without words, is no witness at all.
    return _sentence_start(text.joined, match.start(), bounds[first])


_FINDING = re.compile(
    r"(?<!plea of )(?<!plead )(?<!pleaded )\b(not\s+guilty|guilty|acquitted|acquittal)\b", re.IGNORECASE
)


def read_verdict(removed: str, *, defendants: list[str]) -> str:
    """The first defendant's verdict in the removed words: the finding next to their name, else the first."""
    findings = [(m.start(), m.group(1).lower()) for m in _FINDING.finditer(removed[:600])]
    if not findings:
        return "unknown"
    if defendants and len(defendants) > 1:
        surname = defendants[0].split()[-1].lower()
        named = removed.lower().find(surname)
        if named >= 0:
            near = [f for at, f in findings if at >= named]
            if near:
                findings = [(0, near[0])]
    word = findings[0][1]
    return "guilty" if word == "guilty" else "not_guilty"
