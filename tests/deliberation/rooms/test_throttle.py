"""Room codes cannot be guessed: wrong codes (pages and MCP) and MCP joins are throttled per client.

In-process through Django's test client (the counter in this process's cache, or Redis under CI),
across processes in service mode (another process's wrong codes count here), and through a live
Daphne with the official MCP client (web and MCP attempts from one address share one count).
"""

from __future__ import annotations

import asyncio
import http.client
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx2
import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse
from mcp import Client as MCPClient
from mcp.client.streamable_http import streamable_http_client

from deliberation.mcp.server import THROTTLED_PREFIX
from deliberation.rooms import services, throttle
from tests.conftest import need
from tests.live import ROOT, LiveServer, live_server

LIMIT = 3


@pytest.fixture
def limits(settings: Any) -> None:
    settings.ANGRY_THROTTLE_WRONG_CODES = LIMIT
    settings.ANGRY_THROTTLE_WRONG_CODES_PER_ADDRESS = LIMIT * 4
    settings.ANGRY_THROTTLE_MCP_JOINS = LIMIT + 2


@pytest.fixture
def room(robbery: Any) -> str:
    return services.room_create(case=robbery, open_seats=(2, 3)).room_code


def visitor() -> tuple[Client, str]:
    """A browser at an address of its own."""
    address = f"10.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}"
    return Client(REMOTE_ADDR=address), address


def test_wrong_codes_past_the_limit_get_a_429_page_with_the_wait_and_retry_after(limits, room):
    browser, _ = visitor()
    for guess in ("QQQQQQ", "QQQQQR", "QQQQQT"):
        answer = browser.post(reverse("room_join"), {"code": guess}, follow=True)
        assert answer.status_code == 200
        assert services.ERROR_ROOM_UNKNOWN.format(code=guess).replace("'", "&#x27;") in answer.content.decode()

    refused = browser.post(reverse("room_join"), {"code": "QQQQQU"})

    assert refused.status_code == 429
    seconds = int(refused["Retry-After"])
    assert 1 <= seconds <= django_settings.ANGRY_THROTTLE_WINDOW_SECONDS
    assert throttle.ERROR_THROTTLED.format(seconds=seconds) in refused.content.decode()
    assert "wrong" not in throttle.ERROR_THROTTLED and "too many tries" in throttle.ERROR_THROTTLED.lower()
    assert 'class="error-page"' in refused.content.decode()  # the product's page, not a bare text
    # Even the right code waits now: that is what stops the guessing.
    assert browser.get(reverse("room_join_code", args=[room])).status_code == 429
    assert browser.get(reverse("room", args=[room])).status_code == 429


def test_another_client_is_not_held_up_by_someone_elses_guesses(limits, room):
    guesser, _ = visitor()
    for n in range(LIMIT + 1):
        guesser.get(reverse("room", args=[f"QQQQ{n}A"]))
    student, _ = visitor()

    assert student.post(reverse("room_join"), {"code": room}).status_code == 302


def test_a_school_behind_one_address_keeps_its_rooms_when_someone_there_mistypes(limits, room):
    _, school = visitor()
    anna = Client(REMOTE_ADDR=school)
    assert anna.post(reverse("room_join_code", args=[room]), {"seat": 2, "name": "Anna"}).status_code == 302
    typist = Client(REMOTE_ADDR=school)
    for n in range(LIMIT):
        typist.post(reverse("room_join"), {"code": f"QQQQ{n}A"})
    assert typist.get(reverse("room_join_code", args=[room])).status_code == 429  # the typist waits

    assert anna.get(reverse("room", args=[room])).status_code == 200
    assert anna.get(reverse("room_controls", args=[room])).status_code == 200
    back = anna.get(reverse("room_join_code", args=[room]))
    assert back.status_code == 302 and back["Location"] == reverse("room", args=[room])
    assert typist.get(reverse("room", args=[room])).status_code == 429  # a room it may not see: refused


def test_a_pupils_wrong_codes_do_not_lock_out_the_other_browsers_at_a_school(limits, room):
    _, school = visitor()
    typist = Client(REMOTE_ADDR=school)
    typist.get(reverse("room_join"))
    for n in range(LIMIT + 1):
        typist.post(reverse("room_join"), {"code": f"QQQQ{n}A"})
    assert typist.post(reverse("room_join"), {"code": room}).status_code == 429  # the typist waits

    latecomer = Client(REMOTE_ADDR=school)  # a fresh browser in the same building
    assert latecomer.post(reverse("room_join"), {"code": room}).status_code == 302
    follower = Client(REMOTE_ADDR=school)  # one following the join link
    assert follower.get(reverse("room_join_code", args=[room])).status_code == 200


def test_a_flood_from_one_address_meets_the_address_cap(limits, room):
    _, address = visitor()
    for n in range(LIMIT * 4):
        Client(REMOTE_ADDR=address).post(reverse("room_join"), {"code": f"QQQ{n:02d}A".replace("0", "Q")})

    assert Client(REMOTE_ADDR=address).post(reverse("room_join"), {"code": room}).status_code == 429


def test_right_codes_never_count(limits, room):
    student, _ = visitor()
    for _ in range(LIMIT * 3):
        assert student.get(reverse("room_join_code", args=[room])).status_code == 200


