"""Importing the Old Bailey sample into the case library, the command and the admin upload."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import CommandError, call_command

from cases.models import Case, Defendant, Evidence, ImportJob, ImportStatus, Witness
from cases.services import SEEN_IN_RUN, SKIP_UNCHANGED, oldbailey_import_file, oldbailey_import_paths
from tests.cases.oldbailey_sample import INDEX, SESSIONS, TRIALS, load, trials_in

VERDICT_WORDS = {"guilty": "guilty", "notGuilty": "not_guilty"}
ALL = TRIALS + SESSIONS


def counts() -> tuple[int, int, int, int]:
    return Case.objects.count(), Defendant.objects.count(), Witness.objects.count(), Evidence.objects.count()


@pytest.mark.django_db
def test_every_sample_file_imports_and_matches_the_index():
    report = oldbailey_import_paths(paths=ALL)
    assert report.errors == []
    assert report.imported + report.skipped == report.trials
    for trial_id, row in INDEX.items():
        case = Case.objects.get(source="oldbailey", source_id=trial_id)
        assert case.historical_verdict == VERDICT_WORDS[row["verdict"]]
        assert case.slug == f"ob-{trial_id}"
        assert case.jurisdiction == "London, England (Old Bailey)"
        assert case.playable and case.witnesses.exists() and case.charges


@pytest.mark.django_db
def test_reimporting_unchanged_files_changes_nothing():
    oldbailey_import_paths(paths=ALL)
    before = counts()
    stamps = dict(Case.objects.values_list("source_id", "updated_at"))
    report = oldbailey_import_paths(paths=ALL)
    assert (report.imported, report.updated) == (0, 0)
    assert report.skip_reasons[SKIP_UNCHANGED] == report.trials
    assert counts() == before
    assert dict(Case.objects.values_list("source_id", "updated_at")) == stamps


@pytest.mark.django_db
def test_reimporting_a_changed_trial_updates_it_in_place():
    path = TRIALS[0]
    oldbailey_import_file(data=path.read_bytes(), name=path.name)
    case = Case.objects.get()
    changed = path.read_bytes().replace(b"Herne", b"Hearne", 1)
    report = oldbailey_import_file(data=changed, name=path.name)
    assert (report.imported, report.updated) == (0, 1)
    assert Case.objects.get().pk == case.pk


@pytest.mark.django_db
def test_a_file_that_fails_halfway_leaves_nothing_behind():
    good = TRIALS[0].read_bytes().decode()
    bad = good.replace('id="t17431207-17"', 'id="t09990101-1"').replace('value="1743"', 'value="999"')
    data = f"<TEI.2><text><body><div0>{good}{bad}</div0></body></text></TEI.2>".encode()
    report = oldbailey_import_file(data=data, name="half.xml")
    assert report.errors and report.errors[0].startswith("half.xml: trial t09990101-1")
    assert Case.objects.count() == 0


@pytest.mark.django_db
def test_a_malformed_file_imports_nothing_and_names_the_line():
    data = TRIALS[1].read_bytes().replace(b"</p>", b"</q>", 1)
    report = oldbailey_import_file(data=data, name="broken.xml")
    assert Case.objects.count() == 0
    assert re.match(r"broken\.xml: malformed XML at line \d+", report.errors[0])


@pytest.mark.django_db
def test_guilty_pleas_in_a_session_are_imported_but_not_playable():
    oldbailey_import_paths(paths=SESSIONS)
    pleas = Case.objects.filter(playable=False)
    assert pleas.exists()
    assert Case.objects.filter(playable=True).count() > 0


@pytest.mark.django_db
def test_the_command_reports_totals_on_its_last_line():
    out, err = io.StringIO(), io.StringIO()
    call_command("import_oldbailey", *map(str, TRIALS[:3]), stdout=out, stderr=err)
    assert out.getvalue().strip().splitlines()[-1] == "imported 3, updated 0, skipped 0"
    out = io.StringIO()
    call_command("import_oldbailey", *map(str, TRIALS[:3]), stdout=out, stderr=err)
    lines = out.getvalue().strip().splitlines()
    assert lines[-1] == "imported 0, updated 0, skipped 3"
    assert lines[-2] == f"skipped 3: {SKIP_UNCHANGED}"


@pytest.mark.django_db
def test_a_trial_in_two_files_of_one_run_is_one_case_and_the_summary_says_why():
    ids = [t.get("id") for path in ALL for t in trials_in(load(path))]
    twice = len(ids) - len(set(ids))
    assert twice == 2  # t17440404-29 and t18950225-255 are in trials/ and in their sessions
    out, err = io.StringIO(), io.StringIO()
    call_command("import_oldbailey", str(TRIALS[0].parent), str(SESSIONS[0].parent), stdout=out, stderr=err)
    lines = out.getvalue().strip().splitlines()
    assert lines[-1] == f"imported {len(set(ids))}, updated 0, skipped 0"
    assert f"seen again {twice}: {SEEN_IN_RUN}" in lines
    assert not any(SKIP_UNCHANGED in line for line in lines)
    assert Case.objects.count() == len(set(ids))
    out = io.StringIO()
    call_command("import_oldbailey", str(TRIALS[0].parent), str(SESSIONS[0].parent), stdout=out, stderr=err)
    lines = out.getvalue().strip().splitlines()
    assert lines[-1] == f"imported 0, updated 0, skipped {len(set(ids))}"
    assert f"skipped {len(set(ids))}: {SKIP_UNCHANGED}" in lines


@pytest.mark.django_db
def test_the_command_goes_on_past_a_bad_file_and_exits_non_zero(tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_bytes(b"<div1 type='trialAccount' id='t1-1'><p></div1>")
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_oldbailey", str(bad), str(TRIALS[0]), stdout=out, stderr=err)
    assert out.getvalue().strip().splitlines()[-1] == "imported 1, updated 0, skipped 0"
    assert f"{bad}: malformed XML at line 1" in err.getvalue()


@pytest.mark.django_db
def test_an_oversize_file_is_refused_with_the_limit_in_the_message(settings):
    settings.ANGRY_IMPORT_MAX_BYTES = 1000
    report = oldbailey_import_paths(paths=[TRIALS[0]])
    assert Case.objects.count() == 0
    assert "over the import limit of 1,000 bytes" in report.errors[0]


@pytest.mark.django_db(transaction=True)
def test_the_admin_upload_imports_in_the_background_and_ends_with_a_message(admin_client, settings):
    changelist = admin_client.get("/admin/cases/case/")
    assert b'href="/admin/cases/case/import-oldbailey/"' in changelist.content
    with TRIALS[0].open("rb") as one, TRIALS[1].open("rb") as two:
        response = admin_client.post("/admin/cases/case/import-oldbailey/", {"files": [one, two]})
    assert response.status_code == 302
    job = ImportJob.objects.get()
    assert job.status == ImportStatus.DONE and (job.done, job.total) == (2, 2)
    assert all(name.startswith("imports/") for name in job.files)
    assert not any((settings.MEDIA_ROOT / name).exists() for name in job.files)  # removed once imported
    page = admin_client.get(f"/admin/cases/case/import-oldbailey/{job.pk}/?stay=1")
    assert b"2 of 2" in page.content
    final = admin_client.get(f"/admin/cases/case/import-oldbailey/{job.pk}/", follow=True)
    shown = [str(m) for m in final.context["messages"]]
    assert shown == [
        f"{TRIALS[0].name}: imported 1, updated 0, skipped 0",
        f"{TRIALS[1].name}: imported 1, updated 0, skipped 0",
        "imported 2, updated 0, skipped 0",
    ]
    assert Case.objects.count() == 2


DEEP = b'<div1 type="trialAccount" id="t1-1"><p>' + b"<hi>" * 20000 + b"x" + b"</hi>" * 20000 + b"</p></div1>"


@pytest.mark.django_db
def test_a_deeply_nested_file_gets_its_own_error_and_the_good_files_of_the_batch_still_import(tmp_path):
    deep = tmp_path / "deep.xml"
    deep.write_bytes(DEEP)
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_oldbailey", str(TRIALS[0]), str(deep), str(TRIALS[1]), stdout=out, stderr=err)
    assert out.getvalue().strip().splitlines()[-1] == "imported 2, updated 0, skipped 0"
    assert f"{deep}: elements are nested more than" in err.getvalue()
    assert "Traceback" not in err.getvalue()


@pytest.mark.django_db(transaction=True)
def test_the_admin_job_names_each_uploaded_file_and_never_a_server_path(admin_client, settings, tmp_path):
    deep = tmp_path / "deep.xml"
    deep.write_bytes(DEEP)
    with TRIALS[0].open("rb") as good, deep.open("rb") as bad:
        admin_client.post("/admin/cases/case/import-oldbailey/", {"files": [good, bad]})
    job = ImportJob.objects.get()
    assert job.status == ImportStatus.DONE and Case.objects.count() == 1
    final = admin_client.get(f"/admin/cases/case/import-oldbailey/{job.pk}/", follow=True)
    shown = [(m.level_tag, str(m)) for m in final.context["messages"]]
    assert shown[0] == ("success", f"{TRIALS[0].name}: imported 1, updated 0, skipped 0")
    assert shown[1][0] == "error" and shown[1][1].startswith("deep.xml: elements are nested more than")
    assert not any(str(settings.MEDIA_ROOT) in text or "/imports/" in text for _, text in shown)
    assert not any((settings.MEDIA_ROOT / name).exists() for name in job.files)
