"""How close to the set time a class ends: a lesson of 30, 45 or 60 minutes, groups of 2-6
students, with and without the trial, played at a student's typical pace on a simulated clock.

Run: .venv/bin/python bench/class_length.py [--minutes 45] [--seeds 2] [--students 2 3 4 5 6]
     [--trial both|on|off] [--no-lesson] [--case SLUG]

Each group is a real room of a class (``classes.class_create`` with ``lesson_minutes``), played
through the services and the room clock exactly as a server plays it, the offline engine thinking
for the AI jurors. Only the clock is simulated: ``timezone.now`` reads a clock the bench moves on to
the next thing due (a student's move, a turn running out, an AI round, the judge's direction), and
each AI round and trial step advances it by the real seconds it took to compute, so a 45-minute
lesson runs in seconds or minutes of real time.

A student's pace (``TURN_THINK``, ``MOVE_THINK``: a turn's reading and typing, a move at the trial)
is drawn per move from a spread around the pace the lesson plan assumes; a student sometimes lets a
turn run out. The two lowest seats take counsel for the two sides a few seconds into the trial.
Students vote on their first turn and speak or pass on each turn after; a student whose vote is
in the room's minority changes it on a turn with chance ``SWAY`` (students who never move would
hang every room whose two students split, which is not how a class plays).

Printed per shape (students, trial, lesson): how each group ended (the jury's own verdict, or the
judge's direction when the time was nearly up), minutes from the start to the verdict, and how far
that is from the set time (negative: before the bell), with the last tally (guilty-not guilty).
``--no-lesson`` plays the same groups with the server's defaults and no lesson length, for
comparison.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _django

TURN_THINK = (12.0, 38.0)  # a student's turn: reading the last speeches, then typing (s)
MOVE_THINK = (10.0, 30.0)  # a move at the trial: reading the answer, choosing the next question (s)
RUN_OUT = 0.08  # a turn a student lets run out
SPEAK = 0.6  # a turn spoken (else passed)
SWAY = 0.1  # a student in the room's minority changes their vote on a turn (never, before 2026-11-28)
CLAIM_AFTER = 5.0  # seconds into the trial when the students claim counsel
LINES = (
    "The witness only saw him for a moment, at night.",
    "The marked bills were found on him; that is hard to explain away.",
    "Nobody checked the alibi properly.",
    "He ran when the police came. Innocent people do not run.",
)


class SimClock:
    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now


def play_group(*, case, students: int, trial: bool, minutes: float | None, seed: int, sim: SimClock):  # type: ignore[no-untyped-def]
    from deliberation.engine.trial import steps as trial_steps
    from deliberation.models import Deliberation, Phase
    from deliberation.rooms import classes, clock, control, services
    from deliberation.rooms.services import Credential
    from deliberation.rooms.state import STAGE_TURNS, room_of
    from deliberation.services import counsel, counsel_claims

    rng = random.Random(seed)
    session = classes.class_create(
        case=case,
        groups=1,
        seats=students,
        teacher_session_key="teacher",
        trial=trial,
        lesson_minutes=minutes,
        seed=seed,
    )
    room = session.rooms.get()
    creds = {}
    for n in range(students):
        cred = Credential(session_key=f"student-{seed}-{n}")
        _, seat, _ = services.room_join(code=room.room_code, credential=cred, name=f"Student {n + 1}")
        creds[seat.number] = cred
    seats = sorted(creds)
    start = sim.now
    classes.class_start(class_id=session.pk)
    plan_action: tuple[object, datetime] | None = None
    claimed = False
    voted: set[int] = set()
    limit = start + timedelta(minutes=(minutes or 45) * 3)
    trial_ended = None
    while sim.now < limit:
        d = Deliberation.objects.get(pk=room.pk)
        if trial_ended is None and d.phase not in (Phase.TRIAL, Phase.PRESENTATION):
            trial_ended = (sim.now - start).total_seconds() / 60
        if d.phase == Phase.VERDICT:
            break
        state = room_of(d)
        if d.phase == Phase.DELIBERATION and state.get("stage") != STAGE_TURNS:
            for seat in d.seats.filter(away_since__isnull=False, number__in=seats):
                control.seat_return(deliberation_id=d.pk, credential=creds[seat.number])  # "I'm back"
        mark: object = None
        if d.phase == Phase.TRIAL:
            if not claimed:
                mark, think = "claim", CLAIM_AFTER
            elif d.trial_state:
                waiting = trial_steps.awaiting(counsel.load(d))
                if waiting is not None and waiting.side in counsel.load(d).people:
                    mark, think = (len(counsel.load(d).events), waiting.side, waiting.what), rng.uniform(*MOVE_THINK)
        elif state.get("stage") == STAGE_TURNS and state.get("queue"):
            mark = ("turn", state.get("serial"))
            think = rng.uniform(*TURN_THINK)
            if rng.random() < RUN_OUT:
                think = 10_000.0  # lets it run out
        if mark is not None and (plan_action is None or plan_action[0] != mark):
            plan_action = (mark, sim.now + timedelta(seconds=think))
        if mark is None:
            plan_action = None
        due = clock.room_due(state, d.round_status, d.round_heartbeat_at)
        moments = [m for m in (due, plan_action[1] if plan_action else None) if m is not None]
        if not moments:
            sim.now += timedelta(seconds=1)
            continue
        sim.now = max(sim.now, min(moments))
        if os.environ.get("BENCH_DEBUG"):
            print(
                round((sim.now - start).total_seconds()),
                d.phase,
                state.get("stage"),
                state.get("queue"),
                plan_action,
                due,
                file=sys.stderr,
            )
        began = time.perf_counter()
        if plan_action is not None and plan_action[1] <= sim.now and (due is None or plan_action[1] <= due):
            mark = plan_action[0]
            plan_action = None
            if mark == "claim":
                for seat, side in zip(seats, counsel_claims.SIDES, strict=False):
                    counsel_claims.counsel_claim(deliberation_id=d.pk, seat_number=seat, side=side)
                claimed = True
            elif isinstance(mark, tuple) and len(mark) == 3:
                side, what = mark[1], mark[2]
                action = {
                    trial_steps.EXAMINE: "ai_ask",
                    trial_steps.SPEECH: "ai_speak",
                    trial_steps.REVIEW: "no_objection",
                }[what]
                counsel.trial_move(deliberation_id=d.pk, side=side, action=action)
            else:
                seat = state["queue"][0]
                cred = creds.get(seat)
                if cred is not None:
                    if seat not in voted:
                        services.room_vote(
                            deliberation_id=d.pk, credential=cred, value=rng.choice(("guilty", "not_guilty"))
                        )
                        voted.add(seat)
                    else:
                        mine = d.seats.get(number=seat).vote
                        votes = list(d.seats.exclude(vote="").values_list("vote", flat=True))
                        if mine and votes.count(mine) * 2 < len(votes) and rng.random() < SWAY:
                            other = "not_guilty" if mine == "guilty" else "guilty"
                            services.room_vote(deliberation_id=d.pk, credential=cred, value=other)
                    if rng.random() < SPEAK:
                        services.room_speak(deliberation_id=d.pk, credential=cred, content=rng.choice(LINES))
                    else:
                        services.room_pass(deliberation_id=d.pk, credential=cred)
        else:
            clock.room_tick(deliberation_id=d.pk, now=sim.now)
        sim.now += timedelta(seconds=time.perf_counter() - began)  # the server's own work takes time too
    d = Deliberation.objects.get(pk=room.pk)
    ended = (sim.now - start).total_seconds() / 60
    votes = list(d.seats.values_list("vote", flat=True))
    return {
        "tally": f"{votes.count('guilty')}-{votes.count('not_guilty')}",
        "ended": ended,
        "verdict": d.verdict or "-",
        "reason": d.end_reason or "unfinished",
        "rounds": d.round_number,
        "trial": trial_ended if trial else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, nargs="+", default=[45.0])
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--students", type=int, nargs="+", default=[2, 3, 4, 5, 6])
    parser.add_argument("--trial", choices=("both", "on", "off"), default="both")
    parser.add_argument("--no-lesson", action="store_true")
    parser.add_argument("--case", default="kessler-market-robbery", help="a curated case's slug")
    args = parser.parse_args()
    os.environ.setdefault("ANGRY_NARRATION", "text")
    _django.setup()
    from django.core.management import call_command
    from django.utils import timezone

    from cases.models import Case
    from deliberation.rooms import clock

    call_command("load_cases", verbosity=0)
    case = Case.objects.get(slug=args.case)
    sim = SimClock(timezone.now())
    timezone.now = sim  # every service reads the simulated clock
    clock.enqueue = lambda *a, **k: None  # the bench is the clock's only driver
    trials = {"both": (False, True), "on": (True,), "off": (False,)}[args.trial]
    print(f"case: {case.title}; seeds per shape: {args.seeds}; pace: turn {TURN_THINK} s, trial move {MOVE_THINK} s")
    print("students  trial  set(min)  ended(min) each            vs set (min)     how it ended")
    for minutes in args.minutes:
        for trial in trials:
            for students in args.students:
                results = [
                    play_group(
                        case=case,
                        students=students,
                        trial=trial,
                        minutes=None if args.no_lesson else minutes,
                        seed=seed,
                        sim=sim,
                    )
                    for seed in range(1, args.seeds + 1)
                ]
                ended = [r["ended"] for r in results]
                gaps = [e - minutes for e in ended]
                how = ", ".join(
                    f"{r['reason']}:{r['verdict']} {r['tally']} r{r['rounds']}"
                    + (f" trial {r['trial']:.1f}" if trial else "")
                    for r in results
                )
                print(
                    f"{students:>8}  {'yes' if trial else 'no':>5}  {'-' if args.no_lesson else f'{minutes:g}':>8}  "
                    f"{' '.join(f'{e:5.1f}' for e in ended):<24} "
                    f"{statistics.mean(gaps):+6.1f} (max {max(gaps):+5.1f})  {how}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
