"""The courtroom, its controls and the verdict page, through the Django test client."""

from __future__ import annotations

import re
import shutil

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cases.models import Case
from deliberation import services
from deliberation.court.views import ERROR_TARGET
from deliberation.engine.strategies import STRATEGY_NEEDS_TEXT
from deliberation.models import Deliberation, Narration, NarrationStatus, Phase, Turn
from deliberation.services.broadcast import pushes
from deliberation.services.lifecycle import ERROR_SIDE_LOCKED
from tests.conftest import browser_of, need

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def library(db, settings):
    """The shipped library (``robbery`` in tests/deliberation/conftest.py is built on this one)."""
    settings.ANGRY_NARRATION = "text"  # the judge's words without synthesis keep these tests quick
    call_command("load_cases", stdout=open("/dev/null", "w"))


@pytest.fixture
def host(client: Client, robbery: Case, django_capture_on_commit_callbacks) -> tuple[Client, Deliberation]:
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/court/start/", {"case": robbery.slug})
    deliberation = Deliberation.objects.get()
    assert response.status_code == 302 and response.url == f"/court/{deliberation.public_id}/"
    return client, deliberation


def _post(client: Client, url: str, data: dict, capture) -> str:
    with capture(execute=True):
        response = client.post(url, data, **HTMX)
    assert response.status_code == 200
    return response.content.decode()


def _chat_ids(html: str) -> list[str]:
    return re.findall(r'<li id="(turn-\d+)"', html)


def test_home_lists_playable_cases_with_a_start_button_but_never_their_difficulty(client, robbery):
    Case.objects.filter(slug="copper-kettle-fire").update(playable=False)
    html = client.get("/").content.decode()
    assert robbery.title in html
    assert "Copper Kettle" not in html
    assert "Start deliberating" in html
    assert "clear_guilty" not in html and "Clear guilty" not in html


def test_home_leaves_out_cases_with_an_excluded_content_note(client, library):
    noted = Case.objects.exclude(content_notes=[]).first()
    assert noted is not None
    html = client.get("/", {"exclude": noted.content_notes[0]}).content.decode()
    assert noted.title not in html


