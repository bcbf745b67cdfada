"""Case library rules hold in clean() and in the database."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from cases.curation import case_child_save, case_save
from cases.models import ERROR_CHARGES_EMPTY, ERROR_CONTEST_REASON, Case, Evidence
from tests.factories import CaseFactory, DefendantFactory, EvidenceFactory


@pytest.mark.django_db
def test_a_case_without_charges_is_refused_with_a_clear_message():
    case = CaseFactory.build(charges=[])
    with pytest.raises(ValidationError) as excinfo:
        case_save(case=case)
    assert excinfo.value.message_dict["charges"] == [ERROR_CHARGES_EMPTY]


@pytest.mark.django_db
def test_an_unknown_content_note_is_refused():
    case = CaseFactory.build(content_notes=["gore"])
    with pytest.raises(ValidationError) as excinfo:
        case_save(case=case)
    assert "gore" in excinfo.value.message_dict["content_notes"][0]


@pytest.mark.django_db
def test_evidence_strength_outside_zero_to_one_is_refused_by_clean_and_by_the_database():
    evidence = EvidenceFactory.build(case=CaseFactory(), strength_prosecution=1.2)
    with pytest.raises(ValidationError) as excinfo:
        case_child_save(obj=evidence)
    assert "strength_prosecution" in excinfo.value.message_dict
    saved = EvidenceFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        Evidence.objects.filter(pk=saved.pk).update(strength_defense=-0.1)


@pytest.mark.django_db
def test_contestable_evidence_needs_a_reason():
    evidence = EvidenceFactory.build(case=CaseFactory(), contestable=True, contest_reason=" ")
    with pytest.raises(ValidationError) as excinfo:
        case_child_save(obj=evidence)
    assert excinfo.value.message_dict["contest_reason"] == [ERROR_CONTEST_REASON]


@pytest.mark.django_db
def test_one_source_id_per_source():
    CaseFactory(source="oldbailey", source_id="t18600402-389")
    with pytest.raises(IntegrityError), transaction.atomic():
        CaseFactory(source="oldbailey", source_id="t18600402-389")
    CaseFactory(source="curated", source_id="")
    CaseFactory(source="curated", source_id="")
    assert Case.objects.filter(source="curated").count() == 2


@pytest.mark.django_db
def test_the_database_refuses_an_unknown_difficulty():
    with pytest.raises(IntegrityError), transaction.atomic():
        CaseFactory(difficulty="easy")


@pytest.mark.django_db
def test_only_playable_cases_are_offered():
    DefendantFactory(case=CaseFactory(slug="open", playable=True))
    DefendantFactory(case=CaseFactory(slug="plea", playable=False))
    CaseFactory(slug="no-defendant", playable=True)
    assert list(Case.objects.playable().values_list("slug", flat=True)) == ["open"]
