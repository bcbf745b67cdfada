"""The labelled questions for witnesses (``data/trial_witness_questions.yaml``) and how many a rule
answers on point: from the line a careful reader would pick, or with "I couldn't say" when the
record does not answer. Read by the test and by ``bench/trial_groundedness.py``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import yaml

from cases.importers.oldbailey import parse_file
from deliberation.engine.trial.witness import Answer
from deliberation.engine.types import WitnessItem
from tests.cases.oldbailey_sample import DATA

ROOT = Path(__file__).resolve().parents[2]
QUESTIONS = Path(__file__).resolve().parent / "data" / "trial_witness_questions.yaml"
# Students' typed questions to the curated cases' witnesses: a development set to tune on, and a
# held-out set measured once after tuning (``bench/witness_answers.py``).
STUDENT_QUESTIONS = Path(__file__).resolve().parent / "data" / "trial_student_questions.yaml"
STUDENT_HELDOUT = Path(__file__).resolve().parent / "data" / "trial_student_questions_heldout.yaml"


@dataclass(frozen=True)
class Labelled:
    witness: WitnessItem
    question: str
    lines: tuple[str, ...]  # fragments of the acceptable lines; empty: the record does not answer


def _curated(slug: str, name: str) -> WitnessItem:
    data = yaml.safe_load((ROOT / "cases" / "curated" / f"{slug}.yaml").read_text())
    found = next(w for w in data["witnesses"] if w["name"] == name)
    issues = tuple(found.get("credibility_issues") or ())
    side = found.get("side", "neutral")
    return WitnessItem(name, name, found["role"], found["testimony_summary"], issues, side, found.get("testimony", ""))


def _old_bailey(file: str, name: str) -> WitnessItem:
    parsed = parse_file((DATA / "trials" / file).read_bytes(), name=file, max_bytes=10**8)
    found = next(w for trial in parsed.trials for w in trial.witnesses if w.name == name)
    return WitnessItem(name, name, found.role, found.testimony, found.credibility_issues, found.side)


def labelled(path: Path = QUESTIONS) -> list[Labelled]:
    found: list[Labelled] = []
    for entry in yaml.safe_load(path.read_text()):
        if "case" in entry:
            witness = _curated(entry["case"], entry["witness"])
        else:
            witness = _old_bailey(entry["trial"], entry["witness"])
        found.extend(Labelled(witness, q["q"], tuple(q["lines"])) for q in entry["questions"])
    return found


def on_point(item: Labelled, reply: Answer) -> bool:
    if not item.lines:
        return not reply.knows
    return bool(reply.lines) and any(fragment in reply.lines[0] for fragment in item.lines)


def misses(answerer: Callable[..., Answer], items: list[Labelled] | None = None) -> tuple[int, list[str]]:
    """How many questions were asked, and each answered off the point (question -> answer)."""
    items = items if items is not None else labelled()
    wrong = []
    for item in items:
        reply = answerer(item.witness, item.question, part="chief", said=set())
        if not on_point(item, reply):
            wrong.append(f"{item.witness.name}: {item.question} -> {reply.text}")
    return len(items), wrong


@dataclass(frozen=True)
class Figures:
    asked: int
    answered: int  # from the record (a line quoted)
    on_point: int  # from a labelled line, or a non-answer where the record does not answer
    non_answers: int  # "I couldn't say" / "I didn't see that"
    missed: tuple[str, ...]  # question -> answer, off the point


def figures(answerer: Callable[..., Answer], items: list[Labelled]) -> Figures:
    """How a rule answers labelled questions (each asked in chief, nothing said before)."""
    answered = on = silent = 0
    missed = []
    for item in items:
        reply = answerer(item.witness, item.question, part="chief", said=set())
        answered += reply.knows
        silent += not reply.knows
        if on_point(item, reply):
            on += 1
        else:
            missed.append(f"{item.witness.name}: {item.question} -> {reply.text}")
    return Figures(len(items), answered, on, silent, tuple(missed))
