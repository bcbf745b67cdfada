"""Who may read a deliberation: people's games are private to their host, participants and staff;
runs with no people are public; a share link opens a private one until it is revoked."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from deliberation.models import Deliberation
from tests.conftest import browser_of
from tests.deliberation.review.conftest import write_deliberation
from tests.factories import CaseFactory

pytestmark = pytest.mark.django_db

PAGES = (
    "review:transcript",
    "review:export_md",
    "review:export_json",
    "review:export_summary",
)


def _with_session(client: Client) -> str:
    """Give this client a saved browser session and return its browser key."""
    return browser_of(client, visited=True)


def _statuses(client: Client, deliberation: Deliberation) -> dict[str, int]:
    """What each of the deliberation's pages answers: transcript, replay (full and htmx panel), exports."""
    answers = {name: client.get(reverse(name, args=[deliberation.public_id])).status_code for name in PAGES}
    url = reverse("review:transcript", args=[deliberation.public_id]) + "?round=1"
    answers["replay"] = client.get(url).status_code
    answers["replay panel"] = client.get(url, headers={"HX-Request": "true", "HX-Target": "replay"}).status_code
    return answers


def _listed(client: Client) -> set[int]:
    return {d.pk for d, _ in client.get(reverse("review:list")).context["rows"]}


def _all(status: int) -> dict[str, int]:
    return dict.fromkeys([*PAGES, "replay", "replay panel"], status)


def test_a_run_with_no_people_is_public(client):
    run = write_deliberation(rounds=2)  # as from `deliberate`: no host session, no held seat
    assert _statuses(client, run) == _all(200)
    assert run.pk in _listed(client)


def test_the_command_lines_automated_player_does_not_make_a_run_private(client):
    run = write_deliberation(rounds=2, participants=1)  # seat 1 is a person's seat that no browser holds
    assert _statuses(client, run) == _all(200)


def test_a_game_played_in_the_browser_is_hidden_from_strangers_with_404(client):
    game = write_deliberation(rounds=2, host_session_key="the-hosts-session")
    _with_session(client)
    assert _statuses(client, game) == _all(404)
    assert game.pk not in _listed(client)


def test_a_stranger_without_any_session_gets_404_too(client):
    game = write_deliberation(rounds=2, host_session_key="the-hosts-session")
    assert _statuses(client, game) == _all(404)
    assert game.pk not in _listed(client)


def test_a_private_id_answers_exactly_like_an_unknown_one(client):
    game = write_deliberation(rounds=1, host_session_key="the-hosts-session")
    hidden = client.get(reverse("review:transcript", args=[game.public_id]))
    unknown = client.get(reverse("review:transcript", args=[game.public_id[::-1]]))
    assert hidden.status_code == unknown.status_code == 404
    assert hidden.content == unknown.content


def test_the_host_reads_their_own_game_and_finds_it_listed(client):
    game = write_deliberation(rounds=2)
    Deliberation.objects.filter(pk=game.pk).update(host_session_key=_with_session(client))
    assert _statuses(client, game) == _all(200)
    assert game.pk in _listed(client)


def test_a_room_is_readable_by_the_people_who_sat_on_it_and_by_nobody_else(client):
    participant = Client()
    room = write_deliberation(rounds=2, participants=2, sessions={1: "someone-else", 2: _with_session(participant)})
    assert _statuses(participant, room) == _all(200)
    assert room.pk in _listed(participant)
    _with_session(client)
    assert _statuses(client, room) == _all(404)
    assert room.pk not in _listed(client)


def test_a_room_an_agent_joined_is_private(client):
    room = write_deliberation(rounds=1, participants=1, tokens={1: "hash-of-the-agents-token"})
    assert _statuses(client, room) == _all(404)


def test_staff_read_and_list_every_deliberation(client):
    client.force_login(get_user_model().objects.create_user("curator", password="pw", is_staff=True))
    game = write_deliberation(rounds=2, host_session_key="the-hosts-session")
    room = write_deliberation(rounds=2, participants=1, sessions={1: "a-participant"})
    assert _statuses(client, game) == _all(200) and _statuses(client, room) == _all(200)
    assert {game.pk, room.pk} <= _listed(client)


def test_a_stranger_reads_a_private_game_through_its_share_link_until_it_is_revoked(client):
    host = Client()
    game = write_deliberation(rounds=2)
    Deliberation.objects.filter(pk=game.pk).update(host_session_key=_with_session(host))
    host.post(reverse("review:share_create", args=[game.public_id]))
    token = Deliberation.objects.get(pk=game.pk).share_token
    _with_session(client)
    assert client.get(reverse("review:transcript", args=[game.public_id])).status_code == 404  # not without the link

    assert client.get(f"/shared/{token}/").status_code == 200
    assert client.get(f"/shared/{token}/summary.txt").status_code == 200
    # Having opened the link, this browser is let in by the one rule wherever the game is addressed.
    assert client.get(reverse("review:transcript", args=[game.public_id])).status_code == 200

    host.post(reverse("review:share_revoke", args=[game.public_id]))
    assert client.get(f"/shared/{token}/").status_code == 404
    assert client.get(f"/shared/{token}/export.md").status_code == 404
    assert client.get(reverse("review:transcript", args=[game.public_id])).status_code == 404


def test_a_participant_who_did_not_host_may_read_but_not_share(client):
    room = write_deliberation(rounds=1, participants=1, host_session_key="the-teachers-session")
    Deliberation.objects.get(pk=room.pk).seats.filter(number=1).update(session_key=_with_session(client))
    assert client.get(reverse("review:transcript", args=[room.public_id])).status_code == 200
    assert client.post(reverse("review:share_create", args=[room.public_id])).status_code == 403
    assert Deliberation.objects.get(pk=room.pk).share_token is None


def test_a_stranger_cannot_share_or_revoke_a_private_game_and_learns_nothing_from_trying(client):
    game = write_deliberation(rounds=1, host_session_key="the-hosts-session")
    assert client.post(reverse("review:share_create", args=[game.public_id])).status_code == 404
    assert client.post(reverse("review:share_revoke", args=[game.public_id])).status_code == 404


def test_the_list_filters_offer_no_case_that_only_a_private_game_used(client):
    write_deliberation(rounds=1, case=CaseFactory(title="Public case"))
    write_deliberation(rounds=1, case=CaseFactory(title="Somebody's private case"), host_session_key="theirs")
    html = client.get(reverse("review:list")).content.decode()
    assert "Public case" in html and "Somebody" not in html


def test_the_list_explains_who_may_read_what(client):
    html = client.get(reverse("review:list")).content.decode()
    assert "is private" in html and "share link" in html and "revokes" in html


def _list_queries(client: Client) -> int:
    client.get(reverse("review:list"))
    with CaptureQueriesContext(connection) as captured:
        assert client.get(reverse("review:list")).status_code == 200
    return len(captured.captured_queries)


def test_the_list_costs_the_same_queries_however_many_games_are_hidden_or_shown(client):
    key = _with_session(client)
    case = CaseFactory()
    write_deliberation(rounds=1, case=case)
    write_deliberation(rounds=1, case=case, host_session_key=key)
    write_deliberation(rounds=1, case=case, host_session_key="theirs")
    few = _list_queries(client)
    for _ in range(4):
        write_deliberation(rounds=1, case=case)
        write_deliberation(rounds=1, case=case, host_session_key=key)
        write_deliberation(rounds=1, case=case, participants=1, sessions={1: key})
        write_deliberation(rounds=1, case=case, host_session_key="theirs")
    assert _list_queries(client) == few
    assert len(_listed(client)) == 2 + 12
