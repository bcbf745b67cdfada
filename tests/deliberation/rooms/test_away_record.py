"""How the record of a room names and counts a student's seat while its AI juror plays it.

Anna (seat 2) votes not guilty, then lets her turn run out: she is away, and her seat's AI juror
speaks in her empty seat (never voting for her). Every page and export must say so: the juror's
words under its own name, her vote under hers, her run-out turn as such, and her seat never shown
as a listener the jury moved or persuaded."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from deliberation.court.courtroom import messages_for
from deliberation.engine import judge
from deliberation.jury import profile
from deliberation.models import Deliberation, NarrationKind, TurnKind
from deliberation.review.debrief import build_debrief
from deliberation.review.exports import to_markdown, to_record
from deliberation.review.selectors import Transcript, build_transcript
from deliberation.rooms import clock, services
from deliberation.rooms.state import current_seat, room_of
from deliberation.selectors import deliberations_with_record
from tests.deliberation.rooms.two_seats import ANNA, BEN, HOST, two_seat_room

ROUNDS = 12  # at most, until the AI juror in her seat has spoken and been moved (bounded)


@pytest.fixture(autouse=True)
def _sweeps_start_afresh() -> None:
    from deliberation.rooms import driver

    driver._asked.clear()


def later(seconds: float) -> timezone.datetime:
    return timezone.now() + timedelta(seconds=seconds)


def moved_in_her_seat(room: Deliberation) -> bool:
    """The engine moved the AI juror playing her seat (a reaction stored for seat 2)."""
    return any(r.get("seat") == 2 for t in room.turns.filter(kind=TurnKind.SPEECH) for r in t.reactions)


@pytest.fixture
def away(robbery, settings) -> Deliberation:
    """Ben votes guilty and Anna not guilty in round 1; Anna lets her turn run out, and the AI
    juror of her seat speaks for it and is moved by what it hears; then the host calls the vote."""
    room = two_seat_room(robbery, settings)
    assert current_seat(room_of(room)) == 2
    services.room_vote(deliberation_id=room.pk, credential=BEN, value="guilty")
    services.room_vote(deliberation_id=room.pk, credential=ANNA, value="not_guilty")
    assert clock.room_tick(deliberation_id=room.pk, now=later(61)) == "timeout"  # she let her turn run out
    for _ in range(ROUNDS):
        room.refresh_from_db()
        spoke = room.turns.filter(seat_number=2, kind=TurnKind.SPEECH, stood_in=True).exists()
        if spoke and moved_in_her_seat(room):
            break
        if current_seat(room_of(room)) == 3:
            services.room_pass(deliberation_id=room.pk, credential=BEN)
        clock.room_tick(deliberation_id=room.pk)
    assert room.turns.filter(seat_number=2, kind=TurnKind.SPEECH, stood_in=True).exists()
    assert moved_in_her_seat(room)  # the engine keeps modelling the juror in her seat: its own state
    services.room_call_vote(deliberation_id=room.pk, session_key=HOST)
    return room


def transcript_of(room: Deliberation) -> Transcript:
    return build_transcript(deliberations_with_record().get(pk=room.pk))


def test_the_markdown_heads_the_ai_jurors_words_with_its_own_name_in_her_empty_seat(away):
    said = away.turns.filter(seat_number=2, kind=TurnKind.SPEECH, stood_in=True).first()
    body = to_markdown(transcript_of(away))
    heading = next(line for line in body.splitlines() if line.startswith("### ") and said.speaker_name in line)
    assert heading.startswith(f"### {said.speaker_name} · in the empty seat of Anna (seat 2)")
    hers = [line for line in body.splitlines() if line.startswith("### Anna")]
    assert hers and all(line.endswith(("· vote", "· turn ran out")) for line in hers)  # she said nothing
    assert "### Anna (seat 2) · turn ran out" in body  # her run-out turn, not a pass


def test_a_students_vote_is_labelled_hers_not_the_forepersons(away):
    transcript = transcript_of(away)
    votes = [v for r in transcript.rounds for v in r.turns if v.turn.is_vote]
    assert {v.turn.seat_number for v in votes} == {2, 3}
    assert all(v.style == "vote" for v in votes)
    body = to_markdown(transcript)
    assert "### Anna (seat 2) · vote" in body and "### Ben (seat 3) · vote" in body
    assert "Anna (foreperson)" not in body and "Ben (foreperson)" not in body
    assert "(pass)" not in body
    ran_out = next(v for r in transcript.rounds for v in r.turns if v.turn.kind == TurnKind.PASS)
    assert ran_out.pass_words == "turn ran out"


def test_her_seat_is_shown_as_no_listener_the_jury_moved_or_persuaded(away):
    stored = [t for t in away.turns.filter(kind=TurnKind.SPEECH) if any(r["seat"] == 2 for r in t.reactions)]
    for turn in stored:  # what the engine kept for her seat even persuades in this record
        turn.reactions = [{**r, "persuaded": r["persuaded"] or r["seat"] == 2} for r in turn.reactions]
        turn.save(update_fields=["reactions"])
    transcript = transcript_of(away)

    seats = transcript.seats
    live = messages_for(list(away.turns.order_by("sequence")), seats, player_seat=None)
    assert all(r.name != "Anna" for m in live for r in m.reactions)  # the live chat's "How the room took it"
    views = [v for r in transcript.rounds for v in r.turns]
    assert all(x.seat_number != 2 for v in views for x in v.reactions)
    debrief = build_debrief(transcript)
    assert all(e.listener != 2 for e in debrief.edges)  # nobody "→ Anna persuaded 1×"
    assert all(r.seat != 2 for m in debrief.moments for r in m.most_moved)  # never "Moved most: Anna"
    assert all(r.seat != 2 for s in debrief.speeches for r in s.reactions)  # nor persuaded, in anyone's count
    record = to_record(transcript)
    assert all("2" not in t["deltas"] for t in record["turns"])
    assert all(r["seat"] != 2 for rnd in record["round_log"] for t in rnd["turns"] for r in t["reactions"])
    json.dumps(record)


def test_a_rounds_closing_tally_counts_the_votes_people_cast_in_it_as_the_judge_announced(away):
    transcript = transcript_of(away)
    first = away.votes.filter(ballot="cast").order_by("id").first()
    view = transcript.round(first.round_number)
    announced = [n.text for n in view.closings if n.kind == NarrationKind.VOTE]
    assert announced[-1] == judge.vote_announcement(guilty=view.guilty, not_guilty=view.not_guilty, waiting=0)
    record = to_record(transcript)
    tally = next(r["tally"] for r in record["round_log"] if r["round"] == first.round_number)
    assert tally == {"guilty": view.guilty, "not_guilty": view.not_guilty}


def test_the_json_counts_changes_of_vote_as_every_page_does(away):
    state = away.engine_state
    state["vote_changes"] = 99  # the engine's own counter, which counts what no page counts
    Deliberation.objects.filter(pk=away.pk).update(engine_state=state)
    transcript = transcript_of(away)
    record = to_record(transcript)
    assert record["vote_changes"] == record["totals"]["vote_changes"] == len(transcript.changes)


def test_her_seats_profile_names_her_as_the_voter_while_her_ai_juror_plays_it(robbery, settings):
    room = two_seat_room(robbery, settings)
    assert clock.room_tick(deliberation_id=room.pk, now=later(61)) == "timeout"
    juror = profile(room.seats.select_related("persona__archetype").get(number=2))
    assert juror.stands_in and juror.name != "Anna" and juror.voter == "Anna"
