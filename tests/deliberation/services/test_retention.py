"""What a school keeps for ANGRY_RETENTION_DAYS, and no longer: the sweep deletes games, rooms and
classes untouched for longer with everything their people wrote, uploads no import needs, expired
sessions and spent login lockouts, and nothing younger (angryagents/retention.py)."""

from __future__ import annotations

import os
import time
from datetime import timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.utils import timezone

from angryagents.retention import sweep
from cases.models import ImportJob, ImportStatus
from cases.uploads import STUCK_SUMMARY, UPLOAD_DIR, uploads_sweep
from deliberation.models import ClassSession, Deliberation, Experiment, Seat, Turn
from deliberation.rooms import classes
from tests.deliberation.review.conftest import write_deliberation

DAYS = 30


@pytest.fixture(autouse=True)
def _kept_for(settings):
    settings.ANGRY_RETENTION_DAYS = DAYS


def _aged(deliberation: Deliberation, days: float) -> Deliberation:
    """Make a game as old as ``days``: made, started, finished and every line said back then."""
    then = timezone.now() - timedelta(days=days)
    Deliberation.objects.filter(pk=deliberation.pk).update(created_at=then, started_at=then, finished_at=then)
    Turn.objects.filter(deliberation=deliberation).update(created_at=then)
    return deliberation


def _alive(*games: Deliberation) -> list[bool]:
    return [Deliberation.objects.filter(pk=g.pk).exists() for g in games]


@pytest.mark.django_db
def test_games_untouched_longer_than_the_setting_go_with_everything_in_them_and_younger_ones_stay():
    old = _aged(write_deliberation(rounds=3, participants=2, host_session_key="a-browser"), DAYS + 1)
    abandoned = _aged(write_deliberation(rounds=2, verdict="", host_session_key="b-browser"), DAYS + 5)
    young = _aged(write_deliberation(rounds=3, host_session_key="c-browser"), DAYS - 1)
    old_but_spoken_in_yesterday = _aged(write_deliberation(rounds=2, verdict="", host_session_key="d"), DAYS + 9)
    Turn.objects.filter(deliberation=old_but_spoken_in_yesterday, round_number=2).update(
        created_at=timezone.now() - timedelta(days=1)
    )
    experiment = Experiment.objects.create(name="Old study", case_selector="source=curated", runs_per_case=1)
    research = _aged(write_deliberation(rounds=2, experiment=experiment), DAYS + 40)

    gone = sweep()

    assert gone["deliberations"] == 2
    assert _alive(old, abandoned, young, old_but_spoken_in_yesterday, research) == [False, False, True, True, True]
    assert not Seat.objects.filter(deliberation_id__in=[old.pk, abandoned.pk]).exists()
    assert not Turn.objects.filter(deliberation_id__in=[old.pk, abandoned.pk]).exists()


@pytest.mark.django_db
def test_a_class_goes_with_its_rooms_once_none_of_them_moved_for_the_setting(robbery):
    quiet = classes.class_create(case=robbery, groups=2, seats=2, teacher_session_key="t1")
    busy = classes.class_create(case=robbery, groups=2, seats=2, teacher_session_key="t2")
    then = timezone.now() - timedelta(days=DAYS + 2)
    ClassSession.objects.filter(pk__in=[quiet.pk, busy.pk]).update(created_at=then)
    for session in (quiet, busy):
        for room in session.rooms.all():
            _aged(room, DAYS + 2)
    Deliberation.objects.filter(pk=busy.rooms.first().pk).update(started_at=timezone.now())  # a group plays on
    quiet_rooms = list(quiet.rooms.values_list("pk", flat=True))

    gone = sweep()

    assert gone["classes"] == 1 and gone["deliberations"] == 2
    assert not ClassSession.objects.filter(pk=quiet.pk).exists()
    assert not Deliberation.objects.filter(pk__in=quiet_rooms).exists()
    assert ClassSession.objects.filter(pk=busy.pk).exists() and busy.rooms.count() == 2  # kept whole


@pytest.mark.django_db
def test_zero_days_keeps_every_game(settings):
    settings.ANGRY_RETENTION_DAYS = 0
    ancient = _aged(write_deliberation(rounds=2, host_session_key="x"), 3650)
    assert sweep()["deliberations"] == 0 and _alive(ancient) == [True]


def _upload(root: Path, name: str, *, minutes_old: float) -> str:
    path = root / UPLOAD_DIR / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("<TEI.2/>")
    stamp = time.time() - minutes_old * 60
    os.utime(path, (stamp, stamp))
    return f"{UPLOAD_DIR}/{name}"


@pytest.mark.django_db
def test_uploads_never_outlive_their_import(settings):
    root = Path(settings.MEDIA_ROOT)
    waiting = _upload(root, "aaaaaaaaaaaa-t1.xml", minutes_old=30)
    ImportJob.objects.create(files=[waiting], total=1)  # queued a moment ago: its file is needed
    stuck_file = _upload(root, "bbbbbbbbbbbb-t2.xml", minutes_old=60 * 30)
    stuck = ImportJob.objects.create(files=[stuck_file], total=1, status=ImportStatus.RUNNING)
    ImportJob.objects.filter(pk=stuck.pk).update(created_at=timezone.now() - timedelta(days=2))  # its worker died
    orphan = _upload(root, "cccccccccccc-t3.xml", minutes_old=30)  # the upload stopped before its job
    just_stored = _upload(root, "dddddddddddd-t4.xml", minutes_old=1)  # its job is being recorded

    assert uploads_sweep() == 2

    assert sorted(p.name for p in (root / UPLOAD_DIR).iterdir()) == [Path(waiting).name, Path(just_stored).name]
    stuck.refresh_from_db()
    assert stuck.status == ImportStatus.FAILED and stuck.summary == STUCK_SUMMARY and stuck.finished_at
    assert not (root / orphan).exists()


@pytest.mark.django_db
def test_expired_sessions_go_and_live_ones_stay():
    expired, live = SessionStore(), SessionStore()
    for store in (expired, live):
        store["angry_browser"] = "a-key"
        store.save()
    Session.objects.filter(session_key=expired.session_key).update(expire_date=timezone.now() - timedelta(seconds=1))

    assert sweep()["sessions"] == 1
    assert list(Session.objects.values_list("session_key", flat=True)) == [live.session_key]


@pytest.mark.django_db
def test_the_command_runs_one_sweep_and_says_what_went():
    _aged(write_deliberation(rounds=2, host_session_key="x"), DAYS + 1)
    out = StringIO()
    call_command("retention_sweep", stdout=out)
    assert out.getvalue().splitlines() == [
        f"Games and classes are kept for {DAYS} days.",
        "Deleted 0 class(es), 1 game(s) and room(s), 0 upload(s), 0 expired session(s), 0 spent login lockout(s).",
    ]
