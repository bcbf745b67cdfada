"""HTML partials pushed over the websocket, keyed by event.

``render_event`` returns the out-of-band fragments a browser swaps in by id when ``event``
happens ("round", "phase", "thinking", "narration", "vote"...). The courtroom templates own the
markup; until a page exists for an event, nothing is rendered and the event carries no HTML.
"""

from __future__ import annotations

from typing import Any

from django.utils.html import escape


def render_event(deliberation_id: int, event: str, data: dict[str, Any]) -> str:
    return ""


def render_chunk(deliberation_id: int, seat: int, chunk: str) -> str:
    return f'<span hx-swap-oob="beforeend:#stream-{seat}">{escape(chunk)}</span>'
