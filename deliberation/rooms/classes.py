"""A class session's writes: make N rooms of one case in one go, and start them all.

Each room is an ordinary room (``rooms.services.room_create``) hosted by the teacher's browser and
not played by the teacher, with the first ``seats`` openable seats open to students; the class
only groups them. Every room announces its own changes through the one broadcaster, which also
feeds the class page (``services.broadcast``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from cases.models import Case
from deliberation.engine.rules import DEFAULT_RULES, RULE_SETS
from deliberation.models import ClassSession, Deliberation, Phase, SeatKind
from deliberation.rooms import clock, lesson
from deliberation.rooms import services as room_services
from deliberation.rooms.state import STAGE_WAITING, room_of, room_save

MIN_GROUPS, MAX_GROUPS = 1, 10
MIN_SEATS, MAX_SEATS = 1, len(room_services.OPENABLE_SEATS)
MAX_NAME = 80

ERROR_GROUPS = f"A class has {MIN_GROUPS} to {MAX_GROUPS} groups (got {{groups}})."
ERROR_SEATS = f"A group has {MIN_SEATS} to {MAX_SEATS} seats for students (got {{seats}})."
ERROR_NOTHING_TO_START = "Every room of this class has already started."
ERROR_NOBODY_SEATED = (
    "No waiting group has a student yet, so none was started. Wait for the students to join, or start "
    "the empty groups as AI-only juries."
)


def open_seats_for(count: int) -> tuple[int, ...]:
    """The seats opened to students in each room: the first ``count`` openable seats (2, 3, 4, ...)."""
    return room_services.OPENABLE_SEATS[:count]


@transaction.atomic
def class_create(
    *,
    case: Case,
    groups: int,
    seats: int,
    teacher_session_key: str,
    owner_id: int | None = None,
    name: str = "",
    max_rounds: int | None = None,
    turn_seconds: float | None = None,
    pace_seconds: float | None = None,
    seed: int | None = None,
    engine: str | None = None,
    rules: str = DEFAULT_RULES,
    options: dict[str, Any] | None = None,
    trial: bool = False,
    lesson_minutes: float | None = None,
) -> ClassSession:
    """A class of ``groups`` rooms on ``case``, all made in one transaction (all or none).

    The teacher's browser hosts every room (so each room's own pages and teacher's view open for
    them as for a room they made alone), and the teacher's account owns them when they were logged
    in (so those pages open from any browser they log in on); the teacher does not play. Each room gets its own seed
    (``seed`` + group index) so the groups' AI jurors do not all say the same thing. Every room is
    played with the same ``engine``, jury ``rules`` and game settings (``options``: the keys of
    ``GameSettings.to_settings``), as a room made alone with the same choices. ``lesson_minutes``:
    the time the class has; the trial's length, the turn length and the round limit are chosen to
    fit it (``lesson.plan_for``, for groups of ``seats`` students) in place of those given.
    """
    if not MIN_GROUPS <= groups <= MAX_GROUPS:
        raise ValidationError(ERROR_GROUPS.format(groups=groups))
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValidationError(ERROR_SEATS.format(seats=seats))
    options = {**(options or {}), **({"trial": True} if trial else {})}
    if lesson_minutes is not None:  # the lesson's length chooses the trial, the turns and the rounds
        plan = lesson.plan_for(lesson_minutes, trial=trial, students=seats)
        turn_seconds, max_rounds = plan.turn_seconds, plan.max_rounds
        options.update(plan.settings(), max_rounds=max_rounds, turn_seconds=turn_seconds)
    chosen: dict[str, Any] = {**options, "groups": groups, "seats": seats, "rules": rules}
    for key, value in (
        ("max_rounds", max_rounds),
        ("turn_seconds", turn_seconds),
        ("pace_seconds", pace_seconds),
        ("engine", engine),
    ):
        if value is not None:
            chosen[key] = value
    session = ClassSession(
        name=(name or "").strip()[:MAX_NAME],
        case=case,
        teacher_session_key=teacher_session_key,
        owner_id=owner_id,
        settings=chosen,
    )
    session.full_clean()
    session.save()
    rooms = [
        room_services.room_create(
            case=case,
            host_session_key=teacher_session_key,
            owner_id=owner_id,
            host_plays=False,
            open_seats=open_seats_for(seats),
            max_rounds=max_rounds,
            turn_seconds=turn_seconds,
            pace_seconds=pace_seconds,
            seed=None if seed is None else seed + index,
            engine=engine,
            rules=rules,
            options=options,
        )
        for index in range(groups)
    ]
    session.rooms.add(*rooms)
    return session


def lesson_plan_of(session: ClassSession) -> lesson.LessonPlan | None:
    """The plan the class was made with, to show before the start (None without a lesson length)."""
    plan = (session.settings or {}).get("lesson")
    return lesson.LessonPlan(**plan) if plan else None


def plan_as_played(session: ClassSession, plan: lesson.LessonPlan) -> lesson.LessonPlan:
    """A plan as its groups play it, for the page: a round limit the class's jury rules set lower
    than the plan's (the Old Bailey's ten rounds) is the one said, as the rooms' own pages say it."""
    rules = RULE_SETS.get((session.settings or {}).get("rules", DEFAULT_RULES), RULE_SETS[DEFAULT_RULES])
    if rules.round_cap and rules.round_cap < plan.max_rounds:
        return dataclasses.replace(plan, max_rounds=rules.round_cap)
    return plan


