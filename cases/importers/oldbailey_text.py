"""Turning a trial's paragraphs into an opening, witnesses and the prisoner's defence.

The trial element has already had its verdict and punishment descriptions removed, and
everything from the first paragraph that held one is dropped too (those paragraphs carry
"Aged 26", "Recommended to mercy", the jury's name: the answer's neighbourhood).

Who is a witness (the rule, by format):

- OBO 1834 onwards: a paragraph holding a ``persName type="witnessName"`` (usually its first
  words; a long lead-in before the name, such as a ruling by the judge, goes to the witness
  speaking before).
- OBO before 1834 (no ``witnessName`` tags in the trial): a paragraph that opens with a name
  written in capitals and followed by ". " (either a persName or plain text, e.g.
  ``THOMAS RAND. I am footman...``), unless the capitals are a stock heading (COURT, JURY,
  PRISONER, SECOND COUNT...) or the paragraph goes on with "Q." (counsel asking).
- OBC2: each distinct ``<u>`` speaker with role Witness or Victim; counsel's and the court's
  utterances become "Q." lines in the current witness's testimony and the witness's next
  utterance an "A." line.

Every other paragraph (cross-examination, "COURT. Q.", re-examination) belongs to the
witness speaking before it. A paragraph that opens the prisoner's defence ends the current
witness; its words go to the defence statements, not to a witness.

Side (the rule): witnesses heard after a defence marker ("Witnesses for the Defence",
"for the prisoner", the prisoner's own defence) speak for the defence, as do witnesses
whose words give the prisoner a good character; everyone else speaks for the prosecution.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from cases.importers.oldbailey_xml import ANSWER_TYPES, clean, person_name, text_of, titlecase
from cases.importers.oldbailey_xml import interp as interp_value
from cases.importers.prefilter import fold, may_match

DEFENCE_STATEMENT = re.compile(
    r"^(\[?The )?(prisoner|defendant)('s|s')? (defen[cs]e|statement|made|put in|said|in (his|her) defen[cs]e)"
    r"|^(prisoner|defendant)('s|s')? defen[cs]e",
    re.IGNORECASE,
)
DEFENCE_MARKER = re.compile(
    r"(witness(es)? for the defen[cs]e|evidence for the defen[cs]e|for the prisoner\b|called for the defen[cs]e"
    r"|^\(?the prisoner called|^\(?(the )?defen[cs]e\.?\)?$)",
    re.IGNORECASE,
)
# Counsel opening the defence's evidence: "MR. PRENDERGAST called RICHARD CHANDLER. I remember the day"
# (t18400406-1072), "MR. PLATT called the following witnesses." The Proceedings print the prosecution's
# witnesses one after another; a witness counsel is said to call is the prisoner's (20 in the shared data).
COUNSEL_CALLED = re.compile(r"\b(?:MR|MESSRS|SIR|SERJEANT)\.?\s+[A-Z][A-Z'\-]+\.?\s+called\b")
GOOD_CHARACTER = re.compile(r"good character|bore a (very )?good|borne a (very )?good|honest(y)?,? (and )?sober", re.I)
# A witness who opens with the office that brought them to court for the prosecution.
PROSECUTION_CALLING = re.compile(
    r"I am (?:a |an )?(?:police[- ]?constable|policeman|constable|watchman|patrol|headborough|beadle|pawnbroker"
    r"|inspector of (?:the )?police|police[- ]inspector|(?:police[- ])?(?:serjeant|sergeant)"
    r"|officer(?=[.,;:—-]| belonging| of (?:the )?"
    r"(?:police|Worship|Bow|Hatton|Marlborough|Queen|Union|Lambeth|Marylebone)))",
    re.I,
)
# "THOMAS RAND. I am footman", and the 1801 form "THOMAS HARRIS sworn. - I am a carpenter".
CAPS_NAME = re.compile(
    r"^((?:[A-Z][A-Z'\-]*\.? ?){1,5}[A-Z][A-Z'\-]+)(?:\s?\.|\s+sworn\s*[.,]?\s*[-—]?)\s+(.*)$", re.DOTALL
)
STOCK_HEADINGS = frozenset(
    {
        "COURT",
        "JURY",
        "PRISONER",
        "THE COURT",
        "BY THE COURT",
        "A JUROR",
        "JUROR",
        "SECOND COUNT",
        "THIRD COUNT",
        "FOURTH COUNT",
        "OTHER COUNTS",
        "TWO OTHER COUNTS",
        "THE PRISONER",
        "DEFENCE",
        "PRISONER'S DEFENCE",
        "GUILTY",
        "NOT GUILTY",
        "ACQUITTED",
        "CROSS-EXAMINED",
        "RE-EXAMINED",
        "THE JURY",
    }
)
# A paragraph about counsel, tagged as a witness's name in some sessions (1871-1896): who prosecuted,
# who defended, counsel calling witnesses or addressing the court.
COUNSEL_LINE = re.compile(
    r"^(?:MR|MESSRS|MESSES|SIR|SERJEANT|SERGEANT)\b\.?[^.]{0,120}?\b(?:prosecuted|defended)\b", re.I
)
COUNSEL_ACTION = re.compile(
    r"^(?:and\s+MR\.?\s+[A-Z]+\s+)?(?:called\s+the\s+following|conducted\s+the\s+(?:prosecution|defen[cs]e)|"
    r"prosecuted|defended|for\s+the\s+(?:prosecution|defen[cs]e)\b|appeared\s+for|stated\s+that\s+having|"
    r"with\s+MR\.?\s|and\s+(?:MR\.?\s+)?[A-Z]+\s+(?:prosecuted|defended))",
    re.IGNORECASE,
)
# "re-examined.", "examined by MR. THOMPSON.", "(Re-examined.)" opening a witness's paragraph, and the
# 1801 form "Examined by Mr. Const." (counsel's name in capitalised words, all of it: not "onst. I am a
# widow"), once printed "Examinedby Mr. Knowlys.".
EXAMINATION_NOTE = re.compile(
    r"^\(?(?:re-?)?examined(?:\s*by\s+(?:the\s+COURT|(?:MR|MESSRS|SIR)\.?\s*"
    r"(?-i:[A-Z][\w'’-]*)(?:\s+(?:and\s+(?:(?:MR|MESSRS|SIR)\.?\s+)?)?(?-i:[A-Z][\w'’-]*))*))?\.?\)?[\s.]*",
    re.I,
)
COUNSEL_PREFIX = re.compile(r"^(MR|MESSRS|MESSES|SIR|MR SERGEANT|SERGEANT|THE ATTORNEY|THE SOLICITOR)\b")
TESTIMONY_ROLES = frozenset({"Witness", "Victim"})
QUESTION_ROLES = frozenset({"Lawyer", "Judge", "Juror", "Interpreter", ""})


@dataclass
class WitnessDraft:
    key: str
    name: str
    gender: str = "unknown"
    parts: list[str] = field(default_factory=list)
    after_defence: bool = False
    is_victim: bool = False


@dataclass
class TrialText:
    opening: list[str] = field(default_factory=list)
    witnesses: list[WitnessDraft] = field(default_factory=list)
    defence: list[str] = field(default_factory=list)
    has_testimony: bool = False


def testimony_paragraphs(trial: ET.Element) -> list[ET.Element]:
    """The trial's paragraphs up to the first one that held the answer (cut at the answer)."""
    kept: list[ET.Element] = []
    for p in trial.iter("p"):
        kept.append(p)
        if p.get("data-answer") == "1":
            break
    return kept


