"""The MCP server for external AI jurors, at exactly ``/mcp`` (streamable HTTP, official ``mcp`` SDK).

An external agent joins a room by its code and gets a seat and a secret token; every other tool
takes the token. The tools are thin: they call ``deliberation.rooms`` services and selectors and
return JSON objects. A refusal is a tool error whose text is the service's message. An agent's
words are stored verbatim and heard by the jury with the same reaction and conviction mechanics
as anybody's.

The server instance and the helpers every tool shares live in ``deliberation.mcp.app``; the juror's
tools are here, counsel's at the trial in ``deliberation.mcp.counsel``, and importing this module
registers both. ``MCPApp`` is the ASGI app ``angryagents.asgi`` mounts. Daphne sends no ASGI lifespan events, so
the SDK's session manager (which must run inside a task group for the server's lifetime) is
started on the first request, in a task of its own that lives as long as the server's loop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from django.conf import settings
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import Field

from cases.models import Case
from cases.retrieval import evidence_lookup
from deliberation.engine.strategies import MAX_TEXT
from deliberation.mcp import counsel as mcp_counsel  # noqa: F401 (registers the counsel tools on the server)
from deliberation.mcp.app import _call, _seat_for, server
from deliberation.models import Deliberation, Seat, Turn, TurnKind
from deliberation.rooms import selectors, services, throttle
from deliberation.rooms.services import Credential

logger = logging.getLogger(__name__)

MCP_PATH = "/mcp"
DEFAULT_REACTION_WAIT_SECONDS = 20.0
POLL_SECONDS = 0.25
EVIDENCE_RESULTS = 5
THROTTLED_PREFIX = "429 Too Many Requests: "
CONTENT_HELP = f"Your words, stored verbatim: at most {MAX_TEXT} characters (the same limit as the courtroom's)."


def _client(ctx: Context | None) -> str:
    """The caller's address (the throttles count per client); "unknown" outside an HTTP request."""
    try:
        request = ctx.request_context.request if ctx is not None else None
    except ValueError:  # no request in flight
        request = None
    client = getattr(request, "client", None)
    return getattr(client, "host", None) or throttle.UNKNOWN_CLIENT


def _join(room_code: str, preferred_seat: int | None, client: str) -> dict[str, Any]:
    try:
        throttle.mcp_join(client)
        throttle.room_for_client(client, room_code)  # a wrong code counts against the same limit as on /join/
    except throttle.Throttled as exc:
        raise ToolError(THROTTLED_PREFIX + exc.message) from None
    deliberation, seat, token = services.room_join(code=room_code, agent=True, preferred_seat=preferred_seat)
    deliberation = Deliberation.objects.select_related("case").get(pk=deliberation.pk)
    seat = Seat.objects.select_related("persona__archetype").get(pk=seat.pk)
    case = Case.objects.prefetch_related("defendants", "evidence", "witnesses").get(pk=deliberation.case_id)
    return {
        "seat": seat.number,
        "token": token,
        "case_briefing": selectors.case_briefing(case),
        "suggested_persona": selectors.persona_hint(seat),
        "state": selectors.room_state(deliberation, seat, for_agent=True),
    }


@server.tool()
async def join_as_juror(
    room_code: str, preferred_seat: int | None = None, ctx: Context | None = None
) -> dict[str, Any]:
    """Join a room as a juror. preferred_seat is one of the room's open seats (2-6, 8-12), or
    None to take the lowest free one. Returns your seat, your secret token (keep it: every other
    tool needs it), the case briefing, a suggested persona (you may ignore it) and the state.
    Joins and wrong codes are limited per client address; past the limit the error starts with 429."""
    return await _call(_join, room_code=room_code, preferred_seat=preferred_seat, client=_client(ctx))


def _state(token: str) -> dict[str, Any]:
    deliberation, seat = _seat_for(token)
    return selectors.room_state(deliberation, seat, for_agent=True)


