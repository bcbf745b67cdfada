"""A teacher's class: several rooms of one case made in one go, a page that follows them all live,
a sheet of codes, "My rooms", and the groups' debriefs side by side."""

from __future__ import annotations

import asyncio
import csv
import io
import re

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils.dateparse import parse_datetime

from angryagents.identity import SESSION_FIELD
from deliberation.game_settings import ERROR_TURN_SECONDS, GameSettings
from deliberation.models import ClassSession, Deliberation, Narration, Phase, Turn, TurnKind
from deliberation.rooms import class_selectors, classes, clock, control, control_views, lesson, services
from deliberation.rooms.services import Credential
from deliberation.rooms.state import STAGE_TRIAL, room_of, turn_seconds
from deliberation.services import broadcast, round_run
from tests.conftest import browser_of

TEACHER = "the-teachers-browser"
ANNA = Credential(session_key="anna-session")
BEN = Credential(session_key="ben-session")
CLASS_PAGES = ("", "codes/", "debrief/", "debrief.csv")


@pytest.fixture(autouse=True)
def text_judge(settings):
    settings.ANGRY_NARRATION = "text"


def _class(robbery, groups: int = 3, seats: int = 2, **extra) -> ClassSession:  # type: ignore[no-untyped-def]
    return classes.class_create(case=robbery, groups=groups, seats=seats, teacher_session_key=TEACHER, **extra)


def _browser(key: str) -> Client:
    client = Client()
    browser_of(client, **{SESSION_FIELD: key})
    return client


def _rooms(session: ClassSession) -> list[Deliberation]:
    return list(session.rooms.order_by("pk"))


def test_a_class_makes_every_room_at_once_each_with_its_code_and_the_first_seats_open(robbery):
    session = _class(robbery, groups=3, seats=4, max_rounds=3, turn_seconds=20)
    rooms = _rooms(session)
    assert len(rooms) == 3 and len({r.room_code for r in rooms}) == 3
    for room in rooms:
        assert room.case == robbery and room.phase == Phase.PRESENTATION
        assert room.host_session_key == TEACHER and not room.host_plays
        assert sorted(room.seats.filter(is_open=True).values_list("number", flat=True)) == [2, 3, 4, 5]
        assert room.settings["max_rounds"] == 3 and room.settings["room"]["turn_seconds"] == 20


@pytest.mark.parametrize(("groups", "seats", "error"), [(0, 2, "groups"), (11, 2, "groups"), (2, 11, "seats")])
def test_a_class_of_too_few_or_too_many_groups_or_seats_is_refused_and_nothing_is_made(robbery, groups, seats, error):
    with pytest.raises(ValidationError) as refused:
        _class(robbery, groups=groups, seats=seats)
    expected = (
        classes.ERROR_GROUPS.format(groups=groups) if error == "groups" else classes.ERROR_SEATS.format(seats=seats)
    )
    assert refused.value.messages == [expected]
    assert not ClassSession.objects.exists() and not Deliberation.objects.exists()


def test_the_form_makes_the_class_and_opens_its_page_with_every_code(robbery):
    teacher = _browser(TEACHER)
    made = teacher.post("/classes/new/", {"case": robbery.pk, "groups": 2, "seats": 3})
    session = ClassSession.objects.get()
    assert made.url == f"/classes/{session.public_id}/"
    page = teacher.get(made.url).content.decode()
    for room in _rooms(session):
        assert room.room_code in page and f'id="class-room-{room.public_id}"' in page
    assert f'ws-connect="/ws/class/{session.public_id}/?seen=' in page
    assert "Waiting to start" in page and 'class="class-room-tally"' not in page  # no votes to count yet


def test_a_class_made_with_the_trial_holds_it_first_in_every_room_where_students_may_claim_counsel(robbery):
    teacher = _browser(TEACHER)
    form = teacher.get("/classes/new/").content.decode()
    assert 'name="trial"' in form and "Hold the trial first:" in form
    teacher.post("/classes/new/", {"case": robbery.pk, "groups": 2, "seats": 2, "trial": "on"})
    session = ClassSession.objects.get()
    assert session.settings["trial"] is True
    first = _rooms(session)[0]
    services.room_join(code=first.room_code, credential=ANNA, name="Anna Ortiz")
    teacher.post(f"/classes/{session.public_id}/start/", {"empty": "1"})
    for room in _rooms(session):
        assert room.settings["trial"] is True and room.phase == Phase.TRIAL
        assert room_of(room)["stage"] == STAGE_TRIAL and not room.trial_state["opened"]
    anna = _browser(ANNA.session_key).get(f"/rooms/{first.room_code}/").content.decode()
    assert "Be counsel for the defence" in anna and "Be counsel for the prosecution" in anna
    page = teacher.get(f"/classes/{session.public_id}/").content.decode()
    cards = page.split('class="class-room panel')[1:]
    assert "Students may claim counsel" in cards[0]  # Anna's group
    assert "Students may claim counsel" not in cards[1] and "AI counsel take both sides" in cards[1]  # nobody's


def test_a_class_made_without_the_trial_goes_straight_to_the_deliberation(robbery):
    session = _class(robbery, groups=1)
    classes.class_start(class_id=session.pk, empty_too=True)
    (room,) = _rooms(session)
    assert "trial" not in session.settings and not room.settings.get("trial") and room.phase == Phase.DELIBERATION


