"""Writes to the case library: Old Bailey imports and import jobs.

Every write goes through ``full_clean`` before ``save``. Saving a case schedules the rebuild of
its evidence index (a ``post_save`` signal in ``cases.retrieval``), after the commit. One file
is one transaction: a file that fails to parse or to validate leaves nothing behind. Re-importing a trial updates its
case in place (key: ``source='oldbailey'`` and ``source_id`` = the trial id); a trial whose
record has not changed is not written at all, so ``updated_at`` stays as it was.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from multiprocessing import get_context
from pathlib import Path

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from angryagents.background import enqueue
from cases import import_parse
from cases.import_writer import IMPORTED, SKIPPED, UPDATED, InvalidTrial, schedule_evidence_indexes, trials_write
from cases.importers.oldbailey import ImportFileError, ParsedFile, TrialRecord, parse_file
from cases.importers.oldbailey_xml import ERROR_TOO_LARGE
from cases.models import Case, ImportedFile, ImportJob, ImportStatus, Source

SKIP_UNCHANGED = "unchanged since the last import"
# A trial met again in one run is one case: its second sighting is neither imported, updated nor skipped.
SEEN_IN_RUN = "already read from another file in this run (counted once)"
SEEN_IN_FILE = "appears twice in the same file (counted once)"
SKIP_SLUG_TAKEN = "slug {slug!r} already belongs to another case"
ERROR_UNREADABLE = "{name}: cannot be read: {reason}."
ERROR_INVALID = "{name}: trial {trial} is not a valid case: {reason}"
ERROR_WRITE = "{name}: could not be written: {reason}"
RESUMED = "resumed: {n} file(s) already imported (unchanged file, same importer) were not read again"
__all__ = ["IMPORTED", "SKIPPED", "UPDATED"]


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
    files_resumed: int = 0  # files a previous run committed, not read again

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
        self.files_resumed += other.files_resumed

    def last_line(self) -> str:
        return f"imported {self.imported}, updated {self.updated}, skipped {self.skipped}"

    def lines(self) -> list[str]:
        """Resumed files, skip reasons, unplayable notes and errors, then the totals line last."""
        out = [RESUMED.format(n=self.files_resumed)] if self.files_resumed else []
        out += [f"skipped {n}: {reason}" for reason, n in sorted(self.skip_reasons.items())]
        out += [f"kept but not playable {n}: {reason}" for reason, n in sorted(self.unplayable.items())]
        out += [f"seen again {n}: {reason}" for reason, n in sorted(self.repeats.items())]
        out += [f"error: {message}" for message in self.errors]
        return [*out, self.last_line()]


@cache
def importer_fingerprint() -> str:
    """A digest of the importer's code: a file imported by other code is read again, not resumed."""
    digest = hashlib.sha256()
    here = Path(__file__).resolve().parent
    for source in [*sorted((here / "importers").glob("*.py")), here / "import_writer.py"]:
        digest.update(source.read_bytes())
    return digest.hexdigest()[:32]


def case_upsert_from_trial(*, trial: TrialRecord) -> str:
    """Create or update the case for one trial; returns imported, updated or skipped.

    Must run inside the caller's transaction. Raises ``InvalidTrial`` if the record does not
    make a valid case.
    """
    written = trials_write(trials=[trial])
    schedule_evidence_indexes(written.case_ids)
    return written.outcomes[trial.trial_id]


def oldbailey_import_file(
    *, data: bytes, name: str, seen: frozenset[str] = frozenset(), sha256: str = ""
) -> ImportReport:
    """Import every trial of one file in one transaction; a bad file imports nothing.

    Parse errors, hostile XML, oversize files and invalid records are reported in
    ``report.errors`` (naming the file, and the line where known), never raised. ``seen``
    holds the trial ids the run has already counted from earlier files: such a trial (a
    single-trial file and the whole session holding it) is one case, so the first file read
    wins and the later sighting is only noted in ``report.repeats``. With ``sha256`` the file
    is recorded as imported in the same transaction, so a later run can resume past it.
    """
    try:
        parsed = parse_file(data, name=name, max_bytes=settings.ANGRY_IMPORT_MAX_BYTES)
    except ImportFileError as exc:
        return ImportReport(errors=[str(exc)])
    return oldbailey_write_file(parsed=parsed, seen=seen, sha256=sha256)


def oldbailey_write_file(*, parsed: ParsedFile, seen: frozenset[str], sha256: str = "") -> ImportReport:
    """Write one parsed file's trials in one transaction (see ``oldbailey_import_file``)."""
    name = parsed.name
    report = ImportReport()
    fresh: list[TrialRecord] = []
    for trial in parsed.trials:
        if trial.trial_id in seen or trial.trial_id in report.trial_ids:
            report.repeats[SEEN_IN_RUN if trial.trial_id in seen else SEEN_IN_FILE] += 1
            continue
        report.trial_ids.add(trial.trial_id)
        report.trials += 1
        fresh.append(trial)
    try:
        with transaction.atomic():
            written = trials_write(trials=fresh)
            if sha256:
                ImportedFile.objects.update_or_create(
                    sha256=sha256,
                    importer=importer_fingerprint(),
                    defaults={"name": name[-500:], "trial_ids": list(dict.fromkeys(t.trial_id for t in parsed.trials))},
                )
            schedule_evidence_indexes(written.case_ids)
    except InvalidTrial as exc:
        reason = "; ".join(exc.error.messages)
        return ImportReport(errors=[ERROR_INVALID.format(name=name, trial=exc.trial_id, reason=reason)])
    except IntegrityError as exc:
        return ImportReport(errors=[ERROR_WRITE.format(name=name, reason=str(exc).strip().splitlines()[0])])
    taken = set(written.slug_taken)
    for trial in fresh:
        outcome = written.outcomes[trial.trial_id]
        if outcome == SKIPPED:
            report.skipped += 1
            reason = SKIP_SLUG_TAKEN.format(slug=trial.slug) if trial.slug in taken else SKIP_UNCHANGED
            report.skip_reasons[reason] += 1
            continue
        setattr(report, outcome, getattr(report, outcome) + 1)
        if not trial.playable:
            report.unplayable[trial.unplayable_reason] += 1
    return report


