"""Curator writes: curated YAML import and export, and duplicating a case.

A case exported with ``case_to_data`` and imported again with ``case_save_from_data``
comes back field for field (the round trip is tested). Every write validates with
``full_clean`` first and happens in one transaction, so a bad file changes nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from django.core.exceptions import ValidationError
from django.db import transaction

from cases.models import Case, Defendant, Evidence, Witness

CASE_FIELDS = (
    "slug",
    "title",
    "summary",
    "charges",
    "offence_category",
    "difficulty",
    "themes",
    "year",
    "jurisdiction",
    "source",
    "source_id",
    "historical_verdict",
    "historical_punishment",
    "playable",
    "unplayable_reason",
    "content_notes",
    "prosecution_arguments",
    "defense_arguments",
)
DEFENDANT_FIELDS = ("name", "gender", "age", "description")
EVIDENCE_FIELDS = (
    "label",
    "type",
    "description",
    "strength_prosecution",
    "strength_defense",
    "contestable",
    "contest_reason",
)
WITNESS_FIELDS = ("name", "role", "testimony_summary", "testimony", "credibility_issues", "side")
CHILD_DEFAULTS: dict[str, dict[str, Any]] = {
    "defendants": {"gender": "unknown", "age": None, "description": ""},
    "evidence": {"strength_prosecution": 0.5, "strength_defense": 0.5, "contestable": False, "contest_reason": ""},
    "witnesses": {"testimony": "", "credibility_issues": [], "side": "neutral"},
}

ERROR_NOT_A_MAPPING = "{name}: a curated case must be a YAML mapping of fields."
ERROR_UNKNOWN_KEYS = "{name}: unknown field(s) {keys}."
ERROR_MISSING_KEYS = "{name}: missing field(s) {keys}."
ERROR_BAD_YAML = "{name}: not valid YAML ({problem})."
ERROR_DUPLICATE_KEY = "the field {key!r} is given twice"
ERROR_INVALID = "{name}: {problem}"

CURATED_DIR = Path(__file__).resolve().parent / "curated"


def _check_keys(data: dict[str, Any], allowed: tuple[str, ...], required: tuple[str, ...], name: str) -> None:
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise ValidationError(ERROR_UNKNOWN_KEYS.format(name=name, keys=", ".join(unknown)))
    missing = sorted(set(required) - set(data))
    if missing:
        raise ValidationError(ERROR_MISSING_KEYS.format(name=name, keys=", ".join(missing)))


def _items(data: dict[str, Any], key: str, fields: tuple[str, ...], name: str) -> list[dict[str, Any]]:
    items = data.get(key) or []
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        raise ValidationError(ERROR_NOT_A_MAPPING.format(name=f"{name} {key}"))
    for index, item in enumerate(items, start=1):
        _check_keys(item, fields, fields[:1], f"{name} {key} #{index}")
    return items


class _StrictLoader(yaml.SafeLoader):
    """YAML that refuses a key given twice in one mapping: the second would silently replace the first."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)  # type: ignore[no-untyped-call]
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, ERROR_DUPLICATE_KEY.format(key=key), key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def parse_case_yaml(text: str, *, name: str = "case") -> dict[str, Any]:
    try:
        data = yaml.load(text, Loader=_StrictLoader)  # a SafeLoader that also refuses a key given twice
    except yaml.YAMLError as exc:
        raise ValidationError(ERROR_BAD_YAML.format(name=name, problem=str(exc).splitlines()[0])) from None
    if not isinstance(data, dict):
        raise ValidationError(ERROR_NOT_A_MAPPING.format(name=name))
    return data


def _full_clean(obj: Any, name: str, exclude: list[str] | None = None) -> None:
    try:
        obj.full_clean(exclude=exclude)
    except ValidationError as exc:
        problems = "; ".join(f"{field}: {' '.join(msgs)}" for field, msgs in exc.message_dict.items())
        raise ValidationError(ERROR_INVALID.format(name=name, problem=problems)) from None