def test_the_form_refuses_eleven_groups_with_a_clear_message_and_keeps_what_was_typed(robbery):
    answer = _browser(TEACHER).post("/classes/new/", {"case": robbery.pk, "groups": 11, "seats": 3, "name": "Year 10"})
    body = answer.content.decode()
    assert answer.status_code == 200 and "Ensure this value is less than or equal to 10." in body
    assert 'value="Year 10"' in body and not ClassSession.objects.exists()


CLASS_SETTINGS = {
    "settings_sent": "1",
    "rules": "england-wales",
    "max_rounds": "4",
    "speakers": "2",
    "turn_seconds": "45",
    "engine": "offline",
    "narration": "",  # unticked: the judge stays silent
    "show_meters": "",  # unticked: the meters are hidden
}


def test_the_class_form_gives_every_room_the_rules_and_game_settings_chosen_and_the_engine_plays_by_them(robbery):
    teacher = _browser(TEACHER)
    made = teacher.post("/classes/new/", {"case": robbery.pk, "groups": 2, "seats": 1, **CLASS_SETTINGS})
    assert made.status_code == 302, made.content.decode()[:2000]
    session = ClassSession.objects.get()
    for room in _rooms(session):
        game = GameSettings.of(room)
        assert (game.max_rounds, game.speakers, game.engine) == (4, 2, "offline")
        assert (game.narration, game.show_meters) == (False, False)
        assert room.settings["rules"] == "england-wales" and turn_seconds(room_of(room)) == 45
    classes.class_start(class_id=session.pk, empty_too=True)
    for room in _rooms(session):
        clock.room_tick(deliberation_id=room.pk)  # the first AI round
        speeches = Turn.objects.filter(deliberation=room, kind=TurnKind.SPEECH, round_number=1)
        assert speeches.count() == 2  # two AI speakers a round, as chosen
    assert not Narration.objects.filter(deliberation__in=_rooms(session)).exists()  # the judge was silent


def test_the_class_form_refuses_a_turn_too_short_with_the_rooms_message_and_makes_nothing(robbery):
    answer = _browser(TEACHER).post(
        "/classes/new/", {"case": robbery.pk, "groups": 2, "seats": 1, **CLASS_SETTINGS, "turn_seconds": "3"}
    )
    assert answer.status_code == 200 and ERROR_TURN_SECONDS in answer.content.decode()
    assert not ClassSession.objects.exists() and not Deliberation.objects.exists()


def test_the_form_makes_every_room_of_the_class_under_the_chosen_rules_and_format_and_the_page_names_them(robbery):
    teacher = _browser(TEACHER)
    chosen = {"rules": "england-wales", "turn_mode": "reply-chain", "context_scope": "summary-only"}
    made = teacher.post("/classes/new/", {"case": robbery.pk, "groups": 2, "seats": 2, **CLASS_SETTINGS, **chosen})
    session = ClassSession.objects.get()
    assert {key: session.settings[key] for key in chosen} == chosen
    classes.class_start(class_id=session.pk, empty_too=True)
    for room in _rooms(session):
        assert {key: room.settings[key] for key in chosen} == chosen
        engine_settings = room.engine_state["settings"]
        assert (engine_settings["rules"], engine_settings["turn_mode"]) == ("england-wales", "reply-chain")
    page = teacher.get(made.url).content.decode()
    assert "Jury rules: <strong>England and Wales (majority direction)</strong>" in page


def test_a_class_made_without_choosing_rules_gets_the_unanimous_jury(robbery):
    made = _browser(TEACHER).post("/classes/new/", {"case": robbery.pk, "groups": 1, "seats": 2})
    room = _rooms(ClassSession.objects.get())[0]
    assert room.settings["rules"] == "unanimous" and room.settings["turn_mode"] == "weighted"
    assert "Jury rules: <strong>Unanimous</strong>" in _browser(TEACHER).get(made.url).content.decode()


def test_the_class_form_refuses_unknown_rules_with_a_message_and_makes_nothing(robbery):
    answer = _browser(TEACHER).post("/classes/new/", {"case": robbery.pk, "groups": 2, "seats": 2, "rules": "scottish"})
    assert answer.status_code == 200 and "Select a valid choice. scottish is not one of the available choices." in (
        answer.content.decode()
    )
    assert not ClassSession.objects.exists() and not Deliberation.objects.exists()


def test_the_class_page_shows_each_room_phase_tally_whose_turn_and_who_is_seated(robbery):
    session = _class(robbery, groups=2, seats=2, seed=5)
    first, second = _rooms(session)
    services.room_join(code=first.room_code, credential=ANNA, name="Anna Ortiz")
    services.room_join(code=first.room_code, credential=BEN, name="Ben Okafor")
    classes.class_start(class_id=session.pk)
    clock.room_tick(deliberation_id=first.pk)  # the first AI round, then Anna's turn
    cards = class_selectors.class_cards(session)
    assert [c.code for c in cards] == [first.room_code, second.room_code]
    assert [p.name for p in cards[0].seated] == ["Anna Ortiz", "Ben Okafor"] and cards[1].seated == ()
    assert cards[0].turn["who"] == "participant" and cards[0].turn["name"] == "Anna Ortiz"
    assert sum(cards[0].tally.values()) == 10  # the AI jurors; Anna and Ben have not voted yet
    page = _browser(TEACHER).get(f"/classes/{session.public_id}/").content.decode()
    assert "Anna Ortiz</strong> (seat 2) has the floor" in page
    assert "Nobody yet." in page  # the second group has no student yet


