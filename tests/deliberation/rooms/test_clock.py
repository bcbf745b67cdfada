"""The room clock: AI rounds, then every participant's turn in seat order; nothing ever stalls."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from deliberation.models import Deliberation, Phase, TurnKind
from deliberation.rooms import clock, services
from deliberation.rooms.services import Credential
from deliberation.rooms.state import STAGE_AI, STAGE_TURNS, STAGE_WAITING, current_seat, room_of

HOST = "teacher-session"
ANNA, BEN = Credential(session_key="anna"), Credential(session_key="ben")


def later(seconds: float) -> timezone.datetime:
    return timezone.now() + timedelta(seconds=seconds)


def state(room: Deliberation) -> dict:
    room.refresh_from_db()
    return room_of(room)


@pytest.fixture(autouse=True)
def _sweeps_start_afresh() -> None:
    from deliberation.rooms import driver

    driver._asked.clear()  # what an earlier test's sweep handed over says nothing about this one


@pytest.fixture
def room(robbery, settings) -> Deliberation:
    settings.ANGRY_TURN_SECONDS = 60
    return services.room_create(case=robbery, host_session_key=HOST, host_plays=False, open_seats=(2, 3, 8, 12), seed=5)


def test_after_the_ai_speakers_every_participant_gets_one_turn_in_seat_order(room):
    services.room_join(code=room.room_code, credential=BEN, preferred_seat=8)
    services.room_join(code=room.room_code, credential=ANNA, preferred_seat=3)
    services.room_start(deliberation_id=room.pk, session_key=HOST)
    assert state(room)["stage"] == STAGE_AI
    assert clock.room_tick(deliberation_id=room.pk) == "round"
    after = state(room)
    speakers = list(room.turns.filter(kind=TurnKind.SPEECH).values_list("seat_number", flat=True))
    assert speakers and not {3, 8} & set(speakers)  # the round was the AI jurors'
    assert after["stage"] == STAGE_TURNS and after["queue"] == [3, 8] and current_seat(after) == 3
    services.room_pass(deliberation_id=room.pk, credential=ANNA)
    assert current_seat(state(room)) == 8
    services.room_speak(deliberation_id=room.pk, credential=BEN, content="Nobody saw his face.")
    assert state(room)["stage"] == STAGE_AI


def test_the_participants_words_open_the_next_round_and_get_the_jurys_reactions(room):
    services.room_join(code=room.room_code, credential=ANNA, preferred_seat=2)
    services.room_start(deliberation_id=room.pk, session_key=HOST)
    clock.room_tick(deliberation_id=room.pk)
    words = "The lineup was shown to the witness after she had seen his photo on the news."
    services.room_speak(deliberation_id=room.pk, credential=ANNA, content=words, argument_type="evidence")
    assert clock.room_tick(deliberation_id=room.pk) == "round"
    room.refresh_from_db()
    round_two = list(room.turns.filter(round_number=2, kind=TurnKind.SPEECH).order_by("sequence"))
    assert round_two[0].seat_number == 2 and round_two[0].content == words  # verbatim, and first
    reactions = round_two[0].reactions
    assert {r["seat"] for r in reactions} >= {1, 4, 5, 6, 7, 8, 9, 10, 11, 12}
    assert any(r["delta"] != 0 for r in reactions)
    assert room.pending == [] and current_seat(state(room)) == 2  # her turn again after this round


def test_an_absent_participant_is_passed_when_the_time_runs_out(room):
    services.room_join(code=room.room_code, credential=ANNA, preferred_seat=2)
    services.room_join(code=room.room_code, credential=BEN, preferred_seat=3)
    services.room_start(deliberation_id=room.pk, session_key=HOST)
    clock.room_tick(deliberation_id=room.pk)
    assert clock.room_tick(deliberation_id=room.pk, now=later(30)) == ""  # still within the minute
    assert current_seat(state(room)) == 2
    assert clock.room_tick(deliberation_id=room.pk, now=later(61)) == "timeout"
    passed = room.turns.order_by("-sequence").first()
    assert passed.kind == TurnKind.PASS and passed.seat_number == 2
    assert passed.content == clock.TIMEOUT_LINE.format(name=passed.speaker_name)
    assert current_seat(state(room)) == 3


def test_a_late_timeout_never_passes_the_next_persons_fresh_turn(room):
    services.room_join(code=room.room_code, credential=ANNA, preferred_seat=2)
    services.room_join(code=room.room_code, credential=BEN, preferred_seat=3)
    services.room_start(deliberation_id=room.pk, session_key=HOST)
    clock.room_tick(deliberation_id=room.pk)
    services.room_pass(deliberation_id=room.pk, credential=ANNA)  # Ben's minute starts now
    assert clock.room_tick(deliberation_id=room.pk, now=later(45)) == ""
    assert current_seat(state(room)) == 3


def test_the_turn_length_is_a_setting(room, settings):
    settings.ANGRY_TURN_SECONDS = 10
    services.room_join(code=room.room_code, credential=ANNA)
    services.room_start(deliberation_id=room.pk, session_key=HOST)
    clock.room_tick(deliberation_id=room.pk)
    assert clock.room_tick(deliberation_id=room.pk, now=later(11)) == "timeout"


def test_an_autostart_room_starts_when_its_first_participant_joins(robbery):
    room = services.room_create(case=robbery, autostart=True, open_seats=(2, 3))
    assert room.host_plays is False and room.seats.get(number=7).display_name == "Juror 7"
    assert state(room)["stage"] == STAGE_WAITING
    services.room_join(code=room.room_code, agent=True)
    room.refresh_from_db()
    assert room.phase == Phase.DELIBERATION and room.player_side == "none"
    assert state(room)["stage"] == STAGE_AI


def test_an_autostart_room_nobody_joins_starts_after_two_minutes_and_paces_its_ai_rounds(robbery):
    room = services.room_create(case=robbery, autostart=True, open_seats=(2,), pace_seconds=3, seed=5)
    assert clock.room_tick(deliberation_id=room.pk, now=later(60)) == ""
    assert clock.room_tick(deliberation_id=room.pk, now=later(121)) == "start"
    assert clock.room_tick(deliberation_id=room.pk) == "round"
    assert state(room)["stage"] == STAGE_AI  # nobody to wait for
    assert clock.room_tick(deliberation_id=room.pk) == ""  # the next round waits a few seconds
    assert clock.room_tick(deliberation_id=room.pk, now=later(4)) == "round"
    room.refresh_from_db()
    assert room.round_number == 2


def test_unfinished_rooms_are_found_for_the_clock_to_resume(robbery):
    waiting = services.room_create(case=robbery, autostart=True, open_seats=(2,))
    hosted = services.room_create(case=robbery, host_session_key=HOST, open_seats=(2,))
    found = dict(clock.rooms_unfinished())
    assert found[waiting.pk] is not None and found[hosted.pk] is None  # a hosted room waits for its host
    assert clock.rooms_resume() >= 1


def test_the_web_processs_sweep_starts_a_room_the_command_line_left_waiting(
    robbery, django_capture_on_commit_callbacks
):
    from deliberation.rooms import driver

    room = services.room_create(case=robbery, autostart=True, open_seats=(2,), seed=5)
    assert driver.sweep_once() == []  # not due for two minutes
    settings_ = room.settings
    settings_["room"]["start_by"] = (timezone.now() - timedelta(seconds=1)).isoformat()
    Deliberation.objects.filter(pk=room.pk).update(settings=settings_)
    with django_capture_on_commit_callbacks(execute=True):
        assert driver.sweep_once() == [room.pk]
    room.refresh_from_db()
    assert room.phase == Phase.DELIBERATION


def _round_left_running(room: Deliberation, *, beat_seconds_ago: float) -> None:
    beat = timezone.now() - timedelta(seconds=beat_seconds_ago)
    Deliberation.objects.filter(pk=room.pk).update(
        round_status="running", round_claimed_at=beat, round_heartbeat_at=beat
    )


def test_a_round_whose_process_died_is_taken_over_by_the_next_tick_and_the_room_moves_on(room, settings):
    settings.ANGRY_ROUND_STALE_SECONDS = 30
    services.room_join(code=room.room_code, credential=ANNA, preferred_seat=3)
    services.room_start(deliberation_id=room.pk, session_key=HOST)
    _round_left_running(room, beat_seconds_ago=5)  # a live process is still thinking
    assert clock.room_tick(deliberation_id=room.pk, now=later(1)) == ""
    _round_left_running(room, beat_seconds_ago=31)  # ... until its heartbeat went stale
    assert clock.room_tick(deliberation_id=room.pk, now=later(1)) == "round"
    room.refresh_from_db()
    assert room.round_number == 1 and room.round_status == "idle"
    assert list(room.round_stats.values_list("round_number", flat=True)) == [1]
    assert state(room)["stage"] == STAGE_TURNS and current_seat(state(room)) == 3


def test_a_round_stored_by_a_process_that_died_before_opening_the_turns_gets_them_opened(room):
    services.room_join(code=room.room_code, credential=ANNA, preferred_seat=3)
    services.room_start(deliberation_id=room.pk, session_key=HOST)
    from deliberation.services.rounds import round_run

    assert round_run(deliberation_id=room.pk, round_number=1)  # ... and the process died here
    assert state(room)["stage"] == STAGE_AI
    assert clock.room_tick(deliberation_id=room.pk, now=later(31)) == "turns"
    room.refresh_from_db()
    assert room.round_number == 1  # no second round in place of the participants' turns
    assert state(room)["stage"] == STAGE_TURNS and current_seat(state(room)) == 3


def test_a_room_with_a_live_round_is_not_due_until_its_heartbeat_goes_stale(room, settings):
    settings.ANGRY_ROUND_STALE_SECONDS = 30
    services.room_start(deliberation_id=room.pk, session_key=HOST)
    _round_left_running(room, beat_seconds_ago=1)
    due = dict(clock.rooms_unfinished())[room.pk]
    assert due is not None and due > timezone.now() + timedelta(seconds=25)


def test_the_web_processs_sweep_hands_a_single_player_round_whose_process_died_to_a_worker(
    robbery, settings, django_capture_on_commit_callbacks
):
    from deliberation import services as game
    from deliberation.rooms import driver

    settings.ANGRY_ROUND_STALE_SECONDS = 30
    solo = game.deliberation_start(case=robbery, seed=4, player_side="defend")
    game.player_speak(deliberation_id=solo.pk, seat_number=7, strategy="reasonable_doubt", start=False)
    _round_left_running(solo, beat_seconds_ago=10)
    assert driver.sweep_once() == []  # its process may still be thinking
    _round_left_running(solo, beat_seconds_ago=31)
    with django_capture_on_commit_callbacks(execute=True):
        assert driver.sweep_once() == [solo.pk]
    solo.refresh_from_db()
    assert solo.round_number == 1 and solo.round_status == "idle" and solo.pending == []
    assert solo.turns.filter(kind=TurnKind.SPEECH, seat_number=7).count() == 1  # the player's argument, once
    assert driver.sweep_once() == []


def test_five_participants_who_all_speak_leave_the_ai_jurors_their_speakers(robbery, settings):
    settings.ANGRY_TURN_SECONDS = 60
    seats = (2, 3, 4, 8, 12)
    room = services.room_create(case=robbery, host_session_key=HOST, host_plays=False, open_seats=seats, seed=5)
    people = {seat: Credential(session_key=f"student-{seat}") for seat in seats}
    for seat, credential in people.items():
        services.room_join(code=room.room_code, credential=credential, preferred_seat=seat)
    services.room_start(deliberation_id=room.pk, session_key=HOST)
    assert clock.room_tick(deliberation_id=room.pk) == "round"
    for number in (2, 3):
        for seat in seats:
            services.room_speak(deliberation_id=room.pk, credential=people[seat], content=f"Seat {seat}: I doubt it.")
        assert clock.room_tick(deliberation_id=room.pk) == "round"
        spoken = list(room.turns.filter(round_number=number, kind=TurnKind.SPEECH).order_by("sequence"))
        ai = [turn.seat_number for turn in spoken if turn.seat_number not in seats]
        assert [turn.seat_number for turn in spoken[: len(seats)]] == list(seats)
        assert 1 <= len(ai) <= 4, (number, ai)
        room.refresh_from_db()
        if room.phase != Phase.DELIBERATION:
            break