def _resumed(trial_ids: list[str], *, seen: set[str]) -> ImportReport:
    """A file an earlier run committed: its trials count as unchanged, without reading it."""
    report = ImportReport(files_resumed=1)
    for trial_id in trial_ids:
        if trial_id in seen:
            report.repeats[SEEN_IN_RUN] += 1
            continue
        report.trial_ids.add(trial_id)
        report.trials += 1
        report.skipped += 1
        report.skip_reasons[SKIP_UNCHANGED] += 1
    return report


def _committed_files() -> dict[str, list[str]]:
    """Files recorded by earlier runs of this importer whose cases are all still in the library."""
    recorded = dict(ImportedFile.objects.filter(importer=importer_fingerprint()).values_list("sha256", "trial_ids"))
    if not recorded:
        return {}
    present = set(Case.objects.filter(source=Source.OLDBAILEY).values_list("source_id", flat=True))
    return {sha: ids for sha, ids in recorded.items() if present.issuperset(ids)}


Parsed = ParsedFile | str | None  # the records, an error message, or None for a file already imported


def _parsed_in_order(
    paths: list[Path], *, done: dict[str, list[str]], workers: int
) -> Iterator[tuple[Path, str, Parsed]]:
    """Read each file, skip the committed ones, parse the rest (in worker processes), in order."""
    limit = settings.ANGRY_IMPORT_MAX_BYTES
    pool: Executor | None = ProcessPoolExecutor(workers, mp_context=get_context("spawn")) if workers > 1 else None
    pending: list[tuple[Path, str, Parsed | Future[Parsed]]] = []

    def read(path: Path) -> tuple[Path, str, Parsed | Future[Parsed]]:
        try:
            size = path.stat().st_size
            if size > limit:  # refuse before reading a huge file into memory
                return path, "", _too_large(path, size)
            data = path.read_bytes()
        except OSError as exc:
            return path, "", ERROR_UNREADABLE.format(name=path, reason=exc.strerror or exc)
        sha = hashlib.sha256(data).hexdigest()
        if sha in done:
            return path, sha, None
        if pool is None:
            return path, sha, import_parse.parse_or_error(data, str(path), limit)
        return path, sha, pool.submit(import_parse.parse_or_error, data, str(path), limit)

    def settle(item: tuple[Path, str, Parsed | Future[Parsed]]) -> tuple[Path, str, Parsed]:
        path, sha, result = item
        return path, sha, result.result() if isinstance(result, Future) else result

    try:
        for path in paths:
            pending.append(read(path))
            while len(pending) > 2 * workers:  # a bounded read-ahead keeps every worker busy
                yield settle(pending.pop(0))
        while pending:
            yield settle(pending.pop(0))
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)


def oldbailey_import_paths(
    *,
    paths: Iterable[Path],
    on_file: Callable[[Path, ImportReport], None] | None = None,
    workers: int = 1,
    resume: bool = True,
) -> ImportReport:
    """Import several files, each in its own transaction, carrying on past bad ones.

    ``workers`` > 1 parses in that many worker processes while this one writes, file by file
    in the given order. With ``resume`` a file an earlier run committed (same bytes, same
    importer, its cases all present) is not read again: an interrupted import picks up where
    it stopped. ``on_file`` is called once per file, in order.
    """
    total = ImportReport()
    done = _committed_files() if resume else {}
    for path, sha, parsed in _parsed_in_order(list(paths), done=done, workers=max(1, workers)):
        if parsed is None:
            result = _resumed(done[sha], seen=total.trial_ids)
        elif isinstance(parsed, str):
            result = ImportReport(errors=[parsed])
        else:
            result = oldbailey_write_file(parsed=parsed, seen=frozenset(total.trial_ids), sha256=sha)
        total.add(result)
        if on_file is not None:
            on_file(path, result)
    return total


def _too_large(path: Path, size: int) -> str:
    return ERROR_TOO_LARGE.format(name=path, size=size, limit=settings.ANGRY_IMPORT_MAX_BYTES)


def import_job_create(*, files: list[str], user_id: int | None = None) -> ImportJob:
    """Record an upload (paths already stored under MEDIA_ROOT/imports/) and queue its import."""
    job = ImportJob(files=files, total=len(files), created_by_id=user_id)
    job.full_clean()
    job.save()
    enqueue("cases.import_job_run", job.pk)
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