def test_a_cards_countdown_carries_the_turns_deadline_to_tick_from_and_stands_while_paused(robbery):
    session = _class(robbery, groups=1, seats=1, seed=5)
    (room,) = _rooms(session)
    services.room_join(code=room.room_code, credential=ANNA, name="Anna Ortiz")
    classes.class_start(class_id=session.pk)
    clock.room_tick(deliberation_id=room.pk)  # the first AI round, then Anna's turn
    teacher = _browser(TEACHER)
    page = teacher.get(f"/classes/{session.public_id}/").content.decode()
    room.refresh_from_db()
    deadline = int(parse_datetime(room_of(room)["deadline"]).timestamp() * 1000)
    assert f'data-deadline="{deadline}" data-now="' in page and "js/countdown.js" in page
    control.room_pause(deliberation_id=room.pk, session_key=TEACHER)
    paused = teacher.get(f"/classes/{session.public_id}/").content.decode()
    card = paused[paused.index('class="class-room-turn"') :]
    assert "Paused" in card and 'class="countdown is-paused" data-seconds="' in card and "data-deadline" not in card


def test_a_class_rooms_teachers_view_leads_back_to_the_class_and_a_lone_rooms_does_not(robbery):
    session = _class(robbery, groups=2)
    teacher = _browser(TEACHER)
    class_url = f"/classes/{session.public_id}/"
    for room in _rooms(session):
        view = teacher.get(f"/rooms/{room.room_code}/teacher/").content.decode()
        assert f'<a href="{class_url}">Back to the class</a>' in view
    lone = services.room_create(case=robbery, host_session_key=TEACHER, host_plays=False, open_seats=(2,))
    view = teacher.get(f"/rooms/{lone.room_code}/teacher/").content.decode()
    assert "Back to the class" not in view and "Back to the room" in view


def test_starting_the_class_starts_the_groups_with_students_and_leaves_the_empty_ones_waiting(robbery):
    session = _class(robbery, groups=3)
    first, second, third = _rooms(session)
    services.room_join(code=first.room_code, credential=ANNA, name="Anna")
    services.room_join(code=third.room_code, credential=BEN, name="Ben")
    teacher = _browser(TEACHER)
    before = teacher.get(f"/classes/{session.public_id}/").content.decode()
    assert "Start every group with students" in before and "nobody has joined yet" in before
    started = teacher.post(f"/classes/{session.public_id}/start/", follow=True).content.decode()
    assert "2 rooms started" in started and "1 group nobody has joined is waiting" in started
    assert [r.phase for r in _rooms(session)] == [Phase.DELIBERATION, Phase.PRESENTATION, Phase.DELIBERATION]
    # A late student can still take a seat in the group left waiting.
    services.room_join(code=second.room_code, credential=Credential(session_key="carl"), name="Carl")
    assert classes.class_start(class_id=session.pk) == 1
    with pytest.raises(ValidationError) as refused:
        classes.class_start(class_id=session.pk)
    assert refused.value.messages == [classes.ERROR_NOTHING_TO_START]
    again = teacher.post(f"/classes/{session.public_id}/start/", follow=True).content.decode()
    assert classes.ERROR_NOTHING_TO_START in again


def test_a_class_nobody_joined_starts_no_group_unless_the_teacher_asks_for_ai_only_juries(robbery):
    session = _class(robbery, groups=2)
    with pytest.raises(ValidationError) as refused:
        classes.class_start(class_id=session.pk)
    assert refused.value.messages == [classes.ERROR_NOBODY_SEATED]
    assert {r.phase for r in _rooms(session)} == {Phase.PRESENTATION}
    teacher = _browser(TEACHER)
    page = teacher.get(f"/classes/{session.public_id}/").content.decode()
    assert "Also start the empty groups, as AI-only juries" in page
    refused = teacher.post(f"/classes/{session.public_id}/start/", follow=True).content.decode()
    assert classes.ERROR_NOBODY_SEATED in refused and {r.phase for r in _rooms(session)} == {Phase.PRESENTATION}
    teacher.post(f"/classes/{session.public_id}/start/", {"empty": "1"})
    rooms = _rooms(session)
    assert {r.phase for r in rooms} == {Phase.DELIBERATION} and all(classes.is_ai_only(r) for r in rooms)
    assert "AI-only jury" in teacher.get(f"/classes/{session.public_id}/").content.decode()


def test_only_the_teacher_the_account_they_used_and_staff_see_the_class_and_a_stranger_gets_a_plain_404(
    robbery, admin_client
):
    teacher_account = get_user_model().objects.create_user("teacher", password="pw-of-the-teacher")
    session = _class(robbery, owner_id=teacher_account.pk)
    teacher, student, stranger = _browser(TEACHER), _browser(ANNA.session_key), Client()
    services.room_join(code=_rooms(session)[0].room_code, credential=ANNA, name="Anna")
    elsewhere = Client()  # the teacher's account, logged in on another device
    elsewhere.force_login(teacher_account)
    for suffix in CLASS_PAGES:
        url = f"/classes/{session.public_id}/{suffix}"
        for allowed in (teacher, elsewhere, admin_client):
            assert allowed.get(url).status_code == 200, url
        for outsider in (student, stranger):
            seen, unknown = outsider.get(url), outsider.get(f"/classes/NoSuchClass0000/{suffix}")
            assert (seen.status_code, seen.content) == (404, unknown.content), url
    assert stranger.post(f"/classes/{session.public_id}/start/").status_code == 404
    assert {r.phase for r in _rooms(session)} == {Phase.PRESENTATION}  # nobody's post started anything


