"""Public ids: what a deliberation or a class is called in URLs and sockets.

Below the models, so a model module of its own (``rooms.class_models``) shares it without
importing ``deliberation.models``, which imports that module.
"""

from __future__ import annotations

import secrets


def new_public_id() -> str:
    """A deliberation's address in URLs and sockets: 96 random bits, so ids cannot be counted through."""
    return secrets.token_urlsafe(12)
