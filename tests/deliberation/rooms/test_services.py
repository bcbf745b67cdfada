"""Rooms: codes, joining, who may do what, and the refusals people and agents see."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from deliberation.models import Deliberation, Phase, SeatKind, TurnKind
from deliberation.rooms import clock, codes, services
from deliberation.rooms.services import Credential
from deliberation.rooms.state import STAGE_TURNS, current_seat, room_of

HOST = Credential(session_key="teacher-session")
ANNA = Credential(session_key="anna-session")
BEN = Credential(session_key="ben-session")


def refusal(excinfo: pytest.ExceptionInfo[ValidationError]) -> str:
    return " ".join(excinfo.value.messages)


@pytest.fixture
def room(robbery) -> Deliberation:
    """A teacher who hosts without playing; seats 2, 3 and 5 open."""
    return services.room_create(
        case=robbery, host_session_key=HOST.session_key, host_plays=False, open_seats=(2, 3, 5), seed=11
    )


def started(room: Deliberation) -> Deliberation:
    services.room_start(deliberation_id=room.pk, session_key=HOST.session_key)
    clock.room_tick(deliberation_id=room.pk)  # the first AI round
    room.refresh_from_db()
    return room


def test_a_room_code_is_six_unambiguous_characters_and_unique(robbery):
    rooms = [services.room_create(case=robbery, host_session_key="h", open_seats=(2,)) for _ in range(5)]
    found = [r.room_code for r in rooms]
    assert len(set(found)) == 5
    assert all(codes.looks_valid(code) for code in found)
    assert not set("".join(found)) & set("0O1IL5S8B")


def test_a_student_joins_by_code_typed_in_any_case_and_gets_the_lowest_free_seat(room):
    _, seat, token = services.room_join(code=f" {room.room_code.lower()} ", credential=ANNA, name="Anna")
    assert seat.number == 2 and seat.kind == SeatKind.HUMAN and seat.session_key == ANNA.session_key
    assert seat.display_name == "Anna" and seat.persona is not None and token == ""


def test_joining_twice_from_the_same_browser_finds_the_same_seat(room):
    _, first, _ = services.room_join(code=room.room_code, credential=ANNA)
    _, again, _ = services.room_join(code=room.room_code, credential=ANNA)
    assert first.pk == again.pk
    assert room.seats.filter(kind=SeatKind.HUMAN).count() == 1


def test_a_wrong_code_is_refused_with_the_code_named(room):
    with pytest.raises(ValidationError) as excinfo:
        services.room_join(code="ZZZZZZ", credential=ANNA)
    assert refusal(excinfo) == services.ERROR_ROOM_UNKNOWN.format(code="ZZZZZZ")


def test_a_taken_seat_and_a_closed_seat_are_refused(room):
    services.room_join(code=room.room_code, credential=ANNA, preferred_seat=3)
    with pytest.raises(ValidationError) as taken:
        services.room_join(code=room.room_code, credential=BEN, preferred_seat=3)
    assert refusal(taken) == services.ERROR_SEAT_TAKEN.format(seat=3)
    with pytest.raises(ValidationError) as closed:
        services.room_join(code=room.room_code, credential=BEN, preferred_seat=4)
    assert refusal(closed) == services.ERROR_SEAT_NOT_OPEN.format(seat=4)


def test_a_full_room_refuses_the_next_person_and_the_next_agent(room):
    for n in range(3):
        services.room_join(code=room.room_code, credential=Credential(session_key=f"s{n}"))
    with pytest.raises(ValidationError) as person:
        services.room_join(code=room.room_code, credential=BEN)
    with pytest.raises(ValidationError) as agent:
        services.room_join(code=room.room_code, agent=True)
    assert refusal(person) == refusal(agent) == services.ERROR_ROOM_FULL


def test_only_seats_two_to_six_and_eight_to_twelve_can_be_opened(robbery):
    with pytest.raises(ValidationError) as excinfo:
        services.room_create(case=robbery, host_session_key="h", open_seats=(1, 2, 7))
    assert refusal(excinfo) == services.ERROR_SEAT_NOT_OPENABLE.format(seats="1, 7")


def test_an_agent_gets_a_secret_token_of_which_only_a_hash_is_kept(room):
    _, seat, token = services.room_join(code=room.room_code, agent=True, preferred_seat=5)
    seat.refresh_from_db()
    assert seat.kind == SeatKind.AGENT and token and token not in seat.token_hash
    assert seat.token_hash == services.token_hash(token)
    assert services.deliberation_for_token(token) == room.pk
    with pytest.raises(ValidationError) as excinfo:
        services.deliberation_for_token(token[:-2] + "xx")
    assert refusal(excinfo) == services.ERROR_TOKEN


def test_the_host_cannot_take_a_student_seat(room):
    with pytest.raises(ValidationError) as excinfo:
        services.room_join(code=room.room_code, credential=HOST)
    assert refusal(excinfo) == services.ERROR_HOST_JOINS


def test_only_the_host_starts_and_a_second_start_is_refused(room):
    services.room_join(code=room.room_code, credential=ANNA)
    with pytest.raises(ValidationError) as student:
        services.room_start(deliberation_id=room.pk, session_key=ANNA.session_key)
    assert refusal(student) == services.ERROR_NOT_HOST.format(action="start the deliberation")
    services.room_start(deliberation_id=room.pk, session_key=HOST.session_key)
    room.refresh_from_db()
    assert room.phase == Phase.DELIBERATION and room.player_side == "none"
    with pytest.raises(ValidationError) as again:
        services.room_start(deliberation_id=room.pk, session_key=HOST.session_key)
    assert refusal(again) == services.ERROR_ALREADY_STARTED


def test_a_host_who_plays_holds_seat_seven_and_must_choose_a_side(robbery):
    room = services.room_create(case=robbery, host_session_key=HOST.session_key, host_plays=True, open_seats=(2,))
    seven = room.seats.get(number=7)
    assert seven.kind == SeatKind.HUMAN and seven.is_host and seven.session_key == HOST.session_key
    with pytest.raises(ValidationError) as excinfo:
        services.room_start(deliberation_id=room.pk, session_key=HOST.session_key)
    assert refusal(excinfo) == services.ERROR_SIDE
    services.room_start(deliberation_id=room.pk, session_key=HOST.session_key, side="defend")
    room.refresh_from_db()
    assert room.player_side == "defend"


def test_only_the_host_calls_the_final_vote(room):
    services.room_join(code=room.room_code, credential=ANNA)
    started(room)
    with pytest.raises(ValidationError) as excinfo:
        services.room_call_vote(deliberation_id=room.pk, session_key=ANNA.session_key)
    assert refusal(excinfo) == services.ERROR_NOT_HOST.format(action="call the final vote")
    services.room_call_vote(deliberation_id=room.pk, session_key=HOST.session_key)
    room.refresh_from_db()
    assert room.phase == Phase.VERDICT and room.end_reason == "called"


def test_a_finished_deliberation_refuses_joining_speaking_and_voting(room):
    _, _, token = services.room_join(code=room.room_code, agent=True)
    started(room)
    services.room_call_vote(deliberation_id=room.pk, session_key=HOST.session_key)
    agent = Credential(token=token)
    attempts = [
        lambda: services.room_join(code=room.room_code, credential=BEN),
        lambda: services.room_speak(deliberation_id=room.pk, credential=agent, content="Wait!"),
        lambda: services.room_vote(deliberation_id=room.pk, credential=agent, value="guilty"),
    ]
    for attempt in attempts:
        with pytest.raises(ValidationError) as excinfo:
            attempt()
        assert refusal(excinfo) == services.ERROR_ROOM_FINISHED


def test_a_participant_cannot_act_for_another_seat(room):
    services.room_join(code=room.room_code, credential=ANNA, preferred_seat=2)
    services.room_join(code=room.room_code, credential=BEN, preferred_seat=3)
    started(room)
    with pytest.raises(ValidationError) as excinfo:
        services.room_vote(deliberation_id=room.pk, credential=BEN, value="guilty", seat_number=2)
    assert refusal(excinfo) == services.ERROR_OTHER_SEAT.format(own=3, seat=2)
    assert not room.votes.filter(ballot="cast").exists()


def test_someone_without_a_seat_cannot_speak(room):
    services.room_join(code=room.room_code, credential=ANNA)
    started(room)
    with pytest.raises(ValidationError) as excinfo:
        services.room_speak(deliberation_id=room.pk, credential=BEN, content="Let me in")
    assert refusal(excinfo) == services.ERROR_NOT_PARTICIPANT


def test_speaking_out_of_turn_is_refused_with_when_the_next_turn_is(room):
    services.room_join(code=room.room_code, credential=ANNA, preferred_seat=2)
    services.room_join(code=room.room_code, credential=BEN, preferred_seat=3)
    services.room_start(deliberation_id=room.pk, session_key=HOST.session_key)
    with pytest.raises(ValidationError) as during_round:
        services.room_speak(deliberation_id=room.pk, credential=ANNA, content="Me first")
    assert refusal(during_round) == services.ERROR_NOT_YOUR_TURN.format(when=services.WHEN_ROUND)
    clock.room_tick(deliberation_id=room.pk)
    room.refresh_from_db()
    assert current_seat(room_of(room)) == 2
    with pytest.raises(ValidationError) as in_line:
        services.room_speak(deliberation_id=room.pk, credential=BEN, content="Me now")
    message = refusal(in_line)
    assert message.startswith("It is not your turn. Seat 2 has the floor")
    assert "your turn comes after seat 2." in message


def test_a_vote_cast_any_time_counts_and_a_vote_during_a_round_waits_for_its_end(room):
    services.room_join(code=room.room_code, credential=ANNA)
    started(room)
    outcome = services.room_vote(deliberation_id=room.pk, credential=ANNA, value="guilty")
    assert outcome["recorded"] is True and outcome["deferred"] is False
    assert room.seats.get(number=2).vote == "guilty"
    Deliberation.objects.filter(pk=room.pk).update(round_status="running")
    waiting = services.room_vote(deliberation_id=room.pk, credential=ANNA, value="not_guilty")
    assert waiting["deferred"] is True and room.seats.get(number=2).vote == "guilty"
    room.refresh_from_db()
    assert room_of(room)["votes"] == {"2": "not_guilty"}


def test_the_host_removes_a_participant_and_the_seat_goes_back_to_its_ai_juror(room):
    services.room_join(code=room.room_code, credential=ANNA, preferred_seat=2)
    services.room_join(code=room.room_code, credential=BEN, preferred_seat=3)
    started(room)
    with pytest.raises(ValidationError) as student:
        services.room_remove(deliberation_id=room.pk, session_key=BEN.session_key, seat_number=2)
    assert refusal(student) == services.ERROR_NOT_HOST.format(action="remove someone")
    services.room_remove(deliberation_id=room.pk, session_key=HOST.session_key, seat_number=2)
    seat = room.seats.get(number=2)
    assert seat.kind == SeatKind.AI and seat.session_key == "" and not seat.is_open
    assert seat.display_name == seat.persona.name
    room.refresh_from_db()
    state = room_of(room)
    assert state["stage"] == STAGE_TURNS and state["queue"] == [3]  # Anna had the floor: Ben has it now
    with pytest.raises(ValidationError) as gone:
        services.room_speak(deliberation_id=room.pk, credential=ANNA, content="Still here?")
    assert refusal(gone) == services.ERROR_NOT_PARTICIPANT


def test_typed_words_are_queued_verbatim_for_the_next_round(room):
    services.room_join(code=room.room_code, credential=ANNA)
    started(room)
    words = "The bait bills were   found in a car he had sold a week before!"
    heard_in = services.room_speak(
        deliberation_id=room.pk, credential=ANNA, content=words, argument_type="evidence", target=9
    )
    room.refresh_from_db()
    assert heard_in == room.round_number + 1
    assert room.pending[-1] == {
        "kind": "speech",
        "seat": 2,
        "speaker_name": room.seats.get(number=2).display_name,
        "content": words,
        "argument_type": "evidence",
        "target": 9,
        "strategy": "",
        "turn_id": room.turns.get(kind=TurnKind.SPEECH, seat_number=2).pk,
    }


def test_a_students_words_are_shown_at_once_and_get_the_jurys_reactions_when_heard(room):
    from deliberation.services import round_run

    services.room_join(code=room.room_code, credential=ANNA)
    started(room)
    words = "Nobody asked the clerk about the second customer."
    services.room_speak(deliberation_id=room.pk, credential=ANNA, content=words, argument_type="question")
    spoken = room.turns.get(kind=TurnKind.SPEECH, seat_number=2)
    assert spoken.content == words and spoken.reactions == []
    assert spoken.round_number == room.round_number + 1
    round_run(deliberation_id=room.pk)
    spoken.refresh_from_db()
    assert {r["seat"] for r in spoken.reactions} == {n for n in range(1, 13) if n != 2}
    assert room.turns.filter(kind=TurnKind.SPEECH, seat_number=2).count() == 1


def test_a_blank_or_unknown_argument_is_refused(room):
    services.room_join(code=room.room_code, credential=ANNA)
    started(room)
    with pytest.raises(ValidationError) as blank:
        services.room_speak(deliberation_id=room.pk, credential=ANNA, content="   ")
    assert refusal(blank) == services.ERROR_CONTENT_BLANK
    with pytest.raises(ValidationError) as kind:
        services.room_speak(deliberation_id=room.pk, credential=ANNA, content="Hm", argument_type="shouting")
    assert refusal(kind) == services.ERROR_ARGUMENT_TYPE


def test_a_pass_is_on_the_record(room):
    services.room_join(code=room.room_code, credential=ANNA)
    started(room)
    services.room_pass(deliberation_id=room.pk, credential=ANNA)
    last = room.turns.order_by("-sequence").first()
    assert last.kind == TurnKind.PASS and last.seat_number == 2


def test_a_strategy_is_crafted_by_the_mind_on_the_side_of_the_students_vote(room):
    services.room_join(code=room.room_code, credential=ANNA)
    started(room)
    services.room_vote(deliberation_id=room.pk, credential=ANNA, value="not_guilty")
    services.room_speak(
        deliberation_id=room.pk, credential=ANNA, strategy="reasonable_doubt", content="the lighting was poor"
    )
    room.refresh_from_db()
    move = room.pending[-1]
    assert move["kind"] == "move" and move["side"] == "defend" and move["strategy"] == "reasonable_doubt"
    clock.room_tick(deliberation_id=room.pk)
    crafted = room.turns.filter(kind=TurnKind.SPEECH, seat_number=2).first()
    assert crafted is not None and crafted.strategy == "reasonable_doubt" and crafted.reactions
