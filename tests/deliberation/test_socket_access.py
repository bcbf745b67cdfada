"""Open websockets answer to the access rule for as long as they are open, not only when they
connect: revoking a share link or removing a participant closes the sockets that lost sight of the
deliberation, through the one broadcaster, and leaves everyone else's open."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.management import call_command

from angryagents.asgi import application
from cases.models import Case
from deliberation import services
from deliberation.access import SHARED_FIELD
from deliberation.consumers import CLOSE_NOT_FOUND, CLOSE_SEAT_LOST
from deliberation.rooms import services as rooms
from deliberation.rooms.services import Credential
from deliberation.services import review
from deliberation.services.broadcast import publish
from tests.conftest import socket_headers

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True)]
HOST = Credential(session_key="teacher-session")
ANNA = Credential(session_key="anna-session")
BEN = Credential(session_key="ben-session")

Opener = Callable[[str, list[tuple[bytes, bytes]]], WebsocketCommunicator]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def text_judge(settings):
    settings.ANGRY_NARRATION = "text"


@pytest.fixture
async def open_socket() -> AsyncIterator[Opener]:
    made: list[WebsocketCommunicator] = []

    def opener(public_id: str, headers: list[tuple[bytes, bytes]]) -> WebsocketCommunicator:
        made.append(WebsocketCommunicator(application, f"/ws/court/{public_id}/", headers=headers))
        return made[-1]

    yield opener
    for socket in made:
        await socket.disconnect()


async def _closed_with(socket: WebsocketCommunicator, timeout: float = 5.0) -> int | None:
    """The close code the server sent, reading past any fragments pushed before it (None: still open)."""
    while not await socket.receive_nothing(timeout=timeout / 10):
        output = await socket.receive_output(timeout=timeout)
        if output["type"] == "websocket.close":
            return int(output.get("code", 1000))
    return None


def _robbery() -> Case:
    call_command("load_cases", stdout=open("/dev/null", "w"))
    return Case.objects.get(slug="kessler-market-robbery")


def _shared_game() -> tuple[int, str, str]:
    deliberation = services.deliberation_start(case=_robbery(), host_session_key=HOST.session_key, player_side="defend")
    return deliberation.pk, deliberation.public_id, review.share_link_create(deliberation_id=deliberation.pk)


def _room_with_anna_and_ben() -> tuple[int, str]:
    created = rooms.room_create(
        case=_robbery(), host_session_key=HOST.session_key, host_plays=False, open_seats=(2, 3), seed=11
    )
    rooms.room_join(code=created.room_code, credential=ANNA, name="Anna")
    rooms.room_join(code=created.room_code, credential=BEN, name="Ben")
    return created.pk, created.public_id


async def test_revoking_a_share_link_closes_the_sockets_it_opened_and_only_those(open_socket: Opener, text_judge):
    pk, public_id, token = await sync_to_async(_shared_game)()
    friend = open_socket(public_id, await sync_to_async(socket_headers)("a-friends-browser", **{SHARED_FIELD: [token]}))
    host = open_socket(public_id, await sync_to_async(socket_headers)(HOST.session_key))
    assert (await friend.connect())[0] and (await host.connect())[0]

    await sync_to_async(review.share_link_revoke)(deliberation_id=pk)

    assert await _closed_with(friend) == CLOSE_NOT_FOUND
    assert await _closed_with(host, timeout=1.0) is None
    await sync_to_async(publish)(pk, "vote", {"seat": 7})
    assert 'id="tally"' in await host.receive_from(timeout=5)  # the host still watches live


async def test_a_participant_removed_from_a_room_stops_receiving_its_updates(open_socket: Opener, text_judge):
    pk, public_id = await sync_to_async(_room_with_anna_and_ben)()
    anna, ben, host = [
        open_socket(public_id, await sync_to_async(socket_headers)(who.session_key)) for who in (ANNA, BEN, HOST)
    ]
    for socket in (anna, ben, host):
        assert (await socket.connect())[0]

    await sync_to_async(rooms.room_remove)(deliberation_id=pk, session_key=HOST.session_key, seat_number=2)

    # Closed as a lost seat (the page says so), before the access check would close it as not found.
    assert await _closed_with(anna) == CLOSE_SEAT_LOST
    await sync_to_async(publish)(pk, "seats", {"seat": 2})
    assert await anna.receive_nothing(timeout=0.3)
    for socket in (ben, host):  # the removal's own push, then the one above: both still listen
        assert 'id="jury-box"' in await socket.receive_from(timeout=5)
        assert 'id="jury-box"' in await socket.receive_from(timeout=5)


async def test_a_change_of_access_that_shuts_nobody_out_closes_no_socket(open_socket: Opener, text_judge):
    pk, public_id, _token = await sync_to_async(_shared_game)()
    host = open_socket(public_id, await sync_to_async(socket_headers)(HOST.session_key))
    assert (await host.connect())[0]
    await sync_to_async(review.share_link_revoke)(deliberation_id=pk)
    assert await _closed_with(host, timeout=1.0) is None


def _owned_room_and_two_logins() -> tuple[int, str, list[tuple[bytes, bytes]], list[tuple[bytes, bytes]]]:
    """A room made by a logged-in teacher; the socket headers of that account logged in on another
    browser, and of another account."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    def logged_in(name: str) -> list[tuple[bytes, bytes]]:
        client = Client()
        client.force_login(get_user_model().objects.create_user(name, password="pw"))
        return [*socket_headers(), (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())]

    owner, other = logged_in("teacher"), logged_in("someone-else")
    created = rooms.room_create(
        case=_robbery(),
        host_session_key=HOST.session_key,
        owner_id=get_user_model().objects.get(username="teacher").pk,
        host_plays=False,
        open_seats=(2,),
    )
    return created.pk, created.public_id, owner, other


async def test_a_teachers_account_watches_its_room_live_from_another_browser_and_no_other_account_does(
    open_socket: Opener, text_judge
):
    pk, public_id, owner, other = await sync_to_async(_owned_room_and_two_logins)()
    elsewhere, stranger = open_socket(public_id, owner), open_socket(public_id, other)
    assert (await elsewhere.connect())[0]
    connected, code = await stranger.connect()
    assert not connected and code == CLOSE_NOT_FOUND
    await sync_to_async(publish)(pk, "seats", {"seat": 2})
    assert 'id="room-turn"' in await elsewhere.receive_from(timeout=5)