def test_home_answers_htmx_filtering_with_the_results_partial_only(client, robbery):
    response = client.get("/", {"q": "Kessler"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="case-results")
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="case-results"')
    assert robbery.title in html
    assert "<html" not in html


def test_random_case_starts_a_deliberation_of_a_playable_case(client, library, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/court/start/", {"case": "random"})
    deliberation = Deliberation.objects.get()
    assert response.url == f"/court/{deliberation.public_id}/"
    assert deliberation.case.playable


def test_the_courtroom_opens_with_the_judge_the_case_file_and_the_side_choice(host):
    client, deliberation = host
    html = client.get(f"/court/{deliberation.public_id}/").content.decode()
    assert "Choose your side" in html
    assert 'value="defend"' in html and 'value="prosecute"' in html
    assert deliberation.case.summary[:40] in html
    assert "Members of the jury" in html  # the judge's presentation, as words
    assert f'ws-connect="/ws/court/{deliberation.public_id}/?seen={pushes(deliberation.pk)}"' in html


def test_a_stranger_finds_no_courtroom_and_cannot_act(host, robbery):
    _, deliberation = host
    stranger = Client()
    assert stranger.get(f"/court/{deliberation.public_id}/").status_code == 404
    response = stranger.post(f"/court/{deliberation.public_id}/side/", {"side": "defend"}, **HTMX)
    assert response.status_code == 404
    assert Deliberation.objects.get().player_side is None


def test_a_curator_watches_and_cannot_act(host, robbery, admin_client):
    _, deliberation = host
    html = admin_client.get(f"/court/{deliberation.public_id}/").content.decode()
    assert "You are watching" in html
    assert 'id="controls"' not in html
    response = admin_client.post(
        f"/court/{deliberation.public_id}/side/", {"side": "defend", "vote": "not_guilty"}, **HTMX
    )
    assert response.status_code == 403
    assert Deliberation.objects.get().player_side is None


def test_a_friend_given_the_share_link_watches_live_until_it_is_revoked(host, robbery):
    client, deliberation = host
    client.post(reverse("review:share_create", args=[deliberation.public_id]))
    token = Deliberation.objects.get().share_token
    friend = Client()
    court = f"/court/{deliberation.public_id}/"
    assert friend.get(court).status_code == 404
    shared = friend.get(reverse("review:shared", args=[token])).content.decode()
    assert f'href="{court}"' in shared  # "Watch it live"
    html = friend.get(court).content.decode()
    assert "You are watching" in html and 'id="controls"' not in html
    assert friend.post(f"{court}side/", {"side": "defend"}, **HTMX).status_code == 403
    client.post(reverse("review:share_revoke", args=[deliberation.public_id]))
    assert friend.get(court).status_code == 404


def test_choosing_a_side_shows_the_first_tally_and_opens_the_floor(host, django_capture_on_commit_callbacks):
    client, deliberation = host
    html = _post(
        client,
        f"/court/{deliberation.public_id}/side/",
        {"side": "defend", "vote": "not_guilty"},
        django_capture_on_commit_callbacks,
    )
    assert "Speak" in html and "Pass Turn" in html and "Call Final Vote" in html
    page = client.get(f"/court/{deliberation.public_id}/").content.decode()
    tally = re.search(r'class="tally-label">.*?(\d+)–(\d+) (GUILTY|NOT GUILTY|SPLIT)', page, re.S)
    assert tally is not None and int(tally[1]) + int(tally[2]) == 12
    assert "Juror 7 defends" in page


def test_the_side_is_locked_once_chosen(host, django_capture_on_commit_callbacks):
    client, deliberation = host
    _post(
        client,
        f"/court/{deliberation.public_id}/side/",
        {"side": "defend", "vote": "not_guilty"},
        django_capture_on_commit_callbacks,
    )
    html = _post(
        client,
        f"/court/{deliberation.public_id}/side/",
        {"side": "prosecute", "vote": "guilty"},
        django_capture_on_commit_callbacks,
    )
    assert ERROR_SIDE_LOCKED in html
    assert Deliberation.objects.get().player_side == "defend"


@pytest.fixture
def deliberating(host, django_capture_on_commit_callbacks) -> tuple[Client, Deliberation]:
    client, deliberation = host
    _post(
        client,
        f"/court/{deliberation.public_id}/side/",
        {"side": "prosecute", "vote": "guilty"},
        django_capture_on_commit_callbacks,
    )
    return client, deliberation


def test_a_custom_argument_without_text_is_refused_inline_and_keeps_the_choice(
    deliberating, django_capture_on_commit_callbacks
):
    client, deliberation = deliberating
    url = f"/court/{deliberation.public_id}/speak/"
    html = _post(client, url, {"strategy": "free_argument", "text": "  "}, django_capture_on_commit_callbacks)
    assert STRATEGY_NEEDS_TEXT in html
    assert 'role="alert"' in html
    assert re.search(r'value="free_argument" checked', html)
    assert Deliberation.objects.get().round_number == 0


def test_addressing_a_juror_needs_a_target(deliberating, django_capture_on_commit_callbacks):
    client, deliberation = deliberating
    url = f"/court/{deliberation.public_id}/speak/"
    html = _post(client, url, {"strategy": "address_juror", "target": ""}, django_capture_on_commit_callbacks)
    assert ERROR_TARGET in html


def test_speaking_runs_a_round_whose_messages_the_courtroom_shows(deliberating, django_capture_on_commit_callbacks):
    client, deliberation = deliberating
    text = "The receipt puts him across town at the time of the robbery."
    url = f"/court/{deliberation.public_id}/speak/"
    _post(client, url, {"strategy": "address_juror", "target": "3", "text": text}, django_capture_on_commit_callbacks)
    deliberation.refresh_from_db()
    assert deliberation.round_number == 1
    player_turn = Turn.objects.get(deliberation=deliberation, seat_number=7)
    assert player_turn.target_seat == 3
    html = client.get(f"/court/{deliberation.public_id}/").content.decode()
    assert f'id="turn-{player_turn.pk}"' in html
    assert "Address Specific Juror" in html


def test_a_reload_rebuilds_the_same_courtroom_from_the_database(deliberating, django_capture_on_commit_callbacks):
    client, deliberation = deliberating
    _post(client, f"/court/{deliberation.public_id}/pass/", {}, django_capture_on_commit_callbacks)
    first = client.get(f"/court/{deliberation.public_id}/").content.decode()
    tab = Client()
    tab.cookies = client.cookies  # a second tab of the host's browser: only the database carries state
    second = tab.get(f"/court/{deliberation.public_id}/").content.decode()
    assert _chat_ids(first) and _chat_ids(first) == _chat_ids(second)
    tally = re.compile(r'<div id="tally".*?</div>', re.S)
    assert tally.search(first)[0] == tally.search(second)[0]


def test_the_courtroom_costs_the_same_queries_at_round_1_and_round_20(deliberating, django_capture_on_commit_callbacks):
    client, deliberation = deliberating
    _post(client, f"/court/{deliberation.public_id}/pass/", {}, django_capture_on_commit_callbacks)
    url = f"/court/{deliberation.public_id}/"
    with CaptureQueriesContext(connection) as round_one:
        client.get(url)
    turns = list(Turn.objects.filter(deliberation=deliberation))
    top = max(t.sequence for t in turns)
    for number in range(2, 21):  # nineteen more rounds' worth of turns and narrations
        for index, turn in enumerate(turns):
            turn.pk, turn.round_number, turn.sequence = None, number, top + index + 1
            turn.save()
        top += len(turns)
        Narration.objects.create(
            deliberation=deliberation, round_number=number, text="The vote stands.", status=NarrationStatus.TEXT_ONLY
        )
    Deliberation.objects.filter(pk=deliberation.pk).update(round_number=20)
    with CaptureQueriesContext(connection) as round_twenty:
        html = client.get(url).content.decode()
    assert len(_chat_ids(html)) > 20 * len(turns) - 1
    assert len(round_twenty) == len(round_one)


def test_the_verdict_page_keeps_history_back_until_the_jury_has_decided(
    deliberating, django_capture_on_commit_callbacks
):
    client, deliberation = deliberating
    Case.objects.filter(pk=deliberation.case_id).update(
        historical_verdict="guilty", historical_punishment="Transported for seven years"
    )
    before = client.get(f"/court/{deliberation.public_id}/verdict/").content.decode()
    assert "still deliberating" in before
    assert "Transported for seven years" not in before
    _post(client, f"/court/{deliberation.public_id}/call/", {"confirm": "yes"}, django_capture_on_commit_callbacks)
    deliberation.refresh_from_db()
    assert deliberation.phase == Phase.VERDICT
    after = client.get(f"/court/{deliberation.public_id}/verdict/").content.decode()
    assert "Transported for seven years" in after
    agreed = "agreed</strong>" in after
    assert agreed == (deliberation.verdict == "guilty")
    assert "<svg" in after and "Hysteresis band" in after
    assert f"/deliberations/{deliberation.public_id}/" in after
    # The person in seat 7 has a vote, not a conviction: no line is drawn for them.
    assert 'class="juror-line" data-seat="1"' in after
    assert 'class="juror-line" data-seat="7"' not in after
    assert 'class="legend-item participant" data-seat="7"' in after


def test_a_case_without_a_historical_record_says_so_after_the_verdict(deliberating, django_capture_on_commit_callbacks):
    client, deliberation = deliberating
    _post(client, f"/court/{deliberation.public_id}/call/", {"confirm": "yes"}, django_capture_on_commit_callbacks)
    html = client.get(f"/court/{deliberation.public_id}/verdict/").content.decode()
    assert "There is no historical record" in html


def test_calling_the_vote_shows_the_verdict_links_in_the_controls(deliberating, django_capture_on_commit_callbacks):
    client, deliberation = deliberating
    html = _post(
        client, f"/court/{deliberation.public_id}/call/", {"confirm": "yes"}, django_capture_on_commit_callbacks
    )
    assert "The verdict is in" in html
    assert f"/court/{deliberation.public_id}/verdict/" in html


def test_the_case_file_search_finds_passages(deliberating, settings):
    settings.ANGRY_RETRIEVAL = "bm25"  # lexical: a word in no passage matches nothing
    client, deliberation = deliberating
    html = client.get(f"/court/{deliberation.public_id}/search/", {"q": "thumbprint"}, **HTMX).content.decode()
    assert html.lstrip().startswith('<div id="search-results"')
    assert "for “thumbprint”" in html and "<strong>Thumbprint on the counter</strong>" in html
    assert "Nothing in the case file matches" not in html
    empty = client.get(f"/court/{deliberation.public_id}/search/", {"q": "zeppelin"}, **HTMX).content.decode()
    assert "Nothing in the case file matches “zeppelin”." in empty and "<li>" not in empty


def test_the_courtroom_plays_the_judges_audio_once_the_narration_is_ready(
    client, robbery, settings, django_capture_on_commit_callbacks
):
    need(shutil.which("espeak-ng") is not None, "espeak-ng is not installed (apt-get install espeak-ng)")
    settings.ANGRY_NARRATION = "espeak"
    with django_capture_on_commit_callbacks(execute=True):
        deliberation = services.deliberation_start(case=robbery, host_session_key=browser_of(client))
    narration = Narration.objects.get(deliberation=deliberation)
    assert narration.status == NarrationStatus.READY
    html = client.get(f"/court/{deliberation.public_id}/").content.decode()
    assert narration.audio and narration.playlist
    # The presentation is long, so the page plays the pieces it was voiced in, in order.
    for entry in narration.playlist:
        assert f'src="{entry["url"]}" data-index="{entry["index"]}"' in html
    assert html.count('class="judge-audio"') == len(narration.playlist)


def test_the_case_file_panel_prints_an_imported_charge_as_a_court_says_it(host) -> None:
    client, deliberation = host
    Case.objects.filter(pk=deliberation.case_id).update(charges=["Violent theft: robbery"])
    html = client.get(f"/court/{deliberation.public_id}/").content.decode()
    assert "<strong>Charge:</strong> Robbery with violence</p>" in html
    assert "Violent theft: robbery" not in html
