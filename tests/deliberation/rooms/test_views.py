"""Room pages through Django's test client: hosting, joining by code, and the host's rights."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from deliberation.models import Deliberation, Phase, SeatKind
from deliberation.rooms import clock, services


def messages_of(response) -> list[str]:  # type: ignore[no-untyped-def]
    return [str(m) for m in response.context["messages"]]


@pytest.fixture
def teacher() -> Client:
    return Client()


@pytest.fixture
def code(robbery, teacher) -> str:
    response = teacher.post(
        reverse("room_new"), {"case": robbery.pk, "open_seats": ["2", "3"], "show_convictions": "on"}
    )
    room = Deliberation.objects.get(room_code__isnull=False)
    assert response.status_code == 302 and response.url == reverse("room", args=[room.room_code])
    assert room.host_plays is False and room.host_session_key == teacher.session.session_key
    return room.room_code


def join(code: str, seat: int, name: str) -> Client:
    student = Client()
    response = student.post(reverse("room_join_code", args=[code]), {"seat": seat, "name": name})
    assert response.status_code == 302
    return student


def test_a_student_finds_a_room_by_code_and_takes_a_seat(code):
    student = Client()
    found = student.post(reverse("room_join"), {"code": code.lower()})
    assert found.url == reverse("room_join_code", args=[code])
    page = student.get(found.url)
    assert b"Seat 2" in page.content and b"Seat 3" in page.content
    student.post(found.url, {"seat": "3", "name": "Cleo"})
    seat = Deliberation.objects.get(room_code=code).seats.get(number=3)
    assert seat.kind == SeatKind.HUMAN and seat.display_name == "Cleo"
    assert seat.session_key == student.session.session_key
    room = student.get(reverse("room", args=[code]))
    assert b"Your turn: speak, pass or vote" in room.content


def test_a_wrong_code_says_so(db):
    response = Client().post(reverse("room_join"), {"code": "QQQQQQ"}, follow=True)
    assert services.ERROR_ROOM_UNKNOWN.format(code="QQQQQQ") in messages_of(response)


def test_a_full_room_says_so_on_its_join_page(code):
    join(code, 2, "A")
    join(code, 3, "B")
    page = Client().get(reverse("room_join_code", args=[code]))
    assert services.ERROR_ROOM_FULL.encode() in page.content


def test_a_student_cannot_start_or_call_the_final_vote_but_the_teacher_can(code, teacher):
    anna = join(code, 2, "Anna")
    refused = anna.post(reverse("room_start", args=[code]), follow=True)
    assert services.ERROR_NOT_HOST.format(action="start the deliberation") in messages_of(refused)
    teacher.post(reverse("room_start", args=[code]))
    room = Deliberation.objects.get(room_code=code)
    clock.room_tick(deliberation_id=room.pk)
    refused = anna.post(reverse("room_call", args=[code]), follow=True)
    assert services.ERROR_NOT_HOST.format(action="call the final vote") in messages_of(refused)
    room.refresh_from_db()
    assert room.phase == Phase.DELIBERATION
    teacher.post(reverse("room_call", args=[code]))
    room.refresh_from_db()
    assert room.phase == Phase.VERDICT


def test_a_student_speaks_on_their_turn_and_not_for_another_seat(code, teacher):
    anna, ben = join(code, 2, "Anna"), join(code, 3, "Ben")
    teacher.post(reverse("room_start", args=[code]))
    room = Deliberation.objects.get(room_code=code)
    clock.room_tick(deliberation_id=room.pk)
    early = ben.post(
        reverse("room_speak", args=[code]), {"content": "Me first", "argument_type": "logical"}, follow=True
    )
    assert any(m.startswith("It is not your turn.") for m in messages_of(early))
    for_anna = ben.post(reverse("room_pass", args=[code]), {"seat": "2"}, follow=True)
    assert services.ERROR_OTHER_SEAT.format(own=3, seat=2) in messages_of(for_anna)
    spoke = anna.post(
        reverse("room_speak", args=[code]),
        {"seat": "2", "content": "He had no reason to rob that shop.", "argument_type": "moral"},
        follow=True,
    )
    assert "Your argument is in; the jury hears it in the next round." in messages_of(spoke)
    room.refresh_from_db()
    assert room.pending[-1]["content"] == "He had no reason to rob that shop."


def test_the_teachers_view_is_the_hosts_alone(code, teacher):
    join(code, 2, "Anna")
    assert Client().get(reverse("room_teacher", args=[code])).status_code == 403
    page = teacher.get(reverse("room_teacher", args=[code]))
    assert page.status_code == 200 and b"Anna" in page.content
    room = Deliberation.objects.get(room_code=code)
    assert reverse("review:transcript", args=[room.pk]).encode() in page.content
