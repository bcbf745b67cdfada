"""A lesson's length: a class given the time it has gets a game chosen to fit it, shown before the
start; the class page counts each group's time down; the judge closes the trial when its share is
spent and directs every jury to its verdict before the bell."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from angryagents.identity import SESSION_FIELD
from deliberation.models import ClassSession, Phase, Turn, TurnKind
from deliberation.rooms import class_selectors, classes, clock, lesson, services
from deliberation.rooms.services import Credential
from deliberation.rooms.state import STAGE_DONE, room_of, turn_seconds, when
from deliberation.services import counsel, counsel_claims, counsel_stand_in
from tests.conftest import browser_of

TEACHER = "the-teachers-browser"
ANNA = Credential(session_key="anna-session")
BEN = Credential(session_key="ben-session")


@pytest.fixture(autouse=True)
def text_judge(settings):
    settings.ANGRY_NARRATION = "text"


def _teacher() -> Client:
    client = Client()
    browser_of(client, **{SESSION_FIELD: TEACHER})
    return client


@pytest.mark.parametrize("students", [2, 4, 6])
@pytest.mark.parametrize("trial", [False, True])
def test_a_longer_lesson_gets_no_shorter_a_trial_and_no_fewer_rounds(students, trial):
    plans = [lesson.plan_for(minutes, trial=trial, students=students) for minutes in lesson.LESSON_CHOICES]
    for shorter, longer in itertools.pairwise(plans):
        assert lesson.trial_estimate(longer.witnesses, longer.questions) >= lesson.trial_estimate(
            shorter.witnesses, shorter.questions
        )
        assert longer.max_rounds >= shorter.max_rounds
    for plan in plans:
        assert (plan.witnesses > 0) == trial and plan.margin < plan.seconds
        # the round limit does not end a lesson before its time: even a brisk room (every student
        # quick) reaches the judge's direction before its last round
        trial_spent = lesson.trial_estimate(plan.witnesses, plan.questions) if trial else 0
        brisk = lesson.round_estimate(students, turn=lesson.BRISK_TURN_SECONDS, ai=lesson.BRISK_AI_ROUND_SECONDS)
        assert (
            trial_spent + plan.max_rounds * brisk >= plan.seconds - plan.margin or plan.max_rounds == lesson.MAX_ROUNDS
        )
        # and a student has time to read and type: a turn longer than a typical one
        assert plan.turn_seconds > lesson.TURN_SECONDS_TYPICAL


def test_a_lesson_too_short_or_too_long_is_refused_with_its_message(robbery):
    with pytest.raises(ValidationError) as refused:
        classes.class_create(case=robbery, groups=1, seats=2, teacher_session_key=TEACHER, lesson_minutes=5)
    assert refused.value.messages == [lesson.ERROR_MINUTES.format(minutes="5")]
    answer = _teacher().post("/classes/new/", {"case": robbery.pk, "groups": 1, "seats": 2, "lesson_minutes": 500})
    assert answer.status_code == 200 and not ClassSession.objects.exists()


def test_the_lesson_length_chooses_the_trial_turns_and_rounds_and_the_class_page_shows_them_before_the_start(robbery):
    teacher = _teacher()
    made = teacher.post(
        "/classes/new/", {"case": robbery.pk, "groups": 2, "seats": 3, "trial": "on", "lesson_minutes": 45}
    )
    session = ClassSession.objects.get()
    plan = lesson.plan_for(45, trial=True, students=3)
    for room in session.rooms.all():
        assert room.settings["trial_witnesses"] == plan.witnesses and room.settings["trial_questions"] == plan.questions
        assert turn_seconds(room_of(room)) == plan.turn_seconds and room.settings["max_rounds"] == plan.max_rounds
    page = teacher.get(made.url).content.decode()
    assert f"Lesson: <strong>{plan.words()}</strong>" in page
    assert "witness" in plan.words() and f"{plan.turn_seconds} s turns" in plan.words()
    # a case with fewer witnesses for a side calls the ones it has: the plan promises no more
    assert f"the trial calls up to {plan.witnesses} witness" in plan.words()


def test_the_trial_of_a_short_lesson_calls_fewer_witnesses_with_fewer_questions(robbery):
    short = classes.class_create(
        case=robbery, groups=1, seats=2, teacher_session_key=TEACHER, trial=True, lesson_minutes=30, seed=4
    )
    plain = classes.class_create(case=robbery, groups=1, seats=2, teacher_session_key=TEACHER, trial=True, seed=4)
    for session in (short, plain):
        (room,) = session.rooms.all()
        services.room_join(code=room.room_code, credential=Credential(session_key=f"s{session.pk}"), name="S")
        classes.class_start(class_id=session.pk)
    short_room, plain_room = short.rooms.get(), plain.rooms.get()

    def asked(room) -> tuple[int, int]:  # type: ignore[no-untyped-def]
        plan = counsel.load(room)
        called = [s for s in plan.plan if s["kind"] == "call"]
        questions = [s for s in plan.plan if s["kind"] == "question"]
        return len(called), len(questions)

    limit = lesson.plan_for(30, trial=True, students=2)
    called, questions = asked(short_room)
    assert called <= 2 * limit.witnesses and questions <= called * 2 * limit.questions
    assert (called, questions) < asked(plain_room)


def test_the_class_page_counts_each_groups_lesson_time_down_from_the_start(robbery):
    session = classes.class_create(case=robbery, groups=2, seats=2, teacher_session_key=TEACHER, lesson_minutes=30)
    first, _second = session.rooms.order_by("pk")
    services.room_join(code=first.room_code, credential=ANNA, name="Anna")
    assert all(not card.lesson for card in class_selectors.class_cards(session))  # nothing counts before the start
    classes.class_start(class_id=session.pk)
    first_card, second_card = class_selectors.class_cards(session)
    assert 29 * 60 <= first_card.lesson["seconds_left"] <= 30 * 60 and not second_card.lesson
    page = _teacher().get(f"/classes/{session.public_id}/").content.decode()
    assert "Time left in the lesson" in page and 'data-format="mmss"' in page


def test_when_the_time_is_nearly_up_the_judge_directs_the_verdict_under_the_class_rules(robbery):
    session = classes.class_create(
        case=robbery, groups=1, seats=2, teacher_session_key=TEACHER, lesson_minutes=30, rules="england-wales", seed=5
    )
    (room,) = session.rooms.all()
    services.room_join(code=room.room_code, credential=ANNA, name="Anna")
    classes.class_start(class_id=session.pk)
    room.refresh_from_db()
    times = room_of(room)["lesson"]
    direct_at = when(times["direct_at"])
    assert clock.room_tick(deliberation_id=room.pk, now=direct_at - timedelta(seconds=1)) == "round"
    assert room.__class__.objects.get(pk=room.pk).phase == Phase.DELIBERATION
    assert clock.room_tick(deliberation_id=room.pk, now=direct_at) == "lesson_verdict"
    room.refresh_from_db()
    assert room.phase == Phase.VERDICT and room.end_reason == "time" and room_of(room)["stage"] == STAGE_DONE
    assert "when the lesson's time was up (rules: England and Wales" in room.verdict_words
    assert when(times["ends_at"]) - direct_at == timedelta(seconds=lesson.margin_for(30 * 60))
    assert clock.room_tick(deliberation_id=room.pk, now=direct_at + timedelta(seconds=5)) == "done"


def test_a_paused_room_still_gets_its_verdict_before_the_bell(robbery):
    from deliberation.rooms import control

    session = classes.class_create(case=robbery, groups=1, seats=1, teacher_session_key=TEACHER, lesson_minutes=30)
    (room,) = session.rooms.all()
    services.room_join(code=room.room_code, credential=ANNA, name="Anna")
    classes.class_start(class_id=session.pk)
    clock.room_tick(deliberation_id=room.pk)  # the first round; Anna has the floor
    control.room_pause(deliberation_id=room.pk, session_key=TEACHER)
    room.refresh_from_db()
    direct_at = when(room_of(room)["lesson"]["direct_at"])
    assert clock.room_tick(deliberation_id=room.pk, now=direct_at) == "lesson_verdict"
    room.refresh_from_db()
    assert room.phase == Phase.VERDICT and room.end_reason == "time"


def test_a_trial_that_outlasts_its_share_of_the_lesson_is_closed_by_the_judge_and_the_jury_deliberates(robbery):
    session = classes.class_create(
        case=robbery, groups=1, seats=2, teacher_session_key=TEACHER, trial=True, lesson_minutes=45, seed=2
    )
    (room,) = session.rooms.all()
    services.room_join(code=room.room_code, credential=ANNA, name="Anna")
    classes.class_start(class_id=session.pk)
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=2, side="defense")
    room.refresh_from_db()
    assert room.phase == Phase.TRIAL
    trial_by = when(room_of(room)["lesson"]["trial_by"])
    assert clock.room_tick(deliberation_id=room.pk, now=trial_by) == "lesson_trial"
    room.refresh_from_db()
    assert room.phase == Phase.DELIBERATION and room_of(room)["lesson"]["trial_closed"]
    said = list(Turn.objects.filter(deliberation=room, kind=TurnKind.TRIAL).values_list("content", flat=True))
    assert counsel_stand_in.TIME_CLOSED in said


def _started_earlier(room, minutes: float) -> None:  # type: ignore[no-untyped-def]
    """As if the room had started ``minutes`` ago: its lesson's times moved back."""
    room.refresh_from_db()
    state = room_of(room)
    times = dict(state["lesson"])
    for key in ("ends_at", "direct_at", "trial_by"):
        if key in times:
            times[key] = (when(times[key]) - timedelta(minutes=minutes)).isoformat()
    state["lesson"] = times
    from deliberation.rooms.state import room_save

    room_save(room, state)


