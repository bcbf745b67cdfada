"""A school's data, the school's choice: a teacher downloads a class, then deletes it (or one room)
with everything its people wrote, after a page that says what goes; nothing of another class goes."""

from __future__ import annotations

import csv
import io
import json
import zipfile

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.test import Client
from django.urls import reverse

from angryagents.identity import SESSION_FIELD
from deliberation.models import (
    ClassSession,
    ConvictionSnapshot,
    Deliberation,
    Narration,
    RoundStats,
    Seat,
    Turn,
    Vote,
)
from deliberation.rooms import classes, clock, services
from deliberation.rooms.erase_views import MESSAGE_CLASS_DELETED
from deliberation.rooms.services import Credential
from deliberation.services import retention, round_run
from tests.conftest import browser_of

TEACHER = "the-teachers-browser"
OTHER_TEACHER = "the-other-teachers-browser"
ANNA = Credential(session_key="anna-session")
BEN = Credential(session_key="ben-session")
CARLA = Credential(session_key="carla-session")
RECORDS = (Seat, Turn, Vote, ConvictionSnapshot, RoundStats, Narration)


@pytest.fixture(autouse=True)
def text_judge(settings):
    settings.ANGRY_NARRATION = "text"


def _browser(key: str) -> Client:
    client = Client()
    browser_of(client, **{SESSION_FIELD: key})
    return client


def _played_class(robbery, teacher: str, students: list[tuple[Credential, str, str]]) -> ClassSession:  # type: ignore[no-untyped-def]
    """A class of two groups; each student joins a group, speaks on their turn and the jury answers."""
    session = classes.class_create(case=robbery, groups=2, seats=2, teacher_session_key=teacher)
    rooms = list(session.rooms.order_by("pk"))
    for index, (student, name, _words) in enumerate(students):
        services.room_join(code=rooms[index % 2].room_code, credential=student, name=name)
    classes.class_start(class_id=session.pk, empty_too=True)  # a group nobody joined plays on too
    for index, (student, _name, words) in enumerate(students):
        room = rooms[index % 2]
        clock.room_tick(deliberation_id=room.pk)
        services.room_speak(deliberation_id=room.pk, credential=student, content=words, argument_type="logical")
        round_run(deliberation_id=room.pk)
    services.room_call_vote(deliberation_id=rooms[0].pk, session_key=teacher)  # one room reaches its verdict
    return session


def _rows(room_ids: list[int]) -> dict[str, int]:
    counts = {model.__name__: model.objects.filter(deliberation_id__in=room_ids).count() for model in RECORDS}
    counts["Deliberation"] = Deliberation.objects.filter(pk__in=room_ids).count()
    return counts


@pytest.fixture
def two_classes(robbery):  # type: ignore[no-untyped-def]
    mine = _played_class(
        robbery,
        TEACHER,
        [(ANNA, "Anna Ortiz", "the clerk never saw his face, only a coat"), (BEN, "Ben", "why wud he run tho")],
    )
    theirs = _played_class(robbery, OTHER_TEACHER, [(CARLA, "Carla", "the watch was in HIS pocket!!")])
    return mine, theirs


def test_a_class_deleted_by_its_teacher_leaves_no_row_of_its_rooms_and_nothing_of_another_class_goes(two_classes):
    mine, theirs = two_classes
    my_rooms = retention.class_room_ids(mine.pk)
    their_rooms = retention.class_room_ids(theirs.pk)
    before = _rows(my_rooms)
    assert before["Turn"] and before["Seat"] and before["Vote"] and before["RoundStats"] and before["Deliberation"] == 2
    theirs_before = _rows(their_rooms)

    response = _browser(TEACHER).post(reverse("class_delete", args=[mine.public_id]), follow=True)

    assert response.status_code == 200
    assert MESSAGE_CLASS_DELETED.format(name=mine.case.title, rooms=2, s="s") in response.content.decode()
    assert _rows(my_rooms) == dict.fromkeys(before, 0)
    assert not ClassSession.objects.filter(pk=mine.pk).exists()
    assert not Turn.objects.filter(content__contains="the clerk never saw his face").exists()
    assert _rows(their_rooms) == theirs_before and ClassSession.objects.filter(pk=theirs.pk).exists()


def test_the_confirmation_says_what_goes_and_offers_the_download_first(two_classes):
    mine, _theirs = two_classes
    page = _browser(TEACHER).get(reverse("class_delete", args=[mine.public_id]))
    html = page.content.decode()
    gone = retention.contents_of(retention.class_room_ids(mine.pk))

    assert page.status_code == 200
    assert gone.rooms == 2 and gone.people == 2 and gone.people_speeches == 2
    assert f"<strong>{gone.people}</strong> student seats" in html
    assert f"<strong>{gone.people_speeches}</strong> arguments the students made" in html
    assert f"<strong>{gone.turns}</strong> lines of transcript" in html
    assert f"<strong>{gone.votes}</strong> votes" in html
    assert reverse("class_archive", args=[mine.public_id]) in html
    assert Deliberation.objects.filter(pk__in=retention.class_room_ids(mine.pk)).count() == 2  # a GET deletes nothing