@server.tool()
async def get_deliberation_state(token: str) -> dict[str, Any]:
    """The state now: the jury rules (name and what they require), recent_arguments (last 5),
    tally, your_conviction, next_speaker (who speaks next), is_your_turn (true: speak with
    make_argument or pass_turn), and the other jurors' convictions when the room shows them."""
    return await _call(_state, token=token)


def _evidence(token: str, query: str | None) -> dict[str, Any]:
    deliberation, _seat = _seat_for(token)
    case = Case.objects.prefetch_related("defendants", "evidence", "witnesses").get(pk=deliberation.case_id)
    if not (query or "").strip():
        briefing = selectors.case_briefing(case)
        return {"query": None, "evidence": briefing["evidence"], "witnesses": briefing["witnesses"]}
    passages = evidence_lookup(case, query or "", k=EVIDENCE_RESULTS)
    return {
        "query": query,
        "passages": [{"kind": p.kind, "id": p.item_id, "label": p.label, "text": p.text} for p in passages],
    }


@server.tool()
async def view_evidence(token: str, query: str | None = None) -> dict[str, Any]:
    """The case's evidence and witnesses; with a query, the passages of the case file that match it best."""
    return await _call(_evidence, token=token, query=query)


def _speak(token: str, argument_type: str, content: str, target_seat: int | None, seat: int | None) -> dict:
    deliberation_id = services.deliberation_for_token(token)
    heard_in = services.room_speak(
        deliberation_id=deliberation_id,
        credential=Credential(token=token),
        seat_number=seat,
        content=content,
        argument_type=argument_type,
        target=target_seat,
    )
    own = services.seat_of(Deliberation.objects.get(pk=deliberation_id), Credential(token=token))
    return {"deliberation_id": deliberation_id, "round": heard_in, "seat": own.number if own else seat}


def _heard(deliberation_id: int, seat: int, round_number: int, content: str) -> dict[str, Any] | None:
    """The reactions to this speech and the round's vote changes, once the jury has heard it."""
    heard_up_to = Deliberation.objects.filter(pk=deliberation_id).values_list("round_number", flat=True).first()
    if heard_up_to is None or heard_up_to < round_number:
        return None  # spoken and shown to the room, but its round has not been run yet
    turns = list(Turn.objects.filter(deliberation_id=deliberation_id, round_number=round_number))
    mine = next(
        (t for t in turns if t.kind == TurnKind.SPEECH and t.seat_number == seat and t.content == content), None
    )
    if mine is None:
        return None
    seats = list(Seat.objects.filter(deliberation_id=deliberation_id))
    names = {s.number: s.display_name for s in seats}
    people = {s.number for s in seats if s.is_participant}  # no listeners (``Turn.heard_by_jurors``)
    flips = [flip for t in turns for flip in t.flips]
    return {
        "reactions": [
            {
                "seat": r["seat"],
                "juror": names.get(r["seat"], ""),
                "conviction_change": r["delta"],
                "thought": r["thought"],
                "persuaded": r["persuaded"],
            }
            for r in mine.heard_by_jurors(people)
        ],
        "vote_changes": [
            {"seat": f["seat"], "juror": names.get(f["seat"], ""), "from": f["from"], "to": f["to"]} for f in flips
        ],
    }