def group_plans(session: ClassSession, rooms: list[tuple[int, Deliberation]]) -> list[tuple[int, lesson.LessonPlan]]:
    """The groups whose own plan differs from the class's (a group whose trial the teacher ticked
    or unticked was fitted again: ``group_trial_set``), each with the plan it plays, so the page
    promises each group what its room keeps."""
    planned = lesson_plan_of(session)
    if planned is None:
        return []
    own = []
    for group, room in rooms:
        stored = (room.settings or {}).get("lesson")
        if stored and lesson.LessonPlan(**stored) != planned:
            own.append((group, lesson.LessonPlan(**stored)))
    return own


def seconds_left_to_start(room: Deliberation, now: datetime | None = None) -> float | None:
    """A waiting group of a class another group has started: the lesson's seconds left before the
    class's bell, when too few for a jury (``lesson.MIN_LEFT_SECONDS``) so the group can no longer
    start; None when it still may (or it is not waiting, or its class keeps no bell)."""
    if room.phase != Phase.PRESENTATION or room_of(room).get("stage") != STAGE_WAITING:
        return None
    bell = clock.class_bell(room)
    if bell is None:
        return None
    left = lesson.seconds_before(bell, now or timezone.now())
    return left if left < lesson.MIN_LEFT_SECONDS else None


def has_students(deliberation: Deliberation) -> bool:
    """Whether anyone (a person or an agent, not the teacher) sits in this room now."""
    return deliberation.seats.filter(kind__in=(SeatKind.HUMAN, SeatKind.AGENT), is_host=False).exists()


def is_ai_only(deliberation: Deliberation) -> bool:
    """A group the teacher started with nobody in it, on purpose: a jury of AI jurors alone."""
    return bool(room_of(deliberation).get("ai_only"))


def group_trial_set(room: Deliberation, *, trial: bool, students: int) -> None:
    """Before a group starts: hold its trial or not, as the teacher chose for it. With a lesson's
    length the group's plan is fitted again to the choice (the trial's witnesses and questions,
    the turn length and the round limit: ``lesson.plan_for``), as if the class had been made so."""
    chosen = dict(room.settings or {})
    if bool(chosen.get("trial")) == trial:
        return
    if trial:
        chosen["trial"] = True
    else:
        chosen.pop("trial", None)
    plan = chosen.get("lesson")
    if plan:
        chosen = lesson.with_plan(chosen, lesson.plan_for(float(plan["minutes"]), trial=trial, students=students))
    room.settings = chosen
    room.save(update_fields=["settings"])


def holds_trial(room: Deliberation) -> bool:
    return bool((room.settings or {}).get("trial"))


@transaction.atomic
def class_trial_choose(*, class_id: int, trial_groups: Collection[int]) -> None:
    """The teacher ticks or unticks "Hold the trial first in" before the start: the waiting groups
    keep the choice at once (``group_trial_set``), so a reload of the class page shows what she chose."""
    session = ClassSession.objects.select_for_update().get(pk=class_id)
    students = int((session.settings or {}).get("seats") or 1)
    for group, room in enumerate(session.rooms.order_by("pk"), start=1):
        if room.phase == Phase.PRESENTATION and room_of(room).get("stage") == STAGE_WAITING:
            group_trial_set(room, trial=group in trial_groups, students=students)


@transaction.atomic
def class_start(*, class_id: int, empty_too: bool = False, trial_groups: Collection[int] | None = None) -> int:
    """Start the rooms of the class that are waiting and have students; returns how many started.

    A room nobody joined stays waiting (a late student can still take a seat in it) unless the
    teacher asks for the empty groups too (``empty_too``): those are started as AI-only juries and
    marked so (``is_ai_only``), and the class debrief keeps them apart from the class's juries.

    The caller has checked that the request comes from the class's teacher (``access.class_for``):
    a logged-in teacher on another browser is not the rooms' host by browser key, so the rooms are
    started the way an autostart room's clock starts them. Rooms already started are left alone.

    A class has one bell, counted from its first start: a group started later plays a plan fitted to
    the time left (``clock.begin``), and none is started once too little is left
    (``lesson.MIN_LEFT_SECONDS``).

    ``trial_groups`` (the groups' numbers, 1 for the first room made): the groups that hold the
    trial first, chosen group by group as they start; every other waiting group deliberates at
    once (``group_trial_set``). None leaves each group as the class was made.
    """
    session = ClassSession.objects.select_for_update().get(pk=class_id)
    students = int((session.settings or {}).get("seats") or 1)
    started = waiting = late = 0
    left = 0.0  # the lesson's seconds left before the class's bell, for a group too late to start
    for group, room in enumerate(session.rooms.order_by("pk"), start=1):
        if room.phase != Phase.PRESENTATION or room_of(room).get("stage") != STAGE_WAITING:
            continue
        waiting += 1
        too_late = seconds_left_to_start(room)  # another group started first: the class's bell stands
        if too_late is not None:
            left, late = too_late, late + 1
            continue  # no jury could reach its verdict before the bell
        if trial_groups is not None:
            group_trial_set(room, trial=group in trial_groups, students=students)
        if not has_students(room):
            if not empty_too:
                continue
            room_save(room, {**room_of(room), "ai_only": True})
        room_services.room_start(deliberation_id=room.pk, by_clock=True)
        started += 1
    if not started and late:
        words = {"s": "" if late == 1 else "s", "verb": "was" if late == 1 else "were"}
        raise ValidationError(lesson.ERROR_BELL.format(left=lesson.left_words(left), count=late, **words))
    if not started:
        raise ValidationError(ERROR_NOBODY_SEATED if waiting else ERROR_NOTHING_TO_START)
    return started
