"""The shipped jury matches the main specification."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from jurors.models import ARGUMENT_TYPES, Archetype, Persona
from jurors.services import shipped_jurors_load
from tests.conftest import need

SPEC = next((Path(__file__).resolve().parents[3] / "shared" / "seeds").glob("000_*.txt"), None)
SPEC_MODIFIERS = {
    "rationalist": {"logical": 1.5, "evidence": 1.3, "emotional": 0.4, "moral": 0.6, "narrative": 0.7, "question": 1.2},
    "empath": {"logical": 0.6, "evidence": 0.8, "emotional": 1.5, "moral": 1.3, "narrative": 1.2, "question": 0.9},
    "cynic": {"logical": 0.8, "evidence": 1.4, "emotional": 0.3, "moral": 0.5, "narrative": 0.6, "question": 0.7},
}


def _spec_jurors() -> list[dict]:
    need(SPEC is not None, "the main specification is not beside the repository (../shared/seeds)")
    text = SPEC.read_text(encoding="utf-8")
    block = text[text.index("\njurors:\n") : text.index("\nConviction Score Mechanics")]
    return yaml.safe_load(block)["jurors"]


@pytest.fixture
def jury(db):
    shipped_jurors_load()
    return {p.key: p for p in Persona.objects.select_related("archetype")}


def test_the_eleven_ai_jurors_match_the_specification_exactly(jury):
    for spec in _spec_jurors():
        if spec["id"] == "juror_7":
            continue
        persona = jury[spec["id"]]
        assert persona.seat_number == int(spec["id"].split("_")[1])
        assert (persona.name, persona.emoji, persona.archetype.slug) == (spec["name"], spec["emoji"], spec["archetype"])
        assert persona.personality_prompt == spec["personality"]
        assert (persona.stubbornness, persona.volatility, persona.influence) == (
            spec["stubbornness"],
            spec["volatility"],
            spec["influence"],
        )
        assert persona.initial_lean == spec["initial_lean"]


def test_juror_seven_is_a_neutral_stand_in_for_the_players_seat(jury):
    stand_in = jury["juror_7"]
    assert stand_in.seat_number == 7 and stand_in.name == "Juror 7"
    assert all(value == 1.0 for value in stand_in.archetype.modifiers.values())
    assert (stand_in.stubbornness, stand_in.volatility, stand_in.influence, stand_in.initial_lean) == (
        0.5,
        0.5,
        0.6,
        "neutral",
    )


def test_the_three_specified_archetypes_have_exactly_the_specified_modifiers(jury):
    for slug, modifiers in SPEC_MODIFIERS.items():
        assert Archetype.objects.get(slug=slug).modifiers == modifiers


def test_every_archetype_has_a_modifier_for_every_argument_type(jury):
    archetypes = Archetype.objects.all()
    assert archetypes.count() == 12
    for archetype in archetypes:
        assert set(archetype.modifiers) == set(ARGUMENT_TYPES)
        assert all(0.0 < value <= 3.0 for value in archetype.modifiers.values())


def test_loading_the_jury_twice_writes_nothing_the_second_time(db):
    assert shipped_jurors_load() == 24
    assert shipped_jurors_load() == 0
    assert Persona.objects.count() == 12
