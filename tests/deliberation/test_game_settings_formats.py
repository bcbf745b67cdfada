"""The game settings carry the formats and a juror's illness: the turn mode, what model jurors
see, and the round before which the judge discharges a juror, chosen on the start page, saved
with the deliberation, shown in the transcript, and the discharge seen in the courtroom."""

from __future__ import annotations

from django.urls import reverse

from cases.models import Case
from deliberation import services
from deliberation.game_settings import ERROR_POLL, ERROR_SUMMARY_EVERY
from deliberation.models import Deliberation, Narration, NarrationKind, Turn, TurnKind
from deliberation.services.discharge import DISCHARGE_DIRECTION, scheduled_discharge
from deliberation.services.lifecycle import engine_settings


def test_the_start_page_saves_the_turn_mode_scope_and_discharge_and_the_transcript_shows_them(library, client):
    home = client.get(reverse("home")).content.decode()
    for name in ("turn_mode", "context_scope", "discharge_round"):
        assert f'name="{name}"' in home
    response = client.post(
        reverse("court_start"),
        {"case": "copper-kettle-fire", "settings_sent": "1", "max_rounds": "8", "engine": "offline",
         "turn_mode": "round-robin", "context_scope": "last-n", "discharge_round": "3", "rules": "us-allen"},
    )  # fmt: skip
    assert response.status_code == 302
    deliberation = Deliberation.objects.get()
    assert deliberation.settings["turn_mode"] == "round-robin"
    assert deliberation.settings["context_scope"] == "last-n"
    assert deliberation.settings["discharge_round"] == 3
    transcript = client.get(reverse("review:transcript", args=[deliberation.public_id])).content.decode()
    assert "Round-robin (in seat order)" in transcript
    assert "The last 6 turns" in transcript
    assert "before round 3: the judge discharges one AI juror" in transcript


def test_a_discharge_round_out_of_range_is_refused_on_the_start_page(library, client):
    response = client.post(
        reverse("court_start"),
        {"case": "copper-kettle-fire", "settings_sent": "1", "max_rounds": "8", "engine": "offline",
         "discharge_round": "1"},
    )  # fmt: skip
    assert response.status_code == 400 and not Deliberation.objects.exists()
    assert "A juror can fall ill before a round between 2 and" in response.content.decode()


def _game(**options: object) -> Deliberation:
    case = Case.objects.get(slug="copper-kettle-fire")
    return services.deliberation_start(
        case=case, seed=4, player_side="none", host_plays=False, max_rounds=6, options=dict(options)
    )


def test_the_judge_discharges_a_juror_before_the_chosen_round_and_the_courtroom_shows_it(library, client):
    deliberation = _game(discharge_round=2, rules="england-wales")
    assert services.round_run(deliberation_id=deliberation.pk)
    assert not deliberation.seats.filter(discharged_round__isnull=False).exists()  # not before round 2
    assert services.round_run(deliberation_id=deliberation.pk)
    seat = deliberation.seats.get(discharged_round__isnull=False)
    assert seat.kind == "ai" and seat.discharged_round == 2
    direction = Turn.objects.get(deliberation=deliberation, kind=TurnKind.JUDGE, target_seat=seat.number)
    assert direction.content == DISCHARGE_DIRECTION.format(name=seat.display_name, size=11)
    assert Narration.objects.filter(deliberation=deliberation, kind=NarrationKind.LINE, text__contains="discharging")
    assert not Turn.objects.filter(deliberation=deliberation, seat_number=seat.number, round_number=2).exists()
    court = client.get(reverse("court", args=[deliberation.public_id])).content.decode()
    assert "seat-discharged" in court and "has been taken ill" in court
    assert scheduled_discharge(deliberation_id=deliberation.pk) is None  # once only


def test_no_juror_is_discharged_under_the_old_bailey_rules(library):
    deliberation = _game(discharge_round=2, rules="historical-old-bailey")
    services.round_run(deliberation_id=deliberation.pk)
    assert scheduled_discharge(deliberation_id=deliberation.pk) is None
    assert not deliberation.seats.filter(discharged_round__isnull=False).exists()


def test_the_start_page_saves_how_the_foreperson_sums_up_and_polls_and_the_game_follows_it(library, client):
    home = client.get(reverse("home")).content.decode()
    assert 'name="summary_every"' in home and 'name="poll"' in home
    client.post(
        reverse("court_start"),
        {"case": "copper-kettle-fire", "settings_sent": "1", "max_rounds": "8", "engine": "offline",
         "summary_every": "2", "poll": "secret"},
    )  # fmt: skip
    deliberation = Deliberation.objects.get()
    assert deliberation.settings["foreperson_summary_every"] == 2 and deliberation.settings["poll"] == "secret"
    engine = engine_settings(deliberation)
    assert (engine.foreperson_summary_every, engine.poll) == (2, "secret")
    transcript = client.get(reverse("review:transcript", args=[deliberation.public_id])).content.decode()
    assert "every 2 rounds" in transcript and "By secret ballot (counts only)" in transcript


def test_a_foreperson_summing_up_every_thirty_rounds_or_polling_aloud_is_refused_with_a_message(library, client):
    response = client.post(
        reverse("court_start"),
        {"case": "copper-kettle-fire", "settings_sent": "1", "max_rounds": "8", "engine": "offline",
         "summary_every": "30", "poll": "aloud"},
    )  # fmt: skip
    page = response.content.decode()
    assert response.status_code == 400 and not Deliberation.objects.exists()
    assert ERROR_SUMMARY_EVERY in page and ERROR_POLL in page
