"""The courtroom's websocket: one thin consumer per browser, joined to its deliberation's group.

It only forwards: services render the HTML (``deliberation.court.live``) and the one broadcaster sends
it to the group; this consumer passes each fragment on to its browser. Moves go over HTTP.

Rooms (classroom play) use this same consumer and route: their fragments are the same for every
viewer, and each room page fetches its own controls over HTTP when a pushed turn banner asks it
to (``deliberation.rooms.page``), so a connection needs to know nothing about who is watching.

Who may listen is the transcript's rule (``deliberation.access``): the socket is addressed by the
deliberation's public id and refused (closed before any message) for a stranger, exactly as for an
id that does not exist. When a service narrows who may watch (a share link revoked, a participant
removed), the broadcaster tells the group (``broadcast.access_changed``) and each socket asks the
rule again, closing itself when its browser may no longer see the deliberation.

A page is rendered before its socket joins the group, and an update sent in between would reach
neither: the page names the push count it was rendered at (``?seen=``), and a socket that finds the
count moved on tells its page to catch up (``broadcast.pushes``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from deliberation.access import Viewer, visible_id
from deliberation.services.broadcast import (
    CLOSE_NOT_FOUND,
    EVENT_TYPE,
    STALE_HTML,
    browser_group,
    group_name,
    pushes,
    seen_count,
)
from deliberation.services.watching import watch_ended, watch_started

CLOSE_SEAT_LOST = 4403  # this browser no longer holds its seat (removed, or taken back elsewhere)


def _joined(deliberation_id: int) -> int:
    """Count the watcher in, and read how many updates the group has had so far."""
    watch_started(deliberation_id=deliberation_id)  # rounds stream while it is open
    return pushes(deliberation_id)


@database_sync_to_async
def _visible(public_id: str, scope: dict[str, Any]) -> tuple[int | None, str]:
    viewer = Viewer.of_scope(scope)
    return visible_id(public_id, viewer), viewer.session_key


class CourtConsumer(AsyncWebsocketConsumer):
    group: str | None = None
    browser: str | None = None
    deliberation_id: int | None = None

    async def connect(self) -> None:
        deliberation_id, key = await _visible(str(self.scope["url_route"]["kwargs"]["public_id"]), self.scope)
        if deliberation_id is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.group = group_name(deliberation_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        if key:  # so a service can close this browser's socket when it loses its seat
            self.browser = browser_group(deliberation_id, key)
            await self.channel_layer.group_add(self.browser, self.channel_name)
        await self.accept()
        self.deliberation_id = deliberation_id
        count = await sync_to_async(_joined)(deliberation_id)
        seen = seen_count(self.scope)
        if seen is not None and seen != count:  # an update went out before this socket joined
            await self.send(text_data=STALE_HTML)

    async def disconnect(self, code: int) -> None:
        await self._leave()

    async def _leave(self) -> None:
        """Stop listening to the group and stop counting as a watcher (once), to the end even when
        the server cancels the consumer meanwhile: Daphne cancels a consumer still closing
        ``application_close_timeout`` seconds after its socket closed (a whole class closing at once
        queues behind one channel-layer lock per process), and a leave cut short kept the room's
        group subscribed in this process and the room counted as watched for hours
        (``angryagents.logs`` on what channels-redis then logs)."""
        await asyncio.shield(self._leave_now())

    async def _leave_now(self) -> None:
        # Each part is taken before it is awaited, so a second leave (a close, then the disconnect)
        # running beside one cut loose by a cancellation never does it twice.
        group, browser, watched = self.group, self.browser, self.deliberation_id
        self.group = self.browser = self.deliberation_id = None
        for name in (group, browser):
            if name:
                await self.channel_layer.group_discard(name, self.channel_name)
        if watched is not None:
            await sync_to_async(watch_ended)(deliberation_id=watched)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """A pushed fragment is forwarded as it is, without channels' ``close_old_connections``
        before each message: that is a hop to the one sync thread, per socket and per update,
        and forwarding touches no database (a third of the consumers' time on the event loop went there
        with 5 rooms, BENCHMARKS.md). Everything else (connect, access checks) goes the usual way."""
        if message.get("type") == EVENT_TYPE:
            await self.deliberation_event(message)
        else:
            await super().dispatch(message)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Browsers only listen; anything they send is ignored (actions are HTTP posts)."""

    async def deliberation_close(self, message: dict[str, Any]) -> None:
        """This browser lost its seat: nothing more reaches it, even before the browser answers the close."""
        await self._leave()
        await self.close(code=CLOSE_SEAT_LOST)

    async def deliberation_access(self, message: dict[str, Any]) -> None:
        """Who may watch changed: close this socket if its browser no longer may."""
        if self.deliberation_id is None:
            return
        visible, _ = await _visible(str(self.scope["url_route"]["kwargs"]["public_id"]), self.scope)
        if visible != self.deliberation_id:
            await self._leave()  # nothing more reaches it, even before the browser answers the close
            await self.close(code=CLOSE_NOT_FOUND)

    async def deliberation_event(self, message: dict[str, Any]) -> None:
        html = message.get("html")
        if html and self.group:  # a socket that has left (closed by the server) forwards nothing queued
            await self.send(text_data=html)
