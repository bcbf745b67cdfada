"""One access rule everywhere: a stranger's client walks every URL pattern and the websocket route
of a private game and of a room, and sees nothing of either.

The walk reads Django's URL resolver, so a view added later is walked too: every pattern that
addresses a deliberation (by public id or room code) is requested with GET and POST, and a
pattern taking any other argument fails the test until it is named below with its reason.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.resolvers import RoutePattern

from angryagents.identity import SESSION_FIELD
from deliberation import services
from deliberation.access import Viewer, visible_rooms, visible_to
from deliberation.consumers import CLOSE_NOT_FOUND
from deliberation.models import Deliberation, Turn, TurnKind
from deliberation.rooms import services as room_services
from deliberation.rooms.services import Credential
from deliberation.routing import websocket_urlpatterns
from tests.conftest import browser_of, socket_headers

HOST, TEACHER, STUDENT = "the-hosts-browser", "the-teachers-browser", "a-students-browser"
PLAYERS_WORDS = "Nobody saw his face in that fog, and the lamp was out."
STUDENTS_NAME = "Zelda Quinterro"
UNKNOWN_ID = "NoSuchPublicId00"
UNKNOWN_CODE = "QQQQQQ"

# The arguments by which a URL addresses a deliberation: every pattern taking one is walked.
ADDRESSES = {"public_id", "code"}
# Patterns whose address a stranger may legitimately hold, each with why it is not walked.
DOORS = {
    "room_join_code": "the room code is the invitation: with it a person takes an open seat",
    "review:shared": "the share link itself: it opens its transcript until revoked (test_share.py)",
    "review:shared_export_md": "the share link's export (test_share.py)",
    "review:shared_export_json": "the share link's export (test_share.py)",
    "review:shared_export_summary": "the share link's export (test_share.py)",
    "review:shared_debrief": "the share link's debrief, after the verdict (review/test_debrief.py)",
    "review:shared_debrief_csv": "the share link's debrief sheet, after the verdict (review/test_debrief.py)",
}
# A room's host controls while it runs (deliberation/rooms/control_views.py): a stranger gets 404
# like every walked URL, and a seated student 403 (test_a_student_is_refused_every_host_control).
HOST_CONTROLS = ("room_pause", "room_resume", "room_extend", "room_skip", "room_hide", "room_call", "room_remove")
# Patterns with other arguments, which address no deliberation, each with why.
NOT_A_DELIBERATION = {
    "experiments:detail": "an experiment's figures; its runs are public by the rule",
    "narration_audio": "the judge's audio, named by a hash of its words, linked only from pages that passed the rule",
}


def _patterns(patterns: list, prefix: str = "", namespace: str = "") -> Iterator[tuple[str, str, set[str]]]:
    """(name, route, argument names) of every URL pattern, resolvers walked recursively."""
    for entry in patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace == "admin":
                continue  # the admin answers only to staff (tests/test_admin_pages.py)
            space = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _patterns(entry.url_patterns, prefix + str(entry.pattern), space)
        elif isinstance(entry, URLPattern):
            assert isinstance(entry.pattern, RoutePattern), f"{entry.pattern}: write routes with path()"
            yield f"{namespace}{entry.name}", prefix + str(entry.pattern), set(entry.pattern.converters)


@dataclass(frozen=True)
class Secrets:
    game: Deliberation
    room: Deliberation

    def words(self) -> tuple[str, ...]:
        """What no stranger may read: the player's words, a student's name, ids and the room code."""
        return (PLAYERS_WORDS, STUDENTS_NAME, self.room.room_code or "", self.game.public_id, self.room.public_id)


def _private_game_and_room(robbery) -> Secrets:  # type: ignore[no-untyped-def]
    game = services.deliberation_start(case=robbery, host_session_key=HOST, player_side="defend")
    Turn.objects.create(
        deliberation=game, round_number=1, sequence=99, kind=TurnKind.SPEECH, seat_number=7, speaker_name="You",
        content=PLAYERS_WORDS,
    )  # fmt: skip
    room = room_services.room_create(case=robbery, host_session_key=TEACHER, host_plays=False, open_seats=(2, 3))
    room_services.room_join(code=room.room_code, credential=Credential(session_key=STUDENT), name=STUDENTS_NAME)
    return Secrets(game=game, room=room)


@pytest.fixture
def secrets(robbery, settings) -> Secrets:  # type: ignore[no-untyped-def]
    settings.ANGRY_NARRATION = "text"
    settings.ANGRY_THROTTLE_WRONG_CODES = 10_000  # the walk tries many codes; the throttle has its own tests
    return _private_game_and_room(robbery)


def _url(route: str, values: dict[str, str]) -> str:
    for name, value in values.items():
        route = route.replace(f"<str:{name}>", value).replace(f"<int:{name}>", value).replace(f"<token:{name}>", value)
    assert "<" not in route, f"{route}: an argument the walk cannot fill"
    return "/" + route


def _walked() -> list[tuple[str, str, set[str]]]:
    return [(n, r, a) for n, r, a in _patterns(get_resolver().url_patterns) if a & ADDRESSES and n not in DOORS]


def test_every_pattern_with_an_argument_is_walked_or_named_with_its_reason(db):
    unexplained = [
        name
        for name, _route, arguments in _patterns(get_resolver().url_patterns)
        if arguments and not arguments & ADDRESSES and name not in DOORS and name not in NOT_A_DELIBERATION
    ]
    assert unexplained == [], "say whether these address a deliberation (walk them) or why not"
    assert {"court", "court_search", "court_verdict", "review:transcript", "room", "room_controls"} <= {
        name for name, _, _ in _walked()
    }
    assert set(HOST_CONTROLS) | {"room_back"} <= {name for name, _, _ in _walked()}


@pytest.mark.parametrize("cookies", ["none", "another browser"])
def test_a_stranger_sees_nothing_of_a_private_game_or_a_room_through_any_url(secrets, cookies, client):
    if cookies == "another browser":
        browser_of(client, visited=True)
    for name, route, _arguments in _walked():
        for deliberation in (secrets.game, secrets.room):
            values = {"public_id": deliberation.public_id, "code": deliberation.room_code or UNKNOWN_CODE, "seat": "2"}
            unknown = {"public_id": UNKNOWN_ID, "code": UNKNOWN_CODE, "seat": "2"}
            for method in ("get", "post"):
                private = getattr(client, method)(_url(route, values))
                missing = getattr(client, method)(_url(route, unknown))
                assert private.status_code in (404, 405), f"{method.upper()} {name} answered {private.status_code}"
                assert (private.status_code, private.content) == (missing.status_code, missing.content), name
                body = private.content.decode()
                assert not any(word in body for word in secrets.words()), f"{method.upper()} {name} leaks"
    assert Deliberation.objects.get(pk=secrets.game.pk).player_side == "defend"  # no stranger's post moved it


def _browser(key: str) -> Client:
    """A browser whose session holds the browser key ``key`` (the host's, a participant's)."""
    browser = Client()
    browser_of(browser, **{SESSION_FIELD: key})
    return browser


def test_a_student_is_refused_every_host_control(secrets):
    student, code = _browser(STUDENT), secrets.room.room_code or ""
    for name in HOST_CONTROLS:
        args = [code, 2] if name == "room_remove" else [code]
        assert student.post(reverse(name, args=args), {"turn": "1"}).status_code == 403, name
    assert Deliberation.objects.get(pk=secrets.room.pk).seats.get(number=2).session_key == STUDENT


def test_the_numeric_id_no_longer_addresses_a_deliberation(secrets):
    host = _browser(HOST)
    assert host.get(f"/court/{secrets.game.public_id}/").status_code == 200
    assert host.get(f"/court/{secrets.game.pk}/").status_code == 404
    assert host.get(f"/deliberations/{secrets.game.pk}/").status_code == 404


def test_the_pages_without_an_address_never_name_a_private_game(secrets, client):
    for name, route, arguments in _patterns(get_resolver().url_patterns):
        if arguments:
            continue
        body = client.get("/" + route).content.decode()
        assert not any(word in body for word in secrets.words()), f"{name} leaks a private game"


def test_the_host_a_participant_and_a_curator_do_see_them(secrets, admin_client):
    host, teacher, student = _browser(HOST), _browser(TEACHER), _browser(STUDENT)
    game, room = secrets.game, secrets.room
    assert PLAYERS_WORDS in host.get(f"/court/{game.public_id}/").content.decode()
    assert host.get(f"/court/{game.public_id}/verdict/").status_code == 200
    for member in (teacher, student):
        assert member.get(f"/court/{room.public_id}/").url == f"/rooms/{room.room_code}/"
        assert STUDENTS_NAME in member.get(f"/rooms/{room.room_code}/").content.decode()
    assert PLAYERS_WORDS in admin_client.get(f"/deliberations/{game.public_id}/").content.decode()
    assert visible_to(Deliberation.objects.all(), Viewer(is_staff=True)).count() == 2


def test_a_rooms_share_link_opens_its_transcript_but_never_its_code(secrets, client):
    from deliberation.services import review

    room = secrets.room
    token = review.share_link_create(deliberation_id=room.pk)
    shared = client.get(f"/shared/{token}/").content.decode()
    assert STUDENTS_NAME in shared and room.room_code not in shared
    assert client.get(f"/deliberations/{room.public_id}/").status_code == 200  # the transcript, by the rule
    for live in (f"/court/{room.public_id}/", f"/rooms/{room.room_code}/", f"/rooms/{room.room_code}/controls/"):
        assert client.get(live).status_code == 404, live


def test_the_rooms_query_lets_in_exactly_whom_the_rule_lets_in(secrets, robbery, django_user_model):
    from deliberation.services import review

    teacher = django_user_model.objects.create_user("teacher", password="x")
    owned = room_services.room_create(case=robbery, host_session_key="elsewhere", owner_id=teacher.pk, open_seats=(2,))
    token = review.share_link_create(deliberation_id=secrets.room.pk)
    game_token = review.share_link_create(deliberation_id=secrets.game.pk)
    viewers = [
        Viewer(),
        Viewer(session_key="a-stranger"),
        Viewer(session_key=TEACHER),
        Viewer(session_key=STUDENT),
        Viewer(session_key=HOST),
        Viewer(user_id=teacher.pk),
        Viewer(session_key=STUDENT, user_id=teacher.pk),
        Viewer(user_id=teacher.pk + 1),
        Viewer(share_tokens=(token, game_token)),
        Viewer(session_key="a-stranger", is_staff=True),
    ]
    rooms = Deliberation.objects.exclude(room_code=None).exclude(room_code="")
    assert {secrets.room.pk, owned.pk} <= set(rooms.values_list("pk", flat=True))
    seen = []
    for viewer in viewers:
        by_rule = set(visible_to(rooms, viewer, live=True).values_list("pk", flat=True))
        assert set(visible_rooms(Deliberation.objects.all(), viewer).values_list("pk", flat=True)) == by_rule, viewer
        seen.append(len(by_rule))
    assert 0 in seen and max(seen) >= 2  # strangers see none, staff every room


@pytest.mark.anyio
@pytest.mark.django_db(transaction=True)
async def test_a_strangers_socket_is_closed_before_any_message_on_every_route(library, settings):
    settings.ANGRY_NARRATION = "text"
    from angryagents.asgi import application
    from cases.models import Case

    robbery = await sync_to_async(Case.objects.get)(slug="kessler-market-robbery")
    secrets = await sync_to_async(_private_game_and_room)(robbery)
    sockets: list[WebsocketCommunicator] = []
    try:
        for route in websocket_urlpatterns:
            assert set(route.pattern.converters) == {"public_id"}, (
                f"{route.pattern}: a socket is addressed by public id"
            )
            for deliberation in (secrets.game, secrets.room):
                for headers in (socket_headers(), await sync_to_async(socket_headers)("another-browser")):
                    url = "/" + str(route.pattern).replace("<token:public_id>", deliberation.public_id)
                    sockets.append(WebsocketCommunicator(application, url, headers=headers))
                    assert await sockets[-1].connect() == (False, CLOSE_NOT_FOUND), url
                    assert await sockets[-1].receive_nothing(timeout=0.1)
    finally:
        for socket in sockets:
            await socket.disconnect()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def test_a_stranger_and_a_student_see_nothing_of_a_class_through_any_of_its_urls(secrets, client):
    from deliberation.rooms import classes

    session = classes.class_create(case=secrets.room.case, groups=2, seats=2, teacher_session_key=TEACHER)
    codes = list(session.rooms.values_list("room_code", flat=True))
    routes = [(n, r) for n, r, a in _patterns(get_resolver().url_patterns) if n.startswith("class_") and a]
    assert {"class_page", "class_start", "class_codes", "class_debrief", "class_debrief_csv"} <= {n for n, _ in routes}
    for outsider in (client, _browser(STUDENT)):
        for name, route in routes:
            for method in ("get", "post"):
                seen = getattr(outsider, method)(_url(route, {"public_id": session.public_id}))
                unknown = getattr(outsider, method)(_url(route, {"public_id": UNKNOWN_ID}))
                assert seen.status_code in (404, 405), f"{method.upper()} {name} answered {seen.status_code}"
                assert (seen.status_code, seen.content) == (unknown.status_code, unknown.content), name
                assert not any(code in seen.content.decode() for code in codes), f"{name} leaks a room code"
    assert _browser(TEACHER).get(f"/classes/{session.public_id}/").status_code == 200


@pytest.mark.anyio
@pytest.mark.django_db(transaction=True)
async def test_a_class_socket_opens_for_its_teacher_and_closes_for_anyone_else(library, settings):
    settings.ANGRY_NARRATION = "text"
    from angryagents.asgi import application
    from cases.models import Case
    from deliberation.rooms import classes

    robbery = await sync_to_async(Case.objects.get)(slug="kessler-market-robbery")
    session = await sync_to_async(classes.class_create)(case=robbery, groups=1, seats=2, teacher_session_key=TEACHER)
    url = f"/ws/class/{session.public_id}/"
    teacher = WebsocketCommunicator(application, url, headers=await sync_to_async(socket_headers)(TEACHER))
    others = [
        WebsocketCommunicator(application, url, headers=headers)
        for headers in (socket_headers(), await sync_to_async(socket_headers)(STUDENT))
    ]
    try:
        assert (await teacher.connect())[0]
        for other in others:
            assert await other.connect() == (False, CLOSE_NOT_FOUND)
    finally:
        for socket in [teacher, *others]:
            await socket.disconnect()
