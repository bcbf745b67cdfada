"""Who may read a deliberation's transcript, replay and exports, decided inside the QuerySet.

A deliberation played by people in the browser is private: it has a host session
(``Deliberation.host_session_key``) or a seat held through a browser session or an agent token
(``Seat.session_key`` / ``Seat.token_hash``: a room). Only its host's session, its participants'
sessions and staff may read it; to anyone else it does not exist. Deliberations with no people
(``deliberate`` runs, experiment runs, autostart rooms nobody joined) are public. A share link
(``/shared/<token>/``) opens one deliberation to whoever holds the token until it is revoked.

The filter is one ``Exists`` subquery per condition, so a page costs the same number of
queries whoever asks.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import HttpRequest

from angryagents.identity import browser_key
from deliberation.models import Deliberation, Seat, SeatKind

ROLE_AUTOMATED = "automated player"


@dataclass(frozen=True)
class Viewer:
    """The reader of a page: their browser session (blank when they have none) and whether staff."""

    session_key: str = ""
    is_staff: bool = False

    @classmethod
    def of(cls, request: HttpRequest) -> Viewer:
        return cls(session_key=browser_key(request, create=False), is_staff=bool(request.user.is_staff))


def _held_seats() -> QuerySet[Seat]:
    """Seats of the outer deliberation that a person or an agent holds from outside."""
    return Seat.objects.filter(deliberation=OuterRef("pk")).filter(~Q(session_key="") | ~Q(token_hash=""))


def played_by_people() -> Q:
    """Deliberations that people played in the browser (or agents joined): the private ones."""
    return ~Q(host_session_key="") | Q(Exists(_held_seats()))


def visible_to(rows: QuerySet[Deliberation], viewer: Viewer) -> QuerySet[Deliberation]:
    """``rows`` narrowed to what ``viewer`` may read: public runs, and private ones they took part in."""
    if viewer.is_staff:
        return rows
    allowed = ~played_by_people()
    if viewer.session_key:
        # A blank key never matches: public rows (blank host key) are already allowed above.
        mine = Seat.objects.filter(deliberation=OuterRef("pk"), session_key=viewer.session_key)
        allowed |= Q(host_session_key=viewer.session_key) | Q(Exists(mine))
    return rows.filter(allowed)


def is_automated_player(seat: Seat, deliberation: Deliberation) -> bool:
    """The ``deliberate --side`` player: a "human" seat nobody's browser holds, in a run nobody hosted."""
    return seat.kind == SeatKind.HUMAN and not seat.session_key and not deliberation.host_session_key


def seat_role(seat: Seat, deliberation: Deliberation) -> str:
    """How a seat is described in transcripts and exports: "AI juror", "Person", "External agent",
    or "automated player" for the command line's stand-in player."""
    if is_automated_player(seat, deliberation):
        return ROLE_AUTOMATED
    return str(seat.get_kind_display())