@server.tool()
async def make_argument(
    token: str,
    argument_type: str,
    content: Annotated[str, Field(max_length=MAX_TEXT, description=CONTENT_HELP)],
    target_seat: int | None = None,
    seat: int | None = None,
) -> dict[str, Any]:
    """Speak on your turn. argument_type: evidence, emotional, logical, question, moral or narrative.
    content is stored verbatim. target_seat addresses one juror. seat, if given, must be your own.
    The jury hears it when the round after the participants' turns runs; if that happens within a
    few seconds the reactions and vote changes come back here, else pending is true and they show
    in get_deliberation_state / view_deliberation."""
    spoken = await _call(
        _speak, token=token, argument_type=argument_type, content=content, target_seat=target_seat, seat=seat
    )
    wait = float(getattr(settings, "ANGRY_MCP_REACTION_WAIT_SECONDS", DEFAULT_REACTION_WAIT_SECONDS))
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    heard = None
    while heard is None:
        heard = await _call(
            _heard,
            deliberation_id=spoken["deliberation_id"],
            seat=spoken["seat"],
            round_number=spoken["round"],
            content=content,
        )
        if heard is not None or loop.time() >= deadline:
            break
        await asyncio.sleep(POLL_SECONDS)
    return {
        "accepted": True,
        "heard_in_round": spoken["round"],
        "pending": heard is None,
        "reactions": heard["reactions"] if heard else [],
        "vote_changes": heard["vote_changes"] if heard else [],
    }


def _vote(token: str, vote: str, seat: int | None) -> dict[str, Any]:
    deliberation_id = services.deliberation_for_token(token)
    outcome = services.room_vote(
        deliberation_id=deliberation_id, credential=Credential(token=token), value=vote, seat_number=seat
    )
    seats = list(Seat.objects.filter(deliberation_id=deliberation_id))
    return {**outcome, "vote": vote, "new_tally": selectors.tally(seats)}


@server.tool()
async def cast_vote(token: str, vote: str, seat: int | None = None) -> dict[str, Any]:
    """Cast or change your vote, 'guilty' or 'not_guilty', at any time during the deliberation."""
    return await _call(_vote, token=token, vote=vote, seat=seat)


def _pass(token: str, seat: int | None) -> dict[str, Any]:
    deliberation_id = services.deliberation_for_token(token)
    services.room_pass(deliberation_id=deliberation_id, credential=Credential(token=token), seat_number=seat)
    return {"passed": True, "state": _state(token)}


@server.tool()
async def pass_turn(token: str, seat: int | None = None) -> dict[str, Any]:
    """Pass your turn without speaking."""
    return await _call(_pass, token=token, seat=seat)


def _transcript(token: str) -> dict[str, Any]:
    deliberation, _seat = _seat_for(token)
    return {
        "room_code": deliberation.room_code,
        "phase": deliberation.phase,
        "verdict": deliberation.verdict or None,
        "transcript": selectors.transcript(deliberation),
    }


@server.tool()
async def view_deliberation(token: str) -> dict[str, Any]:
    """The full transcript of the deliberation so far, in order."""
    return await _call(_transcript, token=token)


def _transport_security() -> TransportSecuritySettings:
    """Host checks follow Django's ALLOWED_HOSTS (DNS-rebinding protection for a local server)."""
    hosts = list(settings.ALLOWED_HOSTS)
    if "*" in hosts:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    allowed = [h for host in hosts for h in (host, f"{host}:*")]
    origins = [o for host in hosts for o in (f"http://{host}", f"http://{host}:*", f"https://{host}")]
    return TransportSecuritySettings(allowed_hosts=allowed, allowed_origins=origins)


ASGIApp = Callable[[dict, Callable[[], Awaitable[dict]], Callable[[dict], Awaitable[None]]], Awaitable[None]]


class MCPApp:
    """The ASGI app behind ``/mcp``: starts the SDK's session manager on first use."""

    def __init__(self) -> None:
        server.streamable_http_app(streamable_http_path=MCP_PATH, transport_security=_transport_security())
        self.manager = server.session_manager
        self._started: asyncio.Event | None = None
        self._runner: asyncio.Task[None] | None = None

    async def _run_manager(self, started: asyncio.Event) -> None:
        async with self.manager.run():
            started.set()
            await asyncio.Event().wait()  # for the life of the server's loop

    async def _ensure_started(self) -> None:
        if self._started is None:
            self._started = asyncio.Event()
            self._runner = asyncio.get_running_loop().create_task(self._run_manager(self._started))
        await self._started.wait()

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        await self._ensure_started()
        await self.manager.handle_request(scope, receive, send)
