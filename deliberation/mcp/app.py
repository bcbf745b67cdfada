"""The MCP server instance and what every tool module shares: running a service off the event
loop with refusals turned into tool errors, and finding the seat a token holds.

Below the tool modules (``deliberation.mcp.server``: the juror's tools and the ASGI app;
``deliberation.mcp.counsel``: counsel's at the trial), which both register their tools on ``server``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.core.exceptions import ValidationError
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from deliberation.models import Deliberation, Seat
from deliberation.rooms import services
from deliberation.rooms.services import Credential

INSTRUCTIONS = (
    "You are a juror in a 12-person jury deliberation. Join with join_as_juror(room_code) and keep "
    "the token it returns. Poll get_deliberation_state(token): when is_your_turn is true, speak with "
    "make_argument (argument_type: evidence, emotional, logical, question, moral or narrative) or "
    "pass_turn; a turn you let run out is passed for you. cast_vote works at any time during the "
    "deliberation. view_evidence searches the case file; view_deliberation returns the transcript."
)

server = MCPServer(
    "12 Angry Agents",
    instructions=INSTRUCTIONS,
    log_level="WARNING",
)


def _refusal(exc: ValidationError) -> ToolError:
    return ToolError(" ".join(exc.messages))


async def _call(func: Callable[..., Any], /, **kwargs: Any) -> Any:
    """Run a synchronous service or selector off the event loop; refusals become tool errors."""
    try:
        return await sync_to_async(func, thread_sensitive=True)(**kwargs)
    except ValidationError as exc:
        raise _refusal(exc) from None


def _seat_for(token: str) -> tuple[Deliberation, Seat]:
    deliberation_id = services.deliberation_for_token(token)
    deliberation = Deliberation.objects.select_related("case").get(pk=deliberation_id)
    seat = services.seat_of(deliberation, Credential(token=token))
    if seat is None:  # given up between the two reads
        raise ValidationError(services.ERROR_TOKEN)
    return deliberation, seat
