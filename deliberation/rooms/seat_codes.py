"""Seat codes: a seated person's way back to their seat from any device.

Ten characters of the room codes' alphabet (26**10, about 1.4e14 codes, 47 bits), shown only on the
seat holder's own screen as ``XXXXX-XXXXX``. Entered on ``/join/`` they move the seat to the
browser that typed them; the code then changes (the new screen shows the new one), so a code
read over someone's shoulder works once at most. Wrong codes count against the same per-address
throttle as room codes (``throttle``), so guessing one is hopeless.
"""

from __future__ import annotations

import secrets

from deliberation.rooms.codes import ALPHABET, normalise

LENGTH = 10


def new_seat_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def looks_like_seat_code(raw: str) -> bool:
    """Whether what was typed on ``/join/`` is a seat code (ten characters) rather than a room code."""
    return len(normalise(raw)) == LENGTH


def shown(code: str) -> str:
    """A seat code as a person reads it: two groups of five."""
    return f"{code[:5]}-{code[5:]}" if len(code) == LENGTH else code
