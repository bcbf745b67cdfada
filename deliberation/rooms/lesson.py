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

    @property
    def seconds(self) -> int:
        return round(self.minutes * 60)

    def words(self) -> str:
        """The plan as the page shows it before the start."""
        minutes = f"{self.minutes:g}"
        parts = [f"{minutes} minutes"]
        if self.trial:
            parts.append(
                f"the trial calls {self.witnesses} witness{'es' if self.witnesses != 1 else ''} a side with "
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
    total = minutes * 60
    margin = margin_for(total)
    usable = total - margin
    witnesses = questions = trial_seconds = 0
    if trial:
        budget = TRIAL_SHARE * usable
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
    )


def lesson_times(plan: dict[str, Any], start: datetime) -> dict[str, Any]:
    """The room's lesson state at its start: the bell, when the trial must close, when the verdict
    (on the clock ``ANGRY_LESSON_MINUTE_SECONDS`` sets: a minute is 60 s but in a compressed demo)."""
    scale = float(getattr(django_settings, "ANGRY_LESSON_MINUTE_SECONDS", 60.0)) / 60.0
    seconds = float(plan["minutes"]) * 60 * scale
    times: dict[str, Any] = {
        "minutes": plan["minutes"],
        "ends_at": (start + timedelta(seconds=seconds)).isoformat(),
        "direct_at": (start + timedelta(seconds=seconds - float(plan["margin"]) * scale)).isoformat(),
    }
    if plan.get("trial"):
        times["trial_by"] = (start + timedelta(seconds=float(plan["trial_seconds"]) * scale)).isoformat()
    return times