def test_a_group_started_later_keeps_the_class_bell_and_plays_the_time_that_is_left(robbery):
    session = classes.class_create(
        case=robbery, groups=3, seats=2, teacher_session_key=TEACHER, trial=True, lesson_minutes=45, seed=3
    )
    first, second, third = session.rooms.order_by("pk")
    services.room_join(code=first.room_code, credential=ANNA, name="Anna")
    classes.class_start(class_id=session.pk)
    _started_earlier(first, 14)
    bell = when(room_of(first)["lesson"]["ends_at"])
    services.room_join(code=second.room_code, credential=BEN, name="Ben")
    classes.class_start(class_id=session.pk, empty_too=True)  # Ben's group, and the empty third as AI-only
    for late in (second, third):
        late.refresh_from_db()
        times, plan = room_of(late)["lesson"], lesson.LessonPlan(**late.settings["lesson"])
        assert when(times["ends_at"]) == bell
        assert when(times["direct_at"]) == bell - timedelta(seconds=plan.margin)
        assert plan.class_minutes == 45 and 30 < plan.minutes <= 31
        fitted = lesson.plan_for_left(plan.minutes * 60, class_minutes=45, trial=True, students=2)
        assert (late.settings["max_rounds"], turn_seconds(room_of(late))) == (fitted.max_rounds, fitted.turn_seconds)
        assert when(times["trial_by"]) <= when(times["direct_at"])
    whole = lesson.plan_for(45, trial=True, students=2)
    assert second.settings["max_rounds"] < whole.max_rounds
    page = _teacher().get(f"/classes/{session.public_id}/").content.decode()
    assert "31 minutes left of the class&#x27;s 45" in page or "30 minutes left of the class&#x27;s 45" in page
    cards = class_selectors.class_cards(session)
    assert all(card.lesson["seconds_left"] <= 31 * 60 for card in cards)


