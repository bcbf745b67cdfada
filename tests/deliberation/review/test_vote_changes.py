"""One count of the changes of vote: the transcript, its exports, the reflection panel, the debrief
and the class debrief all read ``review.selectors.vote_changes``. A person's ballot settling as an
abstention when her turn runs out, or reopening when she is back, is no change of mind; nor is what
the engine kept for her seat."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from deliberation.models import BallotKind, Deliberation, Vote
from deliberation.review.debrief import build_debrief
from deliberation.review.exports import to_markdown, to_record
from deliberation.review.reflection import reflection_context
from deliberation.review.selectors import build_transcript, deliberation_for_review
from deliberation.rooms import clock, control, services
from tests.deliberation.review.conftest import write_deliberation
from tests.deliberation.rooms.two_seats import ANNA, BEN, HOST, two_seat_room


def later(seconds: float) -> timezone.datetime:
    return timezone.now() + timedelta(seconds=seconds)


def every_count(room: Deliberation) -> dict[str, object]:
    """The changes of vote as each page and export counts them."""
    transcript = build_transcript(deliberation_for_review(room.pk))
    debrief = build_debrief(transcript)
    record = to_record(transcript)
    markdown = to_markdown(transcript)
    return {
        "transcript": transcript.totals["vote_changes"],
        "rounds": sum(r.flip_count for r in transcript.rounds),
        "json": record["totals"]["vote_changes"],
        "markdown": f"{transcript.totals['vote_changes']} vote changes." in markdown,
        "reflection": len(reflection_context(transcript)["changes_of_mind"]),
        "debrief": len(debrief.changes),
        "summary": debrief.summary.vote_changes,
    }


@pytest.fixture
def room(robbery, settings) -> Deliberation:
    """Anna (seat 2) and Ben (seat 3) seated, neither has voted; the first AI round has run."""
    return two_seat_room(robbery, settings)


def test_a_run_out_turn_and_a_return_are_no_change_her_switch_is_and_every_page_counts_it_once(room):
    assert clock.room_tick(deliberation_id=room.pk, now=later(61)) == "timeout"  # settled as an abstention
    assert control.seat_return(deliberation_id=room.pk, credential=ANNA) is True  # reopened
    services.room_vote(deliberation_id=room.pk, credential=ANNA, value="guilty")  # a first vote
    services.room_vote(deliberation_id=room.pk, credential=BEN, value="guilty")
    services.room_vote(deliberation_id=room.pk, credential=ANNA, value="not_guilty")  # her change of mind
    services.room_call_vote(deliberation_id=room.pk, session_key=HOST)
    room.refresh_from_db()
    flips = Vote.objects.filter(deliberation=room, ballot=BallotKind.FLIP).count()  # the AI jurors' own

    counts = every_count(room)
    assert counts == {
        "transcript": flips + 1,
        "rounds": flips + 1,
        "json": flips + 1,
        "markdown": True,
        "reflection": flips + 1,
        "debrief": flips + 1,
        "summary": flips + 1,
    }
    debrief = build_debrief(build_transcript(deliberation_for_review(room.pk)))
    assert [(c.seat, c.before, c.after) for c in debrief.changes if c.seat in (2, 3)] == [(2, "guilty", "not_guilty")]
    anna, ben = debrief.seats[0], debrief.seats[1]  # people first
    assert (anna.changed_vote, anna.first_vote_label, anna.last_vote_label) == (True, "guilty", "not guilty")
    assert (ben.changed_vote, ben.last_vote_label) == (False, "guilty")


def test_a_flip_the_engine_kept_in_a_persons_seat_is_not_hers_but_the_ai_jurors_before_she_sat_is(db):
    done = write_deliberation(rounds=3, participants=2)  # the engine "flips" seats 1, 2 and 3
    seat = done.seats.get(number=2)
    flip = Vote.objects.get(deliberation=done, seat_number=2, ballot=BallotKind.FLIP)
    seat.joined_at = flip.created_at + timedelta(seconds=1)  # she sat down after her seat's juror flipped
    seat.save(update_fields=["joined_at"])
    Vote.objects.create(deliberation=done, round_number=3, seat_number=1, value="guilty", ballot=BallotKind.CAST)

    assert set(every_count(done).values()) == {2, True}
    # Seat 1's flip came while she held the seat (a participant from the start): not hers. Her
    # first vote is no change. Seat 2's flip was its AI juror's, before the person sat down.
    changes = build_debrief(build_transcript(deliberation_for_review(done.pk))).changes
    assert [(c.round, c.seat) for c in changes] == [(2, 2), (3, 3)]
