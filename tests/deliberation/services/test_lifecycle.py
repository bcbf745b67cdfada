"""Starting a deliberation, choosing a side, speaking, passing, voting and calling the vote."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from deliberation import services
from deliberation.models import Phase, SeatKind, Turn, TurnKind, Vote
from deliberation.services import lifecycle


def test_a_new_game_seats_eleven_ai_jurors_and_the_player_in_seat_seven(robbery):
    deliberation = services.deliberation_start(case=robbery, seed=1, host_session_key="abc")
    seats = {s.number: s for s in deliberation.seats.all()}
    assert len(seats) == 12 and deliberation.phase == Phase.PRESENTATION
    assert seats[7].kind == SeatKind.HUMAN and seats[7].session_key == "abc"
    assert all(seats[n].kind == SeatKind.AI and seats[n].persona for n in seats if n != 7)
    assert deliberation.narrations.filter(kind="presentation").exists()


def test_without_a_player_the_juror_seven_persona_takes_the_seat(robbery):
    deliberation = services.deliberation_start(case=robbery, seed=1, player_side="none", host_plays=False)
    seat = deliberation.seats.get(number=7)
    assert seat.kind == SeatKind.AI and seat.display_name == "Juror 7"
    assert deliberation.phase == Phase.DELIBERATION


def test_choosing_a_side_casts_the_first_ballot_and_locks_the_side(robbery):
    deliberation = services.deliberation_start(case=robbery, seed=2)
    services.side_choose(deliberation_id=deliberation.pk, side="defend")
    deliberation.refresh_from_db()
    assert deliberation.phase == Phase.DELIBERATION and deliberation.player_side == "defend"
    initial = Vote.objects.filter(deliberation=deliberation, ballot="initial")
    assert initial.count() == 11  # the player's side is not a vote: seat 7 has cast none yet
    assert not initial.filter(seat_number=7).exists()
    assert deliberation.snapshots.filter(round_number=0).count() == 12
    with pytest.raises(ValidationError) as excinfo:
        services.side_choose(deliberation_id=deliberation.pk, side="prosecute")
    assert excinfo.value.messages == [lifecycle.ERROR_SIDE_LOCKED]


def test_speaking_runs_a_round_that_opens_with_the_players_crafted_argument(
    robbery, django_capture_on_commit_callbacks
):
    deliberation = services.deliberation_start(case=robbery, seed=3, player_side="defend")
    with django_capture_on_commit_callbacks(execute=True):
        services.player_speak(
            deliberation_id=deliberation.pk, seat_number=7, strategy="challenge_evidence", text="the lineup was unfair"
        )
    deliberation.refresh_from_db()
    assert deliberation.round_number == 1 and deliberation.pending == []
    speeches = list(deliberation.turns.filter(kind=TurnKind.SPEECH))
    assert speeches[0].seat_number == 7 and speeches[0].strategy == "challenge_evidence"
    assert "the lineup was unfair" in speeches[0].content
    assert {r["seat"] for r in speeches[0].reactions} == {n for n in range(1, 13) if n != 7}
    assert deliberation.round_stats.get(round_number=1).llm_calls == len(speeches) + 1 + 0


def test_addressing_a_juror_needs_a_target(robbery):
    deliberation = services.deliberation_start(case=robbery, seed=3, player_side="defend")
    with pytest.raises(ValidationError, match="target"):
        services.player_speak(deliberation_id=deliberation.pk, seat_number=7, strategy="address_juror")
    assert not Turn.objects.filter(deliberation=deliberation).exists()


def test_a_vote_from_an_ai_jurors_seat_is_refused(robbery):
    deliberation = services.deliberation_start(case=robbery, seed=4, player_side="defend")
    with pytest.raises(ValidationError) as excinfo:
        services.vote_cast(deliberation_id=deliberation.pk, seat_number=3, value="guilty")
    assert excinfo.value.messages == [lifecycle.ERROR_NOT_YOUR_SEAT.format(seat=3)]


def test_the_player_may_change_their_vote_during_deliberation(robbery):
    deliberation = services.deliberation_start(case=robbery, seed=4, player_side="defend")
    assert services.vote_cast(deliberation_id=deliberation.pk, seat_number=7, value="guilty") is True
    assert services.vote_cast(deliberation_id=deliberation.pk, seat_number=7, value="guilty") is False
    assert deliberation.seats.get(number=7).vote == "guilty"
    assert deliberation.votes.filter(ballot="cast", seat_number=7, previous="not_guilty").count() == 1


def test_calling_the_vote_ends_the_deliberation_with_a_verdict(robbery, django_capture_on_commit_callbacks):
    deliberation = services.deliberation_start(case=robbery, seed=5, player_side="prosecute")
    with django_capture_on_commit_callbacks(execute=True):
        services.turn_pass(deliberation_id=deliberation.pk, seat_number=7)
    assert deliberation.turns.filter(round_number=1).exists()
    services.vote_call(deliberation_id=deliberation.pk, seat_number=7)
    deliberation.refresh_from_db()
    assert deliberation.phase == Phase.VERDICT and deliberation.end_reason == "called"
    assert deliberation.verdict in {"guilty", "not_guilty", "hung"}
    assert deliberation.votes.filter(ballot="final").count() == 12
    assert deliberation.narrations.filter(kind="verdict").exists()
    with pytest.raises(ValidationError) as excinfo:
        services.turn_pass(deliberation_id=deliberation.pk, seat_number=7)
    assert excinfo.value.messages == [lifecycle.ERROR_FINISHED]


def test_an_unplayable_case_cannot_be_started(robbery):
    robbery.playable = False
    robbery.save()
    with pytest.raises(ValidationError) as excinfo:
        services.deliberation_start(case=robbery)
    assert excinfo.value.messages == [lifecycle.ERROR_CASE_UNPLAYABLE]


def test_an_argument_longer_than_the_limit_is_refused_and_nothing_is_queued(robbery):
    deliberation = services.deliberation_start(case=robbery, seed=3, player_side="defend")
    text = "x" * (lifecycle.MAX_FREE_TEXT + 1)
    with pytest.raises(ValidationError) as excinfo:
        services.player_speak(deliberation_id=deliberation.pk, seat_number=7, strategy="free_argument", text=text)
    assert excinfo.value.messages == [
        lifecycle.ERROR_TEXT_TOO_LONG.format(limit=lifecycle.MAX_FREE_TEXT, length=len(text))
    ]
    deliberation.refresh_from_db()
    assert deliberation.pending == []


@pytest.mark.parametrize("target", [0, 13, 99, 7])
def test_addressing_a_seat_that_is_not_another_juror_is_refused(robbery, target):
    deliberation = services.deliberation_start(case=robbery, seed=3, player_side="defend")
    with pytest.raises(ValidationError) as excinfo:
        services.player_speak(deliberation_id=deliberation.pk, seat_number=7, strategy="address_juror", target=target)
    assert excinfo.value.messages == [lifecycle.ERROR_TARGET_UNKNOWN]


def test_a_model_string_no_provider_serves_is_refused_before_the_game_starts(robbery):
    from deliberation.minds.factory import ERROR_UNKNOWN_MODEL

    with pytest.raises(ValidationError) as excinfo:
        services.deliberation_start(case=robbery, engine="bogus/model")
    assert excinfo.value.messages == [ERROR_UNKNOWN_MODEL.format(engine="bogus/model")]
    assert not robbery.deliberations.exists()


def test_a_round_left_running_by_a_dead_worker_does_not_lock_the_player_out(
    robbery, django_capture_on_commit_callbacks, settings
):
    from datetime import timedelta

    from django.utils import timezone

    from deliberation.models import Deliberation

    deliberation = services.deliberation_start(case=robbery, seed=3, player_side="defend")
    now = timezone.now()
    Deliberation.objects.filter(pk=deliberation.pk).update(
        round_status="running", round_claimed_at=now, round_heartbeat_at=now
    )
    with pytest.raises(ValidationError) as excinfo:
        services.turn_pass(deliberation_id=deliberation.pk, seat_number=7)
    assert excinfo.value.messages == [lifecycle.ERROR_ROUND_RUNNING]
    stale = timezone.now() - timedelta(seconds=settings.ANGRY_ROUND_STALE_SECONDS + 1)
    Deliberation.objects.filter(pk=deliberation.pk).update(round_heartbeat_at=stale)
    with django_capture_on_commit_callbacks(execute=True):
        services.turn_pass(deliberation_id=deliberation.pk, seat_number=7)
    deliberation.refresh_from_db()
    assert deliberation.round_number == 1 and deliberation.round_status == "idle"
    assert list(deliberation.round_stats.values_list("round_number", flat=True)) == [1]
