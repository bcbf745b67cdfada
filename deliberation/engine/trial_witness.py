"""A witness on the stand: it answers only with lines of its own record, or says it does not know.

Offline, the answer is the record line (or two) that best answers the question: the line whose
printed question (Old Bailey ``Q.``) matches the question asked, else the line sharing the most
content words with it (at least ``MIN_SHARED`` words and ``MIN_OVERLAP`` of the question's words),
preferring the part of the trial being held (chief or cross) and lines not yet said. With no such
line the witness says ``DONT_KNOW`` or, for a question about seeing, ``DIDNT_SEE``: it never
invents a fact, a name, a time or a place.

With a model, ``witness_prompt`` gives only the retrieved lines and the rule; ``ungrounded``
checks the model's answer the same way the tests check the offline one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from deliberation.engine.trial_rules import is_hearsay_answer
from deliberation.engine.trial_text import RecordLine, content_words, normalise, overlap, record_lines, similarity
from deliberation.engine.types import WitnessItem

DONT_KNOW = "I couldn't say."
DIDNT_SEE = "I didn't see that."
NO_KNOWLEDGE = (DONT_KNOW, DIDNT_SEE)
SEEING = re.compile(r"\b(?:see|saw|seen|notice|noticed|look|looked|observe|observed)\b", re.I)
MIN_SHARED = 1
MIN_OVERLAP = 0.3
PRINTED_QUESTION_MATCH = 0.6
SHORT_LINE = 60  # a best line shorter than this brings the next line of the same part with it
# Facts a witness may not invent: numbers and times, and capitalised words (names and places).
FACT = re.compile(r"\b\d[\d:.,]*\b|\b[A-Z][a-z]{2,}\b")
NOT_FACTS = frozenset({"I", "The", "Yes", "No", "Mr", "Mrs", "Sir", "God", "Cross", "He", "She", "They", "It"})

WITNESS_RULE = (
    "You are {name}, a witness ({role}) on oath. Answer the question in the first person from the passages "
    'of your own testimony below and nothing else. If they do not answer it, say only "I couldn\'t say" or '
    '"I didn\'t see that". Never add a name, a time, a place or a fact that the passages do not contain.'
)


@dataclass(frozen=True)
class Answer:
    text: str
    lines: tuple[str, ...]  # the record lines used, verbatim (empty for "I couldn't say")
    part: str = ""  # chief | cross | record

    @property
    def knows(self) -> bool:
        return bool(self.lines)


def _score(question: str, words: set[str], line: RecordLine, part: str, said: set[str]) -> float:
    if line.question and similarity(question, line.question) >= PRINTED_QUESTION_MATCH:
        return 10.0  # the record's own question: its A. line answers it directly
    line_words = content_words(line.text)
    shared = len(words & line_words)
    if shared < MIN_SHARED or overlap(words, line_words) < MIN_OVERLAP:
        return 0.0
    score = overlap(words, line_words) + 0.05 * shared + 0.2 * shared / len(line_words)
    if line.part == part or (part == "cross" and line.part == "record"):
        score += 0.25
    if normalise(line.text) in said:
        score -= 0.5
    return score


def answer(witness: WitnessItem, question: str, *, part: str = "chief", said: set[str] | None = None) -> Answer:
    """The witness's answer from its own record (see the module's rules)."""
    said = said if said is not None else set()
    lines = record_lines(witness.testimony, witness.credibility_issues)
    words = content_words(question)
    scored = [(_score(question, words, line, part, said), -index) for index, line in enumerate(lines)]
    best, index = max(scored, default=(0.0, 0))
    index = -index  # ties go to the line the record gives first
    if best <= 0.0:
        return Answer(DIDNT_SEE if SEEING.search(question) else DONT_KNOW, ())
    chosen = [lines[index]]
    following = lines[index + 1] if index + 1 < len(lines) else None
    if (
        len(chosen[0].text) < SHORT_LINE
        and following is not None
        and following.part == chosen[0].part
        and normalise(following.text) not in said
        and not is_hearsay_answer(following.text)  # a line the question did not ask for brings no hearsay in
    ):
        chosen.append(following)
    texts = tuple(line.text for line in chosen)
    return Answer(" ".join(_sentence(text) for text in texts), texts, chosen[0].part)


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text[-1:] in ".!?\"'" else text + "."


def record_text(witness: WitnessItem) -> str:
    return " ".join([witness.testimony, *witness.credibility_issues])


def ungrounded(text: str, witness: WitnessItem) -> list[str]:
    """The facts (numbers, times, names, places) in ``text`` that the witness's record does not contain."""
    if text in NO_KNOWLEDGE:
        return []
    record = normalise(record_text(witness))
    missing: list[str] = []
    for match in FACT.finditer(text):
        fact = match.group(0).strip(".,")
        if fact in NOT_FACTS or not fact:
            continue
        if fact.lower() not in record:
            missing.append(fact)
    return missing


def is_grounded(text: str, lines: tuple[str, ...], witness: WitnessItem) -> bool:
    """An answer is grounded when every line it quotes is in the record verbatim and it adds no fact."""
    record = normalise(record_text(witness))
    return all(normalise(line) in record for line in lines) and not ungrounded(text, witness)


def witness_prompt(witness: WitnessItem, question: str, passages: list[str]) -> list[dict[str, str]]:
    """The model's prompt: the rule and the retrieved passages of this witness's record, nothing else."""
    rule = WITNESS_RULE.format(name=witness.name, role=witness.role)
    body = "\n".join(f"- {p}" for p in passages) or "- (nothing in your testimony bears on this)"
    return [
        {"role": "system", "content": rule},
        {"role": "user", "content": f"Your testimony:\n{body}\n\nQuestion: {question}"},
    ]


def passages_for(witness: WitnessItem, question: str, k: int = 3) -> list[str]:
    """The ``k`` record lines closest to the question (retrieval over this witness's record only)."""
    lines = record_lines(witness.testimony, witness.credibility_issues)
    words = content_words(question)
    ranked = sorted(lines, key=lambda line: -len(words & content_words(line.text)))
    return [line.text for line in ranked[:k] if words & content_words(line.text)]
