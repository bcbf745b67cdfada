"""Who is asking, and what they hold: browser sessions, agents' tokens, the host.

A person's seat is bound to their browser session; an agent's seat to a secret token, of which
only a keyed hash is stored and compared in constant time. A participant acts only for the seat
their credential holds. The host is the browser that made the room, and, when it was made by a
logged-in account, that account from any browser (``acting_key``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ValidationError

from deliberation.models import Deliberation, Seat, SeatKind

ERROR_NOT_HOST = "Only the host can {action}."
ERROR_NOT_PARTICIPANT = "You do not hold a seat in this room; join it first."
ERROR_TOKEN = "This token does not hold a seat in any room (it is wrong, or the seat was given up)."
ERROR_OTHER_SEAT = "You hold seat {own}; you cannot act for seat {seat}."


@dataclass(frozen=True)
class Credential:
    """Who is asking: a browser session (people) or an agent's secret token."""

    session_key: str = ""
    token: str = ""


NOBODY = Credential()


def token_hash(token: str) -> str:
    # The token carries 256 random bits, so a keyed fast hash is enough; only the hash is stored.
    return hmac.new(settings.SECRET_KEY.encode(), token.encode(), hashlib.sha256).hexdigest()


def new_token(code: str, seat: int) -> str:
    return f"{code}-{seat}-{secrets.token_urlsafe(32)}"


def is_host(deliberation: Deliberation, session_key: str) -> bool:
    return bool(session_key) and hmac.compare_digest(deliberation.host_session_key or "", session_key)


def acting_key(deliberation: Deliberation, session_key: str, user_id: int | None) -> str:
    """The key a request acts with in this room: the host's own key when the logged-in account
    owns the room (a teacher who made it while logged in is its host from any browser they log in
    on), else the browser's key. The host's key never leaves the server."""
    owned = user_id is not None and deliberation.owner_id == user_id
    return deliberation.host_session_key if owned and deliberation.host_session_key else session_key


def require_host(deliberation: Deliberation, session_key: str, action: str) -> None:
    if not is_host(deliberation, session_key):
        raise ValidationError(ERROR_NOT_HOST.format(action=action))


def seat_of(deliberation: Deliberation, credential: Credential) -> Seat | None:
    """The participant's seat this credential holds in this room, if any."""
    if credential.token:
        return _seat_for_token(credential.token, deliberation_id=deliberation.pk)
    if not credential.session_key:
        return None
    return deliberation.seats.filter(
        session_key=credential.session_key, kind__in=[SeatKind.HUMAN, SeatKind.AGENT]
    ).first()


def _seat_for_token(token: str, deliberation_id: int | None = None) -> Seat | None:
    code, _, rest = (token or "").partition("-")
    number, _, _secret = rest.partition("-")
    if not number.isdigit():
        return None
    seats = Seat.objects.filter(deliberation__room_code=code, number=int(number), kind=SeatKind.AGENT)
    if deliberation_id is not None:
        seats = seats.filter(deliberation_id=deliberation_id)
    seat = seats.exclude(token_hash="").first()
    if seat is None or not hmac.compare_digest(seat.token_hash, token_hash(token)):
        return None
    return seat


def deliberation_for_token(token: str) -> int:
    """The room an agent's token belongs to; refuses a wrong token."""
    seat = _seat_for_token(token)
    if seat is None:
        raise ValidationError(ERROR_TOKEN)
    return seat.deliberation_id


def participant(deliberation: Deliberation, credential: Credential, seat_number: int | None) -> Seat:
    seat = seat_of(deliberation, credential)
    if seat is None:
        raise ValidationError(ERROR_TOKEN if credential.token else ERROR_NOT_PARTICIPANT)
    if seat_number is not None and seat_number != seat.number:
        raise ValidationError(ERROR_OTHER_SEAT.format(own=seat.number, seat=seat_number))
    return seat
