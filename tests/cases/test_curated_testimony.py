"""Each curated witness speaks on the stand in the first person, and says nothing the case file
does not already hold: every figure, name and quotation of its testimony is in the case file, and
every other word is either the case file's or one of the few words of speaking listed here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from deliberation.engine.trial.text import content_words, record_lines

CURATED = sorted((Path(__file__).resolve().parents[2] / "cases" / "curated").glob("*.yaml"))
# Words a witness uses to speak that carry no fact of their own (each was read and checked by hand).
SPEAKING = frozenset(
    content_words(
        "cross examined classify emptied everything later live mention owes paying stay stood study woke we'd i'm mr ms"
    )
)
FIGURE = re.compile(r"\$?\d[\d:.,]*\d|\$?\d")
NAME_INSIDE = re.compile(r"(?<=[a-z,] )[A-Z][\w'’-]+(?: [A-Z][\w'’-]+)*")  # a capitalised word inside a sentence
QUOTED = re.compile(r"(?<![\w'])'([^']{3,}?)'(?![\w])")
TITLES = frozenset({"Mr", "Mrs", "Ms", "Dr"})
FIRST_PERSON = re.compile(r"\b(?:I|I'm|my|me)\b")


def _texts(value: object) -> list[str]:
    """Every text of the case file, as written (a YAML dump would double its quotes)."""
    if isinstance(value, dict):
        return [t for v in value.values() for t in _texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return [" ".join(str(value).split())]


def _cases() -> list[tuple[str, dict, str]]:
    found = []
    for path in CURATED:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        rest = dict(data, witnesses=[{k: v for k, v in w.items() if k != "testimony"} for w in data["witnesses"]])
        found.append((path.stem, data, " ".join(_texts(rest))))
    return found


@pytest.mark.parametrize(("slug", "data", "file_text"), _cases(), ids=[p.stem for p in CURATED])
def test_every_curated_witness_testifies_in_the_first_person_from_the_case_file(slug, data, file_text):
    lowered = file_text.lower()
    words = content_words(file_text)
    for witness in data["witnesses"]:
        spoken = witness.get("testimony", "")
        assert spoken, f"{slug}: {witness['name']} has no first-person testimony"
        lines = record_lines(spoken)
        chief = [line.text for line in lines if line.part == "chief"]
        assert len(chief) >= 3 and any(FIRST_PERSON.search(line) for line in chief), witness["name"]
        assert sum(1 for line in lines if FIRST_PERSON.search(line.text)) >= 3, witness["name"]
        names = [n for n in NAME_INSIDE.findall(spoken) if n not in TITLES]
        facts = FIGURE.findall(spoken) + names + QUOTED.findall(spoken)
        assert [f for f in facts if f.lower().removesuffix("'s") not in lowered] == [], witness["name"]
        assert content_words(spoken) - words - SPEAKING == set(), witness["name"]
        assert witness.get("testimony_summary"), witness["name"]  # the jury's case file still reads the summary


def test_a_witness_that_adds_a_fact_fails_the_check():
    """The check above is not a tautology: a testimony with an invented figure, name or thing fails it."""
    _, _data, file_text = _cases()[0]
    words = content_words(file_text)
    invented = "I saw a knife. Cross-examined. It was Tuesday at 11:15 p.m."
    assert content_words(invented) - words - SPEAKING
    assert [f for f in FIGURE.findall(invented) if f.lower() not in file_text.lower()]
