"""Which browser is this? A random key kept inside the session's data.

Seats and hosting are bound to this key rather than to Django's session key, because logging
in (say, a teacher opening the admin) gives the session a new key but keeps its data: the
teacher stays the host of their room and the player keeps seat 7.
"""

from __future__ import annotations

import secrets

from django.http import HttpRequest

SESSION_FIELD = "angry_browser"


def browser_key(request: HttpRequest, *, create: bool = True) -> str:
    """This browser's key; made (and the session saved) on first use unless ``create`` is off."""
    key = request.session.get(SESSION_FIELD, "")
    if not key and create:
        key = secrets.token_urlsafe(24)
        request.session[SESSION_FIELD] = key
        request.session.save()
    return key
