"""A student's move at the trial returns without AI counsel's reply: their next steps (the other
side's question, the witness's answer through the model) are the background runner's, queued when
the move is stored, as the deliberation's rounds are (``counsel.trial_play``)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from angryagents.identity import SESSION_FIELD
from deliberation.engine.trial import steps as trial_steps
from deliberation.models import Deliberation
from deliberation.rooms import classes, clock, services
from deliberation.rooms.services import Credential
from deliberation.services import counsel, counsel_claims
from tests.conftest import browser_of

TEACHER = "the-teachers-browser"
BEN = Credential(session_key="ben-session")
OPENING = "Ben opens: one clerk's glance at a masked man is not proof."


@pytest.fixture(autouse=True)
def text_judge(settings):
    settings.ANGRY_NARRATION = "text"


def _room_waiting_for_bens_opening(robbery) -> Deliberation:  # type: ignore[no-untyped-def]
    session = classes.class_create(case=robbery, groups=1, seats=2, teacher_session_key=TEACHER, seed=11, trial=True)
    room = session.rooms.get()
    services.room_join(code=room.room_code, credential=BEN, name="Ben", preferred_seat=2)
    classes.class_start(class_id=session.pk)
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=2, side="defense")
    clock.room_tick(deliberation_id=room.pk, now=timezone.now() + timedelta(seconds=counsel_claims.CLAIM_SECONDS + 1))
    room.refresh_from_db()
    waiting = trial_steps.awaiting(counsel.load(room))
    assert waiting is not None and (waiting.side, waiting.what) == ("defense", trial_steps.SPEECH)
    return room


def _is_task(callback) -> bool:  # type: ignore[no-untyped-def]
    return getattr(callback, "__qualname__", "").startswith("enqueue.")  # angryagents.background.enqueue


@pytest.mark.deferred_counsel
def test_a_students_move_returns_with_ai_counsels_reply_queued_not_computed_and_the_queue_plays_it(
    robbery, django_capture_on_commit_callbacks
):
    room = _room_waiting_for_bens_opening(robbery)
    ben = Client()
    browser_of(ben, **{SESSION_FIELD: BEN.session_key})
    before = len(counsel.load(room).events)

    with django_capture_on_commit_callbacks(execute=False) as queued:
        answer = ben.post(reverse("room_trial", args=[room.room_code]), {"action": "speak", "text": OPENING})
    assert answer.status_code in (200, 302)
    room.refresh_from_db()
    state = counsel.load(room)
    assert [e.text for e in state.events[before:]] == [OPENING]  # his move, and nothing of AI counsel's
    assert trial_steps.awaiting(state) is None  # the trial waits for AI counsel's step, not computed here
    tasks = [cb for cb in queued if _is_task(cb)]
    assert len(tasks) == 1  # the step is the background runner's

    tasks[0]()  # the runner plays it (in the tests' sync mode, in this thread)
    room.refresh_from_db()
    state = counsel.load(room)
    said = state.events[before + 1 :]
    assert any(e.side == "prosecution" and e.kind == "question" for e in said)  # AI counsel's question
    assert any(e.kind == "answer" for e in said)  # and the witness's answer
    waiting = trial_steps.awaiting(state)
    assert waiting is not None and waiting.side == "defense"  # then it is Ben's move again


@pytest.mark.deferred_counsel
def test_a_claim_once_the_trial_has_opened_queues_ai_counsels_next_steps(robbery, django_capture_on_commit_callbacks):
    room = _room_waiting_for_bens_opening(robbery)
    services.room_join(code=room.room_code, credential=Credential(session_key="anna"), name="Anna", preferred_seat=3)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=3, side="prosecution")
    assert [cb for cb in queued if _is_task(cb)]
