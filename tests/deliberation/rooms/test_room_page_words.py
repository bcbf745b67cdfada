"""What a student's room page says: a pause seen at the top and a refusal for it said once and
gone at the resume, the counsel window's notice after its clock ends, and the small words (the
join form's seats, Juror 7's face, the trial's chat heading and stage tags)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from angryagents.identity import SESSION_FIELD
from deliberation.court.live import render_event
from deliberation.models import PERSON_FACE, Deliberation
from deliberation.rooms import control, services
from deliberation.rooms.services import Credential
from deliberation.rooms.state import room_of, room_save, stamp
from deliberation.services import counsel_claims
from tests.conftest import browser_of

HOST = Credential(session_key="teacher-session")
ANNA = Credential(session_key="anna-session")


def _browser(credential: Credential) -> Client:
    client = Client()
    browser_of(client, **{SESSION_FIELD: credential.session_key})
    return client


@pytest.fixture
def room(robbery, settings) -> Deliberation:
    """A room that holds the trial, started: Anna (seat 2) is in the window to claim counsel."""
    settings.ANGRY_NARRATION = "text"
    room = services.room_create(
        case=robbery,
        host_session_key=HOST.session_key,
        host_plays=False,
        open_seats=(2, 3),
        seed=11,
        options={"trial": True},
    )
    services.room_join(code=room.room_code, credential=ANNA, name="Anna", preferred_seat=2)
    services.room_start(deliberation_id=room.pk, session_key=HOST.session_key)
    room.refresh_from_db()
    return room


def test_a_move_refused_while_paused_is_said_once_and_marked_to_leave_at_the_resume(room):
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=2, side="defense")
    counsel_claims.trial_open(deliberation_id=room.pk)
    control.room_pause(deliberation_id=room.pk, session_key=HOST.session_key)
    anna = _browser(ANNA)
    html = anna.post(
        reverse("room_trial", args=[room.room_code]),
        {"action": "speak", "text": "members of the jury"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert html.count(counsel_claims.ERROR_PAUSED) == 1
    assert "data-paused-refusal" in html  # static/js/room.js takes it away when the banner says the room runs


def test_a_paused_room_says_so_in_the_phase_pill_at_the_top_of_the_page(room):
    anna = _browser(ANNA)
    assert "Paused by the host" not in anna.get(reverse("room", args=[room.room_code])).content.decode()
    control.room_pause(deliberation_id=room.pk, session_key=HOST.session_key)
    page = anna.get(reverse("room", args=[room.room_code])).content.decode()
    start = page.index('id="phase-banner"')
    banner = page[start : page.index("</div>", start)]
    assert "Paused by the host" in banner


def test_once_the_window_to_claim_counsel_has_run_out_the_notice_says_what_the_buttons_do_now(room):
    state = room_of(room)
    state["next_at"] = stamp(timezone.now() - timedelta(seconds=5))  # the clock has not opened the trial yet
    room_save(room, state)
    controls = _browser(ANNA).get(reverse("room_controls", args=[room.room_code])).content.decode()
    assert 'class="claim-now claim-over"' in controls
    assert "take it from AI counsel during the trial" in controls


def test_the_join_form_says_an_ai_juror_holds_a_free_seat(room, robbery):
    other = services.room_create(case=robbery, host_session_key=HOST.session_key, host_plays=False, open_seats=(2,))
    form = Client().get(reverse("room_join_code", args=[other.room_code])).content.decode()
    name = other.seats.get(number=2).display_name
    assert f"Seat 2: AI juror {name} holds it for now" in form and f"Seat 2 ({name})" not in form


def test_juror_7_played_by_its_ai_persona_does_not_wear_a_students_face(room):
    page = _browser(ANNA).get(reverse("room", args=[room.room_code])).content.decode()
    seven = page[page.index('id="seat-7"') :][:400]
    student = page[page.index('id="seat-2"') :][:400]
    assert PERSON_FACE in student and PERSON_FACE not in seven


def test_the_chat_of_a_room_with_a_trial_is_not_headed_deliberation_alone(room):
    page = _browser(ANNA).get(reverse("room", args=[room.room_code])).content.decode()
    assert '<h3 class="chat-heading">The trial and the deliberation</h3>' in page


def test_a_pause_and_a_resume_are_pushed_to_the_phase_pill(room):
    control.room_pause(deliberation_id=room.pk, session_key=HOST.session_key)
    assert "Paused by the host" in render_event(room.pk, "turn", {})
    control.room_resume(deliberation_id=room.pk, session_key=HOST.session_key)
    pushed = render_event(room.pk, "turn", {})
    assert 'id="phase-banner"' in pushed and "Paused by the host" not in pushed