def _fill_turns(room: Deliberation, count: int) -> None:
    Turn.objects.bulk_create(
        Turn(deliberation=room, round_number=1, sequence=1000 + n, kind=TurnKind.PASS, speaker_name="x", content=".")
        for n in range(count)
    )


def test_the_class_page_costs_the_same_queries_with_few_or_many_rooms_and_turns(robbery, django_assert_num_queries):
    small, large = _class(robbery, groups=2), _class(robbery, groups=6, seats=4)
    for room in _rooms(large):
        services.room_join(code=room.room_code, credential=Credential(session_key=f"s-{room.pk}"), name="S")
        _fill_turns(room, 50)
    teacher = _browser(TEACHER)
    teacher.get(f"/classes/{small.public_id}/")  # the session is warm for both
    with CaptureQueriesContext(connection) as counted:
        teacher.get(f"/classes/{small.public_id}/")
    with django_assert_num_queries(len(counted)):
        teacher.get(f"/classes/{large.public_id}/")
    with django_assert_num_queries(2):  # the rooms, their seats
        class_selectors.class_cards(large)


def test_a_rooms_event_reaches_its_class_page_group_with_the_rooms_fresh_card(robbery, readable_layer):
    session = _class(robbery, groups=2)
    room = _rooms(session)[1]
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(broadcast.class_group_name(session.pk), channel)
    services.room_join(code=room.room_code, credential=ANNA, name="Anna Ortiz")
    broadcast.publish(room.pk, "seats", {"seat": 2})  # what the join announces once it commits

    async def receive() -> dict:
        return await asyncio.wait_for(layer.receive(channel), timeout=5)

    received = async_to_sync(receive)()
    assert received["type"] == broadcast.EVENT_TYPE and received["event"] == "seats"
    card = received["html"]
    assert f'id="class-room-{room.public_id}"' in card and 'hx-swap-oob="true"' in card
    assert "Group 2" in card and "Anna Ortiz" in card


def test_a_single_players_event_goes_to_no_class(robbery):
    from deliberation.rooms import class_live

    game = services.room_create(case=robbery, host_session_key=TEACHER, host_plays=False, open_seats=(2,))
    assert class_live.render_card(game.pk) is None


def _finish(room: Deliberation, student: Credential, words: str) -> None:
    """A student speaks on their turn, the jury hears it, the teacher calls the final vote."""
    clock.room_tick(deliberation_id=room.pk)
    services.room_speak(deliberation_id=room.pk, credential=student, content=words, argument_type="logical")
    round_run(deliberation_id=room.pk)
    services.room_call_vote(deliberation_id=room.pk, session_key=TEACHER)


def test_the_class_debrief_puts_the_groups_side_by_side_and_the_sheet_has_every_students_words(robbery):
    session = _class(robbery, groups=3, seats=1, seed=3)
    rooms = _rooms(session)
    said = {0: "Anna says the lamp was out that night.", 1: "Ben says the bills were marked."}
    for index, student in ((0, ANNA), (1, BEN)):
        services.room_join(code=rooms[index].room_code, credential=student, name=["Anna", "Ben"][index])
    services.room_join(code=rooms[2].room_code, credential=Credential(session_key="carl"), name="Carl")
    classes.class_start(class_id=session.pk)
    services.room_vote(deliberation_id=rooms[0].pk, credential=ANNA, value="not_guilty")
    _finish(rooms[0], ANNA, said[0])
    _finish(rooms[1], BEN, said[1])
    teacher = _browser(TEACHER)
    page = teacher.get(f"/classes/{session.public_id}/debrief/").content.decode()
    verdicts = sum(1 for room in rooms[:2] if Deliberation.objects.get(pk=room.pk).verdict != "hung")
    assert f"2 of 3 juries finished: {verdicts or 'none'} reached a verdict" in page
    for heading in ("Group 1", "Group 2", "Group 3"):
        assert heading in page
    assert "still deliberating" in page  # the third group has no verdict yet
    assert "How to read the figures" in page  # "moved" and "net" are explained once, above the groups
    for room in rooms[:2]:
        room.refresh_from_db()
        assert f'<p class="class-verdict-words">{room.verdict_words}</p>' in page and "(rules: Unanimous)" in page
    assert '<strong>Anna</strong> <span class="muted">seat 2</span>: 1 speech' in page
    assert page.count("The arguments that moved this jury most") + page.count("No speech moved anyone") == 2
    sheet = list(csv.reader(io.StringIO(teacher.get(f"/classes/{session.public_id}/debrief.csv").content.decode())))
    assert sheet[0][:4] == ["group", "room", "deliberation", "seat"]
    students = [(row[0], row[1], row[4], row[9]) for row in sheet[1:]]
    assert students == [("1", rooms[0].room_code, "Anna", said[0]), ("2", rooms[1].room_code, "Ben", said[1])]


