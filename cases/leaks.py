"""Finding the historical answer in what the jury may read: the check behind ``manage.py verdict_leaks``.

The importer cuts the verdict, sentence and everything printed after them
(``cases.importers.oldbailey_answer``); this module is the independent second look. It reads
the texts a juror can reach (a case's summary, arguments, witnesses' testimony, evidence and
the chunks of its retrieval index) and flags every sentence that reads like the outcome, in
any of the forms the Proceedings print it:

- a sentence that is nothing but a verdict, perhaps after names or a value ("Guilty.",
  "Henry Creed guilty", "Guilty 10 d.", "Guilty of the felony", "Acquitted."),
- a verdict in capitals (GUILTY, NOT GUILTY, ACQUITTED), except a plea ("pleaded NOT GUILTY"),
- "Verdict" with a finding ("Verdict, both prisoners Guilty"), the jury finding, returning,
  acquitting or convicting, a recommendation to mercy,
- the age line printed after a verdict ("Aged 18.") opening a sentence,
- a sentence of the court: "Transported for seven years", "Judgment respited", "to be
  hanged", "Confined six months", "penal servitude", "sentenced to", "Death." alone.

A defendant's age is checked against the original record: before the 1850s the Proceedings
print a prisoner's age only in the line after a guilty verdict ("Bridget Joyce, GUILTY, aged
45."), so a case file that gives that age (in its summary, or to the court and the model
jurors) tells the jury the verdict. An age the record prints after a verdict and never in
brackets beside a name ("MARGARET NAGLE (20)", the later headings) is flagged.

It returns the sentences, not a yes or no, so a curator can judge each one. A witness's own
past ("I was sentenced to three months") is flagged too: the check prefers a false alarm a
curator can dismiss to a verdict a juror can read.

Some flagged sentences are the record's words about *another* outcome than this trial's, and
``explain`` names why, each reason read from the sentence (and the three before it in the
same text, a question and its answer being three "sentences"), never from the case's verdict.
Every reason was found by reading a flagged passage of the 13 more sessions (1801-1912); each
has that passage as its test (``tests/cases/test_leaks.py``):

- ``the indictment``: the charge itself recites an earlier conviction, the offence being
  returning from transportation or a second uttering ("was indicted for that ... was tried and
  convicted ... and was sentenced to be imprisoned for one year", t18140420-2),
- ``an earlier trial``: an earlier court sitting or date is named ("present at any time in
  September Sessions, 1810, when she was convicted", t18140420-3; "a record of that person's
  conviction ... 1807", t18261026-37; "a calendar from the Lancaster police", t18870912-908),
- ``serving a sentence``: the prisoner was in prison for something else ("where he had been
  undergoing a sentence of three months' imprisonment", t18790526-574),
- ``a wish or a condition``: nobody's sentence ("I wish to be transported", t18370918-2188;
  "Smith and Donaldson would be transported for life", t18710109-120),
- ``another person``: the one sentenced is not on trial ("Wainwright was sentenced to six
  months'", t18790526-527, the prisoner being George Stannard),
- ``a question``: counsel's question, which the record never uses to print its verdict ("And
  then the Jury acquitted Jones?", t18011028-70, about an earlier trial).

Only sentences flagged for a finding or a sentence of the court can be explained: a verdict
in capitals, a bare verdict or an age line never is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")
_NAMES = r"(?:(?-i:[A-Z][\w'’-]*)\s+|\*\s*){0,4}"
VERDICT_ONLY = re.compile(
    r"^" + _NAMES + r"(?:not\s+guilty|guilty|acquitted|acquit)"
    r"(?:\s+\d+\s*[sd]\b\.?|\s+of\b.*|\s+death\b.*|\s+transportation\b.*|\s*\*|,?\s+aged\s+\d+.*)*[\s.,;:*]*$",
    re.IGNORECASE,
)
CAPS_VERDICT = re.compile(r"(?<![A-Za-z])(?:NOT GUILTY|GUILTY|ACQUITTED)(?![A-Za-z])")
PLEA_BEFORE = re.compile(r"(?:plead(?:ed|s)?|plea\s+of)\s+(?:\w+\s+)?$", re.IGNORECASE)
FINDING = re.compile(
    r"\bverdict\b[^.?]{0,80}?\b(?:guilty|not\s+guilty|acquit\w*|manslaughter)\b"
    r"|\bthe\s+jury\s+(?:then\s+)?(?:found|find|returned|acquitted|convicted)\b"
    r"|\brecommend(?:ed|ation)\b[^.?]{0,40}\bto\s+mercy\b|\bto\s+mercy\b[^.?]{0,30}\bjury\b"
    r"|\bjudgment\s+respited\b|\bsentence\s+(?:deferred|postponed|respited)\b",
    re.IGNORECASE,
)
AGE_LINE = re.compile(r"^(?:\w+\s*[-—]\s*)?aged\s+\d+\b", re.IGNORECASE)
PUNISHMENT = re.compile(
    r"^(?:death|transportation|transported|branded|whipped|to\s+be\s+whipped|imprisoned|fined|confined|"
    r"penal\s+servitude|discharged|respited)\b[^.]{0,80}[.\s]*$"
    r"|\b(?:transported|transportation)\s+for\s+(?:\w+\s+){0,3}(?:years|life)\b"
    r"|\bto\s+be\s+(?:hanged|transported|whipped|imprisoned|confined)\b"
    r"|\b(?:sentenced|sentence\s+of)\b[^.?]{0,60}\b(?:years?|months?|weeks?|days?|death|life|servitude|labour)\b"
    r"|\b(?:\w+\s+)?(?:years?|months?)'?\s+penal\s+servitude\b",
    re.IGNORECASE,
)


# Why a flagged sentence speaks of another outcome than this trial's (see ``explain``).
INDICTMENT = re.compile(r"\bindicted\s+for\b|\bagainst\s+the\s+statute\b", re.IGNORECASE)
_COURTS = r"(?:Middlesex|Surrey|Kent|Essex|Westminster|County|Quarter|General|Borough|Petty|Clerkenwell|Guildhall)"
_MONTHS = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
EARLIER_TRIAL = re.compile(
    r"\b(?:" + _COURTS + r"|" + _MONTHS + r")\s+Sessions\b"
    r"|\bSessions\s+for\s+[A-Z]\w+"
    r"|\b1[6-9]\d\d\b"
    r"|\b(?:calendar|record)\s+(?:from|of)\b"
)
SERVING = re.compile(r"\b(?:undergoing|serving)\s+(?:a\s+|his\s+|her\s+|the\s+)?sentence\b", re.IGNORECASE)
WISH_OR_CONDITION = re.compile(
    r"\b(?:wish(?:ed)?|willing|want(?:ed)?|would|should|might|could)\s+(?:to\s+)?be\s+"
    r"(?:transported|hanged|confined|imprisoned|whipped|liable)\b",
    re.IGNORECASE,
)
SENTENCED_SUBJECT = re.compile(
    r"(?:^|[—,;]\s*|\band\s+)((?-i:[A-Z][a-z]+))\s+(?:was|were)\s+(?:sentenced|convicted|transported)\b"
)
BEFORE = 3  # sentences read before a flagged one ("Q. Were you present ... 1810 ... - A. I was;")
NOT_A_NAME = {"He", "She", "They", "It", "Prisoner", "The", "And", "I", "We", "Who"}


def age_only_after_verdict(age: int, record: str) -> bool:
    """The record prints ``age`` in a verdict's age line ("GUILTY, aged 45.", "GUILTY - DEATH. Aged 23.",
    "GUILTY of an Assault. Aged 23.") and
    nowhere in brackets ("(45)", "(45, labourer)"), as a heading does for every prisoner."""
    after_verdict = re.search(rf"\b(?:guilty|acquitted)\b[^\n]{{0,80}}?\baged\s+{age}\b", record, re.IGNORECASE)
    return after_verdict is not None and re.search(rf"\(\s*\.?{age}\b", record) is None


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE_END.split(text.strip()) if s.strip()]


def _flags(sentence: str) -> tuple[bool, bool]:
    """(flagged at all, flagged only as a finding or a sentence of the court)."""
    caps = any(not PLEA_BEFORE.search(sentence[: m.start()]) for m in CAPS_VERDICT.finditer(sentence))
    hard = bool(caps or VERDICT_ONLY.match(sentence) or AGE_LINE.match(sentence))
    soft = bool(FINDING.search(sentence) or PUNISHMENT.search(sentence))
    return hard or soft, soft and not hard


def suspicious(text: str) -> list[str]:
    """The sentences of ``text`` that read like a verdict, the age line, mercy or a sentence."""
    return [sentence for sentence in sentences(text) if _flags(sentence)[0]]


def explain(sentence: str, before: str = "", defendants: Iterable[str] = ()) -> str:
    """Why a flagged ``sentence`` speaks of another outcome than this trial's, or ``""``.

    ``before`` is the text just before it (``BEFORE`` sentences); ``defendants`` the names on trial.
    """
    if not _flags(sentence)[1]:
        return ""
    if INDICTMENT.search(sentence):
        return "the indictment"
    if SERVING.search(sentence):
        return "serving a sentence"
    if EARLIER_TRIAL.search(sentence) or EARLIER_TRIAL.search(before):
        return "an earlier trial"
    if WISH_OR_CONDITION.search(sentence):
        return "a wish or a condition"
    subjects = {m.group(1) for m in SENTENCED_SUBJECT.finditer(sentence)} - NOT_A_NAME
    on_trial = {word for name in defendants for word in name.split()}
    if subjects and not subjects & on_trial:
        return "another person"
    if sentence.rstrip().endswith("?"):
        return "a question"
    return ""


def flagged(text: str, defendants: Iterable[str] = ()) -> list[tuple[str, str]]:
    """(sentence, reason) for every flagged sentence of ``text``; the reason is ``""`` when unexplained."""
    names = tuple(defendants)
    parts = sentences(text)
    return [
        (sentence, explain(sentence, " ".join(parts[max(0, n - BEFORE) : n]), names))
        for n, sentence in enumerate(parts)
        if _flags(sentence)[0]
    ]


@dataclass(frozen=True)
class Leak:
    case: str  # the case's source id, or its slug
    where: str  # "summary", "witness Mary Biggin", "evidence ...", "index evidence 12"
    text: str
    reason: str = ""  # why it is another outcome than this trial's (``explain``); "" when unexplained


def juror_texts(case: Any, *, chunks: Iterable[tuple[str, str, str]] = ()) -> Iterator[tuple[str, str]]:
    """(where, text) for everything of ``case`` a juror may read (prefetch its file first)."""
    yield "summary", case.summary
    for n, argument in enumerate(case.prosecution_arguments, 1):
        yield f"prosecution argument {n}", argument
    for n, argument in enumerate(case.defense_arguments, 1):
        yield f"defence statement {n}", argument
    for witness in case.witnesses.all():
        yield f"witness {witness.name}", f"{witness.name}. {witness.testimony_summary} {witness.testimony}".strip()
    for item in case.evidence.all():
        yield f"evidence {item.label}", f"{item.label}. {item.description} {item.contest_reason}"
    for kind, item_id, chunk in chunks:
        yield f"index {kind} {item_id}", chunk


def case_leaks(case: Any, *, chunks: Iterable[tuple[str, str, str]] = ()) -> list[Leak]:
    """Every flagged passage of ``case``, explained ones included (``Leak.reason``)."""
    name = case.source_id or case.slug
    defendants = [d.name for d in case.defendants.all()]
    ages = [
        Leak(name, f"defendant {d.name}", f"aged {d.age}")
        for d in case.defendants.all()
        if d.age and age_only_after_verdict(d.age, case.original_text or "")
    ]
    return ages + [
        Leak(name, where, found, reason)
        for where, text in juror_texts(case, chunks=chunks)
        for found, reason in flagged(text, defendants)
    ]
