"""The courtroom websocket: a thin consumer that joins its deliberation's group and forwards HTML."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.management import call_command

from angryagents.asgi import application
from cases.models import Case
from deliberation import services
from deliberation.services.broadcast import publish

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True)]
HEADERS = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]


def _start() -> int:
    call_command("load_cases", stdout=open("/dev/null", "w"))
    case = Case.objects.get(slug="kessler-market-robbery")
    deliberation = services.deliberation_start(case=case, host_session_key="k", player_side="defend")
    return deliberation.pk


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def text_judge(settings):
    settings.ANGRY_NARRATION = "text"


async def test_a_browser_joined_to_a_deliberation_receives_its_broadcast_fragments(text_judge):
    deliberation_id = await sync_to_async(_start)()
    socket = WebsocketCommunicator(application, f"/ws/court/{deliberation_id}/", headers=HEADERS)
    connected, _ = await socket.connect()
    assert connected
    await sync_to_async(publish)(deliberation_id, "vote", {"seat": 7})
    html = await socket.receive_from(timeout=5)
    assert 'id="jury-box"' in html and 'id="tally"' in html
    await socket.disconnect()


async def test_every_browser_on_the_deliberation_gets_the_same_fragment(text_judge):
    deliberation_id = await sync_to_async(_start)()
    sockets = [WebsocketCommunicator(application, f"/ws/court/{deliberation_id}/", headers=HEADERS) for _ in range(3)]
    for socket in sockets:
        assert (await socket.connect())[0]
    await sync_to_async(publish)(deliberation_id, "thinking", {"round": 1})
    received = [await socket.receive_from(timeout=5) for socket in sockets]
    assert len(set(received)) == 1 and 'id="controls"' in received[0]
    for socket in sockets:
        await socket.disconnect()


async def test_a_browser_on_another_deliberation_hears_nothing(text_judge):
    first = await sync_to_async(_start)()
    second = await sync_to_async(_start)()
    socket = WebsocketCommunicator(application, f"/ws/court/{second}/", headers=HEADERS)
    assert (await socket.connect())[0]
    await sync_to_async(publish)(first, "vote", {})
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()


async def test_an_unknown_deliberation_is_refused():
    socket = WebsocketCommunicator(application, "/ws/court/999999/", headers=HEADERS)
    connected, _ = await socket.connect()
    assert not connected


async def test_what_browsers_send_is_ignored(text_judge):
    deliberation_id = await sync_to_async(_start)()
    socket = WebsocketCommunicator(application, f"/ws/court/{deliberation_id}/", headers=HEADERS)
    assert (await socket.connect())[0]
    await socket.send_to(text_data="<p>hello</p>")
    assert await socket.receive_nothing(timeout=0.2)
    await socket.disconnect()


async def test_an_open_websocket_marks_the_room_watched_until_it_closes(text_judge):
    from deliberation.services.watching import is_watched

    deliberation_id = await sync_to_async(_start)()
    socket = WebsocketCommunicator(application, f"/ws/court/{deliberation_id}/", headers=HEADERS)
    assert not await sync_to_async(is_watched)(deliberation_id)
    assert (await socket.connect())[0]
    assert await sync_to_async(is_watched)(deliberation_id)
    await socket.disconnect()
    assert not await sync_to_async(is_watched)(deliberation_id)


async def test_a_watched_model_round_streams_its_speeches_to_the_browser_in_grouped_pieces(text_judge, settings):
    from tests.deliberation.minds.jury_room import jury_room
    from tests.deliberation.minds.openai_server import ScriptedOpenAIServer

    def start(api_base: str) -> int:
        settings.ANGRY_LLM_API_BASE = api_base
        call_command("load_cases", stdout=open("/dev/null", "w"))
        case = Case.objects.get(slug="kessler-market-robbery")
        deliberation = services.deliberation_start(
            case=case, engine="openai/juror-model", seed=4, player_side="none", host_plays=False
        )
        return deliberation.pk

    with ScriptedOpenAIServer() as server:
        server.responder = jury_room
        deliberation_id = await sync_to_async(start)(server.api_base)
        socket = WebsocketCommunicator(application, f"/ws/court/{deliberation_id}/", headers=HEADERS)
        assert (await socket.connect())[0]
        assert await sync_to_async(services.round_run)(deliberation_id=deliberation_id)
        received = []
        while not await socket.receive_nothing(timeout=0.5):
            received.append(await socket.receive_from())
        await socket.disconnect()

    chunks = [html for html in received if 'hx-swap-oob="beforeend:#stream-' in html]
    streamed = [body for body in server.requests if body.get("stream")]
    assert streamed and len(chunks) >= len(streamed)  # every speech reached the browser as it came