def test_a_finished_rooms_banner_reads_its_verdict_and_how_it_was_reached_as_one_sentence(robbery):
    session = _class(robbery, groups=1, seats=1, seed=3)
    (room,) = _rooms(session)
    services.room_join(code=room.room_code, credential=ANNA, name="Anna")
    classes.class_start(class_id=session.pk)
    _finish(room, ANNA, "Anna says the lamp was out that night.")
    room.refresh_from_db()
    view = _browser(TEACHER).get(f"/rooms/{room.room_code}/teacher/").content.decode()
    joiner = ":" if room.verdict == "hung" else ","
    verdict = room.get_verdict_display().upper()
    assert f'Verdict: <strong>{verdict}</strong>{joiner} <span class="verdict-rule">{room.verdict_detail}' in view


def test_my_rooms_lists_the_teachers_classes_and_lone_rooms_open_and_finished_and_nobody_elses(robbery):
    session = _class(robbery, groups=2, name="Year 10 history")
    lone = services.room_create(case=robbery, host_session_key=TEACHER, host_plays=False, open_seats=(2,))
    done = services.room_create(case=robbery, host_session_key=TEACHER, host_plays=False, open_seats=(2,))
    services.room_start(deliberation_id=done.pk, session_key=TEACHER)
    services.room_call_vote(deliberation_id=done.pk, session_key=TEACHER)
    other = services.room_create(case=robbery, host_session_key="another-teacher", host_plays=False, open_seats=(2,))
    listed = class_selectors.my_rooms(browser_viewer(TEACHER))
    assert [r.session for r in listed["open_classes"]] == [session] and listed["finished_classes"] == []
    assert listed["open_rooms"] == [lone] and listed["finished_rooms"] == [done]  # a class's rooms stay in the class
    page = _browser(TEACHER).get("/my-rooms/").content.decode()
    assert "Year 10 history" in page and lone.room_code in page and done.room_code in page
    assert other.room_code not in page
    assert "Year 10 history" not in Client().get("/my-rooms/").content.decode()


def browser_viewer(key: str):  # type: ignore[no-untyped-def]
    from deliberation.access import Viewer

    return Viewer(session_key=key)


def test_a_group_nobody_joined_is_not_one_of_the_class_juries_in_the_debrief_whether_waiting_or_ai_only(robbery):
    session = _class(robbery, groups=3, seats=1, seed=3)
    first, second, third = _rooms(session)
    services.room_join(code=first.room_code, credential=ANNA, name="Anna")
    classes.class_start(class_id=session.pk)
    _finish(first, ANNA, "Anna says the lamp was out that night.")
    classes.class_start(class_id=session.pk, empty_too=True)  # the other two, as AI-only juries
    services.room_call_vote(deliberation_id=second.pk, session_key=TEACHER)
    teacher = _browser(TEACHER)
    page = teacher.get(f"/classes/{session.public_id}/debrief/").content.decode()
    assert "1 of 1 jury finished" in page
    empty = page[page.index('id="empty-groups"') :]
    assert "Groups nobody joined" in empty and "Not counted among the class" in empty
    assert f'Group 2 <span class="room-code">{second.room_code}</span>: played as an AI-only jury' in empty
    assert f'Group 3 <span class="room-code">{third.room_code}</span>: played as an AI-only jury' in empty
    assert page.index('id="group-1"') < page.index('id="empty-groups"') and 'id="group-2"' not in page


def test_a_late_student_is_offered_no_seat_in_a_finished_group_and_is_told_where_to_go(robbery):
    session = _class(robbery, groups=2, seats=2, seed=3)
    first, second = _rooms(session)
    services.room_join(code=first.room_code, credential=ANNA, name="Anna")
    classes.class_start(class_id=session.pk)
    services.room_call_vote(deliberation_id=first.pk, session_key=TEACHER)
    late = _browser("late-student")
    found = late.post("/join/", {"code": first.room_code}, follow=True).content.decode()
    assert "This group has finished" in found and "Take the seat" not in found and "Seat 3" not in found
    assert "Ask your teacher for the code of a group that is still playing" in found
    posted = late.post(f"/join/{first.room_code}/", {"seat": 3, "name": "Late"}, follow=True).content.decode()
    assert "This group has finished" in posted
    assert not first.seats.filter(session_key="late-student").exists()
    still = late.get(f"/join/{second.room_code}/").content.decode()
    assert "Take the seat" in still and "This group has finished" not in still


def test_the_class_page_shows_where_each_groups_trial_stands(robbery):
    from datetime import timedelta

    from django.utils import timezone

    from deliberation.engine.trial import steps as trial_steps
    from deliberation.services import counsel, counsel_claims

    session = _class(robbery, groups=1, seats=2, seed=4, trial=True)
    (room,) = _rooms(session)
    services.room_join(code=room.room_code, credential=ANNA, name="Anna")
    classes.class_start(class_id=session.pk)
    teacher = _browser(TEACHER)

    def card() -> str:
        page = teacher.get(f"/classes/{session.public_id}/").content.decode()
        return page[page.index('class="class-room-phase"') :]

    assert "Counsel are being chosen" in card()
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=2, side="defense")
    clock.room_tick(deliberation_id=room.pk, now=timezone.now() + timedelta(seconds=counsel_claims.CLAIM_SECONDS + 1))
    assert "Opening speeches" in card()  # the defence's opening waits for Anna
    for _ in range(20):
        room.refresh_from_db()
        waiting = trial_steps.awaiting(counsel.load(room))
        if waiting is not None and waiting.what == trial_steps.EXAMINE:
            break
        action = {trial_steps.REVIEW: "no_objection", trial_steps.SPEECH: "ai_speak"}[waiting.what]
        counsel_claims.seat_move(deliberation_id=room.pk, seat_number=2, action=action)
    assert "witness" in card() and "cross-examination" in card()  # Anna cross-examines the prosecution's witness


