"""A room's requests read the engine state's small summary, never the whole state (BENCHMARKS.md:
the state is mostly the jurors' memories and grows every round)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from angryagents.identity import SESSION_FIELD
from deliberation.engine.summary import summary_of
from deliberation.models import Deliberation
from deliberation.rooms import clock, services
from deliberation.rooms.services import Credential

HOST = "teacher-session"
ANNA = Credential(session_key="anna")
STATE_COLUMN = '"engine_state"'


def client_of(key: str) -> Client:
    client = Client()
    session = client.session
    session[SESSION_FIELD] = key
    session.save()
    return client


@contextmanager
def state_queries() -> Iterator[list[str]]:
    """The SQL of every query that names the engine state (a wrapper: a request's start empties
    Django's own query log)."""
    found: list[str] = []

    def wrapper(execute: Callable, sql: str, *rest: object) -> object:  # type: ignore[type-arg]
        if STATE_COLUMN in sql:
            found.append(sql)
        return execute(sql, *rest)

    with connection.execute_wrapper(wrapper):
        yield found


@pytest.fixture
def room(robbery, settings, django_capture_on_commit_callbacks) -> Deliberation:
    """A room after the AI jurors' first round, Anna in seat 2 with the floor."""
    settings.ANGRY_TURN_SECONDS = 60
    with django_capture_on_commit_callbacks(execute=True):
        room = services.room_create(case=robbery, host_session_key=HOST, host_plays=False, open_seats=(2, 3), seed=5)
        services.room_join(code=room.room_code, credential=ANNA, preferred_seat=2)
        services.room_start(deliberation_id=room.pk, session_key=HOST)
        clock.room_tick(deliberation_id=room.pk, now=timezone.now() + timedelta(seconds=5))
    room.refresh_from_db()
    assert room.round_number >= 1
    return room


def test_every_save_of_the_engine_state_saves_its_summary(room, django_capture_on_commit_callbacks):
    assert room.engine_summary == summary_of(room.engine_state) and "memories" in room.engine_state
    with django_capture_on_commit_callbacks(execute=True):  # vote_cast saves update_fields=["engine_state"]
        services.room_vote(deliberation_id=room.pk, credential=ANNA, value="guilty")
    room.refresh_from_db()
    assert 2 in room.engine_summary["own_votes"]
    assert room.engine_summary == summary_of(room.engine_state)


def test_a_row_loaded_without_its_state_saves_without_loading_it(room):
    light = Deliberation.objects.defer("engine_state").get(pk=room.pk)
    with state_queries() as found:
        light.save(update_fields=["settings"])
        light.save()
    assert found == []
    room.refresh_from_db()
    assert room.engine_summary == summary_of(room.engine_state)


def test_the_rooms_pages_and_controls_never_load_the_engine_state(room):
    anna, teacher = client_of(ANNA.session_key), client_of(HOST)
    code = room.room_code
    with state_queries() as found:
        pages = [
            anna.get(reverse("room_controls", args=[code]), HTTP_HX_REQUEST="true"),
            anna.get(reverse("room", args=[code])),
            teacher.get(reverse("room_teacher", args=[code]), HTTP_HX_REQUEST="true"),
            teacher.get(reverse("room_teacher", args=[code])),
        ]
    assert [page.status_code for page in pages] == [200, 200, 200, 200]
    assert found == []


def test_a_vote_loads_the_engine_state_once_to_change_it(room, django_capture_on_commit_callbacks):
    anna = client_of(ANNA.session_key)
    with state_queries() as found, django_capture_on_commit_callbacks(execute=True):  # its broadcast included
        answer = anna.post(reverse("room_vote", args=[room.room_code]), {"vote": "guilty"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and b"Your vote is in." in answer.content
    loads = [sql for sql in found if sql.lstrip().upper().startswith("SELECT")]
    writes = [sql for sql in found if sql.lstrip().upper().startswith("UPDATE")]
    assert len(loads) == 1  # vote_cast's, under its lock
    if connection.features.has_select_for_update:  # PostgreSQL (SQLite locks the whole database)
        assert "FOR UPDATE" in loads[0].upper()
    assert len(writes) == 1


def test_the_migration_gives_existing_deliberations_their_summary(room):
    Deliberation.objects.filter(pk=room.pk).update(engine_summary={})
    migration = importlib.import_module("deliberation.migrations.0015_engine_summary")
    migration.fill_summaries(apps, None)
    room.refresh_from_db()
    assert room.engine_summary == summary_of(room.engine_state) != {}
