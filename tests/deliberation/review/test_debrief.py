"""The debrief page and its CSV: after the verdict only, for whoever may read the transcript."""

from __future__ import annotations

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from deliberation.models import Turn
from deliberation.review.debrief import CSV_COLUMNS
from deliberation.review.views import ERROR_NO_DEBRIEF_YET
from deliberation.services.review import share_link_create
from tests.conftest import browser_of
from tests.deliberation.review.conftest import write_deliberation

pytestmark = pytest.mark.django_db


def _rows(response) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_a_stranger_gets_404_and_the_host_reads_the_debrief_and_its_csv(client, django_user_model):
    host_key = browser_of(client)
    game = write_deliberation(rounds=2, participants=1, sessions={1: host_key}, host_session_key=host_key)
    page, sheet = reverse("review:debrief", args=[game.public_id]), reverse("review:debrief_csv", args=[game.public_id])
    assert client.get(page).status_code == 200
    assert client.get(sheet).status_code == 200

    from django.test import Client

    stranger = Client()
    browser_of(stranger)
    assert stranger.get(page).status_code == 404
    assert stranger.get(sheet).status_code == 404
    assert Client().get(page).status_code == 404  # no session at all
    unknown = stranger.get(reverse("review:debrief", args=["unknown-game-id00"]))
    assert unknown.status_code == 404 and unknown.content == stranger.get(page).content


def test_there_is_no_debrief_before_the_verdict(client, settings):
    settings.DEBUG = False
    running = write_deliberation(rounds=2, verdict="")
    assert client.get(reverse("review:transcript", args=[running.public_id])).status_code == 200  # a public run
    assert client.get(reverse("review:debrief", args=[running.public_id])).status_code == 404
    assert client.get(reverse("review:debrief_csv", args=[running.public_id])).status_code == 404
    settings.DEBUG = True  # the developer's 404 page says why
    assert ERROR_NO_DEBRIEF_YET in client.get(reverse("review:debrief", args=[running.public_id])).content.decode()
    assert b"The debrief" not in client.get(reverse("review:transcript", args=[running.public_id])).content


def test_the_transcript_links_to_the_debrief_once_the_verdict_is_in(client):
    done = write_deliberation(rounds=2)
    body = client.get(reverse("review:transcript", args=[done.public_id])).content.decode()
    assert reverse("review:debrief", args=[done.public_id]) in body


def test_the_debrief_shows_the_key_moments_the_changes_of_vote_the_graph_and_every_speaker(client):
    done = write_deliberation(rounds=3, participants=1)
    response = client.get(reverse("review:debrief", args=[done.public_id]))
    body = response.content.decode()
    debrief = response.context["b"]
    # Each round, the second speaker's speech drew the same deltas as the first: the earlier wins the tie.
    assert [m.speech.round for m in debrief.moments][:3] == [1, 1, 2]
    assert "Key moments" in body and "Speech in round 1 by seat 2." in body
    # Seat 1 is a person's: what the engine kept for her seat is not her vote, so its flip in round 1
    # is no change of hers. Round 2: seat 2 moved +0.02 under each speech; changing to not guilty,
    # no speech pushed that way.
    assert [(c.change.seat, c.change.after) for c in debrief.causes] == [(2, "not_guilty"), (3, "not_guilty")]
    assert debrief.causes[0].speech is None
    assert body.count('class="arrow ') == len(debrief.drawing.arrows) > 0
    assert body.count("<circle ") == 12
    # The person in seat 1 comes first among the contributions, then the AI jurors who spoke.
    assert [part.seat.number for part in debrief.seats] == [1, 2, 3, 4, 5]
    assert debrief.seats[0].contributions == []  # the person did not speak, and is still listed


def test_the_csv_has_one_row_per_contribution_with_its_figures(client):
    done = write_deliberation(rounds=2)
    rows = _rows(client.get(reverse("review:debrief_csv", args=[done.public_id])))
    assert list(rows[0]) == list(CSV_COLUMNS)
    assert len(rows) == Turn.objects.filter(deliberation=done, kind="speech").count() == 4
    first = next(r for r in rows if r["seat"] == "2" and r["round"] == "1")
    # Seat 2 spoke in round 1 to eleven listeners whose deltas are 0.01 x their seat number.
    expected = sum(0.01 * n for n in range(1, 13) if n != 2)
    assert first["listeners"] == "11"
    assert float(first["net_change"]) == pytest.approx(expected, abs=1e-4)
    assert float(first["mean_change"]) == pytest.approx(expected / 11, abs=1e-4)
    assert first["listeners_persuaded"] == "1"  # the round's flipper, seat 1
    assert first["name"] == "Juror Name 2" and first["role"] == "AI juror"
    assert {r["deliberation"] for r in rows} == {done.public_id}  # the id of its URLs, not the internal number


def test_a_contribution_that_looks_like_a_formula_is_kept_as_text_in_the_csv(client):
    done = write_deliberation(rounds=1)
    Turn.objects.filter(deliberation=done, kind="speech").update(content='=HYPERLINK("http://x","y")')
    rows = _rows(client.get(reverse("review:debrief_csv", args=[done.public_id])))
    assert {r["text"] for r in rows} == {'\'=HYPERLINK("http://x","y")'}


