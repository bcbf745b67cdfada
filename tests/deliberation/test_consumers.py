"""The courtroom websocket: a thin consumer that joins its deliberation's group and forwards HTML,
to the same people who may read the deliberation's transcript and to nobody else."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Protocol

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.core.management import call_command

from angryagents.asgi import application
from cases.models import Case
from deliberation import services
from deliberation.consumers import CLOSE_NOT_FOUND
from deliberation.services.broadcast import STALE_HTML, publish, pushes
from tests.conftest import socket_headers

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True)]
ORIGIN = socket_headers()  # a browser with no cookie at all
HOST_KEY = "the-hosts-browser"


@dataclass(frozen=True)
class Game:
    pk: int
    public_id: str


def _start(host_key: str = HOST_KEY) -> Game:
    call_command("load_cases", stdout=open("/dev/null", "w"))
    case = Case.objects.get(slug="kessler-market-robbery")
    deliberation = services.deliberation_start(case=case, host_session_key=host_key, player_side="defend")
    return Game(pk=deliberation.pk, public_id=deliberation.public_id)


def _staff_headers() -> list[tuple[bytes, bytes]]:
    user = get_user_model().objects.create_user("curator", password="x", is_staff=True)
    return socket_headers(
        _auth_user_id=str(user.pk),
        _auth_user_backend="django.contrib.auth.backends.ModelBackend",
        _auth_user_hash=user.get_session_auth_hash(),
    )


class Opener(Protocol):
    def __call__(
        self, game: Game | str, headers: list[tuple[bytes, bytes]], seen: int | None = None
    ) -> WebsocketCommunicator: ...


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def open_socket() -> AsyncIterator[Opener]:
    """Opens communicators on a deliberation's socket and disconnects every one after the test,
    refused ones too, pass or fail (one left open hangs the Redis channel layer's teardown)."""
    made: list[WebsocketCommunicator] = []

    def opener(game: Game | str, headers: list[tuple[bytes, bytes]], seen: int | None = None) -> WebsocketCommunicator:
        public_id = game if isinstance(game, str) else game.public_id
        query = "" if seen is None else f"?seen={seen}"
        made.append(WebsocketCommunicator(application, f"/ws/court/{public_id}/{query}", headers=headers))
        return made[-1]

    yield opener
    for socket in made:
        await socket.disconnect()


@pytest.fixture
def text_judge(settings):
    settings.ANGRY_NARRATION = "text"


async def test_the_hosts_browser_receives_its_deliberations_broadcast_fragments(open_socket: Opener, text_judge):
    game = await sync_to_async(_start)()
    socket = open_socket(game, await sync_to_async(socket_headers)(HOST_KEY))
    connected, _ = await socket.connect()
    assert connected
    await sync_to_async(publish)(game.pk, "vote", {"seat": 7})
    html = await socket.receive_from(timeout=5)
    assert 'id="seat-7"' in html and 'id="tally"' in html  # a vote carries the seat it changed


async def test_every_browser_on_the_deliberation_gets_the_same_fragment(open_socket: Opener, text_judge):
    game = await sync_to_async(_start)()
    headers = await sync_to_async(socket_headers)(HOST_KEY)
    sockets = [open_socket(game, headers) for _ in range(3)]
    for socket in sockets:
        assert (await socket.connect())[0]
    await sync_to_async(publish)(game.pk, "thinking", {"round": 1})
    received = [await socket.receive_from(timeout=5) for socket in sockets]
    assert len(set(received)) == 1 and 'id="controls"' in received[0]


async def test_a_page_that_missed_an_update_before_its_socket_joined_is_told_to_catch_up(
    open_socket: Opener, text_judge
):
    game = await sync_to_async(_start)()
    rendered_at = await sync_to_async(pushes)(game.pk)  # the page is rendered here...
    await sync_to_async(publish)(game.pk, "vote", {"seat": 7})  # ...an update goes out to nobody...
    socket = open_socket(game, await sync_to_async(socket_headers)(HOST_KEY), seen=rendered_at)
    assert (await socket.connect())[0]  # ...and then its socket joins
    assert await socket.receive_from(timeout=5) == STALE_HTML


async def test_a_page_rendered_after_the_last_update_is_only_sent_what_comes_next(open_socket: Opener, text_judge):
    game = await sync_to_async(_start)()
    before = await sync_to_async(pushes)(game.pk)
    await sync_to_async(publish)(game.pk, "vote", {"seat": 7})
    rendered_at = await sync_to_async(pushes)(game.pk)
    assert rendered_at == before + 1
    socket = open_socket(game, await sync_to_async(socket_headers)(HOST_KEY), seen=rendered_at)
    assert (await socket.connect())[0]
    assert await socket.receive_nothing(timeout=0.3)
    await sync_to_async(publish)(game.pk, "vote", {"seat": 7})
    assert 'id="seat-7"' in await socket.receive_from(timeout=5)


async def test_a_browser_on_another_deliberation_hears_nothing(open_socket: Opener, text_judge):
    first = await sync_to_async(_start)()
    second = await sync_to_async(_start)()
    socket = open_socket(second, await sync_to_async(socket_headers)(HOST_KEY))
    assert (await socket.connect())[0]
    await sync_to_async(publish)(first.pk, "vote", {})
    assert await socket.receive_nothing(timeout=0.3)


async def test_an_unknown_deliberation_is_refused(open_socket: Opener):
    socket = open_socket("no-such-public-id", await sync_to_async(socket_headers)(HOST_KEY))
    connected, code = await socket.connect()
    assert not connected and code == CLOSE_NOT_FOUND


async def test_a_stranger_without_cookies_is_refused_before_any_message(open_socket: Opener, text_judge):
    game = await sync_to_async(_start)()
    socket = open_socket(game, ORIGIN)
    connected, code = await socket.connect()
    assert not connected and code == CLOSE_NOT_FOUND
    await sync_to_async(publish)(game.pk, "vote", {"seat": 7})
    assert await socket.receive_nothing(timeout=0.3)


async def test_another_browser_is_refused_exactly_like_an_unknown_id(open_socket: Opener, text_judge):
    game = await sync_to_async(_start)()
    stranger = await sync_to_async(socket_headers)("another-browser")
    hidden = open_socket(game, stranger)
    unknown = open_socket("no-such-public-id", stranger)
    assert await hidden.connect() == await unknown.connect() == (False, CLOSE_NOT_FOUND)


async def test_the_numeric_id_opens_no_socket(open_socket: Opener, text_judge):
    game = await sync_to_async(_start)()
    socket = open_socket(str(game.pk), await sync_to_async(socket_headers)(HOST_KEY))
    assert not (await socket.connect())[0]


async def test_staff_may_listen_to_any_deliberation(open_socket: Opener, text_judge):
    game = await sync_to_async(_start)()
    socket = open_socket(game, await sync_to_async(_staff_headers)())
    assert (await socket.connect())[0]
    await sync_to_async(publish)(game.pk, "vote", {"seat": 7})
    assert 'id="tally"' in await socket.receive_from(timeout=5)


def _shared(game: Game) -> str:
    from deliberation.services import review

    return review.share_link_create(deliberation_id=game.pk)


async def test_a_browser_that_opened_the_share_link_listens_until_it_is_revoked(open_socket: Opener, text_judge):
    from deliberation.access import SHARED_FIELD
    from deliberation.services import review

    game = await sync_to_async(_start)()
    token = await sync_to_async(_shared)(game)
    friend = await sync_to_async(socket_headers)("a-friends-browser", **{SHARED_FIELD: [token]})
    socket = open_socket(game, friend)
    assert (await socket.connect())[0]
    await sync_to_async(publish)(game.pk, "vote", {"seat": 7})
    assert 'id="tally"' in await socket.receive_from(timeout=5)
    await sync_to_async(review.share_link_revoke)(deliberation_id=game.pk)
    assert await open_socket(game, friend).connect() == (False, CLOSE_NOT_FOUND)


async def test_a_run_nobody_hosted_is_public(open_socket: Opener, text_judge):
    game = await sync_to_async(_start)(host_key="")
    socket = open_socket(game, ORIGIN)
    assert (await socket.connect())[0]


async def test_what_browsers_send_is_ignored(open_socket: Opener, text_judge):
    game = await sync_to_async(_start)()
    socket = open_socket(game, await sync_to_async(socket_headers)(HOST_KEY))
    assert (await socket.connect())[0]
    await socket.send_to(text_data="<p>hello</p>")
    assert await socket.receive_nothing(timeout=0.2)
    await socket.disconnect()


async def test_an_open_websocket_marks_the_room_watched_until_it_closes(open_socket: Opener, text_judge):
    from deliberation.services.watching import is_watched

    game = await sync_to_async(_start)()
    socket = open_socket(game, await sync_to_async(socket_headers)(HOST_KEY))
    assert not await sync_to_async(is_watched)(game.pk)
    assert (await socket.connect())[0]
    assert await sync_to_async(is_watched)(game.pk)
    await socket.disconnect()
    assert not await sync_to_async(is_watched)(game.pk)


async def test_a_watched_model_round_streams_its_speeches_to_the_browser_in_grouped_pieces(
    open_socket: Opener, text_judge, settings
):
    from tests.deliberation.minds.jury_room import jury_room
    from tests.deliberation.minds.openai_server import ScriptedOpenAIServer

    def start(api_base: str) -> Game:
        settings.ANGRY_LLM_API_BASE = api_base
        call_command("load_cases", stdout=open("/dev/null", "w"))
        case = Case.objects.get(slug="kessler-market-robbery")
        deliberation = services.deliberation_start(
            case=case, engine="openai/juror-model", seed=4, player_side="none", host_plays=False
        )
        return Game(pk=deliberation.pk, public_id=deliberation.public_id)

    with ScriptedOpenAIServer() as server:
        server.responder = jury_room
        game = await sync_to_async(start)(server.api_base)
        socket = open_socket(game, await sync_to_async(_staff_headers)())
        assert (await socket.connect())[0]
        assert await sync_to_async(services.round_run)(deliberation_id=game.pk)
        received = []
        while not await socket.receive_nothing(timeout=0.5):
            received.append(await socket.receive_from())
        await socket.disconnect()

    streamed = [body for body in server.requests if body.get("stream")]
    spans = [seat for html in received for seat in re.findall(r'hx-swap-oob="beforeend:#stream-(\d+)"', html)]
    assert streamed and len(spans) >= len(streamed)  # every speech reached the browser as it came, grouped


async def test_a_socket_cancelled_while_it_leaves_still_leaves_its_group_and_the_watch_count(text_judge):
    """Daphne cancels a consumer still closing some seconds after its socket closed (a whole class
    closing at once): the leave it had begun runs to the end all the same."""
    from channels.db import database_sync_to_async
    from channels.layers import get_channel_layer

    from deliberation.consumers import CourtConsumer
    from deliberation.services.broadcast import group_name
    from deliberation.services.watching import is_watched, watch_started

    game = await database_sync_to_async(_start)()  # which closes its connection, as the consumer's own calls do
    layer = get_channel_layer()
    consumer = CourtConsumer()
    consumer.channel_layer, consumer.channel_name = layer, await layer.new_channel()
    consumer.group, consumer.deliberation_id = group_name(game.pk), game.pk
    await layer.group_add(consumer.group, consumer.channel_name)
    await sync_to_async(watch_started)(deliberation_id=game.pk)

    leaving = asyncio.ensure_future(consumer._leave())
    await asyncio.sleep(0)  # under way
    leaving.cancel()
    with pytest.raises(asyncio.CancelledError):
        await leaving
    for _ in range(100):  # the shielded leave goes on after the cancellation
        if not await sync_to_async(is_watched)(game.pk):
            break
        await asyncio.sleep(0.05)
    assert not await sync_to_async(is_watched)(game.pk)
    await layer.group_send(group_name(game.pk), {"type": "deliberation.event", "html": "<p>late</p>"})
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(consumer.channel_name), timeout=0.5)


async def test_a_nul_in_the_sockets_address_matches_no_route_so_no_query_ever_sees_it():
    socket = WebsocketCommunicator(application, "/ws/court/abc\x00def/", headers=ORIGIN)
    with pytest.raises(ValueError, match="No route found"):
        await socket.connect()
