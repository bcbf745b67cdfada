"""The rooms' live server for the MCP tests (``library`` and ``robbery`` come from tests/deliberation)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.live import LiveServer, live_server

MCP_SERVER = "mcp"  # database angry_mcp in service mode
MCP_REDIS_DB = 10  # the e2e server has 9


@pytest.fixture(scope="module")
def daphne_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A live Daphne (plus a Celery worker in service mode) whose judge speaks in text only."""
    tmp = tmp_path_factory.mktemp("mcp")
    with live_server(tmp, name=MCP_SERVER, redis_db=MCP_REDIS_DB, env={"ANGRY_NARRATION": "text"}) as server:
        yield server
