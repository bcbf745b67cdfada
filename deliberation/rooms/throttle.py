"""Throttles on guessing room codes: wrong codes, and MCP joins, counted per browser and per address.

A room code is six characters; without a limit a script tries dozens a second on ``/join/`` or
through MCP ``join_as_juror``. Each browser (its session's browser key at its address) may give
``ANGRY_THROTTLE_WRONG_CODES`` wrong codes per window of ``ANGRY_THROTTLE_WINDOW_SECONDS`` (a
student's typos fit easily); a client without a browser (an MCP connection, a request that keeps no
cookie on a room page) counts in one bucket per address with that same limit. Every address also
has a generous cap, ``ANGRY_THROTTLE_WRONG_CODES_PER_ADDRESS``, on all its wrong codes together,
so a script that throws its cookie away each time still meets a limit. An MCP client may make
``ANGRY_THROTTLE_MCP_JOINS`` joins, right or wrong. Past a limit every attempt is refused with
``ERROR_THROTTLED`` (HTTP 429 on pages) until the window ends.

A school often reaches the site from one address: one pupil's typos hold back that pupil's browser,
not the class, until the whole building passes the address cap. A browser that can see a room (its
host, its participants, staff) gets that room's pages and its way back in through the join link
whatever the count. Only the lookups that find nothing this browser may see are refused.

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

from angryagents.identity import browser_key
from deliberation.access import NOT_FOUND, Viewer, visible_rooms
from deliberation.models import Deliberation, Seat
from deliberation.rooms import codes, control, services
from deliberation.rooms.state import is_room

ERROR_THROTTLED = (
    "Too many tries in a short time, so this screen has to wait {seconds} s before it can try a room code again."
)
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


def _buckets(scope: str, client: str, browser: str) -> tuple[tuple[str, int], ...]:
    """(counter, limit) pairs an attempt counts in: the browser's own (the address's browserless
    bucket when there is no browser), and for wrong codes the address's cap over all its browsers."""
    own = (f"{client}/{browser}", _limit(scope))
    if scope != WRONG_CODES:
        return (own,)
    return own, (client, settings.ANGRY_THROTTLE_WRONG_CODES_PER_ADDRESS)


def check(scope: str, client: str, browser: str = "") -> None:
    """Raise ``Throttled`` when ``client`` (its ``browser``, or the whole address) has no attempt
    left in this window."""
    window = _window()
    for counter, limit in _buckets(scope, client, browser):
        if int(cache.get(_key(scope, counter, window), 0)) >= limit:
            raise Throttled(window.retry_after)


def _incr(key: str) -> int:
    cache.add(key, 0, timeout=settings.ANGRY_THROTTLE_WINDOW_SECONDS + 5)
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr: this is the window's first attempt
        cache.set(key, 1, timeout=settings.ANGRY_THROTTLE_WINDOW_SECONDS + 5)
        return 1


def count(scope: str, client: str, browser: str = "") -> int:
    """Count one attempt (atomic in Redis and in memory) in each bucket; the attempts this browser
    (or browserless client) made in this window."""
    window = _window()
    counts = [_incr(_key(scope, counter, window)) for counter, _ in _buckets(scope, client, browser)]
    return counts[0]


def client_of(request: HttpRequest) -> str:
    return request.META.get("REMOTE_ADDR") or UNKNOWN_CLIENT


def _browser_of(request: HttpRequest, client: str, *, create: bool) -> str:
    """This browser's key for its own count. ``create`` gives a browser without one its key, once
    the address cap has room, so a pupil following a join link counts apart from a cookieless
    guesser at the same address (who then meets the address cap)."""
    key = browser_key(request, create=False)
    if key or not create:
        return key
    check(WRONG_CODES, client)
    return browser_key(request)


def room_for_client(client: str, code: str, browser: str = "") -> Deliberation:
    """``services.room_for_session`` behind the wrong-code throttle: a wrong code is counted."""
    check(WRONG_CODES, client, browser)
    try:
        return services.room_for_session(code)
    except ValidationError:
        count(WRONG_CODES, client, browser)
        raise


def room_for_request(request: HttpRequest, code: str) -> Deliberation:
    """The room a page asks for by code, throttled per browser and per address (``Throttled`` past
    a limit)."""
    client = client_of(request)
    return room_for_client(client, code, _browser_of(request, client, create=True))


def seat_for_request(request: HttpRequest, code: str, credential: services.Credential) -> tuple[Deliberation, Seat]:
    """A seat code typed on ``/join/``: the seat moves to this browser (``control.seat_rejoin``).
    A wrong seat code counts against the same limits as a wrong room code."""
    client = client_of(request)
    browser = _browser_of(request, client, create=True)
    check(WRONG_CODES, client, browser)
    try:
        control.seat_for_code(code)
    except ValidationError:
        count(WRONG_CODES, client, browser)
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
        browser = _browser_of(request, client, create=False)
        check(WRONG_CODES, client, browser)
        count(WRONG_CODES, client, browser)
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
