"""Curated YAML: shipped cases load idempotently and a case round-trips exactly."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command

from cases import curation
from cases.models import Case, Evidence, Witness
from tests.factories import CaseFactory, DefendantFactory, EvidenceFactory, WitnessFactory

CURATED = sorted(curation.CURATED_DIR.glob("*.yaml"))


@pytest.mark.django_db
def test_load_cases_twice_changes_nothing_the_second_time():
    call_command("load_cases", stdout=open("/dev/null", "w"))
    first = {c.slug: c.updated_at for c in Case.objects.all()}
    counts = (Case.objects.count(), Evidence.objects.count(), Witness.objects.count())
    call_command("load_cases", stdout=open("/dev/null", "w"))
    assert {c.slug: c.updated_at for c in Case.objects.all()} == first
    assert (Case.objects.count(), Evidence.objects.count(), Witness.objects.count()) == counts
    assert len(first) == len(CURATED)


@pytest.mark.django_db
@pytest.mark.parametrize("path", CURATED, ids=[p.stem for p in CURATED])
def test_every_shipped_case_is_rich_enough_to_deliberate(path):
    case, status = curation.case_import_yaml_file(path=path)
    assert status == "created"
    assert case.evidence.count() >= 5
    assert case.witnesses.count() >= 3
    assert case.prosecution_arguments and case.defense_arguments
    assert all(e.contest_reason for e in case.evidence.all() if e.contestable)
    assert any(w.credibility_issues for w in case.witnesses.all())


def test_the_shipped_library_covers_the_specified_kinds_of_case():
    kinds = [curation.parse_case_yaml(p.read_text()) for p in CURATED]
    need_at_least = len(kinds) >= 5
    assert need_at_least, f"only {len(kinds)} curated cases"
    difficulties = {k["difficulty"] for k in kinds}
    assert {"clear_guilty", "ambiguous", "clear_innocent"} <= difficulties
    themes = {t for k in kinds for t in k["themes"]}
    assert "dna" in themes and "eyewitness" in themes


@pytest.mark.django_db
def test_a_case_exported_to_yaml_imports_back_exactly():
    case = CaseFactory(themes=["eyewitness"], content_notes=["violence"], prosecution_arguments=["It was him."])
    DefendantFactory(case=case, name="Ann Smith", age=31, gender="female")
    EvidenceFactory(case=case, label="Knife", contestable=True, contest_reason="No prints: it was wiped.")
    WitnessFactory(case=case, credibility_issues=["Poor light", "Knew the victim"])
    text = curation.case_to_yaml(case)
    before = curation.case_to_data(case)
    Case.objects.filter(pk=case.pk).delete()
    again, status = curation.case_save_from_data(data=curation.parse_case_yaml(text))
    assert status == "created"
    assert curation.case_to_data(again) == before


@pytest.mark.django_db
def test_a_bad_file_names_itself_and_changes_nothing():
    with pytest.raises(ValidationError) as excinfo:
        curation.case_save_from_data(
            data={
                "slug": "bad",
                "title": "T",
                "summary": "S",
                "charges": ["X"],
                "evidence": [{"label": "E", "type": "smell"}],
            },
            name="bad.yaml",
        )
    assert "bad.yaml" in excinfo.value.messages[0]
    assert not Case.objects.filter(slug="bad").exists()


def test_unknown_fields_and_broken_yaml_are_refused_with_the_file_name():
    with pytest.raises(ValidationError, match=r"oops\.yaml"):
        curation.parse_case_yaml("title: [unclosed", name="oops.yaml")
    with pytest.raises(ValidationError, match=r"verdict_hint"):
        curation._check_keys({"slug": "x", "verdict_hint": 1}, curation.CASE_FIELDS, ("slug",), "x.yaml")


@pytest.mark.django_db
def test_duplicating_a_case_copies_its_file_under_a_new_slug():
    case = CaseFactory(slug="original")
    EvidenceFactory(case=case)
    copy = curation.case_duplicate(case=case)
    assert copy.slug == "original-copy"
    assert copy.evidence.count() == 1
    assert curation.case_duplicate(case=case).slug == "original-copy-2"


def test_a_field_given_twice_is_refused_rather_than_the_first_silently_lost():
    text = "slug: twice\nwitnesses:\n  - name: Ann\n    testimony: I saw him.\n    testimony: I did not.\n"
    with pytest.raises(ValidationError) as excinfo:
        curation.parse_case_yaml(text, name="twice.yaml")
    assert excinfo.value.messages == [
        curation.ERROR_BAD_YAML.format(name="twice.yaml", problem=curation.ERROR_DUPLICATE_KEY.format(key="testimony"))
    ]
