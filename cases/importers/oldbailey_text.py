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

- OBO 1834 onwards, a paragraph the printer left untagged: a witness named by rank or title
  ("Detective-sergeant ALFRED GROSSE, Y Division.", 1910), or the prisoner giving evidence
  ("GERTRUDE ALICE HUNT (prisoner, on oath)."); a tagged name marked "(prisoner, on oath)" is
  the prisoner whatever the order of the names.
- Any era: the printer's summary of the character evidence ("The prisoner called three
  witnesses, who gave him a good character.") is one witness for the defence, "Witnesses to
  character".

Every other paragraph (cross-examination, "COURT. Q.", re-examination) belongs to the
witness speaking before it. A paragraph that opens the prisoner's defence ends the current
witness; its words go to the defence statements, not to a witness: "Prisoner's Defence.",
"Hinde's Defence." (1814), "The Prisoner, in his defence, on oath, said that" (1900), "Manyon
in her defence stated that" (1887), also when the report opens inside a paragraph. The
prisoner's words printed during the evidence ("The Prisoner. I am very sorry", 1879; "Selby.
I know nothing about it", 1862) go to the defence statements without ending the witness.
Counsel's lines are no witness: who prosecuted and defended (the record then knows the
prisoner had counsel), who is called, their submissions on the law.

