"""A teacher who is logged in owns what they make: their rooms and classes open, and answer to
their host controls, in any browser where they log in; a not-logged-in teacher keeps the host key
of their browser; anyone else still gets a plain 404."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from deliberation.models import ClassSession, Deliberation, Phase
from deliberation.rooms import clock
from deliberation.rooms.state import room_of

PASSWORD = "pw-of-the-teacher"


@pytest.fixture(autouse=True)
def text_judge(settings):
    settings.ANGRY_NARRATION = "text"


@pytest.fixture
def account(db):  # type: ignore[no-untyped-def]
    return get_user_model().objects.create_user("ms-okafor", password=PASSWORD)


def _logged_in(account) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    response = client.post(reverse("teacher_login"), {"username": account.get_username(), "password": PASSWORD})
    assert response.status_code == 302, response.content  # the teacher's login page, as a teacher logs in
    return client


def _room_made_by(client: Client, robbery, seed: str = "") -> Deliberation:  # type: ignore[no-untyped-def]
    response = client.post(
        reverse("room_new"), {"case": robbery.pk, "open_seats": ["2", "3"], "show_convictions": "on", "seed": seed}
    )
    assert response.status_code == 302
    return Deliberation.objects.filter(room_code__isnull=False).latest("pk")


def test_a_room_made_while_logged_in_belongs_to_the_account_and_opens_in_its_other_browsers(robbery, account):
    laptop = _logged_in(account)
    room = _room_made_by(laptop, robbery)
    assert room.owner_id == account.pk
    phone = _logged_in(account)  # the same teacher, another device: another browser key
    mine = phone.get(reverse("my_rooms")).content.decode()
    assert room.room_code in mine
    for name in ("room", "room_teacher"):
        assert phone.get(reverse(name, args=[room.room_code])).status_code == 200, name
    teacher_view = phone.get(reverse("room_teacher", args=[room.room_code])).content.decode()
    assert "Start the deliberation" in teacher_view  # the host's controls, not a watcher's page


def test_the_account_starts_pauses_and_resumes_its_room_from_another_browser(robbery, account):
    # A seed whose first AI round leaves the clear robbery undecided: the room is still deliberating
    # when the account pauses it (on some seeds an all-AI jury returns its verdict in round 1).
    room = _room_made_by(_logged_in(account), robbery, seed="3")
    phone = _logged_in(account)
    phone.post(reverse("room_start", args=[room.room_code]))
    clock.room_tick(deliberation_id=room.pk)
    room.refresh_from_db()
    assert room.phase == Phase.DELIBERATION
    response = phone.post(reverse("room_pause", args=[room.room_code]), {"back": "teacher"}, follow=True)
    assert response.status_code == 200 and "Resume" in response.content.decode()
    room.refresh_from_db()
    assert room_of(room).get("paused")
    phone.post(reverse("room_resume", args=[room.room_code]))
    room.refresh_from_db()
    assert not room_of(room).get("paused")


def test_another_account_and_a_logged_out_browser_get_the_same_404_as_for_no_room(robbery, account):
    room = _room_made_by(_logged_in(account), robbery)
    other = get_user_model().objects.create_user("someone-else", password=PASSWORD)
    for outsider in (_logged_in(other), Client()):
        for name in ("room", "room_teacher"):
            seen = outsider.get(reverse(name, args=[room.room_code]))
            unknown = outsider.get(reverse(name, args=["QQQQQQ"]))
            assert (seen.status_code, seen.content) == (404, unknown.content)
        assert outsider.post(reverse("room_pause", args=[room.room_code])).status_code == 404
        assert room.room_code not in outsider.get(reverse("my_rooms")).content.decode()


def test_a_room_made_without_logging_in_stays_with_its_browser_alone(robbery, account):
    anonymous = Client()
    room = _room_made_by(anonymous, robbery)
    assert room.owner_id is None
    assert anonymous.get(reverse("room_teacher", args=[room.room_code])).status_code == 200
    assert _logged_in(account).get(reverse("room_teacher", args=[room.room_code])).status_code == 404


def test_a_class_made_while_logged_in_gives_its_rooms_to_the_account_too(robbery, account):
    laptop = _logged_in(account)
    # seeded: an AI-only group drawn at random sometimes reaches its verdict in the first round
    response = laptop.post(reverse("class_new"), {"case": robbery.pk, "groups": 2, "seats": 2, "seed": 0})
    assert response.status_code == 302
    session = ClassSession.objects.get()
    rooms = list(session.rooms.order_by("pk"))
    assert session.owner_id == account.pk and {r.owner_id for r in rooms} == {account.pk}
    phone = _logged_in(account)
    assert phone.get(reverse("class_page", args=[session.public_id])).status_code == 200
    for room in rooms:
        assert phone.get(reverse("room_teacher", args=[room.room_code])).status_code == 200
    phone.post(reverse("class_start", args=[session.public_id]), {"empty": "1"})
    first = rooms[0]
    clock.room_tick(deliberation_id=first.pk)
    first.refresh_from_db()
    assert first.phase == Phase.DELIBERATION
    phone.post(reverse("room_pause", args=[first.room_code]))
    first.refresh_from_db()
    assert room_of(first).get("paused")


def test_a_teacher_logs_in_on_the_teachers_page_and_logging_out_leaves_the_browser_its_rooms(robbery, account):
    laptop = Client()
    assert "log in" in laptop.get(reverse("my_rooms")).content.decode()
    page = laptop.post(reverse("teacher_login"), {"username": "ms-okafor", "password": PASSWORD})
    assert page.status_code == 302 and page.url == reverse("my_rooms")
    room = _room_made_by(laptop, robbery)
    assert room.owner_id == account.pk and room.host_session_key
    left = laptop.post(reverse("teacher_logout"), follow=True).content.decode()
    assert "You are logged out" in left and room.room_code in left  # this browser still hosts it
    assert laptop.get(reverse("room_teacher", args=[room.room_code])).status_code == 200
    onwards = Client().post(
        reverse("teacher_login"), {"username": "ms-okafor", "password": PASSWORD, "next": reverse("class_new")}
    )
    assert onwards.url == reverse("class_new")  # "log in first" on the class form comes back to it
    assert "Logged in as <strong>ms-okafor</strong>" in onwards.client.get(reverse("class_new")).content.decode()
    assert "log in</a> first" in laptop.get(reverse("class_new")).content.decode()  # logged out again
    wrong = Client().post(reverse("teacher_login"), {"username": "ms-okafor", "password": "nope"})
    assert wrong.status_code == 200 and 'role="alert"' in wrong.content.decode()
