"""Who may see a deliberation: the ONE rule every page, fragment, export and socket asks.

A deliberation played by people is private: it has a host session (``Deliberation.host_session_key``;
and an owner, ``Deliberation.owner``, when its host was logged in: that account opens it anywhere),
a seat held through a browser session or an agent token (``Seat.session_key`` / ``Seat.token_hash``),
or it is a room (a room code invites people in, so a room is never public, even before anyone joins).
Only its host's browser (or account), its participants' browsers and staff may see it, and a browser that
opened its active share link (``/shared/<token>/``, remembered in that browser's session): it may
then also watch the game live, until the link is revoked. To anyone else it does not exist (404,
and a websocket is closed before any message). Deliberations with no people (``deliberate`` runs,
experiment runs) are public.

Deliberations are addressed in URLs and sockets by ``Deliberation.public_id``, a random slug, so
they cannot be listed by counting; a room's pages by its code, which only its members are shown.

MCP tools never address a deliberation by id: each takes a seat's secret token
(``deliberation.rooms.access``), so an agent reaches only the room it sits in, as a participant.

The filter is one ``Exists`` subquery per condition, so a page costs the same number of
queries whoever asks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404, HttpRequest

from angryagents.identity import SESSION_FIELD, browser_key
from deliberation.models import ClassSession, Deliberation, Seat, SeatKind

ROLE_AUTOMATED = "automated player"
NOT_FOUND = "No such deliberation."
SHARED_FIELD = "angry_shared"  # the share tokens this browser opened, newest last
SHARES_KEPT = 20


@dataclass(frozen=True)
class Viewer:
    """Who is looking: their browser key (blank without one), whether staff, the share links
    they opened, and the account they are logged in with (None if not)."""

    session_key: str = ""
    is_staff: bool = False
    share_tokens: tuple[str, ...] = ()
    user_id: int | None = None

    @classmethod
    def of(cls, request: HttpRequest) -> Viewer:
        return cls(
            session_key=browser_key(request, create=False),
            is_staff=bool(request.user.is_staff),
            share_tokens=_shares(request.session),
            user_id=_user_id(request.user),
        )

    @classmethod
    def of_scope(cls, scope: Mapping[str, Any]) -> Viewer:
        """The viewer of a websocket (``AuthMiddlewareStack`` puts session and user in its scope).

        Reads the session from the database: call it from a sync context."""
        session = scope.get("session")
        key = str(session.get(SESSION_FIELD, "") or "") if session is not None else ""
        user = scope.get("user")
        return cls(
            session_key=key,
            is_staff=bool(getattr(user, "is_staff", False)),
            share_tokens=_shares(session),
            user_id=_user_id(user),
        )

    @classmethod
    def holding(cls, share_token: str) -> Viewer:
        """Whoever opens a share link: they may read that one deliberation while the link is active."""
        return cls(share_tokens=(share_token,))


def _shares(session: Any) -> tuple[str, ...]:
    if session is None:
        return ()
    return tuple(str(token) for token in session.get(SHARED_FIELD, []) or [] if token)


def remember_share(request: HttpRequest, token: str) -> None:
    """This browser opened an active share link: from now on it may watch that game live too."""
    kept = [t for t in request.session.get(SHARED_FIELD, []) if t != token]
    request.session[SHARED_FIELD] = [*kept, token][-SHARES_KEPT:]


def _held_seats() -> QuerySet[Seat]:
    """Seats of the outer deliberation that a person or an agent holds from outside."""
    return Seat.objects.filter(deliberation=OuterRef("pk")).filter(~Q(session_key="") | ~Q(token_hash=""))


def _rooms() -> Q:
    return Q(room_code__isnull=False) & ~Q(room_code="")


def played_by_people() -> Q:
    """Deliberations that people played in the browser, agents joined, or that are rooms: the private ones."""
    return ~Q(host_session_key="") | Q(Exists(_held_seats())) | _rooms()


def visible_to(rows: QuerySet[Deliberation], viewer: Viewer, *, live: bool = False) -> QuerySet[Deliberation]:
    """``rows`` narrowed to what ``viewer`` may see: public runs, and private ones they take part in.

    ``live`` is for the pages and socket of a game being played: there a share link opens a
    single-player game but not a room, whose live pages carry the code that takes a seat."""
    if viewer.is_staff:
        return rows
    allowed = ~played_by_people()
    if viewer.session_key:
        # A blank key never matches: public rows (blank host key) are already allowed above.
        mine = Seat.objects.filter(deliberation=OuterRef("pk"), session_key=viewer.session_key)
        allowed |= Q(host_session_key=viewer.session_key) | Q(Exists(mine))
    if viewer.user_id is not None:
        # What a logged-in teacher made belongs to their account: it opens from any browser they log in on.
        allowed |= Q(owner_id=viewer.user_id)
    if viewer.share_tokens:
        # A revoked link's token is gone from its row (``share_token`` is blank), so it opens nothing.
        shared = Q(share_token__in=viewer.share_tokens)
        allowed |= (shared & ~_rooms()) if live else shared
    return rows.filter(allowed)


def visible_rooms(rows: QuerySet[Deliberation], viewer: Viewer) -> QuerySet[Deliberation]:
    """The rooms of ``rows`` that ``visible_to(rows, viewer, live=True)`` lets ``viewer`` see, in a
    smaller query for a room's pages (every request of a class asks it): a room is always private
    and a share link never opens its live pages, so the rule comes down to its host, its owner, its
    participants and staff. ``test_access`` checks that the two agree for every kind of viewer."""
    rows = rows.filter(_rooms())
    if viewer.is_staff:
        return rows
    allowed = Q(pk__in=[])  # nobody: a viewer with no key and no account sees no room
    if viewer.session_key:
        mine = Seat.objects.filter(deliberation=OuterRef("pk"), session_key=viewer.session_key)
        allowed |= Q(host_session_key=viewer.session_key) | Q(Exists(mine))
    if viewer.user_id is not None:
        allowed |= Q(owner_id=viewer.user_id)
    return rows.filter(allowed)


def visible_or_404(rows: QuerySet[Deliberation], viewer: Viewer, *, live: bool, **lookup: Any) -> Deliberation:
    """The one deliberation of ``rows`` matching ``lookup`` that ``viewer`` may see; else 404, exactly
    as for an identifier that does not exist."""
    found = visible_to(rows, viewer, live=live).filter(**lookup).first()
    if found is None:
        raise Http404(NOT_FOUND)
    return found


def deliberation_for(
    request: HttpRequest, public_id: str, rows: QuerySet[Deliberation] | None = None, *, live: bool = True
) -> Deliberation:
    """The deliberation a page addresses by its public id, if this request may see it (else 404)."""
    queryset = rows if rows is not None else Deliberation.objects.select_related("case")
    return visible_or_404(queryset, Viewer.of(request), live=live, public_id=public_id)


def visible_id(public_id: str, viewer: Viewer) -> int | None:
    """The primary key behind ``public_id`` if ``viewer`` may see it (the websocket's question)."""
    rows = visible_to(Deliberation.objects.all(), viewer, live=True).filter(public_id=public_id)
    return rows.values_list("pk", flat=True).first()


def is_automated_player(seat: Seat, deliberation: Deliberation) -> bool:
    """The ``deliberate --side`` player: a "human" seat nobody's browser holds, in a run nobody hosted."""
    return seat.kind == SeatKind.HUMAN and not seat.session_key and not deliberation.host_session_key


def seat_role(seat: Seat, deliberation: Deliberation) -> str:
    """How a seat is described in transcripts and exports: "AI juror", "Person", "External agent",
    or "automated player" for the command line's stand-in player."""
    if is_automated_player(seat, deliberation):
        return ROLE_AUTOMATED
    return str(seat.get_kind_display())


# --- Classes (a teacher's several rooms) -------------------------------------------------------------

NO_CLASS = "No such class."


def classes_visible_to(rows: QuerySet[Any], viewer: Viewer, *, user_id: int | None = None) -> QuerySet[Any]:
    """``rows`` (class sessions) narrowed to the ones ``viewer`` teaches: the browser that created
    them, the account that was logged in then, and staff. Students see their own room, never the class."""
    if viewer.is_staff:
        return rows
    allowed = Q(pk__in=[])
    if viewer.session_key:
        allowed |= Q(teacher_session_key=viewer.session_key)
    if user_id is not None:
        allowed |= Q(owner_id=user_id)
    return rows.filter(allowed)


def _user_id(user: Any) -> int | None:
    return user.pk if user is not None and getattr(user, "is_authenticated", False) else None


def class_for(request: HttpRequest, public_id: str, rows: QuerySet[Any] | None = None) -> Any:
    """The class a page addresses by its public id, if this request teaches it (else 404, as for
    an id that does not exist)."""
    queryset = rows if rows is not None else ClassSession.objects.select_related("case")
    found = (
        classes_visible_to(queryset, Viewer.of(request), user_id=_user_id(request.user))
        .filter(public_id=public_id)
        .first()
    )
    if found is None:
        raise Http404(NO_CLASS)
    return found


def visible_class_id(public_id: str, scope: Mapping[str, Any]) -> int | None:
    """The primary key of the class behind ``public_id`` if the socket's viewer teaches it."""
    viewer = Viewer.of_scope(scope)
    rows = classes_visible_to(ClassSession.objects.all(), viewer, user_id=_user_id(scope.get("user")))
    return rows.filter(public_id=public_id).values_list("pk", flat=True).first()
