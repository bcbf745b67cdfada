"""Persona and archetype ranges hold in clean() and in the database."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from jurors.models import Persona
from jurors.services import persona_save
from tests.factories import ArchetypeFactory, PersonaFactory


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["stubbornness", "volatility", "influence", "verbosity"])
def test_a_behaviour_outside_zero_to_one_is_refused_with_a_field_message(field):
    persona = PersonaFactory.build(archetype=ArchetypeFactory(), **{field: 1.4})
    with pytest.raises(ValidationError) as excinfo:
        persona_save(persona=persona)
    assert field in excinfo.value.message_dict


@pytest.mark.django_db
def test_the_database_refuses_an_out_of_range_value_even_without_clean():
    persona = PersonaFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        Persona.objects.filter(pk=persona.pk).update(stubbornness=2.0)


@pytest.mark.django_db
def test_only_one_active_persona_may_hold_a_seat():
    PersonaFactory(seat_number=3)
    rival = PersonaFactory.build(seat_number=3, archetype=ArchetypeFactory())
    with pytest.raises(ValidationError):
        persona_save(persona=rival)
    rival.active = False
    persona_save(persona=rival)
    assert Persona.objects.filter(seat_number=3).count() == 2


@pytest.mark.django_db
def test_an_archetype_modifier_above_the_maximum_is_refused():
    archetype = ArchetypeFactory.build(modifier_logical=5.0)
    with pytest.raises(ValidationError) as excinfo:
        archetype.full_clean()
    assert "modifier_logical" in excinfo.value.message_dict
