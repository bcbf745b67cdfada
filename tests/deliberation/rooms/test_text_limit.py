"""One limit for a person's or an agent's own words: the room's page, the service and the MCP tool."""

from __future__ import annotations

import asyncio

import pytest
from django.core.exceptions import ValidationError

from deliberation.engine.strategies import MAX_TEXT
from deliberation.mcp.server import server
from deliberation.rooms import clock, services
from deliberation.rooms.services import ERROR_CONTENT_LONG, Credential


def test_the_mcp_tool_announces_the_same_limit_as_the_page_and_the_server() -> None:
    tools = {tool.name: tool for tool in asyncio.run(server.list_tools())}
    content = tools["make_argument"].input_schema["properties"]["content"]
    assert content["maxLength"] == MAX_TEXT and str(MAX_TEXT) in content["description"]


def test_a_room_hears_exactly_the_limit_and_refuses_one_character_more(robbery, client):
    from tests.conftest import browser_of

    room = services.room_create(case=robbery, host_session_key="host", host_plays=False, open_seats=(2,), seed=5)
    key = browser_of(client)
    services.room_join(code=room.room_code, credential=Credential(session_key=key), preferred_seat=2)
    services.room_start(deliberation_id=room.pk, session_key="host")
    clock.room_tick(deliberation_id=room.pk)
    page = client.get(f"/rooms/{room.room_code}/controls/").content.decode()
    assert f'maxlength="{MAX_TEXT}"' in page
    with pytest.raises(ValidationError) as excinfo:
        services.room_speak(
            deliberation_id=room.pk, credential=Credential(session_key=key), content="x" * (MAX_TEXT + 1)
        )
    assert excinfo.value.messages == [ERROR_CONTENT_LONG.format(limit=MAX_TEXT, length=MAX_TEXT + 1)]
    services.room_speak(deliberation_id=room.pk, credential=Credential(session_key=key), content="x" * MAX_TEXT)