def test_the_download_holds_every_rooms_transcript_and_the_students_words(two_classes):
    mine, _theirs = two_classes
    response = _browser(TEACHER).get(reverse("class_archive", args=[mine.public_id]))
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"

    archive = zipfile.ZipFile(io.BytesIO(response.content))
    rooms = list(Deliberation.objects.filter(class_sessions=mine).order_by("pk"))
    names = set(archive.namelist())
    assert {"README.txt", "contributions.csv"} | {
        f"room-{r.room_code}.{ext}" for r in rooms for ext in ("md", "json")
    } == names
    sheet = list(csv.DictReader(io.StringIO(archive.read("contributions.csv").decode())))
    assert [(row["name"], row["text"]) for row in sheet] == [
        ("Anna Ortiz", "the clerk never saw his face, only a coat")
    ]
    unfinished = rooms[1]  # no verdict yet: not in the sheet, but its transcript is in the archive
    assert "why wud he run tho" in archive.read(f"room-{unfinished.room_code}.md").decode()
    record = json.loads(archive.read(f"room-{unfinished.room_code}.json"))
    assert any(t["content"] == "why wud he run tho" for r in record["round_log"] for t in r["turns"])


@pytest.mark.parametrize("who", ["a student", "another teacher", "a stranger"])
def test_only_the_classes_teacher_may_see_download_or_delete_it(two_classes, who):
    mine, _theirs = two_classes
    client = {"a student": _browser(ANNA.session_key), "another teacher": _browser(OTHER_TEACHER)}.get(who, Client())
    for name in ("class_delete", "class_archive"):
        assert client.get(reverse(name, args=[mine.public_id])).status_code == 404
    assert client.post(reverse("class_delete", args=[mine.public_id])).status_code == 404
    assert ClassSession.objects.filter(pk=mine.pk).exists()


def test_a_room_deleted_by_its_host_goes_with_its_rows_and_leaves_the_rest_of_its_class(two_classes):
    mine, _theirs = two_classes
    first, second = retention.class_room_ids(mine.pk)
    code = Deliberation.objects.get(pk=first).room_code
    teacher = _browser(TEACHER)

    confirm = teacher.get(reverse("room_delete", args=[code]))
    assert confirm.status_code == 200 and "Delete room" in confirm.content.decode()
    assert _browser(ANNA.session_key).post(reverse("room_delete", args=[code])).status_code in (403, 404)  # a student
    assert Client().post(reverse("room_delete", args=[code])).status_code == 404  # a stranger
    assert Deliberation.objects.filter(pk=first).exists()

    done = teacher.post(reverse("room_delete", args=[code]))
    assert done.status_code == 302 and done.url == reverse("class_page", args=[mine.public_id])
    assert _rows([first]) == dict.fromkeys(_rows([first]), 0)
    assert list(mine.rooms.values_list("pk", flat=True)) == [second]


def test_the_judges_audio_goes_unless_another_game_still_plays_it(two_classes, django_capture_on_commit_callbacks):
    mine, theirs = two_classes
    room, kept = retention.class_room_ids(mine.pk)[0], retention.class_room_ids(theirs.pk)[0]
    shared = default_storage.save("narration/shared.wav", ContentFile(b"RIFF shared"))
    own = default_storage.save("narration/own.wav", ContentFile(b"RIFF own"))
    piece = default_storage.save("narration/pieces/1-0.wav", ContentFile(b"RIFF piece"))
    Narration.objects.create(deliberation_id=room, text="Members of the jury", audio=shared, cache_key="a")
    Narration.objects.create(
        deliberation_id=room, text="You may retire", audio=own, cache_key="b", pieces=[{"audio": piece}]
    )
    Narration.objects.create(deliberation_id=kept, text="Members of the jury", audio=shared, cache_key="a")

    with django_capture_on_commit_callbacks(execute=True):
        retention.class_erase(class_id=mine.pk)

    assert default_storage.exists(shared)  # the other class's judge still says it
    assert not default_storage.exists(own) and not default_storage.exists(piece)


def test_a_round_under_way_when_its_room_is_deleted_is_discarded(robbery, monkeypatch):
    from deliberation.engine import rounds as engine_rounds
    from deliberation.services import rounds

    session = _played_class(robbery, TEACHER, [(ANNA, "Anna", "the light was bad")])
    room = retention.class_room_ids(session.pk)[1]  # still deliberating (the first reached its verdict)
    real_run = engine_rounds.run_round
    ran = []

    def deleted_meanwhile(state, **kwargs):  # type: ignore[no-untyped-def]
        thinking = real_run(state, **kwargs)  # the round is claimed; the jurors are about to think
        assert Deliberation.objects.get(pk=room).round_status == "running"
        retention.class_erase(class_id=session.pk)  # the teacher deletes the class meanwhile
        ran.append(room)
        return thinking

    monkeypatch.setattr(rounds, "run_round", deleted_meanwhile)
    assert round_run(deliberation_id=room) is False
    assert ran == [room]
    assert not Deliberation.objects.filter(pk=room).exists() and not Turn.objects.filter(deliberation_id=room).exists()