def test_the_room_pages_by_code_count_wrong_codes_too(limits, db):
    browser, _ = visitor()
    for path in ("room", "room_teacher", "room_controls"):
        browser.get(reverse(path, args=["ZZZZZZ"]))

    assert browser.get(reverse("room_join_code", args=["ZZZZZY"])).status_code == 429


def test_the_next_window_lets_the_client_try_again(limits, room, monkeypatch):
    browser, _ = visitor()
    now = 1_000_000.0
    monkeypatch.setattr(throttle.time, "time", lambda: now)
    for _ in range(LIMIT):
        browser.get(reverse("room", args=["QQQQQQ"]))
    assert browser.get(reverse("room", args=[room])).status_code == 429

    now += django_settings.ANGRY_THROTTLE_WINDOW_SECONDS

    assert browser.get(reverse("room_join_code", args=[room])).status_code == 200


def test_wrong_codes_counted_by_another_process_hold_here_in_service_mode(limits, room, settings):
    need(bool(os.environ.get("REDIS_URL")), "REDIS_URL is not set: embedded mode counts in one process only")
    settings.ANGRY_THROTTLE_WRONG_CODES_PER_ADDRESS = LIMIT  # the address cap, which every process shares
    browser, address = visitor()
    prefix = settings.CACHES["default"]["KEY_PREFIX"]
    script = (
        "import django; django.setup()\n"
        "from django.conf import settings\n"
        f"settings.CACHES['default']['KEY_PREFIX'] = {prefix!r}\n"
        "from deliberation.rooms import throttle\n"
        f"for _ in range({LIMIT}): throttle.count(throttle.WRONG_CODES, {address!r})\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "angryagents.settings"}
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, check=True, timeout=120)

    assert browser.get(reverse("room_join_code", args=[room])).status_code == 429


# --- through a live Daphne and the official MCP client --------------------------------------------

LIVE_WRONG_CODES = 3
LIVE_MCP_JOINS = 6
MCP_ADDRESS = "127.0.0.2"  # the MCP client's own loopback address: its attempts are its own


@pytest.fixture(scope="module")
def throttled_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("throttle")
    env = {
        "ANGRY_NARRATION": "text",
        "ANGRY_THROTTLE_WRONG_CODES": str(LIVE_WRONG_CODES),
        "ANGRY_THROTTLE_WRONG_CODES_PER_ADDRESS": str(LIVE_WRONG_CODES),  # the address cap: pages and MCP share it
        "ANGRY_THROTTLE_MCP_JOINS": str(LIVE_MCP_JOINS),
        "ANGRY_THROTTLE_WINDOW_SECONDS": "3600",  # the test never crosses a window's edge
    }
    with live_server(tmp, name="throttle", redis_db=11, env=env) as server:
        yield server


def _join_as(server: LiveServer, codes: list[str], address: str = MCP_ADDRESS) -> list[str]:
    """MCP join_as_juror with each code from ``address``: each answer's error text, or "joined"."""
    transport = httpx2.AsyncHTTPTransport(local_address=address)

    async def run() -> list[str]:
        answers = []
        async with httpx2.AsyncClient(transport=transport, timeout=30) as http:
            async with MCPClient(streamable_http_client(f"{server.url}/mcp", http_client=http)) as client:
                for code in codes:
                    result = await client.call_tool("join_as_juror", {"room_code": code})
                    answers.append(result.content[0].text if result.is_error else "joined")
        return answers

    return asyncio.run(run())


def _join_page(server: LiveServer, code: str, source: str) -> int:
    """GET /join/<code>/ from ``source``: the status."""
    parts = urlsplit(server.url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30, source_address=(source, 0))
    try:
        connection.request("GET", f"/join/{code}/")
        return connection.getresponse().status
    finally:
        connection.close()


def test_mcp_wrong_codes_and_joins_are_throttled_and_share_the_count_with_the_pages(throttled_server):
    room = throttled_server.room("--case", "kessler-market-robbery", "--open-seats", "2,3,4,5,6")

    answers = _join_as(throttled_server, ["QQQQQQ", "QQQQQR", room, "QQQQQT", room])

    unknown = services.ERROR_ROOM_UNKNOWN.format(code="QQQQQQ")
    assert answers[0].endswith(unknown) and answers[2] == "joined"
    assert THROTTLED_PREFIX + throttle.ERROR_THROTTLED.split("{")[0] in answers[4]
    # The pages count the same wrong codes for the same address; another address is untouched.
    assert _join_page(throttled_server, room, MCP_ADDRESS) == 429
    assert _join_page(throttled_server, room, "127.0.0.1") == 200


def test_mcp_joins_past_their_own_limit_are_refused_even_with_the_right_code(throttled_server):
    room = throttled_server.room("--case", "kessler-market-robbery", "--open-seats", "2,3,4,5,6,8,9,10,11")

    answers = _join_as(throttled_server, [room] * (LIVE_MCP_JOINS + 1), address="127.0.0.3")

    assert answers[:LIVE_MCP_JOINS] == ["joined"] * LIVE_MCP_JOINS
    assert THROTTLED_PREFIX + throttle.ERROR_THROTTLED.split("{")[0] in answers[-1]
