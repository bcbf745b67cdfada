"""Every trial the importer keeps unplayable says why, on the case, in the admin and in the summary."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from cases.importers.oldbailey import parse_file
from cases.importers.oldbailey_reasons import (
    REASON_DEFECT,
    REASON_GUILTY_PLEA,
    REASON_NO_DEFENDANT,
    REASON_NO_EVIDENCE_OFFERED,
    REASON_NO_TESTIMONY,
    REASON_NO_VERDICT,
    REASON_PLEA_DURING_TRIAL,
    REASON_SPECIAL_VERDICT,
    REASON_UNREADABLE_VERDICT,
    UNPLAYABLE_REASONS,
)
from cases.models import Case
from cases.services import oldbailey_import_file, oldbailey_import_paths
from tests.cases.oldbailey_sample import SESSIONS, TRIALS
from tests.factories import CaseFactory

LIMIT = 10 * 1024 * 1024
TRIAL = """<div1 type="trialAccount" id="t17440101-1"><interp inst="t17440101-1" type="year" value="1744"/>
<p>1. {defendant} was indicted for <rs id="o1" type="offenceDescription">
<interp inst="o1" type="offenceCategory" value="theft"/>stealing a coat</rs>.</p>
{testimony}
{verdict}
</div1>"""
BROWN = (
    '<persName id="d1" type="defendantName">John Brown<interp inst="d1" type="surname" value="Brown"/>'
    '<interp inst="d1" type="given" value="John"/></persName>'
)
SEEN = '<p>Mary Cole. <u role="Witness" speaker="s1">I saw Mr. Brown take the coat from the stall.</u></p>'
FRITH = "<p>MR. FRITH here stated that his client would admit that he was guilty.</p>"
VERDICT = (
    '<p><rs id="v1" type="verdictDescription"><interp inst="v1" type="verdictCategory" value="{category}"/>'
    '<interp inst="v1" type="verdictSubcategory" value="{sub}"/>{words}</rs></p>'
)
GUILTY = VERDICT.format(category="guilty", sub="", words="Guilty.")


def acquitted(sub: str = "") -> str:
    return VERDICT.format(category="notGuilty", sub=sub, words="Acquitted.")


def trial_xml(*, defendant: str = BROWN, testimony: str = SEEN, verdict: str = GUILTY) -> bytes:
    return TRIAL.format(defendant=defendant, testimony=testimony, verdict=verdict).encode()


def parsed(data: bytes):
    (record,) = parse_file(data, name="t.xml", max_bytes=LIMIT).trials
    return record


def test_a_trial_with_a_defendant_testimony_and_a_verdict_is_playable_with_no_reason():
    record = parsed(trial_xml())
    assert (record.playable, record.unplayable_reason) == (True, "")


@pytest.mark.parametrize(
    ("xml", "reason"),
    [
        (trial_xml(defendant="A man unknown"), REASON_NO_DEFENDANT),
        (
            trial_xml(verdict=VERDICT.format(category="guilty", sub="pleadedGuilty", words="Guilty.")),
            REASON_GUILTY_PLEA,
        ),
        (trial_xml(testimony=SEEN + FRITH), REASON_PLEA_DURING_TRIAL),
        (trial_xml(testimony="", verdict=acquitted()), REASON_NO_TESTIMONY),
        (trial_xml(testimony="", verdict=acquitted("noEvidence")), REASON_NO_EVIDENCE_OFFERED),
        (trial_xml(testimony="", verdict=acquitted("fault")), REASON_DEFECT),
        (trial_xml(testimony="", verdict=acquitted("insanity")), REASON_SPECIAL_VERDICT),
        (trial_xml(verdict=""), REASON_NO_VERDICT),
        (
            trial_xml(testimony=SEEN.replace("stall.", "stall. Jones acquitted. Cole guilty."), verdict=""),
            REASON_UNREADABLE_VERDICT,
        ),
    ],
    ids=[
        "no defendant",
        "guilty plea",
        "plea during the trial",
        "no testimony",
        "no evidence offered",
        "defect",
        "insane",
        "no verdict",
        "unreadable verdict",
    ],
)
def test_a_trial_kept_unplayable_says_why_in_the_curators_words(xml, reason):
    record = parsed(xml)
    assert (record.playable, record.unplayable_reason) == (False, reason)


def test_the_known_reasons_are_distinct_and_each_fits_the_field():
    assert len(set(UNPLAYABLE_REASONS)) == len(UNPLAYABLE_REASONS)
    limit = Case._meta.get_field("unplayable_reason").max_length
    assert all(reason and len(reason) <= limit for reason in UNPLAYABLE_REASONS)


@pytest.mark.django_db
def test_an_imported_unplayable_trial_keeps_its_reason_on_the_case_and_in_the_summary():
    report = oldbailey_import_file(data=trial_xml(testimony="", verdict=acquitted("noEvidence")), name="t.xml")
    case = Case.objects.get()
    assert (case.playable, case.unplayable_reason) == (False, REASON_NO_EVIDENCE_OFFERED)
    assert f"kept but not playable 1: {REASON_NO_EVIDENCE_OFFERED}" in report.lines()


@pytest.mark.django_db
def test_a_reimport_that_makes_the_trial_playable_clears_its_reason_and_the_reverse_sets_it():
    oldbailey_import_file(data=trial_xml(verdict=""), name="t.xml")
    assert Case.objects.values_list("playable", "unplayable_reason").get() == (False, REASON_NO_VERDICT)
    report = oldbailey_import_file(data=trial_xml(), name="t.xml")
    assert report.updated == 1
    assert Case.objects.values_list("playable", "unplayable_reason").get() == (True, "")
    oldbailey_import_file(data=trial_xml(testimony=SEEN + FRITH), name="t.xml")
    assert Case.objects.values_list("playable", "unplayable_reason").get() == (False, REASON_PLEA_DURING_TRIAL)


@pytest.mark.django_db
def test_every_unplayable_case_of_the_sample_says_why_and_the_summary_counts_each_reason():
    report = oldbailey_import_paths(paths=TRIALS + SESSIONS)
    assert report.errors == []
    unplayable = list(Case.objects.filter(playable=False).values_list("unplayable_reason", flat=True))
    assert unplayable, "the sample's sessions hold unplayable trials"
    assert set(unplayable) <= set(UNPLAYABLE_REASONS)
    assert len(set(unplayable)) >= 3  # guilty pleas, no evidence offered, no testimony at least
    assert not Case.objects.filter(playable=True).exclude(unplayable_reason="").exists()
    lines = report.lines()
    for reason in set(unplayable):
        assert f"kept but not playable {unplayable.count(reason)}: {reason}" in lines


@pytest.mark.django_db
def test_a_playable_case_carries_no_reason_whatever_is_written():
    case = CaseFactory(playable=True)
    case.unplayable_reason = "left over"
    case.full_clean()
    assert case.unplayable_reason == ""
    with pytest.raises(IntegrityError), transaction.atomic():
        Case.objects.filter(pk=case.pk).update(unplayable_reason="left over")


@pytest.fixture
def curator(db, client, django_user_model):
    user = django_user_model.objects.create_superuser("curator", "curator@example.com", "a-long-password-1")
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_the_case_list_shows_why_each_case_is_unplayable_and_filters_by_the_reason(curator):
    oldbailey_import_paths(paths=SESSIONS)
    CaseFactory(title="A curated case set aside", playable=False)
    page = curator.get("/admin/cases/case/")
    assert "why unplayable" in page.content.decode().lower()
    shown = {case.pk: case for case in page.context["cl"].result_list}
    assert any(case.unplayable_reason == REASON_GUILTY_PLEA for case in shown.values())
    pleas = curator.get("/admin/cases/case/", {"why": REASON_GUILTY_PLEA})
    listed = pleas.context["cl"].result_list
    assert listed and all(case.unplayable_reason == REASON_GUILTY_PLEA for case in listed)
    assert len(listed) == min(50, Case.objects.filter(unplayable_reason=REASON_GUILTY_PLEA).count())
    unexplained = curator.get("/admin/cases/case/", {"why": "none"}).context["cl"].result_list
    assert [case.title for case in unexplained] == ["A curated case set aside"]


@pytest.mark.django_db
def test_the_case_page_shows_the_reason_beside_playable(curator):
    oldbailey_import_file(data=trial_xml(testimony="", verdict=acquitted("insanity")), name="t.xml")
    case = Case.objects.get()
    page = curator.get(f"/admin/cases/case/{case.pk}/change/")
    assert page.context["adminform"].form.initial["unplayable_reason"] == REASON_SPECIAL_VERDICT
    assert f'value="{REASON_SPECIAL_VERDICT}"' in page.content.decode()
