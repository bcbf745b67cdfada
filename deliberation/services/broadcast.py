"""The one broadcaster: the only code that sends to a deliberation's channel-layer group.

Services call ``announce`` inside their transaction; the message goes out after commit, with
the HTML partials rendered by the renderers the pages register (``register_renderers``: the
courtroom's fragments from ``deliberation.court.live``, a class page's room card from
``deliberation.rooms.class_live``, both registered when the app starts), so browsers swap them in
by id (htmx out-of-band swaps). The services sit below the pages and never import them. Streaming
text, which happens while a model is thinking and no transaction is open, goes out at once through
``Streamer``.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.db import transaction

from angryagents import background

logger = logging.getLogger(__name__)

EVENT_TYPE = "deliberation.event"
CLOSE_TYPE = "deliberation.close"
ACCESS_TYPE = "deliberation.access"  # who may watch changed: every open socket asks the access rule again
CLOSE_NOT_FOUND = 4404  # a socket's close code: no such deliberation or class, or not for this browser

EventRenderer = Callable[[int, str, dict[str, Any]], str]  # (deliberation id, event, data) -> HTML
ChunkRenderer = Callable[[int, int, str], str]  # (deliberation id, seat, streamed text) -> HTML
CardRenderer = Callable[[int], tuple[int, str] | None]  # deliberation id -> (class id, card HTML)


class _Renderers:
    event: EventRenderer | None = None
    chunk: ChunkRenderer | None = None
    card: CardRenderer | None = None


_renderers = _Renderers()


def register_renderers(
    *, event: EventRenderer | None = None, chunk: ChunkRenderer | None = None, card: CardRenderer | None = None
) -> None:
    """Name the functions that render what is pushed: an event's fragments and a streamed piece of
    speech (the courtroom), a room's card on its class page. Called once as the app starts
    (``DeliberationConfig.ready``); until then nothing is pushed but the counts."""
    if event is not None:
        _renderers.event = event
    if chunk is not None:
        _renderers.chunk = chunk
    if card is not None:
        _renderers.card = card


def seen_count(scope: dict[str, Any]) -> int | None:
    """The push count a page was rendered at, from its socket's query (``?seen=``), if it named one."""
    for pair in scope.get("query_string", b"").decode("latin-1").split("&"):
        name, _, value = pair.partition("=")
        if name == "seen" and value.isdigit() and len(value) < 19:
            return int(value)
    return None


def group_name(deliberation_id: int) -> str:
    """The channel-layer group of one deliberation (every consumer and sender uses this)."""
    return f"deliberation-{deliberation_id}"


def class_group_name(class_id: int) -> str:
    """The channel-layer group of a class page (fed by the same events as its rooms' groups)."""
    return f"class-{class_id}"


def browser_group(deliberation_id: int, session_key: str) -> str:
    """The group of one browser's sockets in one deliberation (named by a digest of its key, so the
    key itself never travels through the channel layer)."""
    digest = hashlib.sha256(session_key.encode()).hexdigest()[:24]
    return f"deliberation-{deliberation_id}-browser-{digest}"


SEND_TIMEOUT_SECONDS = 5.0
PUSHES_KEY = "deliberation-pushes:{}"
CLASS_PUSHES_KEY = "class-pushes:{}"  # the cards pushed to a class page (``class_pushes``)
PUSHES_TTL_SECONDS = 7 * 24 * 3600  # a room untouched for a week starts counting again from 0
STALE_HTML = '<div id="push-stale" hx-swap-oob="true" hidden data-stale="1"></div>'  # the page missed a push
CLASS_EVENTS = frozenset({"phase", "round", "seats", "turn", "vote", "thinking", "trial"})  # what a room's card shows
STREAM_FLUSH_SECONDS = 0.25  # streamed text is sent at most about four times a second per round


