"""A trial step whose process died is played again, once: the trial is marked while AI counsel's
steps are played (``claims.trial_playing``); a room's clock plays a step cut off mid-way when its
held time comes, a counsel's move whose following steps died is followed by them, and the web
process's sweep hands a single-player trial whose mark went stale to ``trial_advance``.
The same with real processes killed: tests/deliberation/services/test_recovery.py."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from deliberation.engine.trial import steps as trial_steps
from deliberation.engine.types import Usage, WitnessItem
from deliberation.models import Deliberation, Phase, Turn, TurnKind
from deliberation.rooms import clock, driver, services
from deliberation.rooms.services import Credential
from deliberation.rooms.state import room_of, when
from deliberation.services import counsel, counsel_claims, deliberation_start, side_choose
from deliberation.services.claims import stale_seconds

HOST = Credential(session_key="teacher-session")
ANNA = Credential(session_key="anna-session")
OPENING = "He was driving around, and nobody saw his face."


def later(seconds: float) -> datetime:
    return timezone.now() + timedelta(seconds=seconds)


@pytest.fixture
def room(robbery, settings) -> Deliberation:
    """A room holding the trial, Anna at seat 2; the window to claim counsel is open."""
    settings.ANGRY_NARRATION = "text"
    settings.ANGRY_ROUND_STALE_SECONDS = 30
    room = services.room_create(
        case=robbery, host_session_key=HOST.session_key, host_plays=False, open_seats=(2,), seed=11,
        options={"trial": True},
    )  # fmt: skip
    services.room_join(code=str(room.room_code), credential=ANNA, name="Anna", preferred_seat=2)
    services.room_start(deliberation_id=room.pk, session_key=HOST.session_key)
    room.refresh_from_db()
    return room


@pytest.fixture
def solo(robbery, settings) -> Deliberation:
    """A single-player game whose player is counsel for the defence, at her opening speech."""
    settings.ANGRY_NARRATION = "text"
    settings.ANGRY_ROUND_STALE_SECONDS = 30
    game = deliberation_start(case=robbery, seed=4, host_session_key="player", options={"trial": True})
    side_choose(deliberation_id=game.pk, side="defend", vote="not_guilty", counsel=True)
    counsel.trial_advance(deliberation_id=game.pk)  # the prosecution opens
    assert _waiting(game) == ("defense", trial_steps.SPEECH)
    return game


def _waiting(game: Deliberation) -> tuple[str, str] | None:
    game.refresh_from_db()
    waiting = trial_steps.awaiting(counsel.load(game)) if game.phase == Phase.TRIAL else None
    return (waiting.side, waiting.what) if waiting is not None else None


def _said(game: Deliberation) -> list[tuple[str, str]]:
    turns = Turn.objects.filter(deliberation=game, kind=TurnKind.TRIAL).order_by("sequence")
    return list(turns.values_list("strategy", "content"))


def _asked_once(said: list[tuple[str, str]]) -> None:
    questions = [text for kind, text in said if kind == "question"]
    assert len(questions) == len(set(questions)), questions


def _marked(game: Deliberation, *, beat_seconds_ago: float) -> None:
    """The trial as a process left it that was playing AI counsel's step when it died."""
    beat = timezone.now() - timedelta(seconds=beat_seconds_ago)
    Deliberation.objects.filter(pk=game.pk).update(round_claimed_at=beat, round_heartbeat_at=beat)


class Killed(BaseException):
    """The process dies here: nothing in the product catches it."""


def _move_whose_steps_died(monkeypatch: pytest.MonkeyPatch, game: Deliberation, **move: str) -> None:
    """The counsel's move is stored; the process dies in AI counsel's next step."""

    def die(*args: object, **kwargs: object) -> None:
        raise Killed

    with monkeypatch.context() as patch:
        patch.setattr(trial_steps, "advance", die)
        with pytest.raises(Killed):
            counsel.trial_move(deliberation_id=game.pk, side="defense", **move)
    assert _waiting(game) is None  # AI counsel's step is due, and nobody plays it


