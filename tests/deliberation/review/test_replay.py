"""Replay: the jury box and the chart as they stood at round N, stepped with htmx partial swaps."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.deliberation.review.conftest import write_deliberation

pytestmark = pytest.mark.django_db


def _jury_box(html: str) -> dict[str, str]:
    """Juror name -> the vote the jury box shows for them."""
    seats = re.findall(r'<li class="box-seat (\w*)[^"]*">.*?<span class="name">([^<]+)', html, re.S)
    return {name.strip(): vote for vote, name in seats}


def _points(html: str, seat: int) -> int:
    group = html[html.index(f'<g class="juror-line" data-seat="{seat}">') :]
    group = group[: group.index("</g>")]
    match = re.search(r'points="([^"]+)"', group)
    return len(match.group(1).split()) if match else 1


def test_replay_at_round_n_shows_the_votes_as_they_stood_then(client):
    # Seat n changes its vote in round n: seat 1 from guilty to not guilty in round 1, seat 9 to guilty in round 9.
    deliberation = write_deliberation(rounds=10)
    url = reverse("review:transcript", args=[deliberation.public_id])
    at_start = _jury_box(client.get(url + "?round=0").content.decode())
    after_one = _jury_box(client.get(url + "?round=1").content.decode())
    at_end = _jury_box(client.get(url).content.decode())
    assert at_start["Juror Name 1"] == "guilty" and after_one["Juror Name 1"] == "not_guilty"
    assert after_one["Juror Name 9"] == "not_guilty" and at_end["Juror Name 9"] == "guilty"
    assert len(at_start) == 12


def test_the_seat_that_changed_its_vote_in_that_round_is_marked(client):
    deliberation = write_deliberation(rounds=5)
    html = client.get(reverse("review:transcript", args=[deliberation.public_id]) + "?round=3").content.decode()
    flipped = re.findall(r'<li class="box-seat \w* flipped">.*?<span class="name">([^<]+)', html, re.S)
    assert [name.strip() for name in flipped] == ["Juror Name 3"]


def test_the_chart_is_cut_at_the_replayed_round(client):
    deliberation = write_deliberation(rounds=6)
    url = reverse("review:transcript", args=[deliberation.public_id])
    assert _points(client.get(url + "?round=2").content.decode(), seat=5) == 3  # rounds 0, 1, 2
    assert _points(client.get(url).content.decode(), seat=5) == 7


def test_previous_and_next_step_one_round_and_swap_only_the_panel(client):
    deliberation = write_deliberation(rounds=4)
    url = reverse("review:transcript", args=[deliberation.public_id])
    html = client.get(url + "?round=2").content.decode()
    assert f'href="{url}?round=1#replay" hx-get="{url}?round=1" hx-target="#replay"' in html
    assert f'href="{url}?round=3#replay" hx-get="{url}?round=3" hx-target="#replay"' in html
    partial = client.get(url + "?round=3", headers={"HX-Request": "true", "HX-Target": "replay"}).content.decode()
    assert partial.lstrip().startswith('<section id="replay"')
    assert "<html" not in partial and "Transcript</h2>" not in partial
    assert "after round 3" in partial


def test_rounds_out_of_range_are_held_to_the_deliberation(client):
    deliberation = write_deliberation(rounds=3)
    url = reverse("review:transcript", args=[deliberation.public_id])
    assert client.get(url + "?round=99").context["current"] == 3
    assert client.get(url + "?round=-4").context["current"] == 0
    assert client.get(url + "?round=abc").context["current"] == 3


def test_the_replay_lists_what_was_said_in_that_round(client):
    deliberation = write_deliberation(rounds=3)
    html = client.get(reverse("review:transcript", args=[deliberation.public_id]) + "?round=2").content.decode()
    said = html[html.index("Said in round 2") :]
    said = said[: said.index("</ul>")]
    assert "Speech in round 2 by seat 3." in said and "round 1" not in said