def _links(html: str) -> list[str]:
    return [href for href in re.findall(r'href="(/[^"]*)"', html) if not href.startswith("/static/")]


def test_staff_can_follow_every_link_the_class_page_shows_them_and_see_no_host_control_they_may_not_use(
    robbery, admin_client
):
    session = _class(robbery, groups=2)
    room = _rooms(session)[0]
    services.room_join(code=room.room_code, credential=ANNA, name="Anna")
    page = admin_client.get(f"/classes/{session.public_id}/").content.decode()
    links = _links(page)
    assert f"/rooms/{room.room_code}/teacher/" in links
    for href in links:
        assert admin_client.get(href).status_code == 200, href
    teacher_view = admin_client.get(f"/rooms/{room.room_code}/teacher/").content.decode()
    for href in _links(teacher_view):
        assert admin_client.get(href).status_code == 200, href
    assert 'method="post"' not in teacher_view  # staff watch; only the room's host steers it
    # The room's host still steers it from there; a student of the room and a stranger still may not see it.
    assert 'method="post"' in _browser(TEACHER).get(f"/rooms/{room.room_code}/teacher/").content.decode()
    assert _browser(ANNA.session_key).get(f"/rooms/{room.room_code}/teacher/").status_code == 403
    assert Client().get(f"/rooms/{room.room_code}/teacher/").status_code == 404


def test_the_teacher_chooses_group_by_group_which_groups_hold_the_trial_and_each_plan_fits_its_choice(robbery):
    session = _class(robbery, groups=3, seats=2, seed=5, trial=True, lesson_minutes=45)
    first, second, third = _rooms(session)
    for room, key in ((first, ANNA), (second, BEN)):
        services.room_join(code=room.room_code, credential=key, name="Sam")
    teacher = _browser(TEACHER)
    page = teacher.get(f"/classes/{session.public_id}/").content.decode()
    form = page[page.index('id="class-start"') : page.index("</form>", page.index('id="class-start"'))]
    for group in (1, 2, 3):  # every group ticked as the class was made
        assert f'name="trial" value="{group}" checked' in form
    teacher.post(f"/classes/{session.public_id}/start/", {"trial_choice": "1", "trial": ["1", "3"]})
    first, second, third = (Deliberation.objects.get(pk=r.pk) for r in (first, second, third))
    assert first.phase == Phase.TRIAL and second.phase != Phase.TRIAL  # the second deliberates at once
    assert "trial" not in second.settings and "trial_witnesses" not in second.settings
    alone = lesson.plan_for(45, trial=False, students=2)
    assert second.settings["max_rounds"] == alone.max_rounds and second.settings["lesson"]["trial"] is False
    assert third.settings["trial"] is True and third.phase == Phase.PRESENTATION  # still waits, still ticked
    page = teacher.get(f"/classes/{session.public_id}/").content.decode()
    assert 'name="trial" value="3" checked' in page and 'name="trial" value="1"' not in page
    # The page promises the second group the plan its room keeps, not only the class's.
    assert f"Group 2 without the trial: <strong>{alone.words()}</strong>" in page
    assert f"at most {alone.max_rounds} rounds" in page
    assert "Group 1 with the trial" not in page and "Group 3 with the trial" not in page  # as the class planned


def test_the_class_page_steers_each_running_group_and_answers_with_the_groups_card(robbery, admin_client):
    session = _class(robbery, groups=2, seats=2, seed=6)
    room = _rooms(session)[0]
    services.room_join(code=room.room_code, credential=ANNA, name="Anna")
    classes.class_start(class_id=session.pk)
    teacher = _browser(TEACHER)
    page = teacher.get(f"/classes/{session.public_id}/").content.decode()
    assert 'class="class-live steers"' in page and f'action="/rooms/{room.room_code}/pause/"' in page
    card = teacher.post(f"/rooms/{room.room_code}/pause/", {"back": "class"}, HTTP_HX_REQUEST="true").content.decode()
    assert card.strip().startswith(f'<article id="class-room-{room.public_id}"') and "Paused" in card
    assert control_views.MESSAGE_PAUSED in card and f'action="/rooms/{room.room_code}/resume/"' in card
    plain = teacher.post(f"/rooms/{room.room_code}/resume/", {"back": "class"})
    assert plain.status_code == 302 and plain["Location"] == f"/classes/{session.public_id}/"
    staff_page = admin_client.get(f"/classes/{session.public_id}/").content.decode()
    assert 'class="class-live steers"' not in staff_page  # staff watch; the forms stay hidden


def test_the_class_debrief_counts_a_hung_jury_as_finished_without_a_verdict(robbery):
    session = _class(robbery, groups=2, seats=1, seed=3)
    rooms = _rooms(session)
    for room, student, name in ((rooms[0], ANNA, "Anna"), (rooms[1], BEN, "Ben")):
        services.room_join(code=room.room_code, credential=student, name=name)
    classes.class_start(class_id=session.pk)
    for room in rooms:
        services.room_call_vote(deliberation_id=room.pk, session_key=TEACHER)
    Deliberation.objects.filter(pk__in=[r.pk for r in rooms]).update(verdict="hung")

    page = _browser(TEACHER).get(f"/classes/{session.public_id}/debrief/").content.decode()

    assert "2 of 2 juries finished: none reached a verdict, 2 were hung juries." in page
    assert "reached a verdict." not in page.replace("none reached a verdict", "")


