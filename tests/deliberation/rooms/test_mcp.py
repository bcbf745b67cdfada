"""The MCP server at /mcp, through the official MCP client against a live Daphne on loopback
(``daphne_server`` in conftest.py: PostgreSQL, Redis and a Celery worker under CI)."""

from __future__ import annotations

import asyncio
import time
import urllib.error
import urllib.request
from typing import Any

from mcp import Client

from deliberation.rooms import services

TURN_WAIT_SECONDS = 60.0


def call(result: Any) -> dict:
    assert not result.is_error, result.content
    return result.structured_content


def refusal(result: Any) -> str:
    assert result.is_error
    return result.content[0].text


async def wait_for_turn(client: Client, token: str) -> dict:
    deadline = time.monotonic() + TURN_WAIT_SECONDS
    while True:
        state = call(await client.call_tool("get_deliberation_state", {"token": token}))
        if state["is_your_turn"] or time.monotonic() > deadline:
            return state
        await asyncio.sleep(0.3)


def test_an_agent_joins_reads_the_state_argues_and_votes(daphne_server):
    code = daphne_server.room("--case", "kessler-market-robbery", "--open-seats", "2,3", "--autostart", "--seed", "5")
    words = "Bait bills in a glovebox prove the car held the money, not who put it there. #agent-7f3"

    async def play() -> tuple[dict, dict, dict, dict, dict, dict]:
        async with Client(f"{daphne_server.url}/mcp") as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            joined = call(await client.call_tool("join_as_juror", {"room_code": code, "preferred_seat": 3}))
            token = joined["token"]
            state = await wait_for_turn(client, token)
            evidence = call(await client.call_tool("view_evidence", {"token": token, "query": "bait bills"}))
            argued = call(
                await client.call_tool(
                    "make_argument", {"token": token, "argument_type": "evidence", "content": words, "target_seat": 5}
                )
            )
            voted = call(await client.call_tool("cast_vote", {"token": token, "vote": "not_guilty"}))
            record = call(await client.call_tool("view_deliberation", {"token": token}))
            return {"names": names}, joined, state, evidence, argued | {"voted": voted}, record

    tools, joined, state, evidence, argued, record = asyncio.run(play())
    assert tools["names"] >= {
        "join_as_juror",
        "get_deliberation_state",
        "view_evidence",
        "make_argument",
        "cast_vote",
        "pass_turn",
        "view_deliberation",
    }
    assert joined["seat"] == 3 and isinstance(joined["seat"], int) and joined["token"]
    assert joined["case_briefing"]["title"] and joined["suggested_persona"]["name"]
    assert joined["state"]["room_code"] == code
    assert state["is_your_turn"] is True and state["your_seat"] == 3
    assert set(state["tally"]) == {"guilty", "not_guilty"} and "convictions" in state  # shown by default
    assert any("bait" in p["text"].lower() for p in evidence["passages"])
    # The agent is the room's only participant, so the jury hears it at once and reacts.
    assert argued["accepted"] is True and argued["pending"] is False
    assert {r["seat"] for r in argued["reactions"]} >= {1, 2, 4, 5, 6}
    assert all({"conviction_change", "thought", "persuaded"} <= set(r) for r in argued["reactions"])
    assert argued["voted"]["recorded"] is True and argued["voted"]["vote"] == "not_guilty"
    spoken = [t for t in record["transcript"] if t["seat"] == 3 and t["kind"] == "speech"]
    assert spoken and spoken[0]["content"] == words  # verbatim
    assert spoken[0]["target_seat"] == 5


def test_refusals_name_their_reason(daphne_server):
    code = daphne_server.room("--case", "kessler-market-robbery", "--open-seats", "2", "--autostart")

    async def refused() -> dict[str, str]:
        async with Client(f"{daphne_server.url}/mcp") as client:
            joined = call(await client.call_tool("join_as_juror", {"room_code": code}))
            token = joined["token"]
            out = {
                "wrong_token": refusal(
                    await client.call_tool("cast_vote", {"token": token[:-4] + "abcd", "vote": "guilty"})
                ),
                "other_seat": refusal(
                    await client.call_tool("cast_vote", {"token": token, "vote": "guilty", "seat": 9})
                ),
                "full": refusal(await client.call_tool("join_as_juror", {"room_code": code})),
                "wrong_code": refusal(await client.call_tool("join_as_juror", {"room_code": "QQQQQQ"})),
                "bad_vote": refusal(await client.call_tool("cast_vote", {"token": token, "vote": "maybe"})),
                "seat": str(joined["seat"]),
            }
            return out

    out = asyncio.run(refused())
    assert services.ERROR_TOKEN in out["wrong_token"]
    assert services.ERROR_OTHER_SEAT.format(own=2, seat=9) in out["other_seat"]
    assert services.ERROR_ROOM_FULL in out["full"]
    assert services.ERROR_ROOM_UNKNOWN.format(code="QQQQQQ") in out["wrong_code"]
    assert "guilty" in out["bad_vote"]


def test_agents_may_be_kept_from_seeing_convictions(daphne_server):
    code = daphne_server.room(
        "--case", "kessler-market-robbery", "--open-seats", "4", "--autostart", "--hide-convictions"
    )

    async def look() -> dict:
        async with Client(f"{daphne_server.url}/mcp") as client:
            token = call(await client.call_tool("join_as_juror", {"room_code": code}))["token"]
            return call(await client.call_tool("get_deliberation_state", {"token": token}))

    state = asyncio.run(look())
    assert "convictions" not in state and "your_conviction" in state


def test_the_server_answers_at_exactly_slash_mcp_without_a_redirect(daphne_server):
    request = urllib.request.Request(f"{daphne_server.url}/mcp/", method="POST", data=b"{}")
    try:
        urllib.request.urlopen(request, timeout=5)
        status = 200
    except urllib.error.HTTPError as exc:
        status = exc.code
    assert status == 404  # /mcp/ is not the MCP endpoint, and nothing redirects to it
