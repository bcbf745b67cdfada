"""Whether anyone is watching a deliberation live: a count of open courtroom websockets per room.

Streaming a speech costs client CPU on every chunk (parsing, rendering, sending); nobody needs it
when no browser is open on the room, as in command-line runs, experiments and unwatched rounds. The
courtroom consumer counts its connections here; a round streams only when the count is above zero
at its start. The count lives in the cache (Redis in service mode, so every web process and worker
shares it) and expires on its own, so a process that died without saying goodbye cannot leave a
room "watched" for ever.
"""

from __future__ import annotations

from django.core.cache import cache

WATCH_TTL_SECONDS = 6 * 60 * 60


def watch_key(deliberation_id: int) -> str:
    return f"watching:{deliberation_id}"


def watch_started(*, deliberation_id: int) -> None:
    """A browser opened the room's websocket."""
    key = watch_key(deliberation_id)
    cache.add(key, 0, WATCH_TTL_SECONDS)
    try:
        cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.set(key, 1, WATCH_TTL_SECONDS)
    cache.touch(key, WATCH_TTL_SECONDS)


def watch_ended(*, deliberation_id: int) -> None:
    """A browser closed it."""
    key = watch_key(deliberation_id)
    try:
        if cache.decr(key) <= 0:
            cache.delete(key)
    except ValueError:  # already expired: nobody is counted
        pass


def is_watched(deliberation_id: int) -> bool:
    return int(cache.get(watch_key(deliberation_id)) or 0) > 0