def test_a_share_link_opens_the_debrief_until_it_is_revoked(client):
    from deliberation.services.review import share_link_revoke

    game = write_deliberation(rounds=2, host_session_key="the-hosts-session")
    token = share_link_create(deliberation_id=game.pk)
    page = reverse("review:shared_debrief", args=[token])
    response = client.get(page)
    assert response.status_code == 200 and response["Referrer-Policy"] == "no-referrer"
    assert reverse("review:shared", args=[token]) in response.content.decode()
    assert game.public_id not in response.content.decode()  # no link to the private URL
    assert client.get(reverse("review:shared_debrief_csv", args=[token])).status_code == 200
    share_link_revoke(deliberation_id=game.pk)
    assert client.get(page).status_code == 404


def _queries(client, url: str) -> int:
    client.get(url)  # warm: sessions, content types and template caches are not what we measure
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured.captured_queries)


def test_the_debrief_and_its_csv_take_as_many_queries_at_40_rounds_as_at_2(client, django_assert_num_queries):
    short, long = write_deliberation(rounds=2), write_deliberation(rounds=40)
    for name in ("review:debrief", "review:debrief_csv"):
        expected = _queries(client, reverse(name, args=[short.public_id]))
        with django_assert_num_queries(expected):
            response = client.get(reverse(name, args=[long.public_id]))
        assert response.status_code == 200
    assert "Round 40" in client.get(reverse("review:debrief", args=[long.public_id])).content.decode()


def test_in_a_room_every_participant_reads_the_debrief_and_the_people_come_first(client):
    from django.test import Client

    first, second = Client(), Client()
    keys = {1: browser_of(first), 4: browser_of(second)}
    room = write_deliberation(rounds=3, participants=4, sessions=keys)
    page = reverse("review:debrief", args=[room.public_id])
    for reader in (first, second):
        response = reader.get(page)
        assert response.status_code == 200
        assert [part.seat.number for part in response.context["b"].seats][:4] == [1, 2, 3, 4]
    browser_of(client)
    assert client.get(page).status_code == 404


def test_the_verdict_page_links_to_the_debrief(client):
    done = write_deliberation(rounds=2)
    body = client.get(reverse("court_verdict", args=[done.public_id])).content.decode()
    assert reverse("review:debrief", args=[done.public_id]) in body


def test_a_participants_new_ballot_is_a_change_of_vote_but_a_first_ballot_is_not():
    from deliberation.models import BallotKind, Vote
    from deliberation.review.debrief import build_debrief
    from deliberation.review.selectors import build_transcript, deliberation_for_review

    room = write_deliberation(rounds=1, participants=1)
    Vote.objects.create(deliberation=room, round_number=1, seat_number=1, value="guilty", ballot=BallotKind.CAST)
    Vote.objects.create(
        deliberation=room, round_number=1, seat_number=1, value="not_guilty", previous="guilty", ballot=BallotKind.CAST
    )
    debrief = build_debrief(build_transcript(deliberation_for_review(room.pk)))
    # Round 1's engine flip in seat 1 (write_deliberation) was no vote of hers; her own switch is.
    assert [(c.seat, c.before, c.after) for c in debrief.changes] == [(1, "guilty", "not_guilty")]
    assert debrief.seats[0].changed_vote and debrief.seats[0].last_vote_label == "not guilty"


def test_the_debrief_says_when_an_argument_moved_listeners_against_its_side_and_credits_no_flip_to_it(client):
    """Round 3 of the written deliberation: seat 3 turns not guilty. A not-guilty argument moved the
    room towards guilty (seat 3 a little towards not guilty); a guilty argument pushed seat 3 further
    towards not guilty. The page credits the turn to the first and names the second as a backfire."""
    done = write_deliberation(rounds=3)
    first, second = Turn.objects.filter(deliberation=done, round_number=3, kind="speech").order_by("sequence")
    first.position = "not_guilty"
    first.reactions = [{"seat": n, "delta": -0.05 if n == 3 else 0.1} for n in range(1, 13) if n != first.seat_number]
    second.position = "guilty"
    second.reactions = [{"seat": 3, "delta": -0.2}]
    Turn.objects.bulk_update([first, second], ["position", "reactions"])
    response = client.get(reverse("review:debrief", args=[done.public_id]))
    debrief, body = response.context["b"], response.content.decode()
    (cause,) = [c for c in debrief.causes if c.change.round == 3]
    assert cause.speech.sequence == first.sequence and cause.backfire.sequence == second.sequence
    assert "Backfired: <strong>Juror Name 5</strong>'s argument for guilty pushed them 0.200 towards not guilty" in body
    moment = next(m for m in debrief.moments if m.speech.sequence == first.sequence)
    assert moment.against_side
    assert "Argued not guilty. Moved the jury by" in body
    assert "towards guilty, <strong>against its side</strong>" in body
    assert "argued not guilty)</span>: moved 1.050, net +0.950 towards guilty, against its side" in body  # at a glance