def test_a_rooms_trial_step_cut_off_with_its_process_is_played_once_when_its_held_time_comes(room, monkeypatch):
    opened = later(counsel_claims.CLAIM_SECONDS + 1)
    with monkeypatch.context() as patch:  # nobody claimed counsel: the clock opens the trial, and dies in its step
        patch.setattr(counsel_claims, "trial_open", lambda **kwargs: None)
        assert clock.room_tick(deliberation_id=room.pk, now=opened) == "trial"
    assert _said(room) == []
    _marked(room, beat_seconds_ago=5)
    room.refresh_from_db()
    due = dict(clock.rooms_unfinished())[room.pk]
    assert due is not None  # the room still needs its clock: a restarted web process resumes it
    assert clock.room_tick(deliberation_id=room.pk, now=later(1)) == ""  # its process may still be playing
    assert _said(room) == []

    _marked(room, beat_seconds_ago=stale_seconds() + 1)
    held = opened + timedelta(seconds=stale_seconds() + 1)  # the time the clock held off for the step
    assert clock.room_tick(deliberation_id=room.pk, now=held) == "trial"
    said = _said(room)
    assert said and said[0][0] == "speech"  # the prosecution's opening, once
    assert [kind for kind, _text in said].count("speech") == 1
    room.refresh_from_db()
    assert when(room_of(room)["next_at"]) is not None  # the next step when the class has read this one
    for _ in range(6):  # ... and the trial goes on, a step a tick, nothing said twice
        assert clock.room_tick(deliberation_id=room.pk, now=later(60)) == "trial"
    said = _said(room)
    assert [kind for kind, _text in said].count("question") >= 2
    _asked_once(said)


def test_a_room_counsels_move_whose_following_steps_died_is_followed_by_them_when_her_time_comes(room, monkeypatch):
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=2, side="defense")
    assert clock.room_tick(deliberation_id=room.pk, now=later(counsel_claims.CLAIM_SECONDS + 1)) == "trial"
    assert _waiting(room) == ("defense", trial_steps.SPEECH)
    deadline = when(room_of(room)["next_at"])
    assert deadline is not None  # her move's time
    _move_whose_steps_died(monkeypatch, room, action="speak", text=OPENING)

    assert clock.room_tick(deliberation_id=room.pk, now=deadline + timedelta(seconds=1)) == "counsel"
    assert _waiting(room) == ("defense", trial_steps.REVIEW)  # the prosecution's witness answered; her move
    said = _said(room)
    assert said.count(("speech", OPENING)) == 1  # her opening stands, once
    assert [kind for kind, _text in said].count("question") == 1
    room.refresh_from_db()
    assert (when(room_of(room)["next_at"]) or deadline) > timezone.now()  # her new move has its own time


def test_a_single_player_trial_whose_step_died_with_its_process_is_handed_over_by_the_sweep(
    solo, monkeypatch, django_capture_on_commit_callbacks
):
    _move_whose_steps_died(monkeypatch, solo, action="speak", text=OPENING)
    _marked(solo, beat_seconds_ago=5)
    assert driver.sweep_once() == []  # its process may still be playing the step
    _marked(solo, beat_seconds_ago=stale_seconds() + 1)
    with django_capture_on_commit_callbacks(execute=True):
        assert driver.sweep_once() == [solo.pk]
    assert _waiting(solo) == ("defense", trial_steps.REVIEW)  # AI counsel asked, the witness answered
    said = _said(solo)
    assert said.count(("speech", OPENING)) == 1
    assert [kind for kind, _text in said].count("question") == 1
    assert [kind for kind, _text in said].count("answer") == 1
    solo.refresh_from_db()
    assert solo.round_heartbeat_at is None  # played and cleared: nothing more to sweep
    assert driver.sweep_once() == []


class MarkWatchingWitness:
    """A model witness that notes, while it answers, whether the trial is marked as played."""

    model = "openai/witness"

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        self.marked: list[bool] = []
        self.last: Usage | None = None

    def __call__(self, witness: WitnessItem, question: str, *, part: str, said: set[str]) -> Any:
        from deliberation.engine.trial.witness import answer

        beat = Deliberation.objects.filter(pk=self.game_id).values_list("round_heartbeat_at", flat=True).get()
        self.marked.append(beat is not None)
        return answer(witness, question, part=part, said=said)


def test_the_trial_is_marked_as_played_while_a_witness_answers_and_cleared_after(solo, monkeypatch):
    witness = MarkWatchingWitness(solo.pk)
    monkeypatch.setattr(counsel, "_model", lambda deliberation_id: witness)
    counsel.trial_move(deliberation_id=solo.pk, side="defense", action="speak", text=OPENING)
    assert witness.marked == [True]  # the prosecution's first question, answered while marked
    counsel.trial_move(deliberation_id=solo.pk, side="defense", action="continue")
    assert len(witness.marked) > 1 and all(witness.marked)
    solo.refresh_from_db()
    assert solo.round_heartbeat_at is None and solo.round_claimed_at is None
    assert solo.round_status == "idle"  # no round runs: the trial's mark is not a round's claim
