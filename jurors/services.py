"""Writes for juror personas: loading the shipped jury."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from django.db import transaction

from jurors.models import ARGUMENT_TYPES, Archetype, Persona

SHIPPED_JURORS = Path(__file__).resolve().parent / "data" / "jurors.yaml"


def _upsert(model: Any, lookup: dict[str, Any], values: dict[str, Any]) -> bool:
    """Create or update one row; True when something was written."""
    obj = model.objects.filter(**lookup).first()
    if obj is not None and all(getattr(obj, key) == value for key, value in values.items()):
        return False
    obj = obj or model(**lookup)
    for key, value in values.items():
        setattr(obj, key, value)
    obj.full_clean()
    obj.save()
    return True


@transaction.atomic
def shipped_jurors_load(*, path: Path = SHIPPED_JURORS) -> int:
    """Load the shipped archetypes and personas. Idempotent: returns the number of rows written."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    written = 0
    for row in data["archetypes"]:
        modifiers = row["modifiers"]
        values = {"name": row["name"], "description": row["description"]}
        values.update({f"modifier_{kind}": float(modifiers[kind]) for kind in ARGUMENT_TYPES})
        written += _upsert(Archetype, {"slug": row["slug"]}, values)
    archetypes = {a.slug: a for a in Archetype.objects.all()}
    for row in data["personas"]:
        values = {key: value for key, value in row.items() if key not in {"key", "archetype"}}
        values["archetype"] = archetypes[row["archetype"]]
        written += _upsert(Persona, {"key": row["key"]}, values)
    return written


def archetype_save(*, archetype: Archetype) -> Archetype:
    archetype.full_clean()
    archetype.save()
    return archetype


def persona_save(*, persona: Persona) -> Persona:
    """Validate (ranges, one active persona per seat) and save a persona edited in the admin."""
    persona.full_clean()
    persona.save()
    return persona
