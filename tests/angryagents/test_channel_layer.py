"""Service mode's channel layer keeps idle websockets open.

channels-redis waits for a consumer's next message with a blocking pop of 5 s, and redis-py 8
times a socket read out after 5 s by default: every idle consumer died with 1011 about 5 s after
its last message (channels_redis#422), and the updates sent meanwhile were lost. The settings give
the Redis client a read timeout well above the blocking pop. The test keeps a room's websocket idle
for 20 s, four times the old limit and four blocking-pop cycles (an idle hour is the same cycle
repeated), then a student joins and the idle socket must receive the new jury box.
"""

from __future__ import annotations

import asyncio
import os
import re

import httpx
import pytest
import websockets

from tests.conftest import need
from tests.live import live_server

IDLE_SECONDS = 20.0
CASE = "kessler-market-robbery"


def _join(base: str, code: str, name: str) -> httpx.Client:
    browser = httpx.Client(base_url=base, follow_redirects=True, timeout=30)
    browser.get(f"/join/{code}/")
    token = browser.cookies.get("csrftoken", "")
    joined = browser.post(f"/join/{code}/", data={"seat": "", "name": name, "csrfmiddlewaretoken": token})
    assert joined.status_code == 200 and "angry-seat" in joined.text
    browser.page = joined.text  # type: ignore[attr-defined]
    return browser


@pytest.mark.timeout(300)
def test_an_idle_websocket_in_service_mode_stays_open_and_still_receives_an_update(tmp_path):
    need(
        bool(os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")),
        "DATABASE_URL and REDIS_URL are not both set: no Redis channel layer",
    )
    with live_server(tmp_path, name="idle", redis_db=11, env={"ANGRY_NARRATION": "text"}) as server:
        code = server.room("--case", CASE, "--open-seats", "2,3")
        anna = _join(server.url, code, "Anna")
        path = re.search(r'ws-connect="([^"]+)"', anna.page).group(1)  # type: ignore[attr-defined]
        cookie = "; ".join(f"{k}={v}" for k, v in anna.cookies.items())

        async def idle_then_update() -> str:
            url = server.ws_url(path)
            async with websockets.connect(url, origin=server.url, additional_headers={"Cookie": cookie}) as socket:
                for _ in range(5):  # the judge's first words may still arrive: then wait afresh
                    try:
                        await asyncio.wait_for(socket.recv(), timeout=IDLE_SECONDS)
                    except TimeoutError:
                        break  # IDLE_SECONDS without a message, and still open
                else:
                    raise AssertionError("the room never fell silent")
                await asyncio.to_thread(_join, server.url, code, "Ben Idle")
                while True:
                    message = str(await asyncio.wait_for(socket.recv(), timeout=30))
                    if "Ben Idle" in message:
                        return message

        assert 'id="jury-box"' in asyncio.run(idle_then_update())
