"""The host's hand on a running room (pause, resume, more time, skip, hide, remove), the word
filter, seat codes, and a seat left empty that its AI juror plays until its person returns."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.utils import timezone

from angryagents.env import env_words
from deliberation.court.courtroom import messages_for
from deliberation.engine import ending
from deliberation.engine.state import DeliberationState
from deliberation.jury import profile
from deliberation.models import Deliberation, Narration, NarrationKind, RoundStatus, SeatKind, Turn, TurnKind
from deliberation.review.debrief import build_debrief, contributions_csv
from deliberation.review.selectors import build_transcript
from deliberation.rooms import clock, control, seat_codes, services
from deliberation.rooms.selectors import teacher_view
from deliberation.rooms.services import Credential
from deliberation.rooms.state import STAGE_AI, current_seat, room_of, seconds_left, turn_seconds, when
from deliberation.rooms.words import ERROR_FILTERED, filtered_words
from deliberation.selectors import deliberations_with_record
from tests.deliberation.rooms.two_seats import ANNA, BEN, HOST, turns_passed, two_seat_room

PHONE = Credential(session_key="annas-phone")


def later(seconds: float) -> timezone.datetime:
    return timezone.now() + timedelta(seconds=seconds)


def state(room: Deliberation) -> dict:
    room.refresh_from_db()
    return room_of(room)


def refusal(excinfo: pytest.ExceptionInfo[ValidationError]) -> str:
    return " ".join(excinfo.value.messages)


@pytest.fixture(autouse=True)
def _sweeps_start_afresh() -> None:
    from deliberation.rooms import driver

    driver._asked.clear()


@pytest.fixture
def room(robbery, settings) -> Deliberation:
    """Anna (seat 2) and Ben (seat 3) seated; the first AI round has run; Anna has the floor."""
    created = two_seat_room(robbery, settings)
    assert current_seat(room_of(created)) == 2
    return created


# --- Pause and resume ----------------------------------------------------------------------------------


def test_a_paused_room_lets_no_turn_run_out_and_resumes_with_the_seconds_left(room):
    now = timezone.now()
    control.room_pause(deliberation_id=room.pk, session_key=HOST, now=now + timedelta(seconds=20))
    assert seconds_left(state(room)) == 40
    assert clock.room_tick(deliberation_id=room.pk, now=now + timedelta(seconds=600)) == ""
    assert current_seat(state(room)) == 2 and not room.turns.filter(kind=TurnKind.PASS).exists()
    control.room_resume(deliberation_id=room.pk, session_key=HOST, now=now + timedelta(seconds=900))
    assert clock.room_tick(deliberation_id=room.pk, now=now + timedelta(seconds=930)) == ""  # 30 of her 40 s
    assert clock.room_tick(deliberation_id=room.pk, now=now + timedelta(seconds=941)) == "timeout"
    assert current_seat(state(room)) == 3


def test_a_paused_room_starts_no_round_even_when_one_is_due(room):
    services.room_pass(deliberation_id=room.pk, credential=ANNA)
    services.room_pass(deliberation_id=room.pk, credential=BEN)
    assert state(room)["stage"] == STAGE_AI
    control.room_pause(deliberation_id=room.pk, session_key=HOST)
    before = room.round_number
    assert clock.room_tick(deliberation_id=room.pk, now=later(300)) == ""
    room.refresh_from_db()
    assert room.round_number == before
    control.room_resume(deliberation_id=room.pk, session_key=HOST)
    assert clock.room_tick(deliberation_id=room.pk, now=later(1)) == "round"


def test_nobody_speaks_or_passes_while_the_room_is_paused_and_the_words_are_not_taken(room):
    control.room_pause(deliberation_id=room.pk, session_key=HOST)
    with pytest.raises(ValidationError) as excinfo:
        services.room_speak(deliberation_id=room.pk, credential=ANNA, content="Wait for me.")
    assert refusal(excinfo) == control.ERROR_PAUSED
    with pytest.raises(ValidationError):
        services.room_pass(deliberation_id=room.pk, credential=ANNA)
    assert not room.turns.filter(seat_number=2).exists()


def test_pausing_twice_or_resuming_a_running_room_is_refused(room):
    with pytest.raises(ValidationError) as excinfo:
        control.room_resume(deliberation_id=room.pk, session_key=HOST)
    assert refusal(excinfo) == control.ERROR_NOT_PAUSED
    control.room_pause(deliberation_id=room.pk, session_key=HOST)
    with pytest.raises(ValidationError) as excinfo:
        control.room_pause(deliberation_id=room.pk, session_key=HOST)
    assert refusal(excinfo) == control.ERROR_ALREADY_PAUSED


@pytest.mark.parametrize(
    "act",
    [
        lambda pk, key: control.room_pause(deliberation_id=pk, session_key=key),
        lambda pk, key: control.room_extend(deliberation_id=pk, session_key=key),
        lambda pk, key: control.room_skip(deliberation_id=pk, session_key=key),
        lambda pk, key: control.message_hide(deliberation_id=pk, session_key=key, turn_id=1),
    ],
    ids=["pause", "extend", "skip", "hide"],
)
def test_a_student_cannot_use_the_hosts_controls(room, act):
    with pytest.raises(ValidationError) as excinfo:
        act(room.pk, ANNA.session_key)
    assert refusal(excinfo).startswith("Only the host can")
    assert current_seat(state(room)) == 2 and not state(room).get("paused")


# --- More time and skip ----------------------------------------------------------------------------------


def test_the_host_gives_the_speaker_more_time(room):
    now = timezone.now()
    left = control.room_extend(deliberation_id=room.pk, session_key=HOST, seconds=30, now=now)
    assert 85 <= left <= 90
    assert clock.room_tick(deliberation_id=room.pk, now=now + timedelta(seconds=70)) == ""
    assert clock.room_tick(deliberation_id=room.pk, now=now + timedelta(seconds=left + 1)) == "timeout"


def test_more_time_is_bounded_and_needs_someone_on_the_floor(room):
    with pytest.raises(ValidationError) as excinfo:
        control.room_extend(deliberation_id=room.pk, session_key=HOST, seconds=3600)
    assert refusal(excinfo) == control.ERROR_EXTRA_SECONDS.format(low=control.MIN_EXTRA, high=control.MAX_EXTRA)
    services.room_pass(deliberation_id=room.pk, credential=ANNA)
    services.room_pass(deliberation_id=room.pk, credential=BEN)
    with pytest.raises(ValidationError) as excinfo:
        control.room_extend(deliberation_id=room.pk, session_key=HOST)
    assert refusal(excinfo) == control.ERROR_NO_TURN.format(action="give more time to")


def test_more_time_while_paused_is_kept_for_the_resume(room):
    control.room_pause(deliberation_id=room.pk, session_key=HOST)
    control.room_extend(deliberation_id=room.pk, session_key=HOST, seconds=30)
    assert 85 <= seconds_left(state(room)) <= 90


def test_the_host_skips_a_turn_and_the_record_says_so(room):
    assert control.room_skip(deliberation_id=room.pk, session_key=HOST) == 2
    assert current_seat(state(room)) == 3
    skipped = room.turns.get(kind=TurnKind.PASS, seat_number=2)
    assert skipped.content == control.SKIP_LINE.format(name="Anna")


# --- Hiding a message ----------------------------------------------------------------------------------


def test_a_hidden_message_stays_in_the_record_marked_and_leaves_every_screen_but_the_hosts_transcript(room):
    words = "Something nobody should have to read."
    services.room_speak(deliberation_id=room.pk, credential=ANNA, content=words)
    turn = room.turns.get(content=words)
    control.message_hide(deliberation_id=room.pk, session_key=HOST, turn_id=turn.pk, by="ms-ortiz")
    turn.refresh_from_db()
    assert turn.hidden_at is not None and turn.hidden_by == "ms-ortiz" and turn.content == words
    assert all(m.turn.pk != turn.pk for m in messages_for(list(room.turns.all()), {}, player_seat=None))
    record = deliberations_with_record().get(pk=room.pk)
    everyone = [v.turn.pk for r in build_transcript(record).rounds for v in r.turns]
    host = [v.turn.pk for r in build_transcript(record, show_hidden=True).rounds for v in r.turns]
    assert turn.pk not in everyone and turn.pk in host


def test_words_hidden_before_the_jury_heard_them_are_withdrawn_from_the_next_round(room):
    services.room_speak(deliberation_id=room.pk, credential=ANNA, content="Words to withdraw.")
    turn = room.turns.get(content="Words to withdraw.")
    room.refresh_from_db()
    assert [e.get("turn_id") for e in room.pending] == [turn.pk]
    control.message_hide(deliberation_id=room.pk, session_key=HOST, turn_id=turn.pk)
    room.refresh_from_db()
    assert room.pending == []


def test_a_message_of_another_room_cannot_be_hidden(room, robbery):
    other = services.room_create(case=robbery, host_session_key="someone-else", open_seats=(2,))
    foreign = Turn.objects.create(
        deliberation=other, round_number=0, sequence=50, kind=TurnKind.SPEECH, speaker_name="X", content="theirs"
    )
    with pytest.raises(ValidationError) as excinfo:
        control.message_hide(deliberation_id=room.pk, session_key=HOST, turn_id=foreign.pk)
    assert refusal(excinfo) == control.ERROR_TURN_UNKNOWN
    foreign.refresh_from_db()
    assert foreign.hidden_at is None


# --- The word filter -------------------------------------------------------------------------------------


def test_a_filtered_word_is_refused_before_anyone_sees_it_and_nothing_is_stored(room, settings):
    settings.ANGRY_WORD_FILTER = ("darn", "heck")
    with pytest.raises(ValidationError) as excinfo:
        services.room_speak(deliberation_id=room.pk, credential=ANNA, content="What the HECK, darn it.")
    assert refusal(excinfo) == ERROR_FILTERED.format(words="the words “heck”, “darn”")
    assert not room.turns.filter(seat_number=2, kind=TurnKind.SPEECH).exists()
    assert current_seat(state(room)) == 2  # still her turn: she can change the words
    assert filtered_words("Darned good point") == []  # whole words only


def test_the_word_filter_reads_a_comma_list_or_a_file(monkeypatch, tmp_path):
    monkeypatch.setenv("ANGRY_WORD_FILTER", "Darn, heck ,")
    assert env_words("ANGRY_WORD_FILTER") == ("darn", "heck")
    listed = tmp_path / "words.txt"
    listed.write_text("# classroom list\nblast\nrats, drat\n")
    monkeypatch.setenv("ANGRY_WORD_FILTER", str(listed))
    assert env_words("ANGRY_WORD_FILTER") == ("blast", "rats", "drat")
    monkeypatch.setenv("ANGRY_WORD_FILTER", str(tmp_path / "missing.txt"))
    with pytest.raises(ImproperlyConfigured, match="ANGRY_WORD_FILTER"):
        env_words("ANGRY_WORD_FILTER")


# --- Seat codes ------------------------------------------------------------------------------------------


def test_every_seated_person_gets_a_ten_character_seat_code_and_agents_none(room):
    anna = room.seats.get(number=2)
    assert len(anna.seat_code) == seat_codes.LENGTH and set(anna.seat_code) <= set(seat_codes.ALPHABET)
    assert control.seat_code_for(anna) == f"{anna.seat_code[:5]}-{anna.seat_code[5:]}"
    assert room.seats.get(number=3).seat_code != anna.seat_code


def test_a_seat_code_moves_the_seat_to_another_device_and_the_old_one_loses_it(room):
    code = room.seats.get(number=2).seat_code
    _, seat = control.seat_rejoin(code=f"{code[:5].lower()}-{code[5:]}", credential=PHONE)
    assert seat.number == 2 and seat.session_key == PHONE.session_key
    assert seat.seat_code != code  # a code read over a shoulder works once at most
    with pytest.raises(ValidationError):
        services.room_pass(deliberation_id=room.pk, credential=ANNA)
    services.room_pass(deliberation_id=room.pk, credential=PHONE)
    with pytest.raises(ValidationError) as excinfo:
        control.seat_rejoin(code=code, credential=ANNA)
    assert refusal(excinfo) == control.ERROR_SEAT_CODE.format(code=code)


def test_a_browser_holding_another_seat_or_the_host_cannot_take_a_seat_by_code(room):
    code = room.seats.get(number=2).seat_code
    with pytest.raises(ValidationError) as excinfo:
        control.seat_rejoin(code=code, credential=BEN)
    assert refusal(excinfo) == control.ERROR_SEATED_ELSEWHERE.format(seat=3)
    with pytest.raises(ValidationError) as excinfo:
        control.seat_rejoin(code=code, credential=Credential(session_key=HOST))
    assert refusal(excinfo) == control.ERROR_HOST_SEAT_CODE


def test_a_removed_persons_seat_code_opens_nothing(room):
    code = room.seats.get(number=2).seat_code
    services.room_remove(deliberation_id=room.pk, session_key=HOST, seat_number=2)
    with pytest.raises(ValidationError):
        control.seat_rejoin(code=code, credential=PHONE)


# --- A seat left empty -----------------------------------------------------------------------------------


def test_a_seat_left_empty_for_a_whole_turn_is_played_by_its_ai_juror_until_its_person_returns(room):
    assert clock.room_tick(deliberation_id=room.pk, now=later(61)) == "timeout"  # Anna let her turn run out
    anna = room.seats.get(number=2)
    assert anna.away_since is not None and anna.kind == SeatKind.HUMAN
    assert profile(anna).kind == "ai"  # the jury's rounds hear her AI juror meanwhile
    services.room_pass(deliberation_id=room.pk, credential=BEN)
    assert clock.room_tick(deliberation_id=room.pk) == "round"
    assert state(room)["queue"] == [3]  # the turns no longer wait for her
    assert control.seat_return(deliberation_id=room.pk, credential=ANNA) is True
    assert state(room)["queue"] == [3, 2]
    assert profile(room.seats.get(number=2)).kind == "human"


def waits_for(room: Deliberation) -> list[int]:
    room.refresh_from_db()
    return ending.waiting_for(DeliberationState.from_dict(room.engine_state), [2, 3])


def test_a_person_back_at_her_seat_without_a_vote_is_waited_for_again(room):
    turns_passed(room, services.ROOM_TURNS_BEFORE_VERDICT - 1)  # her turns but one, passed unvoted
    services.room_vote(deliberation_id=room.pk, credential=BEN, value="guilty")
    assert clock.room_tick(deliberation_id=room.pk, now=later(61)) == "timeout"  # Anna walked away unvoted
    assert 2 not in waits_for(room)  # her run-out turn settled her ballot: the jury no longer waits for her
    assert control.seat_return(deliberation_id=room.pk, credential=ANNA) is True
    assert 2 in waits_for(room)  # back at the table: eleven do not decide over her head
    assert room.seats.get(number=2).vote == ""
    services.room_vote(deliberation_id=room.pk, credential=ANNA, value="not_guilty")
    assert 2 not in waits_for(room)  # her own vote, and her turn already had


def test_a_person_back_while_a_round_runs_is_waited_for_once_the_round_is_over(room):
    turns_passed(room, services.ROOM_TURNS_BEFORE_VERDICT - 1)
    assert clock.room_tick(deliberation_id=room.pk, now=later(61)) == "timeout"
    Deliberation.objects.filter(pk=room.pk).update(round_status=RoundStatus.RUNNING)
    assert control.seat_return(deliberation_id=room.pk, credential=ANNA) is True
    assert 2 not in waits_for(room)  # the round's state would overwrite a change made now
    Deliberation.objects.filter(pk=room.pk).update(round_status=RoundStatus.IDLE)
    room.refresh_from_db()
    room_state = room_of(room)
    room_state["stage"] = STAGE_AI
    room.settings = {**room.settings, "room": room_state}
    room.save(update_fields=["settings"])
    clock.after_round(deliberation_id=room.pk)
    assert 2 in waits_for(room)
    assert "returned" not in state(room)


def test_a_vote_of_her_own_stands_when_she_comes_back(room):
    services.room_vote(deliberation_id=room.pk, credential=ANNA, value="not_guilty")
    assert clock.room_tick(deliberation_id=room.pk, now=later(61)) == "timeout"
    assert control.seat_return(deliberation_id=room.pk, credential=ANNA) is True
    assert room.seats.get(number=2).vote == "not_guilty"
    room.refresh_from_db()
    assert DeliberationState.from_dict(room.engine_state).votes[2] == "not_guilty"


def test_the_judge_reads_a_hung_verdict_as_of_those_who_voted_when_a_person_never_did(room):
    assert clock.room_tick(deliberation_id=room.pk, now=later(61)) == "timeout"  # Anna walked away unvoted
    services.room_vote(deliberation_id=room.pk, credential=BEN, value="not_guilty")  # the jury is divided
    services.room_call_vote(deliberation_id=room.pk, session_key=HOST)
    room.refresh_from_db()
    assert room.verdict == "hung"
    said = Narration.objects.get(deliberation=room, kind=NarrationKind.VERDICT).text
    assert "could not reach a unanimous verdict of the 11 who voted." in said
    assert "of all 11" not in said


def test_the_record_counts_no_vote_for_people_who_have_not_voted_not_their_seats_stand_in(room):
    assert clock.room_tick(deliberation_id=room.pk, now=later(61)) == "timeout"  # Anna walked away unvoted
    room.refresh_from_db()
    transcript = build_transcript(Deliberation.objects.get(pk=room.pk))
    for view in transcript.rounds:  # the first ballot and every round: ten AI jurors' votes, no stand-ins
        assert view.guilty + view.not_guilty == 10, view.number
    assert set(room.snapshots.filter(seat_number__in=[2, 3]).values_list("vote", flat=True)) == {""}
    services.room_vote(deliberation_id=room.pk, credential=BEN, value="not_guilty")
    services.room_pass(deliberation_id=room.pk, credential=BEN)
    assert clock.room_tick(deliberation_id=room.pk) == "round"
    room.refresh_from_db()
    last = room.snapshots.filter(round_number=room.round_number)
    assert last.get(seat_number=3).vote == "not_guilty" and last.get(seat_number=2).vote == ""


def test_with_everyone_away_the_jury_waits_a_turns_length_between_rounds_not_the_short_pause(room):
    turns_passed(room, services.ROOM_TURNS_BEFORE_VERDICT - 1)  # the last turn of each runs out below
    assert clock.room_tick(deliberation_id=room.pk, now=later(61)) == "timeout"  # Anna is away
    assert clock.room_tick(deliberation_id=room.pk, now=later(200)) == "timeout"  # and Ben
    # Ben was the last at the table: his ballot stays open, so eleven cannot decide over his head
    assert waits_for(room) == [3]
    moment = later(201)
    assert clock.room_tick(deliberation_id=room.pk, now=moment) == "round"  # the AI jurors' round
    room.refresh_from_db()
    assert room.phase == "deliberation"
    left = (when(state(room)["next_at"]) - moment).total_seconds()
    assert left > turn_seconds(state(room)) - 5  # the time a turn of theirs would have had
    control.seat_return(deliberation_id=room.pk, credential=ANNA)
    assert clock.room_tick(deliberation_id=room.pk, now=later(300)) == "round"
    room.refresh_from_db()
    assert state(room)["queue"] == [2]  # back: her turn, not the jury's next round at once


def test_the_ai_juror_playing_an_empty_seat_speaks_but_never_changes_its_persons_vote(room):
    services.room_vote(deliberation_id=room.pk, credential=ANNA, value="not_guilty")
    assert clock.room_tick(deliberation_id=room.pk, now=later(61)) == "timeout"  # Anna is away
    room.refresh_from_db()
    engine = DeliberationState.from_dict(room.engine_state)
    engine.memories[2].conviction = 0.99  # her AI juror is all but sure of guilt
    room.engine_state = engine.to_dict()
    room.save(update_fields=["engine_state"])
    services.room_pass(deliberation_id=room.pk, credential=BEN)
    for _ in range(3):
        clock.room_tick(deliberation_id=room.pk)  # the rounds her AI juror takes part in
        if current_seat(state(room)) == 3:
            services.room_pass(deliberation_id=room.pk, credential=BEN)

    room.refresh_from_db()
    assert room.round_number >= 2
    assert DeliberationState.from_dict(room.engine_state).votes[2] == "not_guilty"
    assert room.seats.get(number=2).vote == "not_guilty"
    assert not room.votes.filter(seat_number=2, value="guilty").exists()


def test_a_student_who_took_her_jurors_name_is_not_credited_with_what_it_said_in_her_empty_seat(room):
    """A student who typed no name sits under her AI juror's name; when her turn ran out the juror
    spoke for her empty seat: not her speech, no persuasion of hers in the debrief."""
    seat = room.seats.select_related("persona").get(number=2)
    seat.display_name = seat.persona.name  # what joining without a name gives her
    seat.save(update_fields=["display_name"])
    assert clock.room_tick(deliberation_id=room.pk, now=later(61)) == "timeout"  # she let her turn run out
    for _ in range(8):  # rounds until her seat's AI juror has spoken (bounded)
        if room.turns.filter(seat_number=2, kind=TurnKind.SPEECH).exists():
            break
        if current_seat(state(room)) == 3:
            services.room_pass(deliberation_id=room.pk, credential=BEN)
        clock.room_tick(deliberation_id=room.pk)
    said = room.turns.get(seat_number=2, kind=TurnKind.SPEECH)
    assert said.speaker_name == seat.display_name and said.stood_in
    Turn.objects.filter(pk=said.pk).update(
        reactions=[{**r, "persuaded": True} for r in said.reactions]  # it won a listener over
    )
    services.room_call_vote(deliberation_id=room.pk, session_key=HOST)

    debrief = build_debrief(build_transcript(deliberations_with_record().get(pk=room.pk)))
    assert next(p for p in debrief.seats if p.seat.number == 2).persuaded == 0
    assert not [e for e in debrief.edges if e.speaker == 2]  # no "persuaded 1x" beside her name
    assert all(not p["speeches"] for p in teacher_view(room)["people"] if p["seat"].number == 2)


def _ai_speech_in_annas_empty_seat(room):  # type: ignore[no-untyped-def]
    """Anna lets her turn run out; the rounds go on (Ben passing) until her seat's AI juror has spoken."""
    assert clock.room_tick(deliberation_id=room.pk, now=later(61)) == "timeout"  # Anna is away
    for _ in range(8):  # bounded
        if room.turns.filter(seat_number=2, kind=TurnKind.SPEECH).exists():
            break
        if current_seat(state(room)) == 3:
            services.room_pass(deliberation_id=room.pk, credential=BEN)
        clock.room_tick(deliberation_id=room.pk)
    return room.turns.get(seat_number=2, kind=TurnKind.SPEECH)


