"""Room pages through Django's test client: hosting, joining by code, and the host's rights."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from angryagents.identity import SESSION_FIELD
from deliberation.models import PERSON_FACE, Deliberation, Phase, SeatKind
from deliberation.rooms import clock, services
from deliberation.rooms.forms import ERROR_SEAT_GONE
from deliberation.services.broadcast import pushes


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
    assert room.host_plays is False and room.host_session_key == teacher.session[SESSION_FIELD]
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
    assert seat.session_key == student.session[SESSION_FIELD]
    room = student.get(reverse("room", args=[code]))
    assert b"Seat 3: Cleo" in room.content and b"you sit in seat 3" in room.content


def test_a_student_in_a_jurors_seat_is_shown_as_a_person_not_as_that_juror(code):
    seat = Deliberation.objects.get(room_code=code).seats.get(number=3)
    juror_face = seat.emoji
    assert juror_face != PERSON_FACE  # the AI juror's own emoji, before anyone sits there
    student = join(code, 3, "Ben")
    page = student.get(reverse("room", args=[code])).content.decode()
    box = page[page.index('id="seat-3"') :]
    box = box[: box.index("</li>")]
    assert PERSON_FACE in box and juror_face not in box
    assert "Person" in box and seat.archetype_name not in box


def test_a_wrong_code_says_so(db):
    response = Client().post(reverse("room_join"), {"code": "QQQQQQ"}, follow=True)
    assert services.ERROR_ROOM_UNKNOWN.format(code="QQQQQQ") in messages_of(response)


def test_a_seat_taken_while_a_student_chose_it_says_so_in_words_a_student_reads(code):
    late = Client()
    late.get(reverse("room_join_code", args=[code]))  # the form still offers seat 2
    join(code, 2, "Anna")  # someone else takes it first

    answer = late.post(reverse("room_join_code", args=[code]), {"seat": "2", "name": "Sam"})

    body = answer.content.decode()
    assert answer.status_code == 200
    assert ERROR_SEAT_GONE % {"value": 2} in body and "Select a valid choice" not in body
    assert 'value="Sam"' in body  # what they typed stays


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
    assert refused.status_code == 403  # a host's control: refused outright, with the reason
    assert services.ERROR_NOT_HOST.format(action="call the final vote") in refused.content.decode()
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
    anna = join(code, 2, "Anna")
    assert anna.get(reverse("room_teacher", args=[code])).status_code == 403
    assert Client().get(reverse("room_teacher", args=[code])).status_code == 404
    page = teacher.get(reverse("room_teacher", args=[code]))
    assert page.status_code == 200 and b"Anna" in page.content
    room = Deliberation.objects.get(room_code=code)
    assert reverse("review:transcript", args=[room.public_id]).encode() in page.content


def htmx(client: Client, method: str, url: str, data: dict | None = None):  # type: ignore[no-untyped-def]
    return getattr(client, method)(url, data or {}, headers={"HX-Request": "true"})


def first_round(code: str, teacher: Client) -> Deliberation:
    teacher.post(reverse("room_start", args=[code]))
    room = Deliberation.objects.get(room_code=code)
    clock.room_tick(deliberation_id=room.pk)
    room.refresh_from_db()
    return room


def test_the_room_page_listens_on_the_courtrooms_websocket_and_never_polls(code, teacher):
    page = teacher.get(reverse("room", args=[code]))
    room = Deliberation.objects.get(room_code=code)
    html = page.content.decode()
    assert f'ws-connect="/ws/court/{room.public_id}/?seen={pushes(room.pk)}"' in html
    assert 'hx-trigger="every' not in html and "/live/" not in html
    for part in ('id="jury-box"', 'id="tally"', 'id="chat"', 'id="judge"', 'id="room-turn"', 'id="room-controls"'):
        assert part in html
    assert 'id="case-q"' in html  # the case file with its search
    assert 'id="controls"' not in html  # the single player's controls never show in a room


def test_only_the_participant_whose_turn_it_is_gets_enabled_speak_and_pass(code, teacher):
    anna, ben = join(code, 2, "Anna"), join(code, 3, "Ben")
    first_round(code, teacher)
    url = reverse("room_controls", args=[code])
    annas, bens = anna.get(url).content.decode(), ben.get(url).content.decode()
    assert 'id="your-turn"' in annas and 'class="move-fieldset" disabled' not in annas
    assert 'id="your-turn"' not in bens and 'class="move-fieldset" disabled' in bens
    assert "Your turn comes after seat 2." in bens
    assert "Start the deliberation" not in annas and "Call the final vote" not in annas


def test_the_host_gets_call_and_remove_and_a_watcher_gets_no_controls(code, teacher, admin_client):
    join(code, 2, "Anna")
    url = reverse("room_controls", args=[code])
    waiting = teacher.get(url).content.decode()
    assert "Start the deliberation" in waiting and "Call the final vote" not in waiting
    first_round(code, teacher)
    hosting = teacher.get(url).content.decode()
    assert "Call the final vote" in hosting and reverse("room_remove", args=[code, 2]) in hosting
    assert ">Remove (its AI juror takes over)</button>" in hosting  # the button says what follows
    teachers_view = teacher.get(reverse("room_teacher", args=[code])).content.decode()
    assert ">Remove (its AI juror takes over)</button>" in teachers_view
    assert "move-form" not in hosting  # a host who does not play has no seat to speak from
    watching = admin_client.get(url).content.decode()  # a curator looking in
    assert "move-form" not in watching and "Call the final vote" not in watching and "Remove" not in watching
    assert "Take a free seat" in watching
    assert Client().get(url).status_code == 404  # a stranger, even one holding the code, sees nothing


def test_an_htmx_speech_answers_with_the_speakers_controls_and_a_refusal_inline(code, teacher):
    anna, ben = join(code, 2, "Anna"), join(code, 3, "Ben")
    room = first_round(code, teacher)
    speak = reverse("room_speak", args=[code])
    early = htmx(ben, "post", speak, {"seat": "3", "content": "Me first", "argument_type": "logical"})
    assert early.status_code == 200 and 'id="room-controls"' in early.content.decode()
    assert "It is not your turn." in early.content.decode() and "Me first" in early.content.decode()
    words = "He had no reason to rob that shop."
    spoke = htmx(anna, "post", speak, {"seat": "2", "content": words, "argument_type": "moral"})
    assert "Your argument is in; the jury hears it in the next round." in spoke.content.decode()
    assert 'class="move-fieldset" disabled' in spoke.content.decode()  # the floor has moved on
    room.refresh_from_db()
    assert room.pending[-1]["content"] == words


def test_a_refused_start_by_a_student_is_inline_for_htmx(code, teacher):
    anna = join(code, 2, "Anna")
    refused = htmx(anna, "post", reverse("room_start", args=[code]))
    assert services.ERROR_NOT_HOST.format(action="start the deliberation") in refused.content.decode()


def test_a_rooms_courtroom_url_leads_to_the_room_page_and_its_single_player_actions_refuse(code, teacher):
    room = Deliberation.objects.get(room_code=code)
    response = teacher.get(reverse("court", args=[room.public_id]))
    assert response.status_code == 302 and response.url == reverse("room", args=[code])
    refused = teacher.post(reverse("court_pass", args=[room.public_id]))
    assert refused.status_code == 403


def test_the_controls_cost_the_same_queries_at_round_1_and_after_many_turns(code, teacher):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from deliberation.models import Turn

    anna = join(code, 2, "Anna")
    room = first_round(code, teacher)
    url = reverse("room_controls", args=[code])
    anna.get(url)  # the session is loaded once like on any page
    with CaptureQueriesContext(connection) as early:
        anna.get(url)
    turns = list(room.turns.all())
    top = max(t.sequence for t in turns)
    for index in range(40):
        Turn.objects.create(
            deliberation=room, round_number=1, sequence=top + index + 1, kind="pass", speaker_name="Anna", content="."
        )
    with CaptureQueriesContext(connection) as late:
        anna.get(url)
    assert len(late) == len(early)


def test_a_teacher_who_logs_in_to_the_admin_is_still_the_rooms_host(code, teacher, django_user_model):
    before = teacher.session.session_key
    teacher.force_login(django_user_model.objects.create_user("teacher", password="a-long-password-1"))
    assert teacher.session.session_key != before  # logging in gives the session a new key
    assert teacher.get(reverse("room_teacher", args=[code])).status_code == 200


def test_an_argument_over_the_limit_is_refused_with_the_services_own_message(code, teacher):
    from deliberation.rooms.services import ERROR_CONTENT_LONG, MAX_CONTENT

    anna = join(code, 2, "Anna")
    first_round(code, teacher)
    too_long = "x" * (MAX_CONTENT + 1)
    data = {"seat": "2", "content": too_long, "argument_type": "logical"}
    refused = htmx(anna, "post", reverse("room_speak", args=[code]), data)
    assert ERROR_CONTENT_LONG.format(limit=MAX_CONTENT, length=MAX_CONTENT + 1) in refused.content.decode()


def test_a_refused_overlong_argument_says_the_limit_and_its_length_and_comes_back_whole(code, teacher):
    import html
    import re

    from deliberation.rooms.services import MAX_CONTENT

    anna = join(code, 2, "Anna")
    first_round(code, teacher)
    words = "The watchman saw him for two seconds, at night, & by lamplight. "
    too_long = (words * (20_000 // len(words) + 1))[:20_000]
    data = {"seat": "2", "content": too_long, "argument_type": "logical"}
    refused = htmx(anna, "post", reverse("room_speak", args=[code]), data).content.decode()
    assert f"{MAX_CONTENT:,} characters" in refused and "20,000" in refused
    box = re.search(r'<textarea id="id_content"[^>]*>(.*?)</textarea>', refused, re.S)
    assert box is not None and html.unescape(box.group(1)) == too_long
