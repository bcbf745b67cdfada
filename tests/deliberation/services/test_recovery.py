"""Rounds and the trial survive dead processes: kill -9 mid-round, or while a witness answers at
the trial, with real processes (see tests/recovery.py and tests/recovery_trial.py).

Each test kills the process running a round (or a trial's step), starts a fresh one as a supervisor
would, and checks the outcome in the database: the killed round is stored exactly once and the game
moves on (at the trial: the step cut off is played once, nothing is asked or answered twice, the
student's own moves stand and the trial comes back to her), and the browser watching the game's
websocket (reconnecting as its page does) receives an update after the kill. The stale limit is 5 s
here (10 s by default) so the suite waits less per scenario; bench/recovery.py measures the times
with the default; no test asserts on a time.
"""

from __future__ import annotations

import os

import pytest

from tests.conftest import need
from tests.recovery import web_killed_mid_round, worker_killed_mid_round
from tests.recovery_trial import TrialOutcome, trial_killed

STALE_SECONDS = 5.0

pytestmark = pytest.mark.timeout(900)


def _service_mode() -> None:
    need(
        bool(os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")),
        "DATABASE_URL and REDIS_URL are not both set: no Celery worker to kill",
    )


def _stored_once_in_order(rounds: list[int], killed: int) -> None:
    assert rounds.count(killed) == 1, rounds
    assert rounds == list(range(1, len(rounds) + 1)), rounds  # no round doubled, none skipped


def test_a_room_whose_worker_is_killed_mid_round_finishes_that_round_once_and_moves_on(tmp_path):
    _service_mode()
    outcome = worker_killed_mid_round(tmp_path, room=True, stale_seconds=STALE_SECONDS, redis_db=11)
    _stored_once_in_order(outcome.rounds, outcome.killed_round)
    assert outcome.visible_after > 0  # the watching browser saw the room move again
    assert outcome.killed_round + 1 in outcome.rounds or outcome.finished  # the room moved on


def test_a_single_player_round_whose_worker_is_killed_is_finished_once_and_its_late_redelivery_adds_nothing(
    tmp_path,
):
    _service_mode()
    outcome = worker_killed_mid_round(tmp_path, room=False, stale_seconds=STALE_SECONDS, redis_db=12)
    assert outcome.round_deliveries >= 2  # the takeover and the broker's late redelivery both arrived
    assert outcome.rounds == [1]  # the player asked for one round and got exactly one
    assert outcome.round_status == "idle"
    assert outcome.visible_after > 0  # the player's page saw the round come


def test_a_room_whose_web_process_is_killed_mid_round_resumes_when_it_restarts(tmp_path):
    outcome = web_killed_mid_round(tmp_path, room=True, stale_seconds=STALE_SECONDS, redis_db=13)
    _stored_once_in_order(outcome.rounds, outcome.killed_round)
    assert outcome.visible_after > 0  # the watching browser saw the room move again
    assert outcome.killed_round + 1 in outcome.rounds or outcome.finished  # the room moved on


def test_a_single_player_round_whose_web_process_is_killed_is_finished_once_when_it_restarts(tmp_path):
    outcome = web_killed_mid_round(tmp_path, room=False, stale_seconds=STALE_SECONDS, redis_db=14)
    assert outcome.rounds == [1]
    assert outcome.round_status == "idle"
    assert outcome.visible_after > 0  # the player's page saw the round come


def _trial_step_played_once(outcome: TrialOutcome) -> None:
    assert outcome.taken_over_after is not None, outcome  # a live process asked the witness again
    assert (outcome.asked, outcome.answered) == (1, 1), outcome  # the step cut off is in the record once
    assert outcome.doubled == [], outcome  # no question asked twice, no answer stored twice
    assert outcome.visible_after > 0  # the watching browser saw the trial move again


def test_a_rooms_trial_whose_worker_is_killed_while_a_witness_answers_plays_that_step_once_and_goes_on(tmp_path):
    _service_mode()
    outcome = trial_killed(tmp_path, game="room", embedded=False, stale_seconds=STALE_SECONDS, redis_db=11)
    _trial_step_played_once(outcome)


def test_a_trial_left_to_ai_counsel_whose_worker_is_killed_while_a_witness_answers_goes_on_without_a_reload(
    tmp_path,
):
    _service_mode()
    outcome = trial_killed(tmp_path, game="ai", embedded=False, stale_seconds=STALE_SECONDS, redis_db=12)
    _trial_step_played_once(outcome)


def test_a_rooms_trial_whose_web_process_is_killed_while_a_witness_answers_plays_that_step_once_on_restart(tmp_path):
    outcome = trial_killed(tmp_path, game="room", embedded=True, stale_seconds=STALE_SECONDS, redis_db=13)
    _trial_step_played_once(outcome)


def test_a_student_counsels_moves_survive_a_web_process_killed_in_ai_counsels_next_step_and_the_trial_returns_to_her(
    tmp_path,
):
    outcome = trial_killed(tmp_path, game="counsel", embedded=True, stale_seconds=STALE_SECONDS, redis_db=14)
    _trial_step_played_once(outcome)
    assert outcome.own_moves == {"opening": 1, "question": 1, "its answer": 1}
    assert outcome.waits_for == "defense:review"  # her objection to the prosecution's answer, or not