def _send(deliberation_id: int, message: dict[str, Any], group: str | None = None) -> None:
    """Send from synchronous code on any thread.

    When the web server's event loop is known (embedded mode), the send runs on it: the
    in-memory channel layer's queues belong to that loop. Otherwise asgiref runs it.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    group = group or group_name(deliberation_id)
    try:
        loop = background.web_loop()
        if loop is not None:
            asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop).result(SEND_TIMEOUT_SECONDS)
        else:
            async_to_sync(layer.group_send)(group, message)
    except Exception:  # a broadcast failure must never lose a round: pages rebuild from the database
        logger.exception("broadcast to deliberation %s failed", deliberation_id)


def pushes(deliberation_id: int) -> int:
    """How many updates have been pushed to the deliberation's group (0 if none, or long ago).

    A page reads this before it reads the deliberation and names it to its socket (``?seen=``);
    the socket reads it again once it has joined the group. A difference means an update went out
    between the two, which this page neither rendered nor heard, and the socket tells the page to
    catch up (``STALE_HTML``). The count is taken after commit and before the send, so a page that
    read the old count either rendered the new state or will hear of it."""
    return _read_count(PUSHES_KEY.format(deliberation_id))


def class_pushes(class_id: int) -> int:
    """How many room cards have been pushed to the class's page: ``pushes`` for a class page, read
    by the page before it reads its rooms and by its socket once joined (``class_live``)."""
    return _read_count(CLASS_PUSHES_KEY.format(class_id))


def _read_count(key: str) -> int:
    try:
        return int(cache.get(key) or 0)
    except Exception:  # no cache, no count: the page only loses the catch-up, never a round
        logger.exception("reading the push count %s failed", key)
        return 0


def _count_push(key: str) -> None:
    try:
        try:
            cache.incr(key)
        except ValueError:  # the first push (or the first after a week): start the count
            if not cache.add(key, 1, PUSHES_TTL_SECONDS):
                cache.incr(key)
    except Exception:
        logger.exception("counting a push (%s) failed", key)


def publish(deliberation_id: int, event: str, data: dict[str, Any] | None = None) -> None:
    """Render the partials for ``event`` and send them to the group now (counted, see ``pushes``)."""
    if _renderers.event is None:
        logger.warning("no renderer registered for %s of deliberation %s", event, deliberation_id)
        return
    try:
        html = _renderers.event(deliberation_id, event, data or {})
    except Exception:
        logger.exception("rendering %s for deliberation %s failed", event, deliberation_id)
        return
    _count_push(PUSHES_KEY.format(deliberation_id))
    _send(deliberation_id, {"type": EVENT_TYPE, "event": event, "html": html, "data": data or {}})
    if event in CLASS_EVENTS:
        _publish_class(deliberation_id, event)


def _publish_class(deliberation_id: int, event: str) -> None:
    """A room of a class changed: its card, re-rendered, goes to the class page too."""
    if _renderers.card is None:
        return
    try:
        found = _renderers.card(deliberation_id)
    except Exception:
        logger.exception("rendering the class card of deliberation %s failed", deliberation_id)
        return
    if found is not None:
        class_id, html = found
        message = {"type": EVENT_TYPE, "event": event, "html": html, "data": {}}
        _count_push(CLASS_PUSHES_KEY.format(class_id))
        _send(deliberation_id, message, group=class_group_name(class_id))


def announce(deliberation_id: int, event: str, data: dict[str, Any] | None = None) -> None:
    """Publish ``event`` once the current transaction commits (at once outside a transaction)."""
    transaction.on_commit(lambda: publish(deliberation_id, event, data))


def close_browser(deliberation_id: int, session_key: str) -> None:
    """Close this browser's open sockets on the deliberation once the current transaction commits
    (a participant removed, or their seat taken back from another device)."""
    if not session_key:
        return
    group = browser_group(deliberation_id, session_key)
    transaction.on_commit(lambda: _send(deliberation_id, {"type": CLOSE_TYPE}, group))


def access_changed(deliberation_id: int) -> None:
    """Someone may have lost sight of the deliberation (a share link revoked, a participant removed):
    once the transaction commits, every open socket on it asks the access rule again and closes
    itself if its browser may no longer watch. Call it from any service that narrows who may see a
    deliberation; nothing is rendered, so it costs one query per open socket."""
    transaction.on_commit(lambda: _send(deliberation_id, {"type": ACCESS_TYPE}))


class Streamer:
    """Pushes pieces of speeches as they stream in, from inside the engine's event loop.

    The engine calls the streamer synchronously from its own loop, where a blocking send is not
    allowed; pieces go through a queue to a sender thread, which the ``with`` block drains and
    stops. No transaction is open while a model speaks.

    Pieces are grouped: the sender takes whatever arrived within ``STREAM_FLUSH_SECONDS`` and sends
    it as one message (one span per speaker), so a speech costs a few group messages instead of
    one per word. The offline jury hands over a speech word by word in one go: per word, 30 rooms x
    12 sockets made streamed pieces 18,492 of 24,096 socket messages and queued a thousand messages
    ahead of every vote's update (BENCHMARKS.md).
    """

    def __init__(self, deliberation_id: int) -> None:
        self.deliberation_id = deliberation_id
        self._queue: queue.Queue[tuple[int, str] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._drain, name="angry-stream", daemon=True)

    def __enter__(self) -> Streamer:
        self._thread.start()
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        self._queue.put(None)
        self._thread.join(timeout=SEND_TIMEOUT_SECONDS * 2)

    def __call__(self, seat: int, chunk: str) -> None:
        self._queue.put((seat, chunk))

    def _drain(self) -> None:
        finished = False
        while not finished:
            pieces = [item] if (item := self._queue.get()) is not None else []
            finished = item is None
            deadline = time.monotonic() + STREAM_FLUSH_SECONDS
            while not finished and (left := deadline - time.monotonic()) > 0:
                try:
                    item = self._queue.get(timeout=left)
                except queue.Empty:
                    break
                finished = item is None
                if item is not None:
                    pieces.append(item)
            if pieces:
                self._send(pieces)

    def _send(self, pieces: list[tuple[int, str]]) -> None:
        render = _renderers.chunk
        if render is None:
            return
        runs: list[tuple[int, str]] = []  # consecutive pieces of one speaker, joined
        for seat, chunk in pieces:
            if runs and runs[-1][0] == seat:
                runs[-1] = (seat, runs[-1][1] + chunk)
            else:
                runs.append((seat, chunk))
        html = "".join(render(self.deliberation_id, seat, text) for seat, text in runs)
        data = {"seats": sorted({seat for seat, _ in runs})}
        _send(self.deliberation_id, {"type": EVENT_TYPE, "event": "chunk", "html": html, "data": data})
