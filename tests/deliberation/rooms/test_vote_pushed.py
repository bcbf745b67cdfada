"""A person's vote in a room is stored and pushed to every socket with their seat's new vote, whatever
happened to their seat or to the round before it: a turn whose time ran out, a round that failed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from deliberation.engine.state import DeliberationState
from deliberation.jury import profile
from deliberation.models import BallotKind, Deliberation, RoundStatus
from deliberation.rooms import clock, services
from deliberation.rooms.state import STAGE_TURNS, room_of
from deliberation.services import broadcast, rounds
from tests.deliberation.rooms.two_seats import ANNA, BEN, two_seat_room

SEAT_VOTE = re.compile(r'class="seat vote-(\w+)[^"]*" id="seat-(\d+)"')  # as the jury box shows a seat


def later(seconds: float) -> timezone.datetime:
    return timezone.now() + timedelta(seconds=seconds)


def standing_vote(room: Deliberation, seat: int) -> str:
    """The vote the jury counts for a seat (the engine state), whatever the seat shows ("" for none)."""
    room.refresh_from_db()
    return DeliberationState.from_dict(room.engine_state).votes.get(seat, "")


def other(value: str) -> str:
    return "guilty" if value == "not_guilty" else "not_guilty"


@pytest.fixture
def room(robbery, settings) -> Deliberation:
    """Anna (seat 2) and Ben (seat 3) seated, neither has voted; the first round has run; Anna has the floor."""
    return two_seat_room(robbery, settings)


@pytest.fixture
def pushed(monkeypatch, django_capture_on_commit_callbacks) -> Iterator[Any]:
    """``with pushed() as seen:`` runs the block's pushes after commit; ``seen`` maps each seat the
    pushed jury box (or pushed seat) showed to its last shown vote, as a socket of the room reads it."""
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(broadcast, "_send", lambda _pk, message, group=None: sent.append(message))

    @contextmanager
    def watching() -> Iterator[dict[int, str]]:
        seen: dict[int, str] = {}
        sent.clear()
        with django_capture_on_commit_callbacks(execute=True):
            yield seen
        for message in sent:
            seen.update((int(seat), vote) for vote, seat in SEAT_VOTE.findall(message.get("html", "")))

    yield watching


# --- A seat whose time ran out ----------------------------------------------------------------------------


def test_a_seat_whose_time_ran_out_before_its_person_voted_abstains_and_shows_no_vote(room, pushed):
    with pushed() as seen:
        assert clock.room_tick(deliberation_id=room.pk, now=later(61)) == "timeout"  # Anna walked away
    assert standing_vote(room, 2) == ""  # the jury counts no vote she never cast
    assert room.seats.get(number=2).vote == ""
    assert seen.get(2) not in ("guilty", "not_guilty")  # no socket is shown a vote for her


def test_a_person_whose_time_ran_out_casts_a_vote_later_and_it_is_recorded_and_every_socket_is_shown_it(room, pushed):
    clock.room_tick(deliberation_id=room.pk, now=later(61))
    with pushed() as seen:
        outcome = services.room_vote(deliberation_id=room.pk, credential=ANNA, value="not_guilty")
    assert outcome == {"recorded": True, "changed": True, "deferred": False}
    assert room.seats.get(number=2).vote == "not_guilty" == standing_vote(room, 2)
    assert room.votes.filter(seat_number=2, ballot=BallotKind.CAST, value="not_guilty").exists()
    assert seen[2] == "not_guilty"  # every socket is shown her seat with her vote


def test_a_person_whose_time_ran_out_changes_their_vote_and_every_socket_is_shown_it(room, pushed):
    clock.room_tick(deliberation_id=room.pk, now=later(61))
    value = other(standing_vote(room, 2))
    with pushed() as seen:
        outcome = services.room_vote(deliberation_id=room.pk, credential=ANNA, value=value)
    assert outcome["changed"] is True
    assert seen[2] == value and room.seats.get(number=2).vote == value


def test_a_person_whose_seat_its_ai_juror_plays_votes_and_has_the_seat_back_so_the_juror_cannot_overturn_it(
    room, pushed
):
    clock.room_tick(deliberation_id=room.pk, now=later(61))  # Anna's seat stands empty: its AI juror plays it
    services.room_pass(deliberation_id=room.pk, credential=BEN)
    assert clock.room_tick(deliberation_id=room.pk, now=later(62)) == "round"
    assert profile(room.seats.get(number=2)).kind == "ai"
    value = other(standing_vote(room, 2))
    with pushed() as seen:
        services.room_vote(deliberation_id=room.pk, credential=ANNA, value=value)
    anna = room.seats.get(number=2)
    assert anna.away_since is None and profile(anna).kind == "human"  # the jury's rounds hear her, not her juror
    assert room_of(Deliberation.objects.get(pk=room.pk))["queue"] == [3, 2]  # and she takes turns again
    assert seen[2] == value
    services.room_pass(deliberation_id=room.pk, credential=BEN)
    services.room_pass(deliberation_id=room.pk, credential=ANNA)
    assert clock.room_tick(deliberation_id=room.pk, now=later(63)) == "round"
    assert room.seats.get(number=2).vote == value


def test_a_vote_that_is_what_the_seat_already_shows_changes_nothing_and_pushes_nothing(room, pushed):
    services.room_vote(deliberation_id=room.pk, credential=ANNA, value="guilty")
    with pushed() as seen:
        outcome = services.room_vote(deliberation_id=room.pk, credential=ANNA, value="guilty")
    assert outcome == {"recorded": True, "changed": False, "deferred": False}
    assert seen == {}


# --- A vote cast while a round runs --------------------------------------------------------------------------


def run_turns_out(room: Deliberation) -> None:
    """Anna and Ben pass: the next round is due."""
    services.room_pass(deliberation_id=room.pk, credential=ANNA)
    services.room_pass(deliberation_id=room.pk, credential=BEN)


def test_a_vote_that_waited_for_a_round_counts_and_is_pushed_when_the_round_ends(room, pushed):
    services.room_vote(deliberation_id=room.pk, credential=ANNA, value="guilty")
    run_turns_out(room)
    Deliberation.objects.filter(pk=room.pk).update(round_status=RoundStatus.RUNNING, round_heartbeat_at=timezone.now())
    assert services.room_vote(deliberation_id=room.pk, credential=ANNA, value="not_guilty")["deferred"] is True
    Deliberation.objects.filter(pk=room.pk).update(round_status=RoundStatus.IDLE, round_heartbeat_at=None)
    with pushed() as seen:
        assert clock.room_tick(deliberation_id=room.pk, now=later(1)) == "round"
    assert room.seats.get(number=2).vote == "not_guilty" and seen[2] == "not_guilty"


def test_a_vote_that_waited_for_a_round_that_failed_counts_and_is_pushed_at_once(room, pushed, monkeypatch):
    services.room_vote(deliberation_id=room.pk, credential=ANNA, value="guilty")
    run_turns_out(room)

    def broken(*args: object, **kwargs: object) -> None:
        # Anna votes while the round runs (it waits for the round's end); then the engine fails.
        assert services.room_vote(deliberation_id=room.pk, credential=ANNA, value="not_guilty")["deferred"]
        raise TimeoutError("model did not answer")

    monkeypatch.setattr(rounds, "run_round", broken)
    with pushed() as seen:
        assert clock.room_tick(deliberation_id=room.pk, now=later(1)) == "round"
    room.refresh_from_db()
    assert room.round_number == 1  # the round failed and is tried again later
    assert room_of(room)["votes"] == {}  # her vote did not wait for the retry
    assert room.seats.get(number=2).vote == "not_guilty" and seen[2] == "not_guilty"


def test_a_vote_cast_once_no_round_runs_is_not_undone_by_an_older_one_still_waiting(room, pushed):
    services.room_vote(deliberation_id=room.pk, credential=ANNA, value="guilty")
    # An older vote still waits (its round failed a moment ago, and the clock has not yet applied it).
    room.refresh_from_db()
    settings_ = room.settings
    settings_["room"]["votes"] = {"2": "not_guilty"}
    Deliberation.objects.filter(pk=room.pk).update(settings=settings_)
    services.room_vote(deliberation_id=room.pk, credential=ANNA, value="guilty")  # her latest word
    run_turns_out(room)
    with pushed() as seen:
        assert clock.room_tick(deliberation_id=room.pk, now=later(1)) == "round"
    room.refresh_from_db()
    assert room_of(room)["stage"] == STAGE_TURNS
    assert room.seats.get(number=2).vote == "guilty" and seen[2] == "guilty"
