"""A room of two students, Anna (seat 2) and Ben (seat 3), hosted by a teacher who does not play:
the set-up several room tests share."""

from __future__ import annotations

from typing import Any

from cases.models import Case
from deliberation.models import Deliberation
from deliberation.rooms import clock, services
from deliberation.rooms.services import Credential

HOST = "teacher-session"
ANNA, BEN = Credential(session_key="anna"), Credential(session_key="ben")


def two_seat_room(case: Case, settings: Any) -> Deliberation:
    """Anna and Ben seated, neither has voted, 60 s turns, the judge in text; the room started and
    its first clock tick taken (the AI jurors' first round has run, so Anna has the floor)."""
    settings.ANGRY_TURN_SECONDS = 60
    settings.ANGRY_NARRATION = "text"
    created = services.room_create(case=case, host_session_key=HOST, host_plays=False, open_seats=(2, 3), seed=5)
    services.room_join(code=created.room_code, credential=ANNA, preferred_seat=2, name="Anna")
    services.room_join(code=created.room_code, credential=BEN, preferred_seat=3, name="Ben")
    services.room_start(deliberation_id=created.pk, session_key=HOST)
    assert clock.room_tick(deliberation_id=created.pk) == "round"
    created.refresh_from_db()
    return created


def turns_passed(room: Deliberation, cycles: int) -> None:
    """Anna and Ben each pass ``cycles`` turns, the AI jurors' round running after each pair: the
    turns a room's jury waits for, had before what a test plays next (neither votes)."""
    for _ in range(cycles):
        services.room_pass(deliberation_id=room.pk, credential=ANNA)
        services.room_pass(deliberation_id=room.pk, credential=BEN)
        assert clock.room_tick(deliberation_id=room.pk) == "round"
    room.refresh_from_db()