def test_what_the_ai_juror_says_from_an_empty_seat_is_never_credited_to_its_person(room):
    said = _ai_speech_in_annas_empty_seat(room)
    assert said.stood_in and said.speaker_name != "Anna"

    anna = next(p for p in teacher_view(room)["people"] if p["seat"].number == 2)
    assert anna["speeches"] == []
    debrief = build_debrief(build_transcript(Deliberation.objects.get(pk=room.pk)))
    assert all(not seat.contributions for seat in debrief.seats if seat.seat.number == 2)
    assert said.content not in contributions_csv(debrief)


def test_returning_with_the_seat_code_fills_an_empty_seat_again(room):
    clock.room_tick(deliberation_id=room.pk, now=later(61))
    code = room.seats.get(number=2).seat_code
    control.seat_rejoin(code=code, credential=PHONE)
    assert room.seats.get(number=2).away_since is None


def test_the_live_room_marks_what_the_ai_juror_says_in_an_away_students_empty_seat(room):
    from django.test import Client
    from django.urls import reverse

    from deliberation.court import live
    from deliberation.models import PERSON_FACE

    said = _ai_speech_in_annas_empty_seat(room)
    pushed = live.render_event(room.pk, "round", {"round": said.round_number})
    item = pushed[pushed.index(f'id="turn-{said.pk}"') :]
    item = item[: item.index("</li>")]
    assert "AI juror in the empty seat of Anna" in item and said.speaker_name in item
    assert PERSON_FACE not in item[: item.index("msg-speaker")]  # not shown as a person
    from angryagents.identity import SESSION_FIELD
    from tests.conftest import browser_of

    ben = Client()
    browser_of(ben, **{SESSION_FIELD: BEN.session_key})
    page = ben.get(reverse("room", args=[room.room_code])).content.decode()
    assert "AI juror in the empty seat of Anna" in page  # a reloaded page says the same