def test_a_tick_under_hold_the_trial_first_is_kept_at_once_so_a_reload_shows_the_teachers_choice(robbery, client):
    session = _class(robbery, groups=3, seats=2, seed=5, trial=True, lesson_minutes=45)
    teacher = _browser(TEACHER)
    page = teacher.get(f"/classes/{session.public_id}/").content.decode()
    assert f'hx-post="/classes/{session.public_id}/trial-choice/"' in page  # each change is posted
    answer = teacher.post(f"/classes/{session.public_id}/trial-choice/", {"trial": ["1"]})
    assert answer.status_code == 204
    page = teacher.get(f"/classes/{session.public_id}/").content.decode()  # the reload
    assert 'name="trial" value="1" checked' in page
    assert 'name="trial" value="2" checked' not in page and 'name="trial" value="3" checked' not in page
    first, second, _third = _rooms(session)
    assert first.settings["trial"] is True and "trial" not in second.settings
    assert second.settings["lesson"]["trial"] is False  # its plan fitted to deliberating at once
    stranger = client.post(f"/classes/{session.public_id}/trial-choice/", {"trial": ["1", "2", "3"]})
    assert stranger.status_code == 404 and "trial" not in Deliberation.objects.get(pk=second.pk).settings


def _round_two_under_way(session: ClassSession) -> Deliberation:
    """The class's one group started as an AI-only jury, round 1 heard, round 2 being spoken."""
    from deliberation.models import RoundStatus

    (room,) = _rooms(session)
    classes.class_start(class_id=session.pk, empty_too=True)  # nobody joined: an AI-only jury
    round_run(deliberation_id=room.pk)
    Deliberation.objects.filter(pk=room.pk).update(round_status=RoundStatus.RUNNING)  # round 2 under way
    room.refresh_from_db()
    assert room.phase == Phase.DELIBERATION and room.round_number == 1
    return room


def _card_and_page(session: ClassSession, room: Deliberation) -> tuple[str, str]:
    teacher = _browser(TEACHER)
    page = teacher.get(f"/classes/{session.public_id}/").content.decode()
    card = page[page.index('class="class-room-phase"') : page.index('class="class-room-seated"')]
    return card, teacher.get(f"/rooms/{room.room_code}/").content.decode()


def test_an_ai_only_rooms_card_gives_the_round_under_way_and_the_limit_it_plays_under_as_its_page_does(robbery):
    """The Old Bailey's court discharges a jury that cannot agree after ten rounds, whatever the game's
    limit (20 here): the room's page says "of 10", and so does its card. While the AI jurors speak
    round 2 the card says round 2 throughout, as the room's page does ("Round 2 of 10", "Round 2: the
    jurors are thinking"), not "round 1 of 20" beside "(round 2)"."""
    session = _class(robbery, groups=1, seats=4, seed=3, max_rounds=20, rules="historical-old-bailey")
    room = _round_two_under_way(session)
    card, own = _card_and_page(session, room)
    assert "AI-only jury" in card
    assert '<strong class="class-room-trial">Deliberation, round 2</strong> of 10' in card
    assert "The AI jurors are speaking (round 2)." in card
    assert "Round 2 of 10</p>" in own and "Round 2: the jurors are thinking" in own


def test_a_lesson_rooms_card_gives_the_lessons_time_for_a_plans_limit_and_says_the_rules_lower_one_as_its_page_does(
    robbery,
):
    """A 45-minute lesson for groups of four plans a limit of 95 rounds, set so that even a brisk room
    reaches the judge's direction before it: the lesson's bell ends the game. The room's page gives
    the time left in the lesson, not "of 95", and so does its card. Under the Old Bailey's rules the
    same lesson's jury is discharged after ten rounds, before the bell: while round 2 is spoken the
    page says "Round 2 of 10 · 44:10 left in the lesson", and the card "round 2 of 10"."""
    session = _class(robbery, groups=1, seats=4, seed=3, lesson_minutes=45)
    (planned,) = _rooms(session)
    assert planned.settings["max_rounds"] == lesson.plan_for(45, trial=False, students=4).max_rounds == 95
    room = _round_two_under_way(session)
    card, own = _card_and_page(session, room)
    assert '<strong class="class-room-trial">Deliberation, round 2</strong></p>' in card and "of 95" not in card
    assert "Time left in the lesson" in card and "The AI jurors are speaking (round 2)." in card
    assert "of 95" not in own and "left in the lesson" in own and "Round 2: the jurors are thinking" in own

    session = _class(robbery, groups=1, seats=4, seed=3, lesson_minutes=45, rules="historical-old-bailey")
    room = _round_two_under_way(session)
    card, own = _card_and_page(session, room)
    assert '<strong class="class-room-trial">Deliberation, round 2</strong> of 10' in card and "of 95" not in card
    assert "Round 2 of 10 · " in own and "left in the lesson" in own and "of 95" not in own


