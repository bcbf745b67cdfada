"""The host's pause, more time and skip at a room's trial, as in deliberation, and where each room
stands for the teacher (the trial's stage, whose move it waits for, then the deliberation's round)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import timezone

from angryagents.identity import SESSION_FIELD
from deliberation.engine.trial import steps as trial_steps
from deliberation.models import Deliberation, Phase, Turn, TurnKind
from deliberation.rooms import clock, control, services
from deliberation.rooms.services import Credential
from deliberation.rooms.stage import stage_words, trial_turn
from deliberation.rooms.state import room_of, turn_seconds, when
from deliberation.services import counsel, counsel_claims
from tests.conftest import browser_of

HOST = Credential(session_key="teacher-session")
ANNA = Credential(session_key="anna-session")
BEN = Credential(session_key="ben-session")


@pytest.fixture
def room(robbery, settings) -> Deliberation:
    """Anna (seat 2) is counsel for the defence; the window for counsel has not ended yet."""
    settings.ANGRY_NARRATION = "text"
    room = services.room_create(
        case=robbery,
        host_session_key=HOST.session_key,
        host_plays=False,
        open_seats=(2, 3),
        seed=11,
        options={"trial": True},
    )
    services.room_join(code=room.room_code, credential=ANNA, name="Anna", preferred_seat=2)
    services.room_start(deliberation_id=room.pk, session_key=HOST.session_key)
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=2, side="defense")
    room.refresh_from_db()
    return room


def later(seconds: float) -> timezone.datetime:
    return timezone.now() + timedelta(seconds=seconds)


def _open(room: Deliberation) -> None:
    assert clock.room_tick(deliberation_id=room.pk, now=later(counsel_claims.CLAIM_SECONDS + 1)) == "trial"
    room.refresh_from_db()


def _waiting(room: Deliberation) -> trial_steps.Waiting | None:
    room.refresh_from_db()
    return trial_steps.awaiting(counsel.load(room)) if room.phase == Phase.TRIAL else None


def _to_examination(room: Deliberation) -> None:
    """Anna lets the AI carry her moves up to her first examination (a cross-examination)."""
    for _ in range(20):
        waiting = _waiting(room)
        if waiting is not None and waiting.what == trial_steps.EXAMINE:
            return
        action = {trial_steps.REVIEW: "no_objection", trial_steps.SPEECH: "ai_speak"}[waiting.what]
        counsel_claims.seat_move(deliberation_id=room.pk, seat_number=2, action=action)
    raise AssertionError("Anna never came to examine a witness")


def _trial_turns(room: Deliberation) -> int:
    return Turn.objects.filter(deliberation=room, kind=TurnKind.TRIAL).count()


# --- Pause and resume ---------------------------------------------------------------------------------


def test_a_pause_in_the_window_for_counsel_keeps_the_trial_from_opening_until_the_resume(room):
    control.room_pause(deliberation_id=room.pk, session_key=HOST.session_key)
    assert clock.room_tick(deliberation_id=room.pk, now=later(counsel_claims.CLAIM_SECONDS + 60)) == ""
    room.refresh_from_db()
    assert not room.trial_state.get("opened", True) and _trial_turns(room) == 0
    control.room_resume(deliberation_id=room.pk, session_key=HOST.session_key)
    due = when(room_of(Deliberation.objects.get(pk=room.pk))["next_at"])
    assert due is not None and due > timezone.now() + timedelta(seconds=counsel_claims.CLAIM_SECONDS - 5)


def test_a_paused_trial_lets_no_counsels_time_run_out_and_refuses_their_move_until_the_resume(room):
    _open(room)
    waiting = _waiting(room)
    assert waiting.side == "defense" and waiting.what == trial_steps.SPEECH  # Anna's opening
    control.room_pause(deliberation_id=room.pk, session_key=HOST.session_key)
    said = _trial_turns(room)
    assert clock.room_tick(deliberation_id=room.pk, now=later(turn_seconds(room_of(room)) * 3)) == ""
    assert _trial_turns(room) == said and _waiting(room) == waiting  # AI counsel did not stand in
    with pytest.raises(ValidationError, match="paused"):
        counsel_claims.seat_move(deliberation_id=room.pk, seat_number=2, action="ai_speak")
    control.room_resume(deliberation_id=room.pk, session_key=HOST.session_key)
    counsel_claims.seat_move(deliberation_id=room.pk, seat_number=2, action="ai_speak")
    assert _trial_turns(room) > said


def test_ai_counsels_steps_stop_while_paused_and_go_on_at_the_resume(room, django_capture_on_commit_callbacks):
    _open(room)
    room.refresh_from_db()
    said = _trial_turns(room)
    # Paused while Anna's move is in: her opening is given, and AI counsel's next steps wait.
    control.room_pause(deliberation_id=room.pk, session_key=HOST.session_key)
    counsel.trial_move(deliberation_id=room.pk, side="defense", action="ai_speak")
    after_move = _trial_turns(room)
    assert after_move == said + 1  # her speech alone: the prosecution's witness was not called
    with django_capture_on_commit_callbacks(execute=True):  # the resume asks for AI counsel's steps
        control.room_resume(deliberation_id=room.pk, session_key=HOST.session_key)
    assert _trial_turns(room) > after_move


# --- More time and skip -------------------------------------------------------------------------------


def test_the_host_gives_counsel_more_time_at_the_trial(room):
    _open(room)
    before = when(room_of(Deliberation.objects.get(pk=room.pk))["next_at"])
    left = control.room_extend(deliberation_id=room.pk, session_key=HOST.session_key, seconds=30)
    after = when(room_of(Deliberation.objects.get(pk=room.pk))["next_at"])
    assert after - before >= timedelta(seconds=29) and left > turn_seconds(room_of(room))


def test_more_time_while_ai_counsel_hold_the_trial_is_refused_and_skip_moves_it_on(robbery, settings):
    settings.ANGRY_NARRATION = "text"
    room = services.room_create(
        case=robbery, host_session_key=HOST.session_key, host_plays=False, open_seats=(2,), options={"trial": True}
    )
    services.room_join(code=room.room_code, credential=ANNA, name="Anna", preferred_seat=2)
    services.room_start(deliberation_id=room.pk, session_key=HOST.session_key)
    room.refresh_from_db()
    # Nobody claimed counsel: the host may give the window more time, and skip it.
    control.room_extend(deliberation_id=room.pk, session_key=HOST.session_key, seconds=30)
    assert control.trial_skip(deliberation_id=room.pk, session_key=HOST.session_key) == control.TRIAL_OPENED
    room.refresh_from_db()
    assert room.phase == Phase.TRIAL  # AI counsel hold the trial step by step
    with pytest.raises(ValidationError):  # no counsel's move to give more time to
        control.room_extend(deliberation_id=room.pk, session_key=HOST.session_key, seconds=30)
    for _ in range(400):  # skip after skip: a step each, to the trial's end
        room.refresh_from_db()
        if room.phase != Phase.TRIAL:
            break
        assert control.trial_skip(deliberation_id=room.pk, session_key=HOST.session_key) == control.TRIAL_NEXT_STEP
    room.refresh_from_db()
    assert room.phase != Phase.TRIAL  # the jury is out
    with pytest.raises(ValidationError):
        control.trial_skip(deliberation_id=room.pk, session_key=HOST.session_key)


def test_skipping_a_counsels_speech_has_ai_counsel_give_it(room):
    _open(room)
    said = _trial_turns(room)
    done = control.trial_skip(deliberation_id=room.pk, session_key=HOST.session_key)
    assert done == "AI counsel gave counsel for the defence's speech."
    speech = Turn.objects.filter(deliberation=room, kind=TurnKind.TRIAL, strategy="speech").order_by("sequence")
    assert speech.count() >= 2 and _trial_turns(room) > said


def test_skipping_an_examination_ends_it_and_the_next_step_takes_over(room):
    _open(room)
    _to_examination(room)
    waiting = _waiting(room)
    witness, part = waiting.witness_id, waiting.part
    done = control.trial_skip(deliberation_id=room.pk, session_key=HOST.session_key)
    assert done == "Counsel for the defence's examination is over: no further questions."
    state = counsel.load(Deliberation.objects.get(pk=room.pk))
    now = trial_steps.awaiting(state)
    assert now is None or (now.witness_id, now.part) != (witness, part)
    asked_after = [
        e
        for e in state.events
        if e.kind == "question" and e.witness_id == witness and e.part == part and e.side == "defense"
    ]
    assert not asked_after  # Anna asked nothing: the skip ended her cross-examination


def test_a_student_cannot_skip_or_pause_the_trial(room):
    with pytest.raises(Exception, match="host"):
        control.trial_skip(deliberation_id=room.pk, session_key=ANNA.session_key)
    with pytest.raises(Exception, match="host"):
        control.room_pause(deliberation_id=room.pk, session_key=ANNA.session_key)


# --- The stage, for the teacher -----------------------------------------------------------------------


def test_the_stage_names_the_trials_step_and_whose_move_it_waits_for_then_the_round(room):
    assert stage_words(room) == "Counsel are being chosen" and trial_turn(room) is None
    _open(room)
    assert stage_words(room) == "Opening speeches"
    turn = trial_turn(room)
    assert turn is not None and turn.words == "Counsel for the defence (seat 2) to give the opening speech"
    assert turn.clock["seconds_left"] is not None
    _to_examination(room)
    assert "cross-examination" in stage_words(room) and "to question the witness" in trial_turn(room).words
    room.phase, room.round_number = Phase.DELIBERATION, 3
    assert stage_words(room) == "Deliberation, round 3"


def test_the_teachers_view_shows_the_trials_stage_and_steers_it(room):
    teacher = Client()
    browser_of(teacher, **{SESSION_FIELD: HOST.session_key})
    _open(room)
    page = teacher.get(f"/rooms/{room.room_code}/teacher/").content.decode()
    assert 'id="teacher-stage"' in page and "Opening speeches" in page
    assert "Counsel for the defence (seat 2) to give the opening speech" in page
    assert 'id="host-pause"' in page and 'id="host-skip-trial"' in page and 'id="host-extend-trial"' in page
    assert "Call the final vote" not in page  # not before the jury is out
    answer = teacher.post(f"/rooms/{room.room_code}/pause/", {"back": "teacher"}, follow=True).content.decode()
    assert 'id="host-resume"' in answer and "No step of the trial is taken" in answer
