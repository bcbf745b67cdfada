"""The class page's socket catches a page up: the page names the count of cards pushed when it was
rendered, and a socket that joins after a card went out says so, so the page fetches its rooms
again (htmx gets the rooms alone)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from angryagents.asgi import application
from angryagents.identity import SESSION_FIELD
from cases.models import Case
from deliberation.models import ClassSession
from deliberation.rooms import classes, services
from deliberation.rooms.services import Credential
from deliberation.services.broadcast import STALE_HTML, class_pushes, publish
from tests.conftest import browser_of, socket_headers

TEACHER = "the-teachers-browser"
ANNA = Credential(session_key="anna-session")

Opener = Callable[[ClassSession, int | None], WebsocketCommunicator]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(autouse=True)
def text_judge(settings):
    settings.ANGRY_NARRATION = "text"


@pytest.fixture
async def open_class_socket() -> AsyncIterator[Opener]:
    """Opens the teacher's class sockets and disconnects every one after the test."""
    made: list[WebsocketCommunicator] = []

    def opener(session: ClassSession, seen: int | None) -> WebsocketCommunicator:
        query = "" if seen is None else f"?seen={seen}"
        url = f"/ws/class/{session.public_id}/{query}"
        made.append(WebsocketCommunicator(application, url, headers=socket_headers(TEACHER)))
        return made[-1]

    yield opener
    for socket in made:
        await socket.disconnect()


def _class() -> ClassSession:
    robbery = Case.objects.get(slug="kessler-market-robbery")
    return classes.class_create(case=robbery, groups=2, seats=2, teacher_session_key=TEACHER)


def _anna_sits_down(session: ClassSession) -> None:
    """Anna takes a seat in the second room, and the room's card goes out (as after the join commits)."""
    room = session.rooms.order_by("pk").last()
    assert room is not None
    services.room_join(code=room.room_code or "", credential=ANNA, name="Anna Ortiz")
    publish(room.pk, "seats", {"seat": 2})


@pytest.mark.anyio
@pytest.mark.django_db(transaction=True)
async def test_a_class_page_that_missed_a_card_before_its_socket_joined_is_told_to_catch_up(
    library, open_class_socket: Opener
):
    session = await sync_to_async(_class)()
    rendered_at = await sync_to_async(class_pushes)(session.pk)  # the page is rendered here...
    await sync_to_async(_anna_sits_down)(session)  # ...a card goes out to nobody...
    assert await sync_to_async(class_pushes)(session.pk) > rendered_at
    socket = await sync_to_async(open_class_socket)(session, rendered_at)
    assert (await socket.connect())[0]  # ...and then its socket joins
    assert await socket.receive_from(timeout=5) == STALE_HTML


@pytest.mark.anyio
@pytest.mark.django_db(transaction=True)
async def test_a_class_page_rendered_after_the_last_card_is_only_sent_the_next_cards(
    library, open_class_socket: Opener
):
    session = await sync_to_async(_class)()
    await sync_to_async(_anna_sits_down)(session)
    socket = await sync_to_async(open_class_socket)(session, await sync_to_async(class_pushes)(session.pk))
    assert (await socket.connect())[0]
    assert await socket.receive_nothing(timeout=0.3)
    room = await sync_to_async(lambda: session.rooms.order_by("pk").last())()
    await sync_to_async(publish)(room.pk, "vote", {"seat": 2})
    card = await socket.receive_from(timeout=5)
    assert f'id="class-room-{room.public_id}"' in card and "Anna Ortiz" in card


def test_the_class_page_names_its_push_count_to_its_socket_and_htmx_gets_the_rooms_alone(robbery):
    session = _class()
    _anna_sits_down(session)
    teacher = Client()
    browser_of(teacher, **{SESSION_FIELD: TEACHER})
    page = teacher.get(f"/classes/{session.public_id}/").content.decode()
    assert f'ws-connect="/ws/class/{session.public_id}/?seen={class_pushes(session.pk)}"' in page
    assert 'id="push-stale"' in page and "js/class.js" in page
    rooms = teacher.get(f"/classes/{session.public_id}/", headers={"HX-Request": "true"}).content.decode()
    assert rooms.lstrip().startswith('<div class="class-rooms" id="class-rooms">')
    assert rooms.count('class="class-room panel') == 2 and "Anna Ortiz" in rooms
    assert "Print the codes" not in rooms
