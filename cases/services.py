"""Writes to the case library: Old Bailey imports and import jobs.

Every write goes through ``full_clean`` before ``save``. Saving a case schedules the rebuild of
its evidence index (a ``post_save`` signal in ``cases.retrieval``), after the commit. One file
is one transaction: a file that fails to parse or to validate leaves nothing behind. Re-importing a trial updates its
case in place (key: ``source='oldbailey'`` and ``source_id`` = the trial id); a trial whose
record has not changed is not written at all, so ``updated_at`` stays as it was.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from cases.importers.oldbailey import ImportFileError, TrialRecord, parse_file
from cases.models import Case, Defendant, Evidence, ImportJob, ImportStatus, Source, Witness

IMPORTED, UPDATED, SKIPPED = "imported", "updated", "skipped"
SKIP_UNCHANGED = "unchanged since the last import"
# A trial met again in one run is one case: its second sighting is neither imported, updated nor skipped.
SEEN_IN_RUN = "already read from another file in this run (counted once)"
SEEN_IN_FILE = "appears twice in the same file (counted once)"
SKIP_SLUG_TAKEN = "slug {slug!r} already belongs to another case"
ERROR_UNREADABLE = "{name}: cannot be read: {reason}."
ERROR_INVALID = "{name}: trial {trial} is not a valid case: {reason}"

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
    "content_notes",
    "defense_arguments",
)


@dataclass
class ImportReport:
    """Totals over one or more files; ``skip_reasons`` counts why trials were skipped."""

    imported: int = 0
    updated: int = 0
    skipped: int = 0
    trials: int = 0
    skip_reasons: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    unplayable: Counter[str] = field(default_factory=Counter)
    repeats: Counter[str] = field(default_factory=Counter)  # sightings of a trial already counted
    trial_ids: set[str] = field(default_factory=set)  # every trial counted, for the run's other files

    def add(self, other: ImportReport) -> None:
        self.imported += other.imported
        self.updated += other.updated
        self.skipped += other.skipped
        self.trials += other.trials
        self.skip_reasons.update(other.skip_reasons)
        self.errors.extend(other.errors)
        self.unplayable.update(other.unplayable)
        self.repeats.update(other.repeats)
        self.trial_ids |= other.trial_ids

    def last_line(self) -> str:
        return f"imported {self.imported}, updated {self.updated}, skipped {self.skipped}"

    def lines(self) -> list[str]:
        """Skip reasons, unplayable notes and errors, then the totals line last."""
        out = [f"skipped {n}: {reason}" for reason, n in sorted(self.skip_reasons.items())]
        out += [f"kept but not playable {n}: {reason}" for reason, n in sorted(self.unplayable.items())]
        out += [f"seen again {n}: {reason}" for reason, n in sorted(self.repeats.items())]
        out += [f"error: {message}" for message in self.errors]
        return [*out, self.last_line()]


def _case_values(trial: TrialRecord) -> dict[str, Any]:
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
        "content_notes": list(trial.content_notes),
        "defense_arguments": list(trial.defense_arguments),
    }


def _children(trial: TrialRecord) -> dict[str, list[dict[str, Any]]]:
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
                "strength_prosecution": e.strength_prosecution,
                "strength_defense": e.strength_defense,
                "contestable": e.contestable,
                "contest_reason": e.contest_reason,
                "position": i,
            }
            for i, e in enumerate(trial.evidence)
        ],
    }


CHILD_MODELS: dict[str, type[Defendant] | type[Witness] | type[Evidence]] = {
    "defendants": Defendant,
    "witnesses": Witness,
    "evidence": Evidence,
}


def _current_children(case: Case) -> dict[str, list[dict[str, Any]]]:
    current: dict[str, list[dict[str, Any]]] = {}
    for related, model in CHILD_MODELS.items():
        keys = [f.name for f in model._meta.concrete_fields if f.name not in {"id", "case"}]
        current[related] = [
            {key: row[key] for key in keys} for row in getattr(case, related).order_by("position", "id").values(*keys)
        ]
    return current


def case_upsert_from_trial(*, trial: TrialRecord) -> str:
    """Create or update the case for one trial; returns imported, updated or skipped (unchanged).

    Must run inside the caller's transaction (``oldbailey_import_file`` opens one per file).
    Raises ``ValidationError`` if the record does not make a valid case.
    """
    values = _case_values(trial)
    children = _children(trial)
    case = Case.objects.filter(source=Source.OLDBAILEY, source_id=trial.trial_id).first()
    if case is not None:
        same_case = all(getattr(case, key) == value for key, value in values.items())
        if same_case and _current_children(case) == _normalise(children):
            return SKIPPED
        outcome = UPDATED
    else:
        case = Case(source=Source.OLDBAILEY, source_id=trial.trial_id)
        outcome = IMPORTED
    for key, value in values.items():
        setattr(case, key, value)
    case.full_clean()
    case.save()
    for related, model in CHILD_MODELS.items():
        getattr(case, related).all().delete()
        rows = []
        for data in children[related]:
            row = model(case=case, **data)
            row.full_clean(exclude=["case"])
            rows.append(row)
        model.objects.bulk_create(rows)
    return outcome


def _normalise(children: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """Floats as the database hands them back, so an unchanged record compares equal."""
    return {
        related: [{k: (float(v) if isinstance(v, float) else v) for k, v in row.items()} for row in rows]
        for related, rows in children.items()
    }


def oldbailey_import_file(*, data: bytes, name: str, seen: frozenset[str] = frozenset()) -> ImportReport:
    """Import every trial of one file in one transaction; a bad file imports nothing.

    Parse errors, hostile XML, oversize files and invalid records are reported in
    ``report.errors`` (naming the file, and the line where known), never raised. ``seen``
    holds the trial ids the run has already counted from earlier files: such a trial (a
    single-trial file and the whole session holding it) is one case, so the first file read
    wins and the later sighting is only noted in ``report.repeats``.
    """
    report = ImportReport()
    try:
        parsed = parse_file(data, name=name, max_bytes=settings.ANGRY_IMPORT_MAX_BYTES)
    except ImportFileError as exc:
        report.errors.append(str(exc))
        return report
    file_report = ImportReport()
    try:
        with transaction.atomic():
            for trial in parsed.trials:
                if trial.trial_id in seen or trial.trial_id in file_report.trial_ids:
                    reason = SEEN_IN_RUN if trial.trial_id in seen else SEEN_IN_FILE
                    file_report.repeats[reason] += 1
                    continue
                file_report.trial_ids.add(trial.trial_id)
                file_report.trials += 1
                taken = (
                    Case.objects.filter(slug=trial.slug)
                    .exclude(source=Source.OLDBAILEY, source_id=trial.trial_id)
                    .exists()
                )
                if taken:
                    file_report.skipped += 1
                    file_report.skip_reasons[SKIP_SLUG_TAKEN.format(slug=trial.slug)] += 1
                    continue
                try:
                    outcome = case_upsert_from_trial(trial=trial)
                except ValidationError as exc:
                    reason = "; ".join(exc.messages)
                    raise ImportFileError(
                        ERROR_INVALID.format(name=name, trial=trial.trial_id, reason=reason), name=name
                    ) from exc
                if outcome == SKIPPED:
                    file_report.skipped += 1
                    file_report.skip_reasons[SKIP_UNCHANGED] += 1
                else:
                    setattr(file_report, outcome, getattr(file_report, outcome) + 1)
                    if not trial.playable:
                        file_report.unplayable[trial.unplayable_reason] += 1
    except ImportFileError as exc:
        report.errors.append(str(exc))
        return report
    report.add(file_report)
    return report


def oldbailey_import_paths(
    *, paths: Iterable[Path], on_file: Callable[[Path, ImportReport], None] | None = None
) -> ImportReport:
    """Import several files, each in its own transaction, carrying on past bad ones."""
    total = ImportReport()
    for path in paths:
        try:
            size = path.stat().st_size
            if size > settings.ANGRY_IMPORT_MAX_BYTES:  # refuse before reading a huge file into memory
                result = ImportReport(errors=[_too_large(path, size)])
            else:
                data = path.read_bytes()
                result = oldbailey_import_file(data=data, name=str(path), seen=frozenset(total.trial_ids))
        except OSError as exc:
            result = ImportReport(errors=[ERROR_UNREADABLE.format(name=path, reason=exc.strerror or exc)])
        total.add(result)
        if on_file is not None:
            on_file(path, result)
    return total


def _too_large(path: Path, size: int) -> str:
    from cases.importers.oldbailey_xml import ERROR_TOO_LARGE

    return ERROR_TOO_LARGE.format(name=path, size=size, limit=settings.ANGRY_IMPORT_MAX_BYTES)


def import_job_create(*, files: list[str], user_id: int | None = None) -> ImportJob:
    """Record an upload (paths already stored under MEDIA_ROOT/imports/) and queue its import."""
    from angryagents.background import enqueue
    from cases.tasks import import_job_run_task

    job = ImportJob(files=files, total=len(files), created_by_id=user_id)
    job.full_clean()
    job.save()
    enqueue(import_job_run_task, job.pk)
    return job


def uploaded_name(stored: str) -> str:
    """The name a curator uploaded, from its stored path ("imports/<12 hex>-t1.xml" -> "t1.xml")."""
    base = Path(stored).name
    head, _, rest = base.partition("-")
    return rest if rest and len(head) == 12 else base


def _as_uploaded(message: str, path: Path, name: str) -> str:
    """An error as the curator should read it: the uploaded name, never a path on the server."""
    return message.replace(str(path), name).replace(str(path.parent), "the upload folder")


def import_job_run(*, job_id: int) -> ImportJob:
    """Run a queued import job; safe to run twice (only a pending job is claimed).

    Each file's outcome is reported under the name it was uploaded with (one summary line per
    file, then the totals), errors never show a server path, and every stored upload is
    deleted once read, whatever its outcome.
    """
    claimed = ImportJob.objects.filter(pk=job_id, status=ImportStatus.PENDING).update(status=ImportStatus.RUNNING)
    job = ImportJob.objects.get(pk=job_id)
    if not claimed:
        return job
    root = Path(settings.MEDIA_ROOT)
    names = {root / stored: uploaded_name(stored) for stored in job.files}
    per_file: list[str] = []

    def progress(path: Path, result: ImportReport) -> None:
        name = names.get(path, path.name)
        path.unlink(missing_ok=True)
        job.done += 1
        errors = [_as_uploaded(message, path, name) for message in result.errors]
        if errors:  # each error already names the file
            per_file.extend(e if e.startswith(f"{name}:") else f"{name}: {e}" for e in errors)
        else:
            per_file.append(f"{name}: {result.last_line()}")
        if errors:
            job.errors = [*job.errors, *errors]
        ImportJob.objects.filter(pk=job_id).update(done=job.done, errors=job.errors)

    try:
        report = oldbailey_import_paths(paths=list(names), on_file=progress)
    except Exception as exc:  # the job must end in a final state whatever happened
        reason = type(exc).__name__
        ImportJob.objects.filter(pk=job_id).update(
            status=ImportStatus.FAILED,
            summary="\n".join([*per_file, f"The import stopped at file {job.done + 1}: {reason}."]),
            finished_at=timezone.now(),
        )
        for path in names:
            path.unlink(missing_ok=True)
        raise
    status = ImportStatus.FAILED if report.errors and not (report.imported or report.updated) else ImportStatus.DONE
    totals = [line for line in report.lines() if not line.startswith("error: ")]
    ImportJob.objects.filter(pk=job_id).update(
        status=status,
        summary="\n".join([*per_file, *totals]),
        errors=job.errors,
        finished_at=timezone.now(),
        done=len(job.files),
    )
    job.refresh_from_db()
    return job
