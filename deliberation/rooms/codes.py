"""Room codes: six characters nobody misreads aloud or on a projector."""

from __future__ import annotations

import secrets

# No 0/O, 1/I/L, 5/S or 8/B: codes are read off a board and typed by students.
ALPHABET = "ACDEFGHJKMNPQRTUVWXY234679"
LENGTH = 6


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalise(raw: str) -> str:
    """What a person typed, as a code: case, spaces and dashes do not matter."""
    return "".join(ch for ch in (raw or "").upper() if ch.isalnum())


def looks_valid(code: str) -> bool:
    return len(code) == LENGTH and all(ch in ALPHABET for ch in code)
