"""Bulk writes of one file's trials: a handful of queries per file, not a handful per trial.

Runs inside the caller's transaction (``cases.services.oldbailey_import_file`` opens one per
file). Every row still goes through ``full_clean`` (the uniqueness checks, one query each, are
left to the database's constraints and to the one look-up per file below). New cases and
their defendants, witnesses and evidence are inserted with one ``COPY`` per table on
PostgreSQL (``bulk_create`` elsewhere), changed cases with ``bulk_update``, their children
replaced in bulk. Bulk writes send no ``post_save``, so the evidence
indexes of the cases written are scheduled together, once the file commits.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils import timezone

from angryagents.background import enqueue
from cases.importers.oldbailey import TrialRecord
from cases.library import library_changed
from cases.models import Case, Defendant, Evidence, Source, Witness

IMPORTED, UPDATED, SKIPPED = "imported", "updated", "skipped"
BATCH_SIZE = 500

CASE_FIELDS = (
    "slug",
    "title",
    "summary",
    "charges",
    "offence_category",
    "difficulty",
    "year",
    "jurisdiction",
    "historical_verdict",
    "historical_punishment",
    "playable",
    "unplayable_reason",
    "content_notes",
    "defense_arguments",
    "original_text",
)

ChildModel = type[Defendant] | type[Witness] | type[Evidence]
CHILD_MODELS: dict[str, ChildModel] = {"defendants": Defendant, "witnesses": Witness, "evidence": Evidence}
CHILD_KEYS: dict[str, list[str]] = {
    related: [f.name for f in model._meta.concrete_fields if f.name not in {"id", "case"}]
    for related, model in CHILD_MODELS.items()
}


class InvalidTrial(Exception):
    def __init__(self, trial_id: str, error: ValidationError) -> None:
        super().__init__(trial_id)
        self.trial_id = trial_id
        self.error = error


@dataclass
class Written:
    """What one batch did to each trial id: imported, updated, skipped (unchanged) or slug taken."""

    outcomes: dict[str, str] = field(default_factory=dict)
    slug_taken: list[str] = field(default_factory=list)
    case_ids: list[int] = field(default_factory=list)  # cases written, for their evidence indexes


def case_values(trial: TrialRecord) -> dict[str, Any]:
    return {
        "slug": trial.slug,
        "title": trial.title,
        "summary": trial.summary,
        "charges": list(trial.charges),
        "offence_category": trial.offence_category,
        "difficulty": trial.difficulty,
        "year": trial.year,
        "jurisdiction": trial.jurisdiction,
        "historical_verdict": trial.historical_verdict,
        "historical_punishment": trial.historical_punishment,
        "playable": trial.playable,
        "unplayable_reason": "" if trial.playable else trial.unplayable_reason,
        "content_notes": list(trial.content_notes),
        "defense_arguments": list(trial.defense_arguments),
        "original_text": trial.original_text,
    }


def case_children(trial: TrialRecord) -> dict[str, list[dict[str, Any]]]:
    return {
        "defendants": [
            {"name": d.name, "gender": d.gender, "age": d.age, "description": "", "position": i}
            for i, d in enumerate(trial.defendants)
        ],
        "witnesses": [
            {
                "name": w.name,
                "role": w.role,
                "testimony_summary": w.testimony,
                # The record has no first-person testimony to give: the trial answers from the summary.
                "testimony": "",
                "side": w.side,
                "credibility_issues": list(w.credibility_issues),
                "position": i,
            }
            for i, w in enumerate(trial.witnesses)
        ],
        "evidence": [
            {
                "label": e.label,
                "type": e.type,
                "description": e.description,
                "strength_prosecution": float(e.strength_prosecution),
                "strength_defense": float(e.strength_defense),
                "contestable": e.contestable,
                "contest_reason": e.contest_reason,
                "position": i,
            }
            for i, e in enumerate(trial.evidence)
        ],
    }


def _stored_children(case: Case) -> dict[str, list[dict[str, Any]]]:
    """The case's prefetched children in the shape ``case_children`` builds, to compare them."""
    return {
        related: [{key: getattr(row, key) for key in CHILD_KEYS[related]} for row in getattr(case, related).all()]
        for related in CHILD_MODELS
    }


def _clean(obj: Case | Defendant | Witness | Evidence, trial_id: str, exclude: list[str] | None = None) -> None:
    try:
        obj.full_clean(exclude=exclude, validate_unique=False, validate_constraints=False)
    except ValidationError as exc:
        raise InvalidTrial(trial_id, exc) from exc


