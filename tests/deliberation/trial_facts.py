"""Does a question of counsel name a fact of the record? Written apart from counsel's own rules
(``deliberation.engine.trial.asking``) so it can judge them: a question names a fact when it
carries a run of at least ``RUN`` consecutive words of one line of the trial's record (a witness's
testimony, its own words, or the case file's notes on it), of which at least ``CONTENT`` are not
function words. The words are compared in lower case, with the witness's "I", "my", "me" turned to
"you", "your", "you" on both sides, so "you stopped a silver Honda Civic" finds "I stopped a silver
Honda Civic". A figure of the record ("$412", "10:04", "2011") is a fact on its own too. "Tell us
about Civic and Salem Avenue" names no run of the record; "What time was it when you stopped a
silver 2011 Honda Civic?" does. Read by the tests and by ``bench/trial_questions.py``."""

from __future__ import annotations

import re
from collections.abc import Iterable

RUN = 4
CONTENT = 2
TOKEN = re.compile(r"[a-z0-9$£]+(?:['’][a-z]+)?")
SAME = {"i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself", "am": "are", "was": "were"}
FUNCTION = frozenset(
    """a an the and or but of to in on at by for with from into upon as is are were be been being have has had do
    does did not no so that this these those it its he she they them him her his their you your we our there then
    when what who whom which where why how if than too very can could would should will shall may might must
    about up down out over after before all any some one what's tell jury""".split()
)


def words(text: str) -> list[str]:
    return [SAME.get(w, w) for w in TOKEN.findall(text.lower().replace("’", "'"))]


FIGURE = re.compile(r"\d")


def record_runs(texts: Iterable[str]) -> set[tuple[str, ...]]:
    """Every run of ``RUN`` words of the record that holds at least ``CONTENT`` content words, and
    every figure of it (as a run of one)."""
    runs: set[tuple[str, ...]] = set()
    for text in texts:
        runs.update((w,) for w in words(text) if FIGURE.search(w))
        for line in re.split(r"(?<=[.!?;])\s+|\s+[—–-]\s+", text):
            tokens = words(line)
            for at in range(len(tokens) - RUN + 1):
                run = tuple(tokens[at : at + RUN])
                if sum(1 for w in run if w not in FUNCTION) >= CONTENT:
                    runs.add(run)
    return runs


def names_a_fact(question: str, runs: set[tuple[str, ...]]) -> bool:
    tokens = words(question)
    if any((w,) in runs for w in tokens if FIGURE.search(w)):
        return True
    return any(tuple(tokens[at : at + RUN]) in runs for at in range(len(tokens) - RUN + 1))
