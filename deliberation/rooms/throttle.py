"""Throttles on guessing room codes: wrong codes, and MCP joins, counted per client address.

A room code is six characters; without a limit a script tries dozens a second on ``/join/`` or
through MCP ``join_as_juror``. Each client address may give ``ANGRY_THROTTLE_WRONG_CODES``
wrong codes per window of ``ANGRY_THROTTLE_WINDOW_SECONDS`` (a student's typos fit easily), and
make ``ANGRY_THROTTLE_MCP_JOINS`` MCP joins, right or wrong; past that every attempt is refused
with ``ERROR_THROTTLED`` (HTTP 429 on pages) until the window ends.

The limit holds back whoever tries codes, never someone already in a room. A school often reaches
the site from one address, so one class's typos on ``/join/`` count for every class in the
building; a browser that can see a room (its host, its participants, staff) gets that room's pages
and its way back in through the join link whatever the count. Only the lookups that find nothing
this browser may see are refused past the limit.

The counters live in Django's cache: this process's memory when embedded (one web process), Redis
in service mode, so every Daphne process and every MCP connection counts against one limit. A
counter is a cache key per (scope, client, window) incremented atomically, expiring after its
window. Behind a reverse proxy, run Daphne with ``--proxy-headers`` so the client address is the
visitor's, not the proxy's.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from deliberation.access import NOT_FOUND, Viewer, visible_rooms
from deliberation.models import Deliberation, Seat
from deliberation.rooms import codes, control, services
from deliberation.rooms.state import is_room

ERROR_THROTTLED = "Too many attempts from your address. Please wait {seconds} s before trying a room code again."
WRONG_CODES = "room-code"
MCP_JOINS = "mcp-join"
UNKNOWN_CLIENT = "unknown"


class Throttled(Exception):
    """Refused for now: the client has used up its attempts in this window."""

    def __init__(self, retry_after: int) -> None:
        self.retry_after = retry_after
        self.message = ERROR_THROTTLED.format(seconds=retry_after)
        super().__init__(self.message)


@dataclass(frozen=True)
class Window:
    index: int
    retry_after: int  # seconds until the window ends


def _window() -> Window:
    length = settings.ANGRY_THROTTLE_WINDOW_SECONDS
    now = time.time()
    index = int(now // length)
    return Window(index=index, retry_after=max(1, int((index + 1) * length - now + 0.999)))


def _limit(scope: str) -> int:
    return settings.ANGRY_THROTTLE_MCP_JOINS if scope == MCP_JOINS else settings.ANGRY_THROTTLE_WRONG_CODES


def _key(scope: str, client: str, window: Window) -> str:
    return f"throttle:{scope}:{client}:{window.index}"


def check(scope: str, client: str) -> None:
    """Raise ``Throttled`` when ``client`` has no attempt left in this window."""
    window = _window()
    if int(cache.get(_key(scope, client, window), 0)) >= _limit(scope):
        raise Throttled(window.retry_after)


def count(scope: str, client: str) -> int:
    """Count one attempt (atomic in Redis and in memory); the attempts made in this window."""
    window = _window()
    key = _key(scope, client, window)
    cache.add(key, 0, timeout=settings.ANGRY_THROTTLE_WINDOW_SECONDS + 5)
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr: this is the window's first attempt
        cache.set(key, 1, timeout=settings.ANGRY_THROTTLE_WINDOW_SECONDS + 5)
        return 1


def client_of(request: HttpRequest) -> str:
    return request.META.get("REMOTE_ADDR") or UNKNOWN_CLIENT


def room_for_client(client: str, code: str) -> Deliberation:
    """``services.room_for_session`` behind the wrong-code throttle: a wrong code is counted."""
    check(WRONG_CODES, client)
    try:
        return services.room_for_session(code)
    except ValidationError:
        count(WRONG_CODES, client)
        raise


def room_for_request(request: HttpRequest, code: str) -> Deliberation:
    """The room a page asks for by code, throttled per client address (``Throttled`` past the limit)."""
    return room_for_client(client_of(request), code)


def seat_for_request(request: HttpRequest, code: str, credential: services.Credential) -> tuple[Deliberation, Seat]:
    """A seat code typed on ``/join/``: the seat moves to this browser (``control.seat_rejoin``).
    A wrong seat code counts against the same limit as a wrong room code."""
    client = client_of(request)
    check(WRONG_CODES, client)
    try:
        control.seat_for_code(code)
    except ValidationError:
        count(WRONG_CODES, client)
        raise
    return control.seat_rejoin(code=code, credential=credential)


def visible_room(request: HttpRequest, code: str) -> Deliberation:
    """A room page's room if this browser may see it (``deliberation.access``: host, participants,
    staff), whatever its address has counted; else 404 exactly as for a code that does not exist,
    and counted as a wrong code alike (429 past the limit), so a page never tells a stranger that
    a code is real. Joining (``room_for_request``) is the one door a code opens."""
    found = seen_room(request, code)
    if found is None:
        client = client_of(request)
        check(WRONG_CODES, client)
        count(WRONG_CODES, client)
        raise Http404(NOT_FOUND)
    return found


def seen_room(request: HttpRequest, code: str) -> Deliberation | None:
    """The room of ``code`` if this browser may see it, else None; nothing is counted (a browser
    that may see a room learns nothing from its code)."""
    # The engine state is most of the row and no room page reads it here (engine.summary).
    rows = visible_rooms(Deliberation.objects.select_related("case").defer("engine_state"), Viewer.of(request))
    found = rows.filter(room_code=codes.normalise(code)).first()
    return found if found is not None and is_room(found) else None


def mcp_join(client: str) -> None:
    """Count an MCP join attempt, refusing one past either limit (wrong codes are counted by the lookup)."""
    check(WRONG_CODES, client)
    check(MCP_JOINS, client)
    count(MCP_JOINS, client)


class ThrottleMiddleware:
    """Turns ``Throttled`` raised by a page into a 429 in the product's style, with Retry-After."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, Throttled):
            return None
        response = render(request, "429.html", {"message": exception.message}, status=429)
        response["Retry-After"] = str(exception.retry_after)
        return response