Side (the rule): witnesses heard after a defence marker ("Witnesses for the Defence",
"for the prisoner", "Witnesses for Stannard.", the prisoner's own defence, or from 1898 the
prisoner's own evidence, "(prisoner, on oath)") speak for the defence until "Evidence in reply.",
as do witnesses whose words give the prisoner a good character; everyone else speaks for the
prosecution. The printed patterns these rules read are in
``oldbailey_patterns``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from cases.importers.oldbailey_patterns import (
    ACCUSED_NAME,
    ACCUSED_NOTE,
    CAPS_NAME,
    CHARACTER_SUMMARY,
    CHARACTER_WITNESSES,
    COUNSEL_ACTION,
    COUNSEL_CALLED,
    COUNSEL_LINE,
    COUNSEL_PREFIX,
    COUNSEL_SUBMISSION,
    DAY_HEADING,
    DEFENCE_MARKER,
    DEFENCE_STATEMENT,
    DEFENCE_WITHIN,
    DEFENDED,
    EXAMINATION_NOTE,
    GOOD_CHARACTER,
    MAGISTRATE_STATEMENT,
    PRISONER_SPEAKS,
    PROSECUTION_CALLING,
    QUESTION_ROLES,
    RANK,
    REPLY_MARKER,
    STOCK_HEADINGS,
    TESTIMONY_ROLES,
    TITLED_NAME,
    WITNESS_REPLIES,
)
from cases.importers.oldbailey_xml import ANSWER_TYPES, clean, person_name, text_of, titlecase
from cases.importers.oldbailey_xml import interp as interp_value
from cases.importers.prefilter import fold, may_match


@dataclass
class WitnessDraft:
    key: str
    name: str
    gender: str = "unknown"
    parts: list[str] = field(default_factory=list)
    after_defence: bool = False
    is_victim: bool = False
    accused: bool = False  # the prisoner giving evidence, marked "(prisoner, on oath)"


@dataclass
class TrialText:
    opening: list[str] = field(default_factory=list)
    witnesses: list[WitnessDraft] = field(default_factory=list)
    defence: list[str] = field(default_factory=list)
    has_testimony: bool = False
    defended: bool = False  # the record names counsel for the prisoner


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


def split_trial(trial: ET.Element, *, victims: set[str], defendants: tuple[str, ...] = ()) -> TrialText:
    """``defendants``: the prisoners' names, whose words may be printed under their surname."""
    paragraphs = testimony_paragraphs(trial)
    if any(True for p in paragraphs for _ in p.iter("u")):
        return _split_obc2(paragraphs, victims=victims)
    tagged = any(pn.get("type") == "witnessName" for p in paragraphs for pn in p.iter("persName"))
    surnames = frozenset(name.split()[-1].lower() for name in defendants if name.split())
    return _split_obo(paragraphs, victims=victims, tagged=tagged, surnames=surnames)


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


@dataclass(frozen=True)
class Opened:
    """A paragraph that opens a witness's evidence."""

    name: str
    gender: str
    testimony: str
    before: str = ""  # text printed before the name
    accused: bool = False  # marked as the prisoner giving evidence


def _name_and_rest(p: ET.Element, *, tagged: bool) -> Opened | None:
    """Who opens their evidence in ``p``, and what they say, if ``p`` opens a witness's evidence."""
    full = text_of(p)
    if tagged:
        tag = next((pn for pn in p.iter("persName") if pn.get("type") == "witnessName"), None)
        if tag is None:
            return _titled_name(full)
        name_text = text_of(tag)
        at = full.find(name_text) if name_text else -1
        before, rest = (full[:at], full[at + len(name_text) :]) if at >= 0 else ("", full)
        rest = _spilled_words(tag, name_text) + rest.lstrip(" .,—-")
        accused = bool(ACCUSED_NOTE.match(rest))
        rest = _without_bracketed_note(rest)
        if COUNSEL_LINE.match(name_text + " " + rest) or (
            COUNSEL_PREFIX.match(name_text) and (COUNSEL_ACTION.match(rest) or COUNSEL_SUBMISSION.match(full))
        ):
            return None  # counsel tagged as a name: "MR. MONTAGU WILLIAMS called the following Witnesses"
        return Opened(person_name(tag), _gender(tag), _without_examination_note(rest), before.strip(), accused)
    match = CAPS_NAME.match(full)
    if not match:
        return None
    caps, rest = match.group(1).strip(), match.group(2)
    if (
        caps.rstrip(".") in STOCK_HEADINGS
        or DAY_HEADING.match(caps.rstrip("."))
        or COUNSEL_PREFIX.match(caps)
        or rest.startswith("Q.")
    ):
        return None
    if len(caps.replace(".", "").split()) < 2:  # a single capitalised word is a heading, not a name
        return None
    lead = _leading_person(p)
    gender = _gender(lead) if lead is not None else "unknown"
    return Opened(titlecase(caps), gender, _without_examination_note(rest))


def _titled_name(full: str) -> Opened | None:
    """A witness named by rank or title, or the prisoner giving evidence, left untagged; or None."""
    accused = ACCUSED_NAME.match(full)
    if accused is not None:
        return Opened(titlecase(accused.group("name")), "unknown", accused.group("rest").strip(), accused=True)
    match = TITLED_NAME.match(full)
    if match is None or match.group("rest").startswith("Q."):
        return None
    title, rest = match.group("title").strip(), match.group("rest").strip()
    gender = "female" if title.startswith(("Mrs", "Miss")) else "unknown"
    if RANK.match(title):  # the rank says who the witness is: "Detective-sergeant, Y Division. On January 31"
        rest = f"{title}, {rest}"
    return Opened(titlecase(match.group("name")), gender, rest)


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


def _split_obo(
    paragraphs: list[ET.Element], *, victims: set[str], tagged: bool, surnames: frozenset[str] = frozenset()
) -> TrialText:
    out = TrialText()
    current: WitnessDraft | None = None
    after_defence = False
    by_name: dict[str, WitnessDraft] = {}
    for p in paragraphs:
        text = text_of(p)
        if not text:
            continue
        if len(text) < 300 and DEFENDED.search(text):
            out.defended = True
        if COUNSEL_SUBMISSION.match(text):
            continue  # counsel arguing the law, not evidence
        opened = _name_and_rest(p, tagged=tagged)
        if opened is not None:
            name, before = opened.name, opened.before
            if COUNSEL_CALLED.search(before):
                after_defence = True
            if current is not None and len(before) > 25:  # e.g. "The Judge said ... Mrs." before the name
                current.parts.append(before)
            current = by_name.get(name.lower())
            if current is None:
                current = WitnessDraft(key=name.lower(), name=name, gender=opened.gender, after_defence=after_defence)
                current.is_victim = name.lower() in victims
                by_name[current.key] = current
                out.witnesses.append(current)
            current.accused = current.accused or opened.accused
            if opened.accused:  # the prisoner's evidence, "(prisoner, on oath)", opens the defence
                after_defence = True
            if opened.testimony:
                current.parts.append(opened.testimony)
            out.has_testimony = True
            continue
        if CHARACTER_SUMMARY.match(text) and len(text) < 400:
            within = _defence_within(text)
            if within is not None:  # "Brooks received a good character. Rudd in his defence stated that"
                text, defence = text[: within.start()], text[within.end() :]
                out.defence.append(defence)
            elif DEFENCE_STATEMENT.match(text):  # "The prisoner said nothing in his defence; called two witnesses"
                out.defence.append(text)
            _character_summary(out, by_name, text)
            current = None
            after_defence = True
            continue
        if DEFENCE_STATEMENT.match(text):
            out.defence.append(text)
            current = None
            after_defence = True
            continue
        said = _prisoner_speaks(text, surnames) if out.witnesses else None
        if said is not None:  # the prisoner's words in the middle of the evidence: the witness goes on after
            words, reply = said
            out.defence.append(words)
            if current is not None and reply:
                current.parts.append(reply)
            continue
        if REPLY_MARKER.match(text) and len(text) < 120:
            after_defence = False
            current = None
            continue
        if (DEFENCE_MARKER.search(text) or COUNSEL_CALLED.match(text)) and len(text) < 120:
            after_defence = True
            current = None
            continue
        within = _defence_within(text)
        if within is not None:  # the defence reported after the last witness's words, in one paragraph
            text, defence = text[: within.start()], text[within.end() :]
            out.defence.append(defence)
        if current is not None and text:
            current.parts.append(text)
        elif not out.witnesses and text:
            out.opening.append(text)
        if within is not None:
            current = None
            # the statement before the magistrate is read in the prosecution's case ("Wilson in his statement
            # before the Magistrate said", 1887): the witnesses printed after it may still be the prosecution's
            after_defence = after_defence or not _read_deposition(defence)
    return out


def _read_deposition(defence: str) -> bool:
    """The prisoner's statement before the magistrate read at the trial, not their defence to the jury."""
    opening = defence[:160]
    return bool(MAGISTRATE_STATEMENT.search(opening)) and not re.search(r"defen[cs]e", opening, re.I)


def _defence_within(text: str) -> re.Match[str] | None:
    """Where a report of the defence opens a sentence inside ``text`` (``DEFENCE_WITHIN``), if it does."""
    folded = text.lower()  # every such report holds one of these words: most paragraphs are not searched
    if "defen" not in folded and "statement" not in folded:
        return None
    return DEFENCE_WITHIN.search(text)


def _prisoner_speaks(text: str, surnames: frozenset[str]) -> tuple[str, str] | None:
    """(the prisoner's words, a witness's reply after them) when ``text`` prints the prisoner speaking."""
    match = PRISONER_SPEAKS.match(text)
    if match is None or re.search(r"\?\s*A\.\s", text):  # a question and its answer: the prisoner asking
        return None
    who = match.group("who").lower()
    if not who.startswith("prisoner") and who not in surnames:
        return None
    reply = WITNESS_REPLIES.search(text)
    if reply is None:
        return text, ""
    return text[: reply.start()], text[reply.end() :]


def _character_summary(out: TrialText, by_name: dict[str, WitnessDraft], text: str) -> None:
    """The printer's summary of character evidence heard as the defence's witnesses, one entry per trial."""
    key = CHARACTER_WITNESSES.lower()
    draft = by_name.get(key)
    if draft is None:
        draft = by_name[key] = WitnessDraft(key=key, name=CHARACTER_WITNESSES, after_defence=True)
        out.witnesses.append(draft)
    draft.parts.append(text.strip("()[] "))
    out.has_testimony = True


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
