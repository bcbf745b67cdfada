"""A lesson's length: the time a class (or a room) has, and the game chosen to fit it.

A teacher says how long the class has (30, 45 or 60 minutes, or any number between
``MIN_MINUTES`` and ``MAX_MINUTES``), counted from the moment the room starts. ``plan_for`` picks
the trial's length (witnesses called per side, questions per examination), the turn length and the
round limit from it, for a group of a given size at a student's typical pace (``TRIAL_MOVE_SECONDS``,
``TURN_SECONDS_TYPICAL``), and says it in words for the page before the start. The round limit is
generous (it falls after the judge's direction even in a brisk room), so a group that has not
agreed goes on arguing until the time is nearly up rather than ending hung at a count of rounds.

The plan is a promise kept by the clock, not by the estimate: when the trial's share of the time is
spent the judge closes the trial, and ``margin`` seconds before the bell the judge directs the jury
to its verdict under the room's rules (``rooms.clock``), so every group has its verdict before the
bell whatever the pace. The keys stored in the room's state (``room["lesson"]``) are the plan's
minutes and the times it set at the start: ``ends_at``, ``trial_by`` (with the trial) and
``direct_at``; ``trial_closed`` and ``directed`` mark what the judge has done.

A class has one bell, counted from its first start: a group started later (a late student's group,
or the empty groups started as AI-only juries) keeps the class's bell, and its plan is fitted to the
time that is left (``plan_for_left``: the trial, if there is time for one, the turns and the round
limit), so its verdict too is directed before the class's bell. Too little left, it is not started.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings as django_settings
from django.core.exceptions import ValidationError

LESSON_CHOICES = (30, 45, 60)
MIN_MINUTES, MAX_MINUTES = 10, 180
ERROR_MINUTES = f"A lesson is {MIN_MINUTES} to {MAX_MINUTES} minutes long (got {{minutes}})."

# A student's typical pace, from classes walked in a browser (a student waits 27-29 s between turns,
# almost all of it the other student's thinking): a move at the trial, a turn in the deliberation.
TRIAL_MOVE_SECONDS = 20.0
TURN_SECONDS_TYPICAL = 25.0
AI_ROUND_SECONDS = 8.0  # an AI round heard and shown, with the pause between rounds
# A brisk room: every student passing quickly, the AI round short. The round limit is set so that even at
# this pace it falls after the judge's direction: the lesson's clock, not a count of rounds, ends it.
BRISK_TURN_SECONDS, BRISK_AI_ROUND_SECONDS = 6.0, 3.0
TRIAL_SHARE = 0.4  # of the time before the verdict, at most, for the trial
# A turn (and a counsel's move at the trial) long enough for a student to read the last speeches and
# type a point; shorter only when a short lesson would otherwise hold fewer than FULL_ROUNDS rounds
# of every student using all of their time.
MIN_TURN, MAX_TURN = 20, 60
FULL_ROUNDS = 4
MIN_ROUNDS, MAX_ROUNDS = 2, 100
# A group started this long after the class's first start (lesson seconds) gets a plan fitted to the
# time left; sooner, the class's own plan (the groups of one start are started a moment apart).
LATE_SECONDS = 60.0
MIN_LEFT_SECONDS = 180.0  # a group is not started with less of the lesson left than this
ERROR_BELL = (
    "Only {left} of the lesson is left before the class's bell (counted from its first start), too "
    "little for a jury: {count} waiting group{s} {verb} not started."
)
WITNESSES = (1, 2, 3)  # per side
QUESTIONS = (1, 2, 3, 4)  # per examination (chief and cross each)


@dataclass(frozen=True)
class LessonPlan:
    minutes: float
    trial: bool
    witnesses: int  # called per side (0 without the trial)
    questions: int  # per examination, chief and cross each (0 without the trial)
    turn_seconds: int
    max_rounds: int
    margin: int  # seconds before the bell at which the judge directs the verdict
    trial_seconds: int  # the trial's share of the time (0 without the trial)
    class_minutes: float = 0.0  # a group started late: the class's lesson, of which ``minutes`` were left

    @property
    def late(self) -> bool:
        return bool(self.class_minutes)

    @property
    def seconds(self) -> int:
        return round(self.minutes * 60)

    def words(self) -> str:
        """The plan as the page shows it before the start."""
        if self.late:
            parts = [f"{round(self.minutes)} minutes left of the class's {self.class_minutes:g} (one bell)"]
        else:
            parts = [f"{self.minutes:g} minutes"]
        if self.trial:
            parts.append(
                # "up to": a case with fewer witnesses for a side calls the ones it has
                f"the trial calls up to {self.witnesses} witness{'es' if self.witnesses != 1 else ''} a side with "
                f"{self.questions} question{'s' if self.questions != 1 else ''} an examination "
                f"(about {round(self.trial_seconds / 60)} min at most)"
            )
        parts.append(f"{self.turn_seconds} s turns")
        parts.append(f"at most {self.max_rounds} rounds")
        parts.append(f"the judge directs the verdict {round(self.margin / 60)} min before the end")
        return "; ".join(parts) + "."

    def settings(self) -> dict[str, Any]:
        """The game settings the plan chooses (the keys a room is made with)."""
        # A jury whose votes stand still for three rounds would end minutes into a long lesson:
        # it now has half the lesson's rounds to move before that ends it.
        chosen: dict[str, Any] = {"lesson": asdict(self), "stability_rounds": max(3, self.max_rounds // 2)}
        if self.trial:
            chosen.update(trial_witnesses=self.witnesses, trial_questions=self.questions)
        return chosen


def check_minutes(minutes: float) -> float:
    if not MIN_MINUTES <= minutes <= MAX_MINUTES:
        raise ValidationError(ERROR_MINUTES.format(minutes=f"{minutes:g}"))
    return float(minutes)


def margin_for(seconds: float) -> int:
    """How long before the bell the judge directs the verdict: time to read it before the bell."""
    return round(max(90.0, 0.05 * seconds))


def trial_estimate(witnesses: int, questions: int, *, move: float = TRIAL_MOVE_SECONDS) -> float:
    """The trial's seconds when students are counsel on both sides: four speeches, and a move for
    every question put (examination and cross-examination of each side's witnesses)."""
    asked = 2 * witnesses * 2 * questions
    return (4 + asked) * move


def round_estimate(students: int, *, turn: float = TURN_SECONDS_TYPICAL, ai: float = AI_ROUND_SECONDS) -> float:
    return ai + max(1, students) * turn


def plan_for(minutes: float, *, trial: bool, students: int) -> LessonPlan:
    """The game that fits ``minutes`` for groups of ``students`` at a typical pace."""
    minutes = check_minutes(minutes)
    return _fit(minutes * 60, trial=trial, students=students, minutes=minutes)


def plan_for_left(seconds: float, *, class_minutes: float, trial: bool, students: int) -> LessonPlan:
    """The game for a group started late: the ``seconds`` left before the class's bell (of its
    ``class_minutes``). The trial is held only if the shortest one fits the time left."""
    return _fit(seconds, trial=trial, students=students, minutes=round(seconds / 60, 2), class_minutes=class_minutes)


def _fit(total: float, *, trial: bool, students: int, minutes: float, class_minutes: float = 0.0) -> LessonPlan:
    margin = margin_for(total)
    usable = max(0.0, total - margin)
    witnesses = questions = trial_seconds = 0
    budget = TRIAL_SHARE * usable
    if trial and budget < trial_estimate(1, 1):
        trial = False  # not even one witness a side fits the time
    if trial:
        fitting = [(w, q) for w in WITNESSES for q in QUESTIONS if trial_estimate(w, q) <= budget]
        # The longest trial that fits, its witnesses and questions kept in step.
        witnesses, questions = max(fitting or [(1, 1)], key=lambda wq: (trial_estimate(*wq), -abs(wq[0] - wq[1])))
        trial_seconds = round(budget)  # the judge closes a slower trial here
    left = usable - (trial_estimate(witnesses, questions) if trial else 0)
    brisk = round_estimate(students, turn=BRISK_TURN_SECONDS, ai=BRISK_AI_ROUND_SECONDS)
    max_rounds = max(MIN_ROUNDS, min(MAX_ROUNDS, math.ceil(left / brisk)))
    turn = int((left / FULL_ROUNDS - AI_ROUND_SECONDS) / max(1, students))
    turn_seconds = max(MIN_TURN, min(MAX_TURN, turn))
    return LessonPlan(
        minutes=minutes,
        trial=trial,
        witnesses=witnesses,
        questions=questions,
        turn_seconds=turn_seconds,
        max_rounds=max_rounds,
        margin=margin,
        trial_seconds=trial_seconds,
        class_minutes=class_minutes,
    )


def with_plan(chosen: dict[str, Any], plan: LessonPlan) -> dict[str, Any]:
    """A room's settings (``chosen``) playing ``plan``: the trial or not, its witnesses and
    questions, the turn length and the round limit."""
    chosen = dict(chosen)
    chosen.pop("trial_witnesses", None)
    chosen.pop("trial_questions", None)
    if plan.trial:
        chosen["trial"] = True
    else:
        chosen.pop("trial", None)
    chosen.update(plan.settings(), max_rounds=plan.max_rounds, turn_seconds=plan.turn_seconds)
    chosen["room"] = {**(chosen.get("room") or {}), "turn_seconds": float(plan.turn_seconds)}
    return chosen


def scale() -> float:
    """Real seconds to a lesson second (``ANGRY_LESSON_MINUTE_SECONDS``: 1 but in a compressed demo)."""
    return float(getattr(django_settings, "ANGRY_LESSON_MINUTE_SECONDS", 60.0)) / 60.0


def seconds_before(bell: datetime, now: datetime) -> float:
    """The lesson's seconds left before ``bell``."""
    return (bell - now).total_seconds() / scale()


def late_plan(plan: dict[str, Any], *, bell: datetime, now: datetime, trial: bool, students: int) -> LessonPlan | None:
    """The plan of a group started at ``now`` in a class whose bell is ``bell``: None if it starts
    with the class (within ``LATE_SECONDS`` of the first start), else fitted to the time left.
    Raises ValidationError when too little is left (``MIN_LEFT_SECONDS``)."""
    whole = float(plan.get("class_minutes") or plan["minutes"])
    left = seconds_before(bell, now)
    if whole * 60 - left < LATE_SECONDS:
        return None
    if left < MIN_LEFT_SECONDS:
        raise ValidationError(ERROR_BELL.format(left=left_words(left), count=1, s="", verb="was"))
    return plan_for_left(left, class_minutes=whole, trial=trial, students=students)


def left_words(seconds: float) -> str:
    seconds = max(0, round(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}" if seconds else "no time"


def lesson_times(plan: dict[str, Any], start: datetime, *, bell: datetime | None = None) -> dict[str, Any]:
    """The room's lesson state at its start: the bell (the class's ``bell`` when another group
    started first, else counted from ``start``), when the trial must close, when the verdict (on
    the clock ``ANGRY_LESSON_MINUTE_SECONDS`` sets: a minute is 60 s but in a compressed demo)."""
    ratio = scale()
    ends = bell or start + timedelta(seconds=float(plan["minutes"]) * 60 * ratio)
    direct = ends - timedelta(seconds=float(plan["margin"]) * ratio)
    times: dict[str, Any] = {"minutes": plan["minutes"], "ends_at": ends.isoformat(), "direct_at": direct.isoformat()}
    if plan.get("trial"):
        times["trial_by"] = min(start + timedelta(seconds=float(plan["trial_seconds"]) * ratio), direct).isoformat()
    return times
