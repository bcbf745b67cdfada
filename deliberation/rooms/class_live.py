"""The class page's live side: a room's card rendered for the broadcaster, and the class socket.

The one broadcaster (``deliberation.services.broadcast``) calls ``render_card`` after it sends a
room's own event, and sends the card to the class's group; ``ClassConsumer`` forwards what that
group receives to the teacher's class page, where htmx swaps the card in by id. The socket is
addressed by the class's public id and closed before any message for anyone but its teacher
(``deliberation.access.visible_class_id``), as a room's socket is for a stranger.

As a room page does, the class page names the count of cards pushed to it when it was rendered
(``?seen=``, ``broadcast.class_pushes``); a socket that joins after a card went out (or joins again
after a drop) finds the count moved on and tells the page, which fetches its rooms again in place
(static/js/class.js).
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from deliberation.access import visible_class_id
from deliberation.rooms.class_selectors import card_for_broadcast
from deliberation.services.broadcast import CLOSE_NOT_FOUND, STALE_HTML, class_group_name, class_pushes, seen_count

CARD = "rooms/_class_room.html"


def render_card(deliberation_id: int) -> tuple[int, str] | None:
    """(class id, the room's card marked for an out-of-band swap), or None for a room in no class."""
    found = card_for_broadcast(deliberation_id)
    if found is None:
        return None
    session, card = found
    return session.pk, render_to_string(CARD, {"card": card, "pushed": True})


@database_sync_to_async
def _visible(public_id: str, scope: dict[str, Any]) -> int | None:
    return visible_class_id(public_id, scope)


class ClassConsumer(AsyncWebsocketConsumer):
    group: str | None = None

    async def connect(self) -> None:
        class_id = await _visible(str(self.scope["url_route"]["kwargs"]["public_id"]), self.scope)
        if class_id is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.group = class_group_name(class_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        seen = seen_count(self.scope)
        if seen is not None and seen != await sync_to_async(class_pushes)(class_id):
            await self.send(text_data=STALE_HTML)  # a card went out before this socket joined

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The class page only listens."""

    async def deliberation_event(self, message: dict[str, Any]) -> None:
        html = message.get("html")
        if html:
            await self.send(text_data=html)
