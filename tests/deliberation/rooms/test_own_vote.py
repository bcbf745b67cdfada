"""In a room every seated person casts their own vote, and the jury waits for them before it ends."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from deliberation.engine.state import DeliberationState
from deliberation.models import Deliberation, Narration, NarrationKind, Phase
from deliberation.rooms import clock, services
from deliberation.rooms.services import ROOM_TURNS_BEFORE_VERDICT, Credential
from tests.deliberation.rooms.two_seats import turns_passed

HOST = "teacher-session"
ANNA, BEN = Credential(session_key="anna"), Credential(session_key="ben")


def later(seconds: float) -> timezone.datetime:
    return timezone.now() + timedelta(seconds=seconds)


@pytest.fixture
def room(robbery, settings) -> Deliberation:
    settings.ANGRY_TURN_SECONDS = 60
    settings.ANGRY_NARRATION = "text"
    room = services.room_create(case=robbery, host_session_key=HOST, host_plays=False, open_seats=(2, 3), seed=5)
    services.room_join(code=room.room_code, credential=ANNA, preferred_seat=2)
    services.room_join(code=room.room_code, credential=BEN, preferred_seat=3)
    services.room_start(deliberation_id=room.pk, session_key=HOST)
    return room


def agree_all(room: Deliberation, value: str = "not_guilty") -> None:
    """Every seat already votes ``value``, the AI jurors firmly (the placeholder votes too)."""
    room.refresh_from_db()
    state = DeliberationState.from_dict(room.engine_state)
    for seat, memory in state.memories.items():
        state.votes[seat] = memory.vote = value
        memory.conviction = 0.02 if value == "not_guilty" else 0.98
    state.vote_history = [dict(state.votes)]
    Deliberation.objects.filter(pk=room.pk).update(engine_state=state.to_dict())


def seat_votes(room: Deliberation) -> dict[int, str]:
    return dict(room.seats.filter(number__in=(2, 3)).values_list("number", "vote"))


def test_a_seated_person_shows_no_vote_until_they_cast_their_own(room):
    assert seat_votes(room) == {2: "", 3: ""}
    outcome = services.room_vote(deliberation_id=room.pk, credential=ANNA, value="guilty")
    assert outcome == {"recorded": True, "changed": True, "deferred": False}
    assert seat_votes(room) == {2: "guilty", 3: ""}
    line = room.turns.get(kind="process", seat_number=2)
    assert line.flips == [{"seat": 2, "from": "", "to": "guilty"}]


def test_a_room_waits_for_every_seated_persons_vote_and_turn_before_it_ends(room):
    assert ROOM_TURNS_BEFORE_VERDICT == 5
    agree_all(room)
    assert clock.room_tick(deliberation_id=room.pk) == "round"
    room.refresh_from_db()
    assert room.phase == Phase.DELIBERATION  # unanimous, but nobody seated has voted or had a turn
    assert seat_votes(room) == {2: "", 3: ""}
    for _ in range(ROOM_TURNS_BEFORE_VERDICT - 1):  # every turn but the last, passed unvoted
        turns_passed(room, 1)
        assert room.phase == Phase.DELIBERATION  # unanimous, but nobody seated has voted

    services.room_vote(deliberation_id=room.pk, credential=ANNA, value="not_guilty")
    services.room_speak(deliberation_id=room.pk, credential=ANNA, content="I agree: not guilty.")
    assert clock.room_tick(deliberation_id=room.pk, now=later(61)) == "timeout"  # Ben walked away
    assert clock.room_tick(deliberation_id=room.pk, now=later(62)) == "round"
    room.refresh_from_db()
    assert room.phase == Phase.VERDICT and room.end_reason == "unanimous" and room.verdict == "not_guilty"


def test_a_room_whose_people_have_not_voted_does_not_end_on_the_first_round(room):
    agree_all(room)
    clock.room_tick(deliberation_id=room.pk)
    services.room_pass(deliberation_id=room.pk, credential=ANNA)
    services.room_pass(deliberation_id=room.pk, credential=BEN)
    assert clock.room_tick(deliberation_id=room.pk, now=later(1)) == "round"
    room.refresh_from_db()
    assert room.phase == Phase.DELIBERATION  # both had a turn, neither has voted
    turns_passed(room, ROOM_TURNS_BEFORE_VERDICT - 2)  # the turns but one they still need, unvoted
    assert room.phase == Phase.DELIBERATION
    services.room_vote(deliberation_id=room.pk, credential=ANNA, value="not_guilty")
    services.room_vote(deliberation_id=room.pk, credential=BEN, value="not_guilty")
    services.room_pass(deliberation_id=room.pk, credential=ANNA)
    services.room_pass(deliberation_id=room.pk, credential=BEN)
    assert clock.room_tick(deliberation_id=room.pk, now=later(2)) == "round"
    room.refresh_from_db()
    assert room.phase == Phase.VERDICT and room.verdict == "not_guilty"


def test_a_person_who_never_voted_abstains_from_the_final_ballot_and_the_rest_give_the_verdict(room):
    agree_all(room, "guilty")
    clock.room_tick(deliberation_id=room.pk)
    services.room_vote(deliberation_id=room.pk, credential=ANNA, value="guilty")
    services.room_pass(deliberation_id=room.pk, credential=ANNA)
    services.room_pass(deliberation_id=room.pk, credential=BEN)  # Ben takes his turns but never votes
    services.room_call_vote(deliberation_id=room.pk, session_key=HOST)

    room.refresh_from_db()
    final = dict(room.votes.filter(ballot="final").values_list("seat_number", "value"))
    assert room.verdict == "guilty" and 3 not in final and len(final) == 11
    assert set(final.values()) == {"guilty"}
    assert seat_votes(room) == {2: "guilty", 3: ""}  # the page's count and the ballot's agree
    assert 3 not in DeliberationState.from_dict(room.engine_state).votes


def test_the_judges_count_leaves_out_the_people_who_have_not_voted_as_the_rooms_tally_does(room):
    first = Narration.objects.get(deliberation=room, kind=NarrationKind.VOTE, round_number=0)
    counted = [int(n) for n in re.findall(r"(\d+) for (?:not )?guilty", first.text)]
    assert sum(counted) == 10, first.text  # Anna and Ben have not voted yet

    agree_all(room, "guilty")
    clock.room_tick(deliberation_id=room.pk)
    services.room_vote(deliberation_id=room.pk, credential=ANNA, value="guilty")
    services.room_pass(deliberation_id=room.pk, credential=ANNA)
    services.room_pass(deliberation_id=room.pk, credential=BEN)
    services.room_call_vote(deliberation_id=room.pk, session_key=HOST)
    verdict = Narration.objects.get(deliberation=room, kind=NarrationKind.VERDICT)
    assert "11 for guilty, 0 for not guilty" in verdict.text, verdict.text


def test_a_participants_challenge_is_about_the_evidence_they_picked(room, client):
    from tests.conftest import browser_of

    clock.room_tick(deliberation_id=room.pk)
    services.room_pass(deliberation_id=room.pk, credential=ANNA)  # Ben's turn next, from his browser
    key = browser_of(client)
    room.seats.filter(number=3).update(session_key=key)
    page = client.get(f"/rooms/{room.room_code}/controls/").content.decode()
    assert 'name="evidence"' in page and 'name="witness"' in page
    response = client.post(
        f"/rooms/{room.room_code}/speak/",
        {"seat": 3, "strategy": "challenge_evidence", "evidence": "E2", "argument_type": "logical"},
    )
    assert response.status_code in (200, 302)
    room.refresh_from_db()
    assert room.pending[-1]["item"] == "E2" and room.pending[-1]["strategy"] == "challenge_evidence"


def test_the_first_ballot_and_the_foreperson_count_only_the_votes_cast(room):
    initial = dict(room.votes.filter(ballot="initial").values_list("seat_number", "value"))
    assert 2 not in initial and 3 not in initial and len(initial) == 10

    clock.room_tick(deliberation_id=room.pk)  # round 1: the foreperson opens
    opening = room.turns.filter(kind="process", round_number=1, content__startswith="Let's begin").get()
    counted = [int(n) for n in re.findall(r"(\d+) (?:not )?guilty", opening.content)]
    assert sum(counted) == 10, opening.content
    names = dict(room.seats.filter(number__in=(2, 3)).values_list("number", "display_name"))
    assert names[2] in opening.content and names[3] in opening.content and "not voted yet" in opening.content


def test_a_person_whose_turn_ran_out_abstains_until_they_vote_and_their_later_vote_is_recorded(room):
    clock.room_tick(deliberation_id=room.pk)
    assert clock.room_tick(deliberation_id=room.pk, now=later(61)) == "timeout"  # Anna's turn ran out
    room.refresh_from_db()
    anna = room.seats.get(number=2)
    assert anna.away_since is not None and anna.vote == ""  # her seat counts no vote she never cast
    state = DeliberationState.from_dict(room.engine_state)
    assert 2 not in state.votes and sum(state.tally().values()) == 11

    outcome = services.room_vote(deliberation_id=room.pk, credential=ANNA, value="not_guilty")

    assert outcome["recorded"] and outcome["changed"]
    cast = room.votes.filter(ballot="cast", seat_number=2)
    assert list(cast.values_list("value", flat=True)) == ["not_guilty"]
    assert seat_votes(room)[2] == "not_guilty"
    assert DeliberationState.from_dict(Deliberation.objects.get(pk=room.pk).engine_state).votes[2] == "not_guilty"
