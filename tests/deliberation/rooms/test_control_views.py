"""The host's controls and the seat code through Django's test client: the host acts, a student is
refused (403), a stranger finds nothing (404); a student returns to their seat from another browser."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from angryagents.identity import SESSION_FIELD
from deliberation.models import Deliberation, TurnKind
from deliberation.rooms import clock, control, control_views, services, throttle, views
from deliberation.rooms.words import ERROR_FILTERED
from tests.conftest import socket_headers

HOST_CONTROLS = ["room_pause", "room_resume", "room_extend", "room_skip", "room_hide", "room_call", "room_discharge"]


@pytest.fixture
def teacher() -> Client:
    return Client()


@pytest.fixture
def running(robbery, teacher, settings) -> tuple[str, Client]:
    """A started room whose first AI round ran: Anna (seat 2, her browser returned) has the floor."""
    settings.ANGRY_NARRATION = "text"
    teacher.post(reverse("room_new"), {"case": robbery.pk, "open_seats": ["2", "3"], "show_convictions": "on"})
    code = Deliberation.objects.get(room_code__isnull=False).room_code
    anna = Client()
    anna.post(reverse("room_join_code", args=[code]), {"seat": 2, "name": "Anna"})
    teacher.post(reverse("room_start", args=[code]))
    clock.room_tick(deliberation_id=Deliberation.objects.get(room_code=code).pk)
    return code, anna


def room_of_code(code: str) -> Deliberation:
    return Deliberation.objects.get(room_code=code)


def test_the_host_pauses_gives_time_skips_and_resumes_from_the_room_page(running, teacher):
    code, _anna = running
    page = teacher.get(reverse("room", args=[code])).content.decode()
    shown = re.sub(r"<[^>]+>", "", page)
    assert 'id="host-pause"' in page and "+30 s for seat 2" in shown and "Skip seat 2" in shown
    paused = teacher.post(reverse("room_pause", args=[code]), headers={"HX-Request": "true"}).content.decode()
    assert control_views.MESSAGE_PAUSED in paused and 'id="host-resume"' in paused
    assert "The host has paused the room." in teacher.get(reverse("room", args=[code])).content.decode()
    teacher.post(reverse("room_extend", args=[code]), {"seconds": "30"})
    teacher.post(reverse("room_resume", args=[code]))
    teacher.post(reverse("room_skip", args=[code]))
    room = room_of_code(code)
    assert room.turns.filter(kind=TurnKind.PASS, content=control.SKIP_LINE.format(name="Anna")).exists()
    assert "paused" not in room.settings["room"]


def test_the_teachers_view_carries_the_host_controls_and_comes_back_to_itself(running, teacher):
    code, _anna = running
    view = teacher.get(reverse("room_teacher", args=[code])).content.decode()
    assert 'id="host-controls"' in view and 'name="back" value="teacher"' in view
    back = teacher.post(reverse("room_pause", args=[code]), {"back": "teacher"})
    assert back.url == reverse("room_teacher", args=[code])


@pytest.mark.parametrize("name", HOST_CONTROLS)
def test_a_student_posting_a_host_control_is_refused_and_a_stranger_finds_nothing(running, name):
    code, anna = running
    assert anna.post(reverse(name, args=[code]), {"turn": "1"}).status_code == 403
    assert Client().post(reverse(name, args=[code]), {"turn": "1"}).status_code == 404
    assert "paused" not in room_of_code(code).settings["room"]


def test_the_host_hides_a_students_message_from_the_room_page_and_the_transcript(running, teacher):
    code, anna = running
    words = "A message the teacher will hide."
    anna.post(reverse("room_speak", args=[code]), {"content": words, "argument_type": "logical"})
    turn = room_of_code(code).turns.get(content=words)
    assert words in anna.get(reverse("room", args=[code])).content.decode()
    teacher.post(reverse("room_hide", args=[code]), {"turn": str(turn.pk)})
    assert words not in anna.get(reverse("room", args=[code])).content.decode()
    public_id = room_of_code(code).public_id
    assert words not in anna.get(reverse("review:transcript", args=[public_id])).content.decode()
    hosts = teacher.get(reverse("review:transcript", args=[public_id])).content.decode()
    assert words in hosts and "hidden by the host" in hosts


def test_a_filtered_word_is_refused_with_the_text_kept_in_the_box(running, settings):
    settings.ANGRY_WORD_FILTER = ("blast",)
    code, anna = running
    words = "Blast this lineup, it proves nothing."
    answer = anna.post(
        reverse("room_speak", args=[code]),
        {"content": words, "argument_type": "logical"},
        headers={"HX-Request": "true"},
    ).content.decode()
    assert escape(ERROR_FILTERED.format(words="the word “blast”")) in answer
    assert f">{words}</textarea>" in answer
    assert not room_of_code(code).turns.filter(content=words).exists()


def test_a_student_sees_their_seat_code_and_returns_to_the_seat_from_another_browser(running):
    code, anna = running
    seat_code = room_of_code(code).seats.get(number=2).seat_code
    shown = f"{seat_code[:5]}-{seat_code[5:]}"
    assert shown in anna.get(reverse("room", args=[code])).content.decode()
    phone = Client()
    back = phone.post(reverse("room_join"), {"code": shown}, follow=True)
    assert views.MESSAGE_SEAT_BACK.format(seat=2) in [str(m) for m in back.context["messages"]]
    assert room_of_code(code).seats.get(number=2).session_key == phone.session[SESSION_FIELD]
    assert anna.get(reverse("room", args=[code])).status_code == 404  # the old browser lost the seat


def test_a_seat_code_on_a_get_moves_nothing(running):
    code, _anna = running
    seat_code = room_of_code(code).seats.get(number=2).seat_code
    Client().get(reverse("room_join"), {"code": seat_code})
    assert room_of_code(code).seats.get(number=2).seat_code == seat_code


def test_wrong_seat_codes_are_throttled_like_room_codes(running, settings):
    settings.ANGRY_THROTTLE_WRONG_CODES = 3
    guesser = Client()
    for _ in range(3):
        guesser.post(reverse("room_join"), {"code": "QQQQQ-QQQQQ"})
    refused = guesser.post(reverse("room_join"), {"code": "QQQQQ-QQQQQ"})
    assert refused.status_code == 429
    assert throttle.ERROR_THROTTLED.split("{")[0] in refused.content.decode()


def test_an_away_student_says_they_are_back(running):
    code, anna = running
    room = room_of_code(code)
    anna.post(reverse("room_vote", args=[code]), {"vote": "not_guilty"})
    clock.room_tick(deliberation_id=room.pk, now=timezone.now() + timedelta(seconds=3600))
    page = anna.get(reverse("room", args=[code])).content.decode()
    assert "AI juror is speaking for it until you come back" in page
    assert 'It never votes for you. Your vote stays yours: <strong id="your-vote">not guilty</strong>' in page
    anna.post(reverse("room_back", args=[code]))
    assert room_of_code(code).seats.get(number=2).away_since is None


# --- Sockets ---------------------------------------------------------------------------------------------


def _room_with_anna_speaking(robbery_slug: str = "kessler-market-robbery") -> tuple[int, str, int, str]:
    from django.core.management import call_command

    from cases.models import Case
    from deliberation.rooms.services import Credential

    call_command("load_cases", stdout=open("/dev/null", "w"))
    case = Case.objects.get(slug=robbery_slug)
    room = services.room_create(case=case, host_session_key="teacher", host_plays=False, open_seats=(2,), seed=3)
    services.room_join(code=room.room_code, credential=Credential(session_key="anna"), name="Anna")
    services.room_start(deliberation_id=room.pk, session_key="teacher")
    clock.room_tick(deliberation_id=room.pk)
    services.room_speak(deliberation_id=room.pk, credential=Credential(session_key="anna"), content="Rude words.")
    turn = room.turns.get(content="Rude words.")
    return room.pk, room.public_id, turn.pk, room.seats.get(number=2).seat_code


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
@pytest.mark.django_db(transaction=True)
async def test_a_hidden_message_leaves_every_open_screen_at_once(settings):
    settings.ANGRY_NARRATION = "text"
    pk, public_id, turn_id, _code = await sync_to_async(_room_with_anna_speaking)()
    from angryagents.asgi import application

    socket = WebsocketCommunicator(
        application, f"/ws/court/{public_id}/", headers=await sync_to_async(socket_headers)("anna")
    )
    try:
        assert (await socket.connect())[0]
        await sync_to_async(control.message_hide)(deliberation_id=pk, session_key="teacher", turn_id=turn_id)
        pushed = await socket.receive_from(timeout=5)
        assert f'<li id="turn-{turn_id}" hx-swap-oob="delete"></li>' in pushed
    finally:
        await socket.disconnect()


@pytest.mark.anyio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("how", ["taken back elsewhere", "removed by the host"])
async def test_the_old_browsers_socket_closes_when_it_loses_its_seat(settings, how):
    settings.ANGRY_NARRATION = "text"
    from angryagents.asgi import application
    from deliberation.consumers import CLOSE_SEAT_LOST
    from deliberation.rooms.services import Credential

    pk, public_id, _turn, seat_code = await sync_to_async(_room_with_anna_speaking)()
    old = WebsocketCommunicator(
        application, f"/ws/court/{public_id}/", headers=await sync_to_async(socket_headers)("anna")
    )
    try:
        assert (await old.connect())[0]
        if how == "removed by the host":
            await sync_to_async(services.room_remove)(deliberation_id=pk, session_key="teacher", seat_number=2)
        else:
            await sync_to_async(control.seat_rejoin)(code=seat_code, credential=Credential(session_key="phone"))
        while True:  # the seat's broadcast may come first; then the close
            output = await old.receive_output(timeout=5)
            if output["type"] == "websocket.close":
                break
        assert output["code"] == CLOSE_SEAT_LOST
    finally:
        await old.disconnect()