def test_groups_started_together_share_the_class_plan_and_bell(robbery):
    session = classes.class_create(case=robbery, groups=2, seats=2, teacher_session_key=TEACHER, lesson_minutes=30)
    first, second = session.rooms.order_by("pk")
    services.room_join(code=first.room_code, credential=ANNA, name="Anna")
    services.room_join(code=second.room_code, credential=BEN, name="Ben")
    classes.class_start(class_id=session.pk)
    first.refresh_from_db()
    second.refresh_from_db()
    assert room_of(first)["lesson"]["ends_at"] == room_of(second)["lesson"]["ends_at"]
    assert first.settings["lesson"] == second.settings["lesson"] == session.settings["lesson"]
    assert classes.group_plans(session, [(1, first), (2, second)]) == []


def test_no_group_starts_when_too_little_is_left_before_the_class_bell(robbery):
    session = classes.class_create(case=robbery, groups=2, seats=2, teacher_session_key=TEACHER, lesson_minutes=30)
    first, second = session.rooms.order_by("pk")
    services.room_join(code=first.room_code, credential=ANNA, name="Anna")
    classes.class_start(class_id=session.pk)
    _started_earlier(first, 29)
    services.room_join(code=second.room_code, credential=BEN, name="Ben")
    with pytest.raises(ValidationError) as refused:
        classes.class_start(class_id=session.pk)
    (message,) = refused.value.messages
    assert "before the class's bell" in message and "1 waiting group was not started" in message
    second.refresh_from_db()
    assert second.phase == Phase.PRESENTATION and "lesson" not in room_of(second)


