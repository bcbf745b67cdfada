"""The fragments pushed over the websocket for each event (deliberation.court.live)."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cases.models import Case
from deliberation import services
from deliberation.court import live
from deliberation.models import Deliberation, Narration, NarrationStatus, Turn


@pytest.fixture
def deliberation(db, settings, django_capture_on_commit_callbacks) -> Deliberation:
    settings.ANGRY_NARRATION = "text"
    call_command("load_cases", stdout=open("/dev/null", "w"))
    case = Case.objects.get(slug="kessler-market-robbery")
    with django_capture_on_commit_callbacks(execute=True):
        # A fixed seed whose first round leaves the jury divided (a random one may end in round 1).
        started = services.deliberation_start(case=case, host_session_key="k", player_side="defend", seed=3)
        services.turn_pass(deliberation_id=started.pk, seat_number=7)
    found = Deliberation.objects.get(pk=started.pk)
    assert found.phase == "deliberation" and found.round_number == 1
    return found


def test_a_round_pushes_its_new_messages_to_be_typed_and_the_jury_box(deliberation):
    html = live.render_event(deliberation.pk, "round", {"round": 1})
    turns = Turn.objects.filter(deliberation=deliberation, round_number=1)
    assert turns
    for turn in turns:
        assert f'id="turn-{turn.pk}"' in html
    assert 'hx-swap-oob="beforeend:#chat"' in html
    assert 'data-kinetic="new"' in html
    assert 'id="jury-box"' in html and 'id="controls"' in html and 'id="tally"' in html
    assert re.search(r'<li id="chat-empty"[^>]* hidden hx-swap-oob="true">', html)  # hidden, kept as a target


def test_vote_changes_are_announced_for_everyone(deliberation):
    last = Turn.objects.filter(deliberation=deliberation, round_number=1, kind="speech").last()
    last.flips = [{"seat": 3, "from": "guilty", "to": "not_guilty"}]
    last.save()
    html = live.render_event(deliberation.pk, "round", {"round": 1})
    name = deliberation.seats.get(number=3).display_name
    assert live.ANNOUNCE_FLIP.format(round=1, name=name, vote="not guilty") in html
    assert 'hx-swap-oob="beforeend:#announcements"' in html


def test_thinking_disables_the_controls(deliberation):
    Deliberation.objects.filter(pk=deliberation.pk).update(round_status="running")
    html = live.render_event(deliberation.pk, "thinking", {"round": 2})
    assert 'class="move-fieldset" disabled' in html
    assert "the jurors are thinking" in html


def test_a_ready_narration_pushes_the_judges_words(deliberation):
    narration = Narration.objects.filter(deliberation=deliberation).last()
    html = live.render_event(deliberation.pk, "narration", {"narration_id": narration.pk})
    assert html.lstrip().startswith('<div id="judge"')
    assert narration.text[:30] in html


def test_a_round_broadcast_costs_the_same_queries_at_round_1_and_round_20(deliberation):
    with CaptureQueriesContext(connection) as early:
        live.render_event(deliberation.pk, "round", {"round": 1})
    turns = list(Turn.objects.filter(deliberation=deliberation))
    top = max(t.sequence for t in turns)
    for number in range(2, 21):
        for index, turn in enumerate(turns):
            turn.pk, turn.round_number, turn.sequence = None, number, top + index + 1
            turn.save()
        top += len(turns)
        Narration.objects.create(deliberation=deliberation, text="The vote stands.", status=NarrationStatus.TEXT_ONLY)
    with CaptureQueriesContext(connection) as late:
        live.render_event(deliberation.pk, "round", {"round": 20})
    assert len(late) == len(early)


def test_a_persons_vote_is_pushed_to_everyone_like_a_flip(deliberation, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        services.vote_cast(deliberation_id=deliberation.pk, seat_number=7, value="guilty")
    html = live.render_event(deliberation.pk, "vote", {"seat": 7, "round": 1})
    name = deliberation.seats.get(number=7).display_name
    assert 'id="seat-7"' in html and "seat vote-guilty" in html
    line = Turn.objects.get(deliberation=deliberation, kind="process", seat_number=7)
    assert f'id="turn-{line.pk}"' in html and "🔁" in html
    assert live.ANNOUNCE_VOTE.format(name=name, vote="guilty") in html


def test_a_persons_vote_pushes_only_their_seat_and_the_tally(deliberation, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        services.vote_cast(deliberation_id=deliberation.pk, seat_number=7, value="guilty")
    with CaptureQueriesContext(connection) as queries:
        html = live.render_event(deliberation.pk, "vote", {"seat": 7, "round": 1})
    seats = re.findall(r'id="seat-(\d+)"', html)
    assert seats == ["7"]  # the other eleven seats did not change
    assert 'id="jury-box"' not in html
    assert 'id="tally"' in html and "seat-player" in html  # the player's own seat keeps its mark
    assert len(queries.captured_queries) == 3  # the deliberation, its seats, the vote's line


def test_a_vote_that_names_no_seat_pushes_the_whole_jury_box(deliberation):
    html = live.render_event(deliberation.pk, "vote", {"round": 1})
    assert 'id="jury-box"' in html and len(re.findall(r'id="seat-(\d+)"', html)) == 12