def trials_write(*, trials: Iterable[TrialRecord]) -> Written:
    """Create, update or leave alone the case of each trial (ids distinct). Caller holds the transaction.

    Raises ``InvalidTrial`` for a record that does not make a valid case.
    """
    trials = list(trials)
    written = Written()
    if not trials:
        return written
    ids = [t.trial_id for t in trials]
    existing = {
        case.source_id: case
        for case in Case.objects.filter(source=Source.OLDBAILEY, source_id__in=ids).prefetch_related(*CHILD_MODELS)
    }
    owners = {
        slug: (source, source_id)
        for slug, source, source_id in Case.objects.filter(slug__in=[t.slug for t in trials]).values_list(
            "slug", "source", "source_id"
        )
    }
    now = timezone.now()
    created: list[Case] = []
    changed: list[Case] = []
    children: list[tuple[Case, dict[str, list[dict[str, Any]]], str]] = []
    for trial in trials:
        owner = owners.get(trial.slug)
        if owner is not None and owner != (Source.OLDBAILEY, trial.trial_id):
            written.outcomes[trial.trial_id] = SKIPPED
            written.slug_taken.append(trial.slug)
            continue
        values, kids = case_values(trial), case_children(trial)
        case = existing.get(trial.trial_id)
        if case is not None:
            if all(getattr(case, k) == v for k, v in values.items()) and _stored_children(case) == kids:
                written.outcomes[trial.trial_id] = SKIPPED
                continue
            changed.append(case)
            case.updated_at = now
            written.outcomes[trial.trial_id] = UPDATED
        else:
            case = Case(source=Source.OLDBAILEY, source_id=trial.trial_id)
            created.append(case)
            written.outcomes[trial.trial_id] = IMPORTED
        for key, value in values.items():
            setattr(case, key, value)
        _clean(case, trial.trial_id)
        children.append((case, kids, trial.trial_id))
    _insert_cases(created)
    if changed:
        Case.objects.bulk_update(changed, fields=[*CASE_FIELDS, "updated_at"], batch_size=BATCH_SIZE)
        for model in CHILD_MODELS.values():
            model.objects.filter(case__in=[c.pk for c in changed]).delete()
    for related, model in CHILD_MODELS.items():
        rows = []
        for case, kids, trial_id in children:
            for data in kids[related]:
                row = model(case=case, **data)
                _clean(row, trial_id, exclude=["case"])
                rows.append(row)
        _insert_children(model, rows)
    written.case_ids = [case.pk for case, _, _ in children]
    return written


def _copy(model: type[Case] | ChildModel, rows: list[Any]) -> None:
    """Insert ``rows`` (already cleaned) with one ``COPY`` stream (PostgreSQL only).

    The rows go as data, not as SQL, so neither Django's INSERT compiler nor the driver's
    client-side quoting of every text runs: most of the writer's time with ``bulk_create``.
    Values are prepared as ``bulk_create`` prepares them (``pre_save`` fills the timestamps).
    """
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    table = connection.ops.quote_name(model._meta.db_table)
    with connection.cursor() as cursor, cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row([f.get_db_prep_save(f.pre_save(row, True), connection) for f in fields])


def _insert_cases(cases: list[Case]) -> None:
    """Insert new Old Bailey cases and give each its primary key (one more query on PostgreSQL)."""
    if not cases:
        return
    if connection.vendor != "postgresql":
        Case.objects.bulk_create(cases, batch_size=BATCH_SIZE)
        return
    _copy(Case, cases)
    ids = dict(
        Case.objects.filter(source=Source.OLDBAILEY, source_id__in=[case.source_id for case in cases]).values_list(
            "source_id", "pk"
        )
    )
    for case in cases:
        case.pk = ids[case.source_id]
        case._state.adding, case._state.db = False, connection.alias


def _insert_children(model: ChildModel, rows: list[Any]) -> None:
    """Insert defendants, witnesses or evidence rows, already cleaned, whose ids nobody reads back."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        model.objects.bulk_create(rows, batch_size=BATCH_SIZE)
        return
    _copy(model, rows)


def schedule_evidence_indexes(case_ids: list[int]) -> None:
    """After the commit, rebuild the evidence indexes of the cases written, as one batch."""
    if not case_ids:
        return
    transaction.on_commit(library_changed)
    enqueue("cases.rebuild_case_indexes", list(case_ids))  # enqueue waits for the commit
