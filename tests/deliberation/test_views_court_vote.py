"""The courtroom's vote control, the first ballot, the final-vote confirmation and the text limit."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils.html import escape

from deliberation.court.views import ERROR_FIRST_VOTE
from deliberation.engine.discharge import ERROR_NOT_AN_AI_JUROR
from deliberation.engine.ending import NEAR_ONE_SHORT
from deliberation.engine.strategies import MAX_TEXT
from deliberation.models import Deliberation, Phase, Seat
from deliberation.services.discharge import ERROR_NO_JUROR
from deliberation.services.lifecycle import ERROR_TEXT_TOO_LONG
from tests.deliberation.test_views_court import HTMX, _post, host  # noqa: F401 (the fixture)


@pytest.fixture
def playing(host, django_capture_on_commit_callbacks) -> tuple[Client, Deliberation]:  # noqa: F811
    client, deliberation = host
    _post(
        client,
        f"/court/{deliberation.public_id}/side/",
        {"side": "defend", "vote": "guilty"},
        django_capture_on_commit_callbacks,
    )
    return client, deliberation


def test_the_side_choice_asks_for_the_players_own_first_vote(host, django_capture_on_commit_callbacks):  # noqa: F811
    client, deliberation = host
    page = client.get(f"/court/{deliberation.public_id}/").content.decode()
    assert 'name="vote" value="guilty" required' in page and 'name="vote" value="not_guilty" required' in page
    html = _post(
        client, f"/court/{deliberation.public_id}/side/", {"side": "defend"}, django_capture_on_commit_callbacks
    )
    assert ERROR_FIRST_VOTE in html
    deliberation.refresh_from_db()
    assert deliberation.phase == Phase.PRESENTATION


def test_a_defender_may_vote_guilty_and_the_jury_box_shows_it(playing):
    client, deliberation = playing
    deliberation.refresh_from_db()
    assert deliberation.player_side == "defend"
    page = client.get(f"/court/{deliberation.public_id}/").content.decode()
    assert 'Your vote: <strong id="your-vote">Guilty</strong>' in page
    assert Seat.objects.get(deliberation=deliberation, number=7).vote == "guilty"


def test_the_vote_control_changes_the_players_vote_and_the_tally(playing, django_capture_on_commit_callbacks):
    client, deliberation = playing
    before = client.get(f"/court/{deliberation.public_id}/").content.decode()
    html = _post(
        client, f"/court/{deliberation.public_id}/vote/", {"vote": "not_guilty"}, django_capture_on_commit_callbacks
    )
    assert 'Your vote: <strong id="your-vote">Not guilty</strong>' in html
    after = client.get(f"/court/{deliberation.public_id}/").content.decode()
    assert "changed their vote: Guilty → Not guilty" in after
    assert before.count("Not guilty</span>") + 1 == after.count("Not guilty</span>")  # seat 7 in the jury box


def test_calling_the_final_vote_asks_first_and_says_a_split_jury_hangs(playing, django_capture_on_commit_callbacks):
    client, deliberation = playing
    html = _post(client, f"/court/{deliberation.public_id}/call/", {}, django_capture_on_commit_callbacks)
    deliberation.refresh_from_db()
    assert deliberation.phase == Phase.DELIBERATION  # nothing happened yet
    assert "Call the final vote?" in html and 'name="confirm" value="yes"' in html
    guilty = Seat.objects.filter(deliberation=deliberation, vote="guilty").count()
    split = 0 < guilty < 12
    assert ("short of a unanimous verdict, the jury is a HUNG JURY" in html) is split
    assert ("Calling the final vote now gives the verdict" in html) is not split
    _post(client, f"/court/{deliberation.public_id}/call/", {"confirm": "yes"}, django_capture_on_commit_callbacks)
    deliberation.refresh_from_db()
    assert deliberation.phase == Phase.VERDICT and deliberation.end_reason == "called"


def test_without_javascript_the_confirmation_is_a_page_of_its_own(playing):
    client, deliberation = playing
    response = client.post(f"/court/{deliberation.public_id}/call/", {})
    assert response.status_code == 302 and response.url == f"/court/{deliberation.public_id}/?confirm=call#controls"
    page = client.get(response.url).content.decode()
    assert "Call the final vote?" in page


def test_the_text_box_and_the_server_keep_the_same_limit(playing, django_capture_on_commit_callbacks):
    client, deliberation = playing
    page = client.get(f"/court/{deliberation.public_id}/").content.decode()
    assert f'maxlength="{MAX_TEXT}"' in page
    too_long = "x" * (MAX_TEXT + 1)
    html = _post(
        client,
        f"/court/{deliberation.public_id}/speak/",
        {"strategy": "free_argument", "text": too_long},
        django_capture_on_commit_callbacks,
    )
    assert ERROR_TEXT_TOO_LONG.format(limit=MAX_TEXT, length=MAX_TEXT + 1) in html


def test_challenging_evidence_lets_the_player_pick_the_item(playing, django_capture_on_commit_callbacks):
    client, deliberation = playing
    page = client.get(f"/court/{deliberation.public_id}/").content.decode()
    evidence = list(deliberation.case.evidence.all())
    assert 'name="evidence"' in page and 'name="witness"' in page
    assert all(f'<option value="E{i + 1}">{escape(e.label)}</option>' in page for i, e in enumerate(evidence))
    _post(
        client,
        f"/court/{deliberation.public_id}/speak/",
        {"strategy": "challenge_evidence", "evidence": "E2", "witness": "W1", "text": "It was never tested."},
        django_capture_on_commit_callbacks,
    )
    speech = deliberation.turns.get(kind="speech", seat_number=7)
    assert evidence[1].label.lower() in speech.content.lower()
    assert "It was never tested." in speech.content


def test_the_player_is_told_when_one_vote_would_make_the_jury_unanimous(playing, django_capture_on_commit_callbacks):
    client, deliberation = playing
    _post(client, f"/court/{deliberation.public_id}/vote/", {"vote": "not_guilty"}, django_capture_on_commit_callbacks)
    Seat.objects.filter(deliberation=deliberation).exclude(number=7).update(vote="guilty")
    page = client.get(f"/court/{deliberation.public_id}/").content.decode()
    assert NEAR_ONE_SHORT.format(count=11, size=12, verdict="guilty", rules="rules: Unanimous") in page


def test_after_the_majority_direction_the_player_is_told_ten_to_two_is_a_verdict_under_those_rules(playing):
    client, deliberation = playing
    deliberation.refresh_from_db()
    state = dict(deliberation.engine_state)
    state["settings"] = {**state["settings"], "rules": "england-wales"}
    state["rule_progress"] = {**(state.get("rule_progress") or {}), "direction_round": 13}
    deliberation.engine_state = state
    deliberation.save()
    Seat.objects.filter(deliberation=deliberation).update(vote="guilty")
    Seat.objects.filter(deliberation=deliberation, number__in=(6, 7)).update(vote="not_guilty")
    page = client.get(f"/court/{deliberation.public_id}/").content.decode()
    told = "The jury stands 10 to 2 for guilty: a majority verdict the judge can now accept"
    assert f"{told} (rules: England and Wales (majority direction))." in page
    assert "one more vote and the jury is unanimous" not in page


def test_the_player_has_the_judge_discharge_an_ai_juror_and_the_jury_box_marks_the_seat(
    playing, django_capture_on_commit_callbacks
):
    client, deliberation = playing
    page = client.get(f"/court/{deliberation.public_id}/").content.decode()
    assert 'id="court-discharge"' in page and '<option value="7">' not in page.split('id="discharge-seat"')[1][:2000]
    html = _post(
        client, f"/court/{deliberation.public_id}/discharge/", {"seat": "4"}, django_capture_on_commit_callbacks
    )
    assert '<option value="4">' not in html.split('id="discharge-seat"')[1]
    seat = Seat.objects.get(deliberation=deliberation, number=4)
    assert seat.discharged_round is not None and seat.vote == ""
    court = client.get(f"/court/{deliberation.public_id}/").content.decode()
    assert "has been taken ill" in court and "seat-discharged" in court


def test_the_player_cannot_discharge_their_own_seat_or_nobody(playing, django_capture_on_commit_callbacks):
    client, deliberation = playing
    own = _post(
        client, f"/court/{deliberation.public_id}/discharge/", {"seat": "7"}, django_capture_on_commit_callbacks
    )
    assert escape(ERROR_NOT_AN_AI_JUROR.format(seat=7)) in own
    nobody = _post(
        client, f"/court/{deliberation.public_id}/discharge/", {"seat": ""}, django_capture_on_commit_callbacks
    )
    assert ERROR_NO_JUROR in nobody
    assert not Seat.objects.filter(deliberation=deliberation, discharged_round__isnull=False).exists()
