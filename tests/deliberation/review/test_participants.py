"""Participants in a transcript: their votes, never a conviction; the command line's player named as such."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from deliberation.models import Deliberation, SeatKind
from tests.deliberation.review.conftest import write_deliberation


@pytest.fixture
def defended(robbery) -> Deliberation:
    """A real run of `deliberate --side defend`: seat 7 is the automated player."""
    call_command(
        "deliberate", "--case", robbery.slug, "--seed", "3", "--side", "defend", "--max-rounds", "3",
        stdout=io.StringIO(), stderr=io.StringIO(),
    )  # fmt: skip
    deliberation = Deliberation.objects.get()
    seat = deliberation.seats.get(number=7)
    assert seat.kind == SeatKind.HUMAN and not seat.session_key and not deliberation.host_session_key
    return deliberation


def test_the_markdown_names_the_automated_player_as_such(client, defended):
    body = client.get(reverse("review:export_md", args=[defended.public_id])).content.decode()
    seven = next(line for line in body.splitlines() if line.startswith("- Seat 7:"))
    assert seven.endswith("(automated player)")
    assert "(Person)" not in body


def test_the_summary_gives_a_participant_their_vote_and_no_conviction(client, defended):
    body = client.get(reverse("review:export_summary", args=[defended.public_id])).content.decode()
    seven = next(line for line in body.splitlines() if line.startswith("Seat 7 "))
    assert "(automated player): voted not guilty" in seven and "conviction" not in seven
    others = [line for line in body.splitlines() if re.match(r"Seat (\d+) ", line) and not line.startswith("Seat 7 ")]
    assert len(others) == 11 and all(", conviction " in line for line in others)


def test_the_json_gives_a_participant_no_conviction(client, defended):
    record = json.loads(client.get(reverse("review:export_json", args=[defended.public_id])).content)
    seven = next(j for j in record["jurors"] if j["seat"] == 7)
    assert seven["role"] == "automated player" and seven["conviction"] is None and seven["vote"] == "not_guilty"
    assert all(j["conviction"] is not None for j in record["jurors"] if j["seat"] != 7)
    snapshots = [s for r in record["round_log"] for s in r["snapshots"] if s["seat"] == 7]
    assert snapshots and all(s["conviction"] is None and s["vote"] for s in snapshots)


def test_the_replay_charts_ai_jurors_only_and_shows_a_participants_vote(client, defended):
    html = client.get(reverse("review:transcript", args=[defended.public_id])).content.decode()
    assert html.count('class="juror-line"') == 11 and 'data-seat="7"' in html
    assert '<g class="juror-line" data-seat="7">' not in html
    box = re.search(r'<li class="box-seat[^"]*">(?:(?!</li>).)*?\(automated player\)(?:(?!</li>).)*</li>', html, re.S)
    assert box is not None
    assert "their vote" in box.group(0) and 'class="bar"' not in box.group(0)


def test_a_person_in_a_room_is_called_a_person(client, db):
    room = write_deliberation(rounds=1, participants=1, sessions={1: "theirs"})
    client.force_login(_curator())
    body = client.get(reverse("review:export_md", args=[room.public_id])).content.decode()
    line = next(line for line in body.splitlines() if line.startswith("- Seat 1:"))
    assert line.endswith("(Person)") and line.startswith("- Seat 1: 👤 ")
    assert "," not in line  # no persona: the AI juror's archetype is not hers
    record = json.loads(client.get(reverse("review:export_json", args=[room.public_id])).content)
    person = next(j for j in record["jurors"] if j["seat"] == 1)
    assert person["emoji"] == "👤" and person["archetype"] == ""
    from deliberation.models import Turn, TurnKind

    last = room.turns.order_by("-sequence").first()
    Turn.objects.create(
        deliberation=room,
        round_number=last.round_number,
        sequence=last.sequence + 1,
        kind=TurnKind.SPEECH,
        seat_number=1,
        speaker_name=person["name"],
        content="Two seconds of lamplight is not an identification.",
    )
    html = client.get(reverse("review:transcript", args=[room.public_id])).content.decode()
    faces = re.findall(
        r'<span class="emoji" aria-hidden="true">([^<]*)</span>\s*<span class="speaker">[^<]*</span>\s*'
        r'<span class="muted">seat 1</span>(?!\s*<span class="arg">in the empty seat)',
        html,
    )
    assert faces and set(faces) == {"👤"}  # her turns show a person, not the AI juror's emoji


def _curator():
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("curator", password="pw", is_staff=True)


@pytest.mark.parametrize("page", ["list", "transcript", "delete"])
def test_past_deliberations_is_in_the_navigation_once(client, page, db):
    client.force_login(_curator())
    deliberation = write_deliberation(rounds=1)
    url = reverse(f"review:{page}", args=[] if page == "list" else [deliberation.public_id])
    html = client.get(url).content.decode()
    nav = html[html.index('<nav aria-label="Main">') : html.index("</nav>", html.index('<nav aria-label="Main">'))]
    assert nav.count("Past deliberations") == 1
