"""The one broadcaster: the only code that sends to a deliberation's channel-layer group.

Services call ``announce`` inside their transaction; the message goes out after commit, with
the HTML partials rendered by ``deliberation.live`` so browsers swap them in by id (htmx
out-of-band swaps). Streaming text, which happens while a model is thinking and no transaction
is open, goes out at once through ``stream``.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import queue
import threading
from types import TracebackType
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from angryagents import background

logger = logging.getLogger(__name__)

EVENT_TYPE = "deliberation.event"
CLOSE_TYPE = "deliberation.close"


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
CLASS_EVENTS = frozenset({"phase", "round", "seats", "turn", "vote", "thinking"})  # what a room's card shows


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


def publish(deliberation_id: int, event: str, data: dict[str, Any] | None = None) -> None:
    """Render the partials for ``event`` and send them to the group now."""
    from deliberation import live

    try:
        html = live.render_event(deliberation_id, event, data or {})
    except Exception:
        logger.exception("rendering %s for deliberation %s failed", event, deliberation_id)
        return
    _send(deliberation_id, {"type": EVENT_TYPE, "event": event, "html": html, "data": data or {}})
    if event in CLASS_EVENTS:
        _publish_class(deliberation_id, event)


def _publish_class(deliberation_id: int, event: str) -> None:
    """A room of a class changed: its card, re-rendered, goes to the class page too."""
    from deliberation.rooms import class_live

    try:
        found = class_live.render_card(deliberation_id)
    except Exception:
        logger.exception("rendering the class card of deliberation %s failed", deliberation_id)
        return
    if found is not None:
        class_id, html = found
        message = {"type": EVENT_TYPE, "event": event, "html": html, "data": {}}
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


class Streamer:
    """Pushes pieces of speeches as they stream in, from inside the engine's event loop.

    The engine calls the streamer synchronously from its own loop, where a blocking send is not
    allowed; pieces go through a queue to a sender thread, which the ``with`` block drains and
    stops. No transaction is open while a model speaks.
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
        from deliberation import live

        while (item := self._queue.get()) is not None:
            seat, chunk = item
            html = live.render_chunk(self.deliberation_id, seat, chunk)
            _send(self.deliberation_id, {"type": EVENT_TYPE, "event": "chunk", "html": html, "data": {"seat": seat}})