def mark_answer_paragraphs(trial: ET.Element) -> None:
    """Cut the first paragraph holding a verdict or punishment at that element (call before stripping).

    In an OBC2 paragraph whatever was said before the verdict stays (a witness may be
    speaking in it); the verdict and everything after it goes. Any other such paragraph is
    emptied.
    """
    for p in trial.iter("p"):
        path = _path_to_answer(p)
        if path is None:
            continue
        p.set("data-answer", "1")
        if not any(True for _ in p.iter("u")):
            # Only an OBC2 paragraph can hold testimony before its verdict; elsewhere the
            # words before the verdict are the clerk's ("the JURY found him"), so all go.
            for child in list(p):
                p.remove(child)
            p.text = ""
            return
        parent = p
        for node in path:
            index = list(parent).index(node)
            for later in list(parent)[index + 1 :]:
                parent.remove(later)
            node.tail = ""
            parent = node
        answer_parent = p if len(path) == 1 else path[-2]
        answer_parent.remove(path[-1])
        return


def _path_to_answer(el: ET.Element) -> list[ET.Element] | None:
    for child in el:
        if child.get("type") in ANSWER_TYPES:
            return [child]
        below = _path_to_answer(child)
        if below is not None:
            return [child, *below]
    return None


def split_trial(trial: ET.Element, *, victims: set[str]) -> TrialText:
    paragraphs = testimony_paragraphs(trial)
    if any(True for p in paragraphs for _ in p.iter("u")):
        return _split_obc2(paragraphs, victims=victims)
    tagged = any(pn.get("type") == "witnessName" for p in paragraphs for pn in p.iter("persName"))
    return _split_obo(paragraphs, victims=victims, tagged=tagged)


