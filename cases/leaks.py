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

It returns the sentences, not a yes or no, so a curator can judge each one. A witness's own
past ("I was sentenced to three months") is flagged too: the check prefers a false alarm a
curator can dismiss to a verdict a juror can read.
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


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE_END.split(text.strip()) if s.strip()]


def suspicious(text: str) -> list[str]:
    """The sentences of ``text`` that read like a verdict, the age line, mercy or a sentence."""
    found: list[str] = []
    for sentence in sentences(text):
        caps = any(not PLEA_BEFORE.search(sentence[: m.start()]) for m in CAPS_VERDICT.finditer(sentence))
        if (
            caps
            or VERDICT_ONLY.match(sentence)
            or FINDING.search(sentence)
            or AGE_LINE.match(sentence)
            or PUNISHMENT.search(sentence)
        ):
            found.append(sentence)
    return found


@dataclass(frozen=True)
class Leak:
    case: str  # the case's source id, or its slug
    where: str  # "summary", "witness Mary Biggin", "evidence ...", "index evidence 12"
    text: str


def juror_texts(case: Any, *, chunks: Iterable[tuple[str, str, str]] = ()) -> Iterator[tuple[str, str]]:
    """(where, text) for everything of ``case`` a juror may read (prefetch its file first)."""
    yield "summary", case.summary
    for n, argument in enumerate(case.prosecution_arguments, 1):
        yield f"prosecution argument {n}", argument
    for n, argument in enumerate(case.defense_arguments, 1):
        yield f"defence statement {n}", argument
    for witness in case.witnesses.all():
        yield f"witness {witness.name}", f"{witness.name}. {witness.testimony_summary}"
    for item in case.evidence.all():
        yield f"evidence {item.label}", f"{item.label}. {item.description} {item.contest_reason}"
    for kind, item_id, chunk in chunks:
        yield f"index {kind} {item_id}", chunk


def case_leaks(case: Any, *, chunks: Iterable[tuple[str, str, str]] = ()) -> list[Leak]:
    name = case.source_id or case.slug
    return [Leak(name, where, found) for where, text in juror_texts(case, chunks=chunks) for found in suspicious(text)]
