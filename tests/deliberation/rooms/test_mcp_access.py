"""MCP access is by seat token only: an agent reaches the one room its token sits in, and no tool
addresses a deliberation by id, public id or code (except joining, which takes a room code and
hands out the token)."""

from __future__ import annotations

from typing import Any

import pytest
from mcp.server.mcpserver.exceptions import ToolError

from deliberation.mcp.server import server
from deliberation.rooms import services
from deliberation.rooms.access import ERROR_TOKEN

pytestmark = [pytest.mark.anyio]
ADDRESSES = {"id", "deliberation_id", "public_id", "room_code", "code", "share_token", "session_key"}
BOGUS = "not-a-seat-token-0000000000000000"
ARGUMENTS: dict[str, dict[str, Any]] = {
    "get_deliberation_state": {},
    "view_evidence": {"query": "knife"},
    "make_argument": {"argument_type": "logical", "content": "He was seen for two seconds."},
    "cast_vote": {"vote": "guilty"},
    "pass_turn": {},
    "view_deliberation": {},
    "trial_state": {},
    "take_counsel": {"side": "defense"},
    "ask_witness": {"question": "Was it dark?"},
    "rest_case": {},
    "counsel_speech": {"text": "He was driving around."},
    "object": {"ground": "leading"},
    "no_objection": {},
}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _schema(tool: Any) -> dict[str, Any]:
    return getattr(tool, "input_schema", None) or tool.inputSchema


async def test_every_tool_but_joining_requires_a_seat_token_and_takes_no_address_of_a_deliberation():
    tools = {tool.name: _schema(tool) for tool in await server.list_tools()}
    assert set(tools) == {"join_as_juror", *ARGUMENTS}  # a new tool must be added here, with its arguments
    for name, schema in tools.items():
        if name == "join_as_juror":
            assert set(schema["properties"]) == {"room_code", "preferred_seat"}
            continue
        assert "token" in schema["required"], name
        assert not ADDRESSES & set(schema["properties"]), name


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", sorted(ARGUMENTS))
async def test_a_tool_refuses_a_token_that_holds_no_seat(name, robbery):
    with pytest.raises(ToolError) as refused:
        await server.call_tool(name, {"token": BOGUS, **ARGUMENTS[name]})
    assert ERROR_TOKEN in str(refused.value)


@pytest.mark.django_db(transaction=True)
async def test_a_token_reads_its_own_room_and_no_other(robbery):
    from asgiref.sync import sync_to_async

    def two_rooms() -> tuple[str, str, str]:
        first = services.room_create(case=robbery, host_session_key="t1", host_plays=False, open_seats=(2,))
        second = services.room_create(case=robbery, host_session_key="t2", host_plays=False, open_seats=(2,))
        _deliberation, _seat, token = services.room_join(code=first.room_code, agent=True)
        return token, first.room_code, second.room_code

    token, mine, other = await sync_to_async(two_rooms)()
    result = await server.call_tool("view_deliberation", {"token": token})
    shown = result[1] if isinstance(result, tuple) else result
    assert mine in str(shown) and other not in str(shown)
