"""The player's own vote, the room the jury leaves to argue, and one turn per seat per round."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from deliberation import services
from deliberation.engine import judge
from deliberation.engine.state import DeliberationState
from deliberation.engine.strategies import ITEM_UNKNOWN, MAX_TEXT
from deliberation.models import Deliberation, Phase, RoundStatus, TurnKind, Vote
from deliberation.services import lifecycle
from tests.conftest import need


def courtroom_game(case, *, seed: int = 5, side: str = "defend", vote: str = "not_guilty") -> Deliberation:  # type: ignore[no-untyped-def]
    """A game as the courtroom starts it: a person picks the side and casts a first vote."""
    deliberation = services.deliberation_start(case=case, seed=seed, host_session_key="player")
    return services.side_choose(deliberation_id=deliberation.pk, side=side, vote=vote)


def state_of(deliberation: Deliberation) -> DeliberationState:
    deliberation.refresh_from_db()
    return DeliberationState.from_dict(deliberation.engine_state)


def test_the_first_ballot_records_the_players_own_vote_even_against_their_side(robbery):
    deliberation = courtroom_game(robbery, side="defend", vote="guilty")
    assert deliberation.player_side == "defend"
    assert Vote.objects.get(deliberation=deliberation, ballot="initial", seat_number=7).value == "guilty"
    assert deliberation.seats.get(number=7).vote == "guilty"
    assert state_of(deliberation).own_votes == [7]


def test_a_first_vote_that_is_neither_guilty_nor_not_guilty_is_refused(robbery):
    deliberation = services.deliberation_start(case=robbery, seed=5, host_session_key="player")
    with pytest.raises(ValidationError) as excinfo:
        services.side_choose(deliberation_id=deliberation.pk, side="defend", vote="maybe")
    assert excinfo.value.messages == [lifecycle.ERROR_VOTE_UNKNOWN]
    deliberation.refresh_from_db()
    assert not deliberation.player_side and deliberation.phase == Phase.PRESENTATION


def test_the_players_vote_goes_on_the_record_like_a_jurors_flip(robbery):
    deliberation = courtroom_game(robbery, vote="not_guilty")
    assert services.vote_cast(deliberation_id=deliberation.pk, seat_number=7, value="guilty") is True
    line = deliberation.turns.filter(kind=TurnKind.PROCESS, seat_number=7).get()
    assert line.flips == [{"seat": 7, "from": "not_guilty", "to": "guilty"}]
    assert line.content == lifecycle.VOTE_LINE.format(name=line.speaker_name, before="Not guilty", after="Guilty")
    assert deliberation.narrations.filter(kind="vote").count() == 2  # the first ballot, then this vote
    assert deliberation.player_side == "defend"  # the side stays locked


def test_a_vote_is_refused_while_a_round_is_running(robbery):
    deliberation = courtroom_game(robbery)
    from django.utils import timezone

    Deliberation.objects.filter(pk=deliberation.pk).update(
        round_status=RoundStatus.RUNNING, round_claimed_at=timezone.now(), round_heartbeat_at=timezone.now()
    )
    with pytest.raises(ValidationError) as excinfo:
        services.vote_cast(deliberation_id=deliberation.pk, seat_number=7, value="guilty")
    assert excinfo.value.messages == [lifecycle.ERROR_ROUND_RUNNING]
    assert deliberation.seats.get(number=7).vote == "not_guilty"


def test_a_courtroom_game_gives_the_player_two_turns_before_the_jury_may_end_it(robbery):
    deliberation = courtroom_game(robbery)
    state = state_of(deliberation)
    assert state.settings.turns_before_verdict == lifecycle.COURTROOM_TURNS_BEFORE_VERDICT == 2


def test_a_unanimous_jury_waits_for_the_players_second_turn(robbery, django_capture_on_commit_callbacks):
    deliberation = courtroom_game(robbery, vote="not_guilty")
    state = state_of(deliberation)
    for seat in state.memories:  # everyone already agrees with the player
        state.votes[seat] = state.memories[seat].vote = "not_guilty"
        state.memories[seat].conviction = 0.02 if seat != 7 else 0.0
    Deliberation.objects.filter(pk=deliberation.pk).update(engine_state=state.to_dict())

    with django_capture_on_commit_callbacks(execute=True):
        services.turn_pass(deliberation_id=deliberation.pk, seat_number=7)
    deliberation.refresh_from_db()
    assert deliberation.round_number == 1 and deliberation.phase == Phase.DELIBERATION

    with django_capture_on_commit_callbacks(execute=True):
        services.turn_pass(deliberation_id=deliberation.pk, seat_number=7)
    deliberation.refresh_from_db()
    assert deliberation.round_number == 2
    assert deliberation.phase == Phase.VERDICT and deliberation.end_reason == "unanimous"
    assert deliberation.verdict == "not_guilty"


def test_a_second_argument_for_the_same_round_is_refused(robbery):
    deliberation = services.deliberation_start(case=robbery, seed=6, player_side="defend")
    services.player_speak(deliberation_id=deliberation.pk, seat_number=7, strategy="reasonable_doubt", start=False)
    for act in (
        lambda: services.player_speak(
            deliberation_id=deliberation.pk, seat_number=7, strategy="reasonable_doubt", start=False
        ),
        lambda: services.turn_pass(deliberation_id=deliberation.pk, seat_number=7),
    ):
        with pytest.raises(ValidationError) as excinfo:
            act()
        assert excinfo.value.messages == [lifecycle.ERROR_ALREADY_ACTED]
    deliberation.refresh_from_db()
    assert [entry["seat"] for entry in deliberation.pending] == [7]
    assert state_of(deliberation).turns_had == {7: 1}


def test_an_argument_of_exactly_the_limit_is_heard_and_one_character_more_is_refused(robbery):
    deliberation = services.deliberation_start(case=robbery, seed=6, player_side="defend")
    with pytest.raises(ValidationError) as excinfo:
        services.player_speak(
            deliberation_id=deliberation.pk, seat_number=7, strategy="free_argument", text="x" * (MAX_TEXT + 1)
        )
    assert excinfo.value.messages == [lifecycle.ERROR_TEXT_TOO_LONG.format(limit=MAX_TEXT, length=MAX_TEXT + 1)]
    services.player_speak(
        deliberation_id=deliberation.pk, seat_number=7, strategy="free_argument", text="x" * MAX_TEXT, start=False
    )
    deliberation.refresh_from_db()
    assert len(deliberation.pending[0]["text"]) == MAX_TEXT


@pytest.mark.django_db(transaction=True)
def test_twelve_simultaneous_arguments_from_one_seat_queue_exactly_one(robbery):
    need(connection.vendor == "postgresql", "concurrent writers need PostgreSQL (DATABASE_URL)")
    deliberation = services.deliberation_start(case=robbery, seed=7, player_side="defend")
    barrier = threading.Barrier(12)
    outcomes: list[str] = []

    def press() -> None:
        barrier.wait()
        try:
            services.player_speak(
                deliberation_id=deliberation.pk, seat_number=7, strategy="reasonable_doubt", start=False
            )
            outcomes.append("queued")
        except ValidationError as exc:
            outcomes.append(exc.messages[0])
        finally:
            connection.close()

    threads = [threading.Thread(target=press) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Counter(outcomes) == {"queued": 1, lifecycle.ERROR_ALREADY_ACTED: 11}
    deliberation.refresh_from_db()
    assert len(deliberation.pending) == 1
    assert state_of(deliberation).turns_had == {7: 1}


def test_a_challenge_argues_about_the_evidence_the_player_picked(robbery, django_capture_on_commit_callbacks):
    deliberation = courtroom_game(robbery)
    picked = list(robbery.evidence.all())[2]
    with django_capture_on_commit_callbacks(execute=True):
        services.player_speak(
            deliberation_id=deliberation.pk,
            seat_number=7,
            strategy="challenge_evidence",
            item="E3",
            text="Who handled it first?",
        )
    speech = deliberation.turns.get(kind=TurnKind.SPEECH, seat_number=7)
    assert picked.label.lower() in speech.content.lower() and "Who handled it first?" in speech.content


def test_a_picked_item_of_the_wrong_kind_is_refused_and_nothing_is_queued(robbery):
    deliberation = courtroom_game(robbery)
    with pytest.raises(ValidationError) as excinfo:
        services.player_speak(deliberation_id=deliberation.pk, seat_number=7, strategy="challenge_evidence", item="W1")
    assert excinfo.value.messages == [ITEM_UNKNOWN.format(item="W1")]
    deliberation.refresh_from_db()
    assert deliberation.pending == []


def test_a_jury_that_agrees_before_the_players_turns_are_over_is_not_told_a_verdict_was_reached(
    robbery, django_capture_on_commit_callbacks
):
    deliberation = courtroom_game(robbery, vote="not_guilty")
    state = state_of(deliberation)
    for seat in state.memories:  # all but one already agree with the player, and that one barely holds out
        state.votes[seat] = state.memories[seat].vote = "guilty" if seat == 1 else "not_guilty"
        state.memories[seat].conviction = 0.52 if seat == 1 else 0.02
    Deliberation.objects.filter(pk=deliberation.pk).update(engine_state=state.to_dict())

    with django_capture_on_commit_callbacks(execute=True):
        services.turn_pass(deliberation_id=deliberation.pk, seat_number=7)
    deliberation.refresh_from_db()
    assert deliberation.round_number == 1 and deliberation.phase == Phase.DELIBERATION
    assert deliberation.seats.get(number=1).vote == "not_guilty"  # the hold-out came round in round 1
    said = deliberation.narrations.filter(kind="vote", round_number=1).get().text
    assert said.endswith(judge.JURY_AGREED_FOR_NOW) and judge.JURY_UNANIMOUS not in said
