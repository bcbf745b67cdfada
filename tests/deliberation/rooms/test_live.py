"""A room's live fragments: seats, whose turn it is and its countdown, passes, the controls each
browser fetches for itself, pushed through the courtroom's websocket."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.dateparse import parse_datetime

from deliberation.court import live
from deliberation.models import Deliberation, Turn
from deliberation.rooms import clock, page, services
from deliberation.rooms.services import Credential
from deliberation.rooms.state import room_of
from tests.conftest import socket_headers

HOST = Credential(session_key="teacher-session")
ANNA = Credential(session_key="anna-session")
BEN = Credential(session_key="ben-session")


@pytest.fixture
def text_judge(settings):
    settings.ANGRY_NARRATION = "text"


@pytest.fixture
def room(robbery, text_judge) -> Deliberation:
    """A teacher who hosts without playing; Anna in seat 2 and Ben in seat 3, turns open."""
    created = services.room_create(
        case=robbery, host_session_key=HOST.session_key, host_plays=False, open_seats=(2, 3), seed=11
    )
    services.room_join(code=created.room_code, credential=ANNA, name="Anna")
    services.room_join(code=created.room_code, credential=BEN, name="Ben")
    services.room_start(deliberation_id=created.pk, session_key=HOST.session_key)
    clock.room_tick(deliberation_id=created.pk)  # the AI jurors' first round, then Anna's turn
    created.refresh_from_db()
    return created


def _keys(html: str) -> dict[str, str]:
    return json.loads(unescape(re.search(r'data-keys="([^"]*)"', html).group(1)))


def test_a_seat_change_pushes_the_jury_box_with_the_person_and_a_banner_with_every_viewers_controls_key(
    robbery, text_judge
):
    created = services.room_create(case=robbery, host_session_key=HOST.session_key, host_plays=False, open_seats=(4,))
    before = _keys(live.render_event(created.pk, "seats", {}))
    services.room_join(code=created.room_code, credential=ANNA, name="Anna Ortiz")
    html = live.render_event(created.pk, "seats", {"seat": 4})
    assert 'id="jury-box"' in html and "Anna Ortiz" in html and "Person" in html
    assert 'id="room-turn"' in html
    assert f'data-controls="{reverse("room_controls", args=[created.room_code])}"' in html
    after = _keys(html)
    assert set(after) == {"seat-4", "host", "watch"}
    assert after["host"] != before["host"]  # the host's list of people changed: only the host refetches
    assert after["watch"] == before["watch"]
    assert "The host starts the deliberation" in html


def test_a_turn_change_changes_the_controls_only_of_the_seats_that_had_and_take_the_floor_and_the_hosts(
    robbery, text_judge
):
    created = services.room_create(
        case=robbery, host_session_key=HOST.session_key, host_plays=False, open_seats=(2, 3, 4), seed=11
    )
    carl = Credential(session_key="carl-session")
    for person, name in ((ANNA, "Anna"), (BEN, "Ben"), (carl, "Carl")):
        services.room_join(code=created.room_code, credential=person, name=name)
    services.room_start(deliberation_id=created.pk, session_key=HOST.session_key)
    clock.room_tick(deliberation_id=created.pk)  # the AI jurors' round, then Anna (2), Ben (3), Carl (4)
    first = live.render_event(created.pk, "turn", {})
    services.room_pass(deliberation_id=created.pk, credential=ANNA)
    second = live.render_event(created.pk, "turn", {})
    changed = {role for role, key in _keys(second).items() if _keys(first)[role] != key}
    # The host's "more time" and "skip" stay; the seat they name follows the banner's data-floor.
    assert changed == {"seat-2", "seat-3"}
    assert 'data-floor="3"' in second
    when = json.loads(unescape(re.search(r'data-when="([^"]*)"', second).group(1)))
    assert when["4"] == page.WHEN_IN_LINE.format(before="seat 3")  # Carl's line is updated in place
    assert when["2"] == page.WHEN_NEXT_CYCLE


def test_a_turn_pushes_who_has_the_floor_with_its_deadline_and_who_follows(room):
    html = live.render_event(room.pk, "turn", {})
    banner = re.search(r'<div id="room-turn".*?</div>', html, re.S).group(0)
    assert "Seat 2" in banner and "Anna" in banner and "has the floor" in banner
    seconds = int(re.search(r'data-seconds="(\d+)"', banner).group(1))
    assert 0 < seconds <= 60
    deadline = parse_datetime(room_of(room)["deadline"])
    assert f'data-deadline="{int(deadline.timestamp() * 1000)}"' in banner  # each screen counts down to it
    assert "Then seat 3 (Ben)" in banner
    assert "{#" not in html and "static/js" not in html  # no template comment leaks into the page
    assert 'class="seat vote-' in html and "seat-turn" in html  # the jury box marks the speaker
    assert 'id="controls"' not in html  # one page's controls are never broadcast


def test_the_same_turn_fragment_goes_to_every_viewer_whoever_they_are(room):
    html = live.render_event(room.pk, "turn", {})
    assert "your-turn" not in html and "you-badge" not in html and "msg-you" not in html


def test_a_pass_joins_the_chat_with_the_next_turn(room):
    services.room_pass(deliberation_id=room.pk, credential=ANNA)
    html = live.render_event(room.pk, "turn", {})
    passed = Turn.objects.get(deliberation=room, kind="pass", seat_number=2)
    assert f'id="turn-{passed.pk}"' in html and 'hx-swap-oob="beforeend:#chat"' in html
    assert "Anna passes." in html
    assert "Seat 3" in re.search(r'<div id="room-turn".*?</div>', html, re.S).group(0)


def test_a_rooms_round_pushes_the_chat_and_the_turn_banner_instead_of_the_single_players_controls(room):
    html = live.render_event(room.pk, "round", {"round": 1})
    assert 'hx-swap-oob="beforeend:#chat"' in html and 'data-kinetic="new"' in html
    assert 'id="room-turn"' in html and 'id="controls"' not in html


def test_the_verdict_reaches_a_room_with_links_to_the_verdict_and_transcript(room):
    services.room_call_vote(deliberation_id=room.pk, session_key=HOST.session_key)
    html = live.render_event(room.pk, "phase", {})
    assert "The verdict is in" in html and reverse("court_verdict", args=[room.public_id]) in html
    assert 'id="watch-note"' not in html
    assert 'hx-swap-oob="beforeend:#announcements"' in html


def test_a_turn_broadcast_costs_the_same_queries_early_and_late(room):
    with CaptureQueriesContext(connection) as early:
        live.render_event(room.pk, "turn", {})
    top = room.turns.order_by("-sequence").first().sequence
    for index in range(60):
        Turn.objects.create(
            deliberation=room, round_number=1, sequence=top + index + 1, kind="pass", speaker_name="Ben", content="."
        )
    with CaptureQueriesContext(connection) as late:
        live.render_event(room.pk, "turn", {})
    assert len(late) == len(early)


def _open_room() -> tuple[int, str, str]:
    from cases.models import Case

    call_command("load_cases", stdout=open("/dev/null", "w"))
    created = services.room_create(
        case=Case.objects.get(slug="kessler-market-robbery"),
        host_session_key=HOST.session_key,
        host_plays=False,
        open_seats=(2, 3),
    )
    return created.pk, created.public_id, created.room_code


@pytest.mark.anyio
@pytest.mark.django_db(transaction=True)
async def test_a_browser_on_a_rooms_websocket_sees_a_student_take_a_seat(text_judge):
    _, public_id, code = await sync_to_async(_open_room)()
    from angryagents.asgi import application

    headers = await sync_to_async(socket_headers)(HOST.session_key)
    sockets = [WebsocketCommunicator(application, f"/ws/court/{public_id}/", headers=headers) for _ in range(2)]
    stranger = WebsocketCommunicator(application, f"/ws/court/{public_id}/", headers=socket_headers())
    try:
        for socket in sockets:
            assert (await socket.connect())[0]
        assert not (await stranger.connect())[0]  # nobody else learns who sits in the room
        await sync_to_async(services.room_join)(code=code, credential=ANNA, name="Anna Ortiz")  # commits, then pushes
        for socket in sockets:
            html = await socket.receive_from(timeout=5)
            assert "Anna Ortiz" in html and 'id="room-turn"' in html and "data-keys=" in html
    finally:
        for socket in [*sockets, stranger]:
            await socket.disconnect()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _outlook(html: str) -> str:
    return unescape(re.search(r'data-outlook="([^"]*)"', html).group(1))


def test_a_vote_that_makes_the_jury_unanimous_pushes_the_new_outlook_to_every_participants_controls(room):
    from deliberation.models import Seat, SeatKind

    Seat.objects.filter(deliberation=room, kind=SeatKind.AI).update(vote="guilty")
    services.room_vote(deliberation_id=room.pk, credential=ANNA, value="guilty")
    services.room_vote(deliberation_id=room.pk, credential=BEN, value="not_guilty")
    room.refresh_from_db()
    seats = list(room.seats.order_by("number"))
    bens_view = page.controls_context(room, seats, session_key=BEN.session_key)
    annas_view = page.controls_context(room, seats, session_key=ANNA.session_key)
    assert annas_view["outlook"].startswith("Close to a verdict: 11 of 12 vote guilty")
    services.room_vote(deliberation_id=room.pk, credential=BEN, value="guilty")  # Ben makes it unanimous
    html = live.render_event(room.pk, "vote", {"seat": 3, "round": room.round_number})
    assert 'id="room-turn"' in html  # the banner goes out with the vote
    assert _outlook(html).startswith("The jury is unanimous: guilty")
    # Anna's controls did not change otherwise (her page keeps its form and updates the line in place)
    assert _keys(html)["seat-2"] == annas_view["key"] and _keys(html)["seat-3"] != bens_view["key"]