def test_a_late_group_with_little_time_left_skips_the_trial():
    assert not lesson.plan_for_left(5 * 60, class_minutes=45, trial=True, students=3).trial
    late = lesson.plan_for_left(20 * 60, class_minutes=45, trial=True, students=3)
    assert late.trial and late.trial_seconds < lesson.plan_for(45, trial=True, students=3).trial_seconds
    assert "20 minutes left of the class's 45" in late.words()


def test_a_late_student_is_offered_no_seat_in_a_group_the_class_bell_leaves_no_time_to_start(robbery):
    session = classes.class_create(case=robbery, groups=3, seats=2, teacher_session_key=TEACHER, lesson_minutes=30)
    first, second, third = session.rooms.order_by("pk")
    services.room_join(code=first.room_code, credential=ANNA, name="Anna")
    classes.class_start(class_id=session.pk)
    late = Client()
    browser_of(late, **{SESSION_FIELD: "late-student"})
    assert "Take the seat" in late.get(f"/join/{second.room_code}/").content.decode()  # time enough yet
    _started_earlier(first, 29)  # a minute before the bell: no waiting group can start now
    for room in (second, third):
        page = late.get(f"/join/{room.room_code}/").content.decode()
        assert "This group can no longer start" in page and "Take the seat" not in page
        assert "Ask your teacher for the code of a group that is still playing" in page
        posted = late.post(f"/join/{room.room_code}/", {"seat": 2, "name": "Late"}, follow=True).content.decode()
        assert "This group can no longer start" in posted
        assert not room.seats.filter(session_key="late-student").exists()
    assert "Take the seat" in late.get(f"/join/{first.room_code}/").content.decode()  # Anna's group still plays


def test_with_a_bell_the_foreperson_and_the_banner_count_the_lessons_time_not_the_round_limit(robbery):
    session = classes.class_create(case=robbery, groups=1, seats=1, teacher_session_key=TEACHER, lesson_minutes=30)
    (room,) = session.rooms.all()
    services.room_join(code=room.room_code, credential=ANNA, name="Anna")
    classes.class_start(class_id=session.pk)
    for _ in range(12):  # the AI round, then Anna passes her turn: until the foreperson's time check
        clock.room_tick(deliberation_id=room.pk)
        room.refresh_from_db()
        if room.round_number >= 4 or room.phase != Phase.DELIBERATION:
            break
        if room_of(room).get("stage") == "turns":
            services.room_pass(deliberation_id=room.pk, credential=ANNA)
    foreperson = [t.content for t in Turn.objects.filter(deliberation=room, kind=TurnKind.PROCESS)]
    checks = [text for text in foreperson if "of the lesson left" in text or "before the bell" in text]
    assert checks and all("minutes" in text for text in checks)
    assert not any("rounds left" in text or "rounds to go" in text for text in foreperson)
    client = Client()
    browser_of(client, **{SESSION_FIELD: ANNA.session_key})
    page = client.get(f"/rooms/{room.room_code}/").content.decode()
    assert "left in the lesson" in page and f"of {room.settings['max_rounds']}</p>" not in page
