"""Importing a large library: files committed by an earlier run are not read again, and the
results do not depend on how many worker processes parse."""

from __future__ import annotations

import pytest

from cases import import_parse, services
from cases.casefile import case_file
from cases.models import Case, ImportedFile
from cases.services import RESUMED, SKIP_UNCHANGED, oldbailey_import_paths
from tests.cases.oldbailey_sample import SESSIONS, TRIALS

pytestmark = pytest.mark.django_db


def _refuse_to_parse(*args, **kwargs):  # type: ignore[no-untyped-def]
    raise AssertionError("a committed file was parsed again")


def test_a_second_run_skips_the_files_the_first_one_committed(monkeypatch):
    first = oldbailey_import_paths(paths=TRIALS[:5])
    assert ImportedFile.objects.count() == 5
    monkeypatch.setattr(import_parse, "parse_or_error", _refuse_to_parse)
    report = oldbailey_import_paths(paths=TRIALS[:5])
    assert report.files_resumed == 5
    assert report.lines()[0] == RESUMED.format(n=5)
    assert report.skip_reasons[SKIP_UNCHANGED] == report.trials == first.imported
    assert report.last_line() == "imported 0, updated 0, skipped 5"


def test_a_run_resumes_past_committed_files_and_imports_the_rest():
    oldbailey_import_paths(paths=TRIALS[:3])
    report = oldbailey_import_paths(paths=TRIALS[:8])
    assert (report.files_resumed, report.imported, report.skipped) == (3, 5, 3)
    assert Case.objects.count() == 8


def test_a_file_whose_case_was_deleted_is_read_again():
    oldbailey_import_paths(paths=TRIALS[:2])
    Case.objects.filter(source_id=TRIALS[0].stem).delete()
    report = oldbailey_import_paths(paths=TRIALS[:2])
    assert (report.files_resumed, report.imported) == (1, 1)


def test_a_changed_importer_reads_every_file_again(monkeypatch):
    oldbailey_import_paths(paths=TRIALS[:2])
    monkeypatch.setattr(services, "importer_fingerprint", lambda: "another version of the importer")
    report = oldbailey_import_paths(paths=TRIALS[:2])
    assert report.files_resumed == 0
    assert report.skip_reasons[SKIP_UNCHANGED] == 2


def test_without_resume_every_file_is_read_again():
    oldbailey_import_paths(paths=TRIALS[:2])
    report = oldbailey_import_paths(paths=TRIALS[:2], resume=False)
    assert report.files_resumed == 0 and report.skip_reasons[SKIP_UNCHANGED] == 2


def test_parsing_in_worker_processes_gives_the_same_library_as_parsing_in_one():
    def library() -> list[tuple[object, ...]]:
        return list(
            Case.objects.order_by("source_id").values_list(
                "source_id", "title", "summary", "historical_verdict", "playable", "original_text"
            )
        )

    one = oldbailey_import_paths(paths=[*SESSIONS, *TRIALS[:6]], resume=False)
    alone = library()
    Case.objects.all().delete()
    two = oldbailey_import_paths(paths=[*SESSIONS, *TRIALS[:6]], workers=2, resume=False)
    assert (two.imported, two.repeats) == (one.imported, one.repeats)
    assert library() == alone


def test_every_imported_trial_keeps_its_record_and_link_but_the_jury_never_sees_them():
    oldbailey_import_paths(paths=[t for t in TRIALS if t.stem == "t18600402-389"])
    case = Case.objects.get(source_id="t18600402-389")
    assert case.record_url == "https://www.oldbaileyonline.org/record/t18600402-389"
    assert "NOT GUILTY" in case.original_text
    assert "NOT GUILTY" not in repr(case_file(case))
