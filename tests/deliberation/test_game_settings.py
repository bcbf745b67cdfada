"""The game settings chosen in the browser reach the engine, the page and the transcript: one test
per setting, through the start page and the room form as a person would send them."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from deliberation.game_settings import (
    ERROR_ENGINE,
    ERROR_ROUNDS,
    ERROR_SPEAKERS,
    ERROR_TURN_SECONDS,
    GameSettings,
    GameSettingsForm,
    engines_offered,
)
from deliberation.minds.factory import mind_for
from deliberation.models import Deliberation, Narration, Phase, Turn, TurnKind
from deliberation.rooms.state import room_of, turn_seconds

HTMX = {"HTTP_HX_REQUEST": "true"}
SPLIT_AFTER_TWO_ROUNDS = 11
CHOSEN = {
    "settings_sent": "1",
    "max_rounds": "20",
    "speakers": "",
    "engine": "offline",
    "narration": "on",
    "show_meters": "on",
}


@pytest.fixture(autouse=True)
def quiet_judge(settings) -> None:
    settings.ANGRY_NARRATION = "text"  # the judge's words without synthesis keep these tests quick


def _start(client: Client, case, capture, **chosen: str) -> Deliberation:
    with capture(execute=True):
        response = client.post("/court/start/", {"case": case.slug, **CHOSEN, **chosen})
    assert response.status_code == 302, response.content.decode()[:2000]
    return Deliberation.objects.latest("pk")


def _play(client: Client, deliberation: Deliberation, capture, rounds: int) -> Deliberation:
    """Choose a side, then pass until ``rounds`` rounds ran or the jury reached its verdict."""
    url = f"/court/{deliberation.public_id}"
    with capture(execute=True):
        client.post(f"{url}/side/", {"side": "prosecute", "vote": "guilty"}, **HTMX)
    for _ in range(rounds):
        deliberation.refresh_from_db()
        if deliberation.phase != Phase.DELIBERATION:
            break
        with capture(execute=True):
            client.post(f"{url}/pass/", {}, **HTMX)
    deliberation.refresh_from_db()
    return deliberation


def _ai_speeches_per_round(deliberation: Deliberation) -> dict[int, int]:
    counts: dict[int, int] = {}
    speeches = Turn.objects.filter(deliberation=deliberation, kind=TurnKind.SPEECH, round_number__gte=1)
    for turn in speeches.exclude(seat_number=7):
        counts[turn.round_number] = counts.get(turn.round_number, 0) + 1
    return counts


def test_one_ai_speaker_per_round_gives_rounds_of_one_ai_speech(client, robbery, django_capture_on_commit_callbacks):
    deliberation = _start(client, robbery, django_capture_on_commit_callbacks, speakers="1")
    assert deliberation.settings["speakers"] == 1
    played = _play(client, deliberation, django_capture_on_commit_callbacks, rounds=3)
    counts = _ai_speeches_per_round(played)
    assert len(counts) == 3 and set(counts.values()) == {1}


def test_four_ai_speakers_per_round_gives_rounds_of_four_ai_speeches(
    client, robbery, django_capture_on_commit_callbacks
):
    deliberation = _start(client, robbery, django_capture_on_commit_callbacks, speakers="4")
    counts = _ai_speeches_per_round(_play(client, deliberation, django_capture_on_commit_callbacks, rounds=2))
    assert counts and set(counts.values()) == {4}


def test_the_round_limit_ends_the_deliberation_at_that_round(client, robbery, django_capture_on_commit_callbacks):
    deliberation = _start(client, robbery, django_capture_on_commit_callbacks, max_rounds="2")
    # A jury of this seed is still split after two rounds (a random one may agree at the limit).
    Deliberation.objects.filter(pk=deliberation.pk).update(seed=SPLIT_AFTER_TWO_ROUNDS)
    played = _play(client, deliberation, django_capture_on_commit_callbacks, rounds=6)
    assert played.round_number == 2
    assert played.phase != Phase.DELIBERATION and played.end_reason == "round_limit"
    assert played.engine_state["settings"]["max_rounds"] == 2


def test_narration_off_creates_no_narration_and_hides_the_judge(client, robbery, django_capture_on_commit_callbacks):
    silent = _start(client, robbery, django_capture_on_commit_callbacks, narration="")
    _play(client, silent, django_capture_on_commit_callbacks, rounds=2)
    assert not Narration.objects.filter(deliberation=silent).exists()
    assert '<div class="judge-wrap" hidden>' in client.get(f"/court/{silent.public_id}/").content.decode()

    spoken = _start(client, robbery, django_capture_on_commit_callbacks)
    assert Narration.objects.filter(deliberation=spoken).exists()


def test_hidden_meters_leave_the_conviction_meters_off_the_page(client, robbery, django_capture_on_commit_callbacks):
    hidden = _play(
        client,
        _start(client, robbery, django_capture_on_commit_callbacks, show_meters=""),
        django_capture_on_commit_callbacks,
        1,
    )
    shown = _play(
        client, _start(client, robbery, django_capture_on_commit_callbacks), django_capture_on_commit_callbacks, 1
    )
    assert 'class="meter"' not in client.get(f"/court/{hidden.public_id}/").content.decode()
    assert 'class="meter"' in client.get(f"/court/{shown.public_id}/").content.decode()


def test_the_engine_is_one_the_operator_lists_and_reaches_the_jurors(
    client, robbery, settings, django_capture_on_commit_callbacks
):
    settings.ANGRY_LLM_MODELS = ["openai/juror-model", "ollama/llama3.1"]
    assert engines_offered() == ["offline", "openai/juror-model", "ollama/llama3.1"]
    deliberation = _start(client, robbery, django_capture_on_commit_callbacks, engine="ollama/llama3.1")
    assert deliberation.engine == "ollama/llama3.1"
    assert type(mind_for(deliberation.engine)).__name__ == "LiteLLMMind"


def test_a_model_the_operator_did_not_list_is_refused_and_nothing_starts(client, robbery, settings):
    settings.ANGRY_LLM_MODELS = ["openai/juror-model"]
    response = client.post(
        "/court/start/", {"case": robbery.slug, **CHOSEN, "engine": "openai/gpt-4o", "max_rounds": "7"}
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert ERROR_ENGINE.format(engines="Offline (rule-based jurors, no network), openai/juror-model") in html
    assert 'value="7"' in html  # what was typed is still there
    assert not Deliberation.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [("max_rounds", "0", ERROR_ROUNDS), ("max_rounds", "abc", ERROR_ROUNDS), ("speakers", "5", ERROR_SPEAKERS)],
)
def test_out_of_range_settings_are_refused_with_a_clear_message(client, robbery, field, value, message):
    response = client.post("/court/start/", {"case": robbery.slug, **CHOSEN, field: value})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Deliberation.objects.exists()


def test_a_start_button_without_settings_starts_with_the_defaults(
    client, robbery, settings, django_capture_on_commit_callbacks
):
    settings.ANGRY_MAX_ROUNDS = 12
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post("/court/start/", {"case": robbery.slug}).status_code == 302
    game = GameSettings.of(Deliberation.objects.get())
    assert (game.max_rounds, game.speakers, game.narration, game.show_meters) == (12, None, True, True)


def test_a_room_gets_its_turn_length_and_settings_from_the_room_form(client, robbery):
    response = client.post(
        reverse("room_new"),
        {"case": robbery.slug, "open_seats": ["2"], **CHOSEN, "turn_seconds": "30", "speakers": "2", "narration": ""},
    )
    assert response.status_code == 302
    room = Deliberation.objects.get()
    assert turn_seconds(room_of(room)) == 30
    assert room.settings["speakers"] == 2 and room.settings["narration"] is False
    assert room.settings["room"]["stage"] == "waiting"  # the room's own state is kept beside them


def test_a_turn_too_short_is_refused_on_the_room_form_and_the_case_stays_chosen(client, robbery):
    response = client.post(reverse("room_new"), {"case": robbery.slug, **CHOSEN, "turn_seconds": "3"})
    html = response.content.decode()
    assert response.status_code == 400 and ERROR_TURN_SECONDS in html
    assert f'value="{robbery.slug}" id="pick-{robbery.slug}" checked' in html
    assert not Deliberation.objects.exists()


def test_the_transcript_shows_the_settings_the_game_was_played_with(
    client, robbery, django_capture_on_commit_callbacks
):
    deliberation = _start(
        client, robbery, django_capture_on_commit_callbacks, speakers="3", narration="", max_rounds="9"
    )
    html = client.get(f"/deliberations/{deliberation.public_id}/").content.decode()
    assert "<dt>AI speakers per round</dt><dd>3</dd>" in html
    assert "<dt>Round limit</dt><dd>9</dd>" in html
    assert "<dt>Narration</dt><dd>off</dd>" in html
    markdown = client.get(f"/deliberations/{deliberation.public_id}/export.md").content.decode()
    assert "- AI speakers per round: 3" in markdown and "- Conviction meters: shown" in markdown


def test_the_single_game_form_has_no_turn_length_and_the_room_form_has_one() -> None:
    assert "turn_seconds" not in GameSettingsForm().fields
    assert "turn_seconds" in GameSettingsForm(room=True).fields


def test_the_start_page_offers_the_settings_and_every_start_button_sends_them(client, robbery, settings):
    settings.ANGRY_LLM_MODELS = ["ollama/llama3.1"]
    html = client.get("/").content.decode()
    assert '<form id="start-form" method="post" action="/court/start/">' in html
    assert f'form="start-form" name="case" value="{robbery.slug}"' in html
    for field in ("max_rounds", "speakers", "engine", "narration", "show_meters"):
        assert f'name="{field}"' in html
    assert 'name="turn_seconds"' not in html  # a single game has no turn clock
    assert '<option value="ollama/llama3.1">ollama/llama3.1</option>' in html
