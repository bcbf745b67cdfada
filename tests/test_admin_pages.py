"""Every admin changelist, add page and change page renders for a superuser."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.core.management import call_command
from django.urls import reverse

from tests.factories import CaseFactory, DefendantFactory, EvidenceFactory, WitnessFactory

APPS = ("cases", "jurors", "deliberation")


@pytest.fixture
def curator(db, client, django_user_model):
    user = django_user_model.objects.create_superuser("curator", "curator@example.com", "a-long-password-1")
    client.force_login(user)
    call_command("load_cases", stdout=open("/dev/null", "w"))
    case = CaseFactory()
    DefendantFactory(case=case)
    EvidenceFactory(case=case)
    WitnessFactory(case=case)
    return client


def _registered():
    return [
        (model, model_admin) for model, model_admin in admin.site._registry.items() if model._meta.app_label in APPS
    ]


def test_every_changelist_and_add_page_renders(curator):
    for model, model_admin in _registered():
        opts = model._meta
        can_add = model_admin.has_add_permission(curator.request().wsgi_request)
        for view in ("changelist", "add") if can_add else ("changelist",):
            response = curator.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_{view}"))
            assert response.status_code == 200, (opts.label, view)


def test_the_narration_list_names_the_judges_active_voice(curator, settings):
    settings.ANGRY_NARRATION = "text"
    response = curator.get(reverse("admin:deliberation_narration_changelist"))
    assert "The judge's voice now:" in response.content.decode()
    assert "Text only (ANGRY_NARRATION=text)" in response.content.decode()


def test_a_curator_deletes_a_deliberation_from_the_admin(curator):
    from cases.models import Case
    from deliberation import services
    from deliberation.models import Deliberation

    case = Case.objects.get(slug="kessler-market-robbery")
    deliberation = services.deliberation_start(case=case, seed=1, player_side="none", host_plays=False)
    url = reverse("admin:deliberation_deliberation_delete", args=[deliberation.pk])
    assert curator.get(url).status_code == 200
    curator.post(url, {"post": "yes"})
    assert not Deliberation.objects.filter(pk=deliberation.pk).exists()


def test_every_change_page_renders_for_an_existing_object(curator):
    for model, _ in _registered():
        obj = model.objects.first()
        if obj is None:
            continue
        opts = model._meta
        response = curator.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk]))
        assert response.status_code == 200, opts.label


def test_the_case_changelist_filters_by_source_difficulty_verdict_and_year(curator):
    response = curator.get(reverse("admin:cases_case_changelist"), {"source": "curated", "difficulty": "ambiguous"})
    assert response.status_code == 200
    for label in ("By source", "By difficulty", "By historical verdict", "By era", "By offence"):
        assert label in response.content.decode()


def test_a_bad_persona_value_shows_a_clear_message_in_the_admin(curator):
    from jurors.models import Persona

    persona = Persona.objects.get(key="juror_1")
    url = reverse("admin:jurors_persona_change", args=[persona.pk])
    form = {
        "key": persona.key,
        "seat_number": 1,
        "name": persona.name,
        "emoji": persona.emoji,
        "archetype": persona.archetype_id,
        "active": "on",
        "personality_prompt": persona.personality_prompt,
        "initial_lean": persona.initial_lean,
        "stubbornness": "1.7",
        "volatility": "0.2",
        "influence": "0.7",
        "verbosity": "0.5",
        "memory_window": "10",
        "model": "",
        "temperature": "",
    }
    response = curator.post(url, form)
    assert response.status_code == 200
    assert "Ensure this value is less than or equal to 1.0." in response.content.decode()
    persona.refresh_from_db()
    assert persona.stubbornness == 0.8


def test_the_duplicate_action_copies_a_case(curator):
    from cases.models import Case

    case = Case.objects.exclude(source="curated").first() or Case.objects.first()
    response = curator.post(
        reverse("admin:cases_case_changelist"),
        {"action": "duplicate_cases", "_selected_action": [case.pk]},
        follow=True,
    )
    assert response.status_code == 200
    assert Case.objects.filter(slug=f"{case.slug}-copy").exists()