def _leading_person(p: ET.Element) -> ET.Element | None:
    """The persName a paragraph opens with (through any ``hi`` wrapper), if it opens with one."""
    node = p
    while True:
        if (node.text or "").strip():
            return None
        children = [c for c in node if c.tag not in {"xptr", "lb"}]
        if not children:
            return None
        first = children[0]
        if first.tag == "persName":
            return first
        if first.tag != "hi":
            return None
        node = first


def _name_and_rest(p: ET.Element, *, tagged: bool) -> tuple[str, str, str, str] | None:
    """(name, gender, testimony, text before the name) when ``p`` opens a witness's evidence."""
    full = text_of(p)
    if tagged:
        tag = next((pn for pn in p.iter("persName") if pn.get("type") == "witnessName"), None)
        if tag is None:
            return None
        name_text = text_of(tag)
        at = full.find(name_text) if name_text else -1
        before, rest = (full[:at], full[at + len(name_text) :]) if at >= 0 else ("", full)
        rest = _without_bracketed_note(_spilled_words(tag, name_text) + rest.lstrip(" .,—-"))
        if COUNSEL_LINE.match(name_text + " " + rest) or (
            COUNSEL_PREFIX.match(name_text) and COUNSEL_ACTION.match(rest)
        ):
            return None  # counsel tagged as a name: "MR. MONTAGU WILLIAMS called the following Witnesses"
        return person_name(tag), _gender(tag), _without_examination_note(rest), before.strip()
    match = CAPS_NAME.match(full)
    if not match:
        return None
    caps, rest = match.group(1).strip(), match.group(2)
    if caps.rstrip(".") in STOCK_HEADINGS or COUNSEL_PREFIX.match(caps) or rest.startswith("Q."):
        return None
    if len(caps.replace(".", "").split()) < 2:  # a single capitalised word is a heading, not a name
        return None
    lead = _leading_person(p)
    gender = _gender(lead) if lead is not None else "unknown"
    return titlecase(caps), gender, _without_examination_note(rest), ""


def _spilled_words(tag: ET.Element, name_text: str) -> str:
    """Words of the testimony printed inside the name tag ("SAMUEL GOODWIN. I" -> "I ")."""
    surname = interp_value(tag, "surname")
    if not surname:
        return ""
    end = name_text.upper().rfind(surname.upper())
    if end < 0:
        return ""
    spilled = name_text[end + len(surname) :].lstrip(" .,")
    return f"{spilled} " if spilled else ""


def _without_bracketed_note(rest: str) -> str:
    """Drop a note in brackets that opens the testimony, even one split by the name tag:
    "(Re-examined by MR. M" + "etcalfe). I had not known..." -> "I had not known..."."""
    if not rest.startswith("(") or ")" not in rest[:120]:
        return rest
    return rest[rest.index(")") + 1 :].lstrip(" .,—-")


def _without_examination_note(rest: str) -> str:
    """Testimony starts with the witness's words, not the printer's note of who examined them."""
    return EXAMINATION_NOTE.sub("", rest, count=1)


def _gender(person: ET.Element) -> str:
    for child in person.iter("interp"):
        if child.get("type") == "gender" and child.get("inst") == person.get("id"):
            value = child.get("value", "")
            return value if value in {"male", "female"} else "unknown"
    return "unknown"