def _round_everywhere(session: ClassSession, room: Deliberation) -> list[tuple[str, str]]:
    """The round and its limit as the class card, the teacher's view and the room's own page give
    them: ("2", "10"), or ("2", "") where a page leaves a lesson plan's cap unsaid."""
    teacher = _browser(TEACHER)
    page = teacher.get(f"/classes/{session.public_id}/").content.decode()
    card = page[page.index('class="class-room-phase"') : page.index('class="class-room-seated"')]
    said = [re.search(r'class="class-room-trial">Deliberation, round (\d+)</strong>(?: of (\d+))?', card)]
    for url in (f"/rooms/{room.room_code}/teacher/", f"/rooms/{room.room_code}/"):
        html = teacher.get(url).content.decode()
        banner = html[html.index('id="phase-banner"') :]
        said.append(re.search(r'<p class="round">Round (\d+)(?: of (\d+))?', banner[: banner.index("</div>")]))
    assert all(said), said
    return [(m.group(1), m.group(2) or "") for m in said]


def test_a_lesson_rooms_round_and_limit_are_the_same_on_the_class_card_the_teachers_view_and_the_court(robbery):
    """A 45-minute lesson under the Old Bailey's rules (ten rounds, then the jury is discharged), a
    student seated: the class card, the teacher's view of the room and the room's court page give the
    same round and the same limit before the first round, while a round is spoken and after it is
    heard; never "round 2 of 10" on the card beside "Round 1" on the teacher's view."""
    from deliberation.models import RoundStatus

    session = _class(robbery, groups=1, seats=2, seed=3, lesson_minutes=45, rules="historical-old-bailey")
    (room,) = _rooms(session)
    services.room_join(code=room.room_code, credential=ANNA, name="Anna")
    classes.class_start(class_id=session.pk)
    assert _round_everywhere(session, room) == [("1", "10")] * 3
    Deliberation.objects.filter(pk=room.pk).update(round_status=RoundStatus.RUNNING)
    assert _round_everywhere(session, room) == [("1", "10")] * 3  # round 1 being spoken
    Deliberation.objects.filter(pk=room.pk).update(round_status=RoundStatus.IDLE)
    round_run(deliberation_id=room.pk)
    assert _round_everywhere(session, room) == [("1", "10")] * 3  # round 1 heard
    Deliberation.objects.filter(pk=room.pk).update(round_status=RoundStatus.RUNNING)
    assert _round_everywhere(session, room) == [("2", "10")] * 3  # round 2 being spoken

    plain = _class(robbery, groups=1, seats=2, seed=3, lesson_minutes=45)  # the lesson plan's cap stays unsaid
    (other,) = _rooms(plain)
    services.room_join(code=other.room_code, credential=BEN, name="Ben")
    classes.class_start(class_id=plain.pk)
    assert _round_everywhere(plain, other) == [("1", "")] * 3


def test_an_ai_only_group_a_late_student_joins_is_no_longer_called_ai_only(robbery):
    session = _class(robbery, groups=2, seats=2, seed=3, pace_seconds=30)
    first, second = _rooms(session)
    services.room_join(code=first.room_code, credential=ANNA, name="Anna")
    classes.class_start(class_id=session.pk, empty_too=True)  # the second group as an AI-only jury
    teacher = _browser(TEACHER)

    def card() -> str:
        page = teacher.get(f"/classes/{session.public_id}/").content.decode()
        return page[page.index(f'id="class-room-{second.public_id}"') :]

    assert "AI-only jury" in card()
    services.room_join(code=second.room_code, credential=BEN, name="Ben")  # late, into the running jury
    assert "AI-only jury" not in card() and "Ben" in card()


def test_the_class_pages_lesson_line_gives_the_round_limit_the_jury_rules_leave(robbery):
    """The class page says the plan before the start; under the Old Bailey's rules (ten rounds, then
    the jury is discharged) it says "at most 10 rounds", as the cards and the rooms' pages do, not the
    plan's own cap beside them; under unanimity the plan's cap stands."""
    bailey = _class(robbery, groups=1, seats=2, seed=3, lesson_minutes=45, rules="historical-old-bailey")
    page = _browser(TEACHER).get(f"/classes/{bailey.public_id}/").content.decode()
    line = page[page.index('id="class-lesson"') : page.index("</p>", page.index('id="class-lesson"'))]
    planned = lesson.LessonPlan(**bailey.settings["lesson"]).max_rounds
    assert planned > 10 and "at most 10 rounds" in line and f"at most {planned} rounds" not in line

    unanimous = _class(robbery, groups=1, seats=2, seed=3, lesson_minutes=45)
    page = _browser(TEACHER).get(f"/classes/{unanimous.public_id}/").content.decode()
    line = page[page.index('id="class-lesson"') : page.index("</p>", page.index('id="class-lesson"'))]
    assert f"at most {lesson.LessonPlan(**unanimous.settings['lesson']).max_rounds} rounds" in line


def test_a_cards_short_buttons_are_explained_in_words_a_phone_shows(robbery):
    session = _class(robbery, groups=1, seats=2, seed=6)
    (room,) = _rooms(session)
    services.room_join(code=room.room_code, credential=ANNA, name="Anna")
    classes.class_start(class_id=session.pk)
    clock.room_tick(deliberation_id=room.pk)  # the AI jurors' round 1: then Anna has the floor
    page = _browser(TEACHER).get(f"/classes/{session.public_id}/").content.decode()
    assert ">+30 s</button>" in page and ">Skip</button>" in page
    hint = page[page.index('class="muted host-hint class-room-hint"') :].split("</p>")[0]
    assert "<strong>+30 s</strong> — more time for the move under way." in hint
    assert "<strong>Skip</strong> — Pass the turn of whoever has the floor." in hint
