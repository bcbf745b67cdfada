"""factory_boy factories for model data in tests."""

from __future__ import annotations

import factory

from cases.models import Case, Defendant, Evidence, Witness
from jurors.models import Archetype, Persona


class CaseFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Case

    slug = factory.Sequence(lambda n: f"case-{n}")
    title = factory.Sequence(lambda n: f"The State v. Defendant {n}")
    summary = "A shopkeeper was robbed at closing time; the defendant was arrested nearby."
    charges = factory.LazyFunction(lambda: ["Robbery"])
    offence_category = "violentTheft"
    difficulty = "ambiguous"
    year = 2020
    jurisdiction = "Somewhere"


class DefendantFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Defendant

    case = factory.SubFactory(CaseFactory)
    name = "Alex Doe"
    gender = "unknown"


class EvidenceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Evidence

    case = factory.SubFactory(CaseFactory)
    label = factory.Sequence(lambda n: f"Exhibit {n}")
    type = "physical"
    description = "A receipt timed 21:04."
    strength_prosecution = 0.6
    strength_defense = 0.3


class WitnessFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Witness

    case = factory.SubFactory(CaseFactory)
    name = factory.Sequence(lambda n: f"Witness {n}")
    role = "eyewitness"
    testimony_summary = "Saw a man in a red coat run from the shop."
    side = "prosecution"


class ArchetypeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Archetype

    slug = factory.Sequence(lambda n: f"archetype-{n}")
    name = factory.Sequence(lambda n: f"Archetype {n}")


class PersonaFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Persona

    key = factory.Sequence(lambda n: f"persona_{n}")
    seat_number = 1
    name = factory.Sequence(lambda n: f"Juror {n}")
    emoji = "🙂"
    archetype = factory.SubFactory(ArchetypeFactory)
    personality_prompt = "You are a juror."
    stubbornness = 0.5
    volatility = 0.5
    influence = 0.5
