"""A curator edits a case's lists one item a line and cannot save a playable case a game cannot start."""

from __future__ import annotations

import pytest
from django.urls import reverse

from cases.admin_forms import ERROR_PLAYABLE_NEEDS_DEFENDANT, LineListField
from cases.models import Case
from tests.factories import CaseFactory, DefendantFactory, WitnessFactory


@pytest.fixture
def curator(db, client, django_user_model):
    user = django_user_model.objects.create_superuser("curator", "curator@example.com", "a-long-password-1")
    client.force_login(user)
    return client


def _inline(prefix: str, rows: list[dict], initial: int = 0) -> dict:
    data = {
        f"{prefix}-TOTAL_FORMS": str(len(rows)),
        f"{prefix}-INITIAL_FORMS": str(initial),
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }
    for i, row in enumerate(rows):
        data.update({f"{prefix}-{i}-{key}": value for key, value in row.items()})
    return data


def _case_form(**overrides) -> dict:
    data = {
        "title": "The Crown v. Mary Smith",
        "slug": "crown-v-mary-smith",
        "summary": "Mary Smith is accused of stealing a watch.",
        "charges": "Theft: pocketpicking\nReceiving stolen goods\n\n",
        "offence_category": "theft",
        "playable": "on",
        "difficulty": "ambiguous",
        "themes": " reasonable doubt \nidentification",
        "content_notes": ["violence", "weapons"],
        "prosecution_arguments": "The watch was in her pocket.",
        "defense_arguments": "Nobody saw her take it.\nShe bought it in a shop.",
        "source": "curated",
        "source_id": "",
        "year": "1820",
        "jurisdiction": "London",
        "historical_verdict": "unknown",
        "historical_punishment": "",
    }
    data.update(overrides)
    data.update(_inline("defendants", [{"name": "Mary Smith", "gender": "female", "position": "0"}]))
    data.update(_inline("evidence", []))
    data.update(
        _inline(
            "witnesses",
            [
                {
                    "name": "John Reed",
                    "role": "victim",
                    "side": "prosecution",
                    "position": "0",
                    "testimony_summary": "I lost my watch.",
                    "credibility_issues": "Admits having been drinking\nGaps in memory\n",
                }
            ],
        )
    )
    return data


def test_a_line_list_shows_one_item_a_line_and_reads_back_a_list():
    field = LineListField()
    assert field.prepare_value(["Theft", "Receiving"]) == "Theft\nReceiving"
    assert field.clean("  Theft \n\n Receiving\r\n") == ["Theft", "Receiving"]
    assert not field.has_changed(["Theft"], "Theft\n")


def test_the_case_page_edits_lists_as_lines_never_as_json(curator):
    case = CaseFactory(charges=["Robbery", "Assault"], themes=["mercy"], defense_arguments=["An alibi."])
    DefendantFactory(case=case)
    WitnessFactory(case=case, credibility_issues=["Gaps in memory"])
    page = curator.get(reverse("admin:cases_case_change", args=[case.pk])).content.decode()
    assert "Robbery\nAssault</textarea>" in page
    assert "mercy</textarea>" in page and "An alibi.</textarea>" in page
    assert "Gaps in memory</textarea>" in page
    assert 'type="checkbox" name="content_notes" value="violence"' in page
    assert "[&quot;Robbery" not in page and "[&quot;Gaps" not in page  # no JSON list


def test_a_curator_adds_a_case_with_lists_typed_one_item_a_line(curator):
    response = curator.post(reverse("admin:cases_case_add"), _case_form())
    assert response.status_code == 302, response.context["errors"] if response.context else response
    case = Case.objects.get(slug="crown-v-mary-smith")
    assert case.charges == ["Theft: pocketpicking", "Receiving stolen goods"]
    assert case.themes == ["reasonable doubt", "identification"]
    assert case.content_notes == ["violence", "weapons"]
    assert case.defense_arguments == ["Nobody saw her take it.", "She bought it in a shop."]
    assert case.witnesses.get().credibility_issues == ["Admits having been drinking", "Gaps in memory"]


def test_a_playable_case_without_a_defendant_is_refused_on_save(curator):
    data = _case_form()
    data.update(_inline("defendants", []))
    response = curator.post(reverse("admin:cases_case_add"), data)
    assert response.status_code == 200
    assert ERROR_PLAYABLE_NEEDS_DEFENDANT in response.content.decode()
    assert not Case.objects.exists()


def test_removing_the_last_defendant_of_a_playable_case_is_refused(curator):
    case = CaseFactory(slug="crown-v-mary-smith")
    defendant = DefendantFactory(case=case)
    data = _case_form()
    data.update(
        _inline(
            "defendants",
            [
                {
                    "id": str(defendant.pk),
                    "case": str(case.pk),
                    "name": defendant.name,
                    "gender": "unknown",
                    "position": "0",
                    "DELETE": "on",
                }
            ],
            initial=1,
        )
    )
    response = curator.post(reverse("admin:cases_case_change", args=[case.pk]), data)
    assert ERROR_PLAYABLE_NEEDS_DEFENDANT in response.content.decode()
    assert case.defendants.count() == 1


def test_an_unplayable_case_may_be_saved_without_a_defendant(curator):
    data = _case_form()
    data.pop("playable")
    data.update(_inline("defendants", []))
    assert curator.post(reverse("admin:cases_case_add"), data).status_code == 302
    assert Case.objects.get().playable is False


def test_a_playable_case_needs_a_summary_and_a_charge(curator):
    response = curator.post(reverse("admin:cases_case_add"), _case_form(summary=" ", charges="\n"))
    errors = response.context["adminform"].form.errors
    assert set(errors) == {"summary", "charges"}
    assert not Case.objects.exists()


@pytest.mark.django_db
def test_a_case_marked_playable_without_a_defendant_is_not_in_the_library(client):
    hidden = CaseFactory(playable=True)
    shown = CaseFactory(playable=True)
    DefendantFactory(case=shown)
    assert list(Case.objects.playable()) == [shown]
    assert client.post(reverse("court_start"), {"case": hidden.slug}).status_code == 404


def test_a_curator_setting_a_case_aside_writes_why_and_the_reason_goes_once_it_is_playable(curator):
    data = _case_form(unplayable_reason="  the defendant's name is wrong in the record ")
    data.pop("playable")
    assert curator.post(reverse("admin:cases_case_add"), data).status_code == 302
    case = Case.objects.get()
    assert (case.playable, case.unplayable_reason) == (False, "the defendant's name is wrong in the record")
    data = _case_form(unplayable_reason=case.unplayable_reason)  # Playable ticked, the old reason still typed
    assert curator.post(reverse("admin:cases_case_change", args=[case.pk]), data).status_code == 302
    case.refresh_from_db()
    assert (case.playable, case.unplayable_reason) == (True, "")