def _split_obo(paragraphs: list[ET.Element], *, victims: set[str], tagged: bool) -> TrialText:
    out = TrialText()
    current: WitnessDraft | None = None
    after_defence = False
    by_name: dict[str, WitnessDraft] = {}
    for p in paragraphs:
        text = text_of(p)
        if not text:
            continue
        opened = _name_and_rest(p, tagged=tagged)
        if opened is not None:
            name, gender, rest, before = opened
            if COUNSEL_CALLED.search(before):
                after_defence = True
            if current is not None and len(before) > 25:  # e.g. "The Judge said ... Mrs." before the name
                current.parts.append(before)
            current = by_name.get(name.lower())
            if current is None:
                current = WitnessDraft(key=name.lower(), name=name, gender=gender, after_defence=after_defence)
                current.is_victim = name.lower() in victims
                by_name[current.key] = current
                out.witnesses.append(current)
            if rest:
                current.parts.append(rest)
            out.has_testimony = True
            continue
        if DEFENCE_STATEMENT.match(text):
            out.defence.append(text)
            current = None
            after_defence = True
            continue
        if (DEFENCE_MARKER.search(text) or COUNSEL_CALLED.match(text)) and len(text) < 120:
            after_defence = True
            current = None
            continue
        if current is not None:
            current.parts.append(text)
        elif not out.witnesses:
            out.opening.append(text)
    return out


def _split_obc2(paragraphs: list[ET.Element], *, victims: set[str]) -> TrialText:
    out = TrialText()
    by_speaker: dict[str, WitnessDraft] = {}
    current: WitnessDraft | None = None
    after_defence = False
    for p in paragraphs:
        utterances = list(p.iter("u"))
        if not utterances:
            text = text_of(p)
            if not text:
                continue
            if DEFENCE_STATEMENT.match(text) or (DEFENCE_MARKER.search(text) and len(text) < 120):
                after_defence = True
            if current is not None:
                current.parts.append(text)
            elif not out.witnesses:
                out.opening.append(text)
            continue
        prefix = _obc2_prefix(p)
        for u in utterances:
            role, words = u.get("role", ""), text_of(u)
            if not words:
                continue
            if role in TESTIMONY_ROLES:
                speaker = u.get("speaker") or prefix
                draft = by_speaker.get(speaker)
                if draft is None:
                    name = prefix.rstrip(" .") or f"Witness {len(by_speaker) + 1}"
                    gender = {"m": "male", "f": "female"}.get(u.get("sex", ""), "unknown")
                    draft = WitnessDraft(key=speaker, name=name, gender=gender, after_defence=after_defence)
                    draft.is_victim = role == "Victim" or name.lower() in victims
                    by_speaker[speaker] = draft
                    out.witnesses.append(draft)
                asked = current is draft and bool(draft.parts) and draft.parts[-1].startswith(("Q.", "COURT. Q."))
                draft.parts.append(f"A. {words}" if asked else words)
                current = draft
                out.has_testimony = True
            elif role == "Defendant":
                if current is not None and words.rstrip().endswith("?"):
                    current.parts.append(f"Q. (by the prisoner) {words}")
                else:
                    out.defence.append(words)
                    after_defence = True
                    current = None
            elif role in QUESTION_ROLES and current is not None:
                label = "COURT. Q." if role == "Judge" else "Q."
                current.parts.append(f"{label} {words}")
    return out


def _obc2_prefix(p: ET.Element) -> str:
    """The speaker's name as printed before the first ``<u>`` of a paragraph."""
    pieces: list[str] = [p.text or ""]
    for child in p:
        if child.tag == "u":
            break
        pieces.append(person_name(child) if child.tag == "persName" else text_of(child))
        pieces.append(child.tail or "")
    prefix = re.sub(r"\(.*?\)", "", clean(" ".join(pieces))).strip(" .-—,")
    if prefix in {"Q", "A", "Prisoner", "Court"} or len(prefix) > 60:
        return ""
    return titlecase(prefix)


def is_defence_witness(draft: WitnessDraft, testimony: str) -> bool:
    """Heard after the prisoner's defence, or speaking to the prisoner's good character; never the
    officer or pawnbroker who tells of the arrest or the pledge and adds that the prisoner bore a good
    character ("I am an officer. I apprehended the prisoner ... he has borne a good character",
    t18261026-56): a prosecution witness still, the character being a word in the prisoner's favour."""
    if draft.after_defence:
        return True
    if draft.is_victim or PROSECUTION_CALLING.match(testimony):
        return False
    return may_match(GOOD_CHARACTER, fold(testimony)) and bool(GOOD_CHARACTER.search(testimony))