@transaction.atomic
def case_save_from_data(*, data: dict[str, Any], name: str = "case") -> tuple[Case, str]:
    """Create or update (by slug) a case with its defendants, evidence and witnesses.

    Idempotent: saving the same data twice leaves the database as it was after the first.
    Returns the case and "created", "updated" or "unchanged". Raises ValidationError naming the problem.
    """
    case_keys = (*CASE_FIELDS, "defendants", "evidence", "witnesses")
    _check_keys(data, case_keys, ("slug", "title", "summary", "charges"), name)
    defendants = _items(data, "defendants", DEFENDANT_FIELDS, name)
    evidence = _items(data, "evidence", EVIDENCE_FIELDS, name)
    witnesses = _items(data, "witnesses", WITNESS_FIELDS, name)

    case = Case.objects.filter(slug=data["slug"]).first()
    created = case is None
    if case is not None:
        before = case_to_data(case)
        if before == {**before, **_normalised(data)}:
            return case, "unchanged"  # no write: updated_at untouched
    case = case or Case()
    for field in CASE_FIELDS:
        if field in data:
            value = data[field]
            setattr(case, field, "" if value is None and field in {"source_id", "jurisdiction"} else value)
    _full_clean(case, name)

    children = [
        (Defendant, defendants, DEFENDANT_FIELDS),
        (Evidence, evidence, EVIDENCE_FIELDS),
        (Witness, witnesses, WITNESS_FIELDS),
    ]
    case.save()
    for model, rows, _fields in children:
        model.objects.filter(case=case).delete()
        objects = []
        for position, row in enumerate(rows):
            obj = model(case=case, position=position, **row)
            _full_clean(obj, f"{name} {model._meta.verbose_name} {row.get(_fields[0])!r}", exclude=["case"])
            objects.append(obj)
        model.objects.bulk_create(objects)
    return case, "created" if created else "updated"


def _normalised(data: dict[str, Any]) -> dict[str, Any]:
    """The input as ``case_to_data`` would render it, for change detection."""
    result = {key: data[key] for key in CASE_FIELDS if key in data}
    for key, fields in (("defendants", DEFENDANT_FIELDS), ("evidence", EVIDENCE_FIELDS), ("witnesses", WITNESS_FIELDS)):
        defaults = CHILD_DEFAULTS[key]
        result[key] = [{f: row.get(f, defaults.get(f)) for f in fields} for row in data.get(key) or []]
    return result


def case_to_data(case: Case) -> dict[str, Any]:
    """A case as curated YAML data (the inverse of ``case_save_from_data``)."""
    data: dict[str, Any] = {field: _plain(getattr(case, field)) for field in CASE_FIELDS}
    data["defendants"] = [{f: _plain(getattr(d, f)) for f in DEFENDANT_FIELDS} for d in case.defendants.all()]
    data["evidence"] = [{f: _plain(getattr(e, f)) for f in EVIDENCE_FIELDS} for e in case.evidence.all()]
    data["witnesses"] = [{f: _plain(getattr(w, f)) for f in WITNESS_FIELDS} for w in case.witnesses.all()]
    return data


def _plain(value: Any) -> Any:
    """Choices enums become plain strings so the data dumps as ordinary YAML."""
    return str(value) if isinstance(value, str) else value


class _BlockDumper(yaml.SafeDumper):
    """Long texts as readable block scalars."""


def _str_presenter(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_BlockDumper.add_representer(str, _str_presenter)


def case_to_yaml(case: Case) -> str:
    return yaml.dump(case_to_data(case), Dumper=_BlockDumper, sort_keys=False, allow_unicode=True, width=100)


def case_import_yaml_file(*, path: Path) -> tuple[Case, str]:
    return case_save_from_data(data=parse_case_yaml(path.read_text(encoding="utf-8"), name=path.name), name=path.name)


@transaction.atomic
def case_duplicate(*, case: Case) -> Case:
    """Copy a case with its defendants, evidence and witnesses under a fresh slug."""
    data = case_to_data(case)
    base = f"{case.slug}-copy"
    slug, n = base, 2
    while Case.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    data.update(slug=slug, title=f"{case.title} (copy)", source_id="")
    if data["source"] != "curated":
        data["source"] = "curated"
    copy, _ = case_save_from_data(data=data, name=slug)
    return copy


@transaction.atomic
def case_save(*, case: Case) -> Case:
    """Validate and save a case edited in the admin."""
    case.full_clean()
    case.save()
    return case


def case_child_delete(*, obj: Defendant | Evidence | Witness) -> None:
    """Remove a defendant, evidence item or witness from its case (admin inline delete)."""
    obj.delete()


def case_child_save(*, obj: Defendant | Evidence | Witness) -> None:
    """Validate and save a defendant, evidence item or witness edited in the admin."""
    obj.full_clean()
    obj.save()
