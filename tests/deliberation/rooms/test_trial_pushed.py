"""A room's trial tells every page and the class card where it stands at each new wait: as it opens
after the claim window, and when a counsel's move hands the floor on with a fresh clock."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from deliberation.engine.trial import steps as trial_steps
from deliberation.models import Deliberation
from deliberation.rooms import classes, clock, services
from deliberation.rooms.services import Credential
from deliberation.rooms.state import room_of, room_save, stamp, turn_seconds
from deliberation.services import broadcast, counsel, counsel_claims

TEACHER = "the-teachers-browser"
ANNA = Credential(session_key="anna-session")
SECONDS = re.compile(r'class="countdown[^"]*" data-seconds="(\d+)"')


@pytest.fixture
def room(robbery, settings) -> Deliberation:
    """A class's room with the trial; Anna (seat 2) has claimed the prosecution in the claim window."""
    settings.ANGRY_NARRATION = "text"
    session = classes.class_create(case=robbery, groups=1, seats=2, teacher_session_key=TEACHER, seed=4, trial=True)
    room = session.rooms.get()
    services.room_join(code=room.room_code or "", credential=ANNA, name="Anna")
    classes.class_start(class_id=session.pk)
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=2, side="prosecution")
    room.refresh_from_db()
    return room


@pytest.fixture
def pushed(monkeypatch, django_capture_on_commit_callbacks) -> Iterator[Any]:
    """``with pushed() as seen:`` runs the block's pushes after commit; ``seen`` lists (group, html)."""
    sent: list[tuple[str, str]] = []
    monkeypatch.setattr(
        broadcast, "_send", lambda pk, message, group=None: sent.append((group or "room", message.get("html", "")))
    )

    @contextmanager
    def watching() -> Iterator[list[tuple[str, str]]]:
        sent.clear()
        with django_capture_on_commit_callbacks(execute=True):
            yield sent

    yield watching


def _last(seen: list[tuple[str, str]], *, card: bool) -> str:
    htmls = [html for group, html in seen if group.startswith("class-") == card and html]
    assert htmls, "nothing was pushed"
    return htmls[-1]


def test_the_trial_opening_tells_the_room_and_the_class_card_the_prosecution_speaks_first(room, pushed):
    with pushed() as seen:
        later = timezone.now() + timedelta(seconds=counsel_claims.CLAIM_SECONDS + 1)
        assert clock.room_tick(deliberation_id=room.pk, now=later) == "trial"
    banner, card = _last(seen, card=False), _last(seen, card=True)
    for html in (banner, card):
        assert "Students may claim counsel" not in html and "opening speech" in html
    assert int(SECONDS.findall(card)[-1]) >= turn_seconds(room_of(room)) - 2  # the move's own clock


@pytest.mark.django_db(transaction=True)  # each step's push goes out as its own transaction commits
def test_a_new_wait_at_the_trial_is_pushed_with_its_own_clock_not_the_last_moves(room, monkeypatch):
    seen: list[tuple[str, str]] = []
    counsel_claims.trial_open(deliberation_id=room.pk)
    room.refresh_from_db()
    state = room_of(room)  # 40 s of the opening's minute are spent before Anna speaks
    state["next_at"] = stamp(timezone.now() + timedelta(seconds=20))
    room_save(room, state)
    monkeypatch.setattr(
        broadcast, "_send", lambda pk, message, group=None: seen.append((group or "room", message.get("html", "")))
    )
    counsel_claims.seat_move(deliberation_id=room.pk, seat_number=2, action="ai_speak")
    room.refresh_from_db()
    waiting = trial_steps.awaiting(counsel.load(room))
    assert waiting is not None and waiting.side == "prosecution" and waiting.what != trial_steps.SPEECH
    for html in (_last(seen, card=False), _last(seen, card=True)):
        assert int(SECONDS.findall(html)[-1]) >= turn_seconds(room_of(room)) - 2
