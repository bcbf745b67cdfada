"""What one room request costs the web process in CPU: a student's vote, a controls fetch, the room
page and the teacher's live fetch, in a room of 12 that has played a few AI rounds (so its engine
state has grown as in a class), through Django's whole request path.

Figures are the request thread's own CPU time (``time.thread_time``: waiting for the database or
Redis costs nothing, so they hold fairly well on a loaded machine; the load average is printed
beside them), the database queries per request and the answer's size. A vote includes rendering
and publishing its broadcast (one per room, as Daphne does after commit); background tasks (the
judge's narration) are queued to the broker as in service mode, not run.

Embedded (a scratch SQLite database) unless ``DATABASE_URL`` and ``REDIS_URL`` are set; then the
room is made in that PostgreSQL database (migrated first) and the cache, sessions and channel layer
are Redis, as in service mode.

Run:
    .venv/bin/python bench/room_request_cpu.py [--times 30] [--rounds 2] [--profile 25]
    DATABASE_URL=... REDIS_URL=... .venv/bin/python bench/room_request_cpu.py
``--profile N`` prints, per request, the N functions with the most CPU (cProfile, thread CPU clock);
``--queries`` prints each request's SQL.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SERVICE = bool(os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL"))
SCRATCH = Path(tempfile.mkdtemp(prefix="angry-request-cpu-"))
for name, value in {
    "DJANGO_SETTINGS_MODULE": "angryagents.settings",
    "SQLITE_PATH": str(SCRATCH / "db.sqlite3"),
    "ANGRY_VAR_DIR": str(SCRATCH / "var"),
    "ANGRY_INDEX_DIR": str(SCRATCH / "index"),
    "ANGRY_TASKS": "sync",  # while the room is set up; requests are measured with tasks queued
    "ANGRY_NARRATION": "text",
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "LOG_LEVEL": "WARNING",
    "ALLOWED_HOSTS": "testserver",
}.items():
    os.environ[name] = value
if not SERVICE:
    for name in ("DATABASE_URL", "REDIS_URL"):
        os.environ.pop(name, None)

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.exceptions import ValidationError  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils import timezone  # noqa: E402

from angryagents.identity import SESSION_FIELD  # noqa: E402
from cases.picker import picker_context  # noqa: E402
from deliberation.models import Deliberation, Phase, RoundStatus  # noqa: E402
from deliberation.rooms import clock, services  # noqa: E402
from deliberation.rooms.services import Credential  # noqa: E402
from deliberation.rooms.state import current_seat, room_of  # noqa: E402

SEATS = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
VOTER = 3
STATE_COLUMN = '"engine_state"'  # in a query's SQL: the query loads the whole engine state
SPEECH = "He was seen for two seconds, in the dark, by a witness who owed him money."


def _room(rounds: int) -> Deliberation:
    """A room of 12 (the teacher prosecuting in seat 7, ten students) after ``rounds`` AI rounds,
    the students split so the jury cannot end unanimous."""
    call_command("migrate", verbosity=0)
    call_command("load_cases", stdout=open(os.devnull, "w"))
    case = picker_context({})["picker_cases"][0]  # the case a teacher is offered first, as classroom_load plays
    room = services.room_create(case=case, host_session_key="teacher", host_plays=True, open_seats=SEATS, seed=11)
    for n in SEATS:
        services.room_join(code=room.room_code, credential=Credential(session_key=f"s{n}"), name=f"Student {n}")
    services.room_start(deliberation_id=room.pk, session_key="teacher", side="prosecute")
    later = timezone.now()
    for step in range(400):
        found = Deliberation.objects.get(pk=room.pk)
        if found.round_number >= rounds or found.phase == Phase.VERDICT:
            break
        if found.phase == Phase.DELIBERATION and step % 40 == 0:
            for i, n in enumerate(SEATS):
                value = ("guilty", "not_guilty")[i % 2]
                try:
                    services.room_vote(deliberation_id=room.pk, credential=Credential(session_key=f"s{n}"), value=value)
                except ValidationError:  # a round under way: a later step votes again
                    break
        floor = current_seat(room_of(found))
        if floor is not None and found.round_status != RoundStatus.RUNNING:  # whoever has the floor speaks
            key = "teacher" if floor == 7 else f"s{floor}"
            try:
                services.room_speak(
                    deliberation_id=room.pk, credential=Credential(session_key=key), seat_number=floor, content=SPEECH
                )
                continue
            except ValidationError:
                pass
        later += timedelta(minutes=5)  # every turn left times out, every round is due
        clock.room_tick(deliberation_id=room.pk, now=later)
    found = Deliberation.objects.get(pk=room.pk)
    if found.phase != Phase.DELIBERATION:
        raise SystemExit(f"the room left deliberation ({found.phase}) before it was measured")
    return found


def _client(session_key: str) -> Client:
    client = Client()
    session = client.session
    session[SESSION_FIELD] = session_key
    session.save()
    return client


def _measure(
    label: str, call: Callable[[int], object], times: int, profile_lines: int, show_queries: bool = False
) -> dict[str, float]:
    response = call(0)
    status = getattr(response, "status_code", 0)
    assert status == 200, (label, status)
    queries: list[str] = []  # counted by a wrapper: a request's start empties Django's query log

    def count(execute: Callable, sql: str, *rest: object) -> object:  # type: ignore[type-arg]
        queries.append(sql)
        return execute(sql, *rest)

    with connection.execute_wrapper(count):
        call(1)
    if show_queries:
        for n, sql in enumerate(queries, 1):
            print(f"  {label} query {n}: {sql[:300]}")
    spent = []
    profile = cProfile.Profile(time.thread_time) if profile_lines else None
    for n in range(times):
        started = time.thread_time()
        if profile:
            profile.enable()
        call(n + 2)
        if profile:
            profile.disable()
        spent.append((time.thread_time() - started) * 1000)
    size = len(getattr(response, "content", b""))
    figures = {"p50": statistics.median(spent), "mean": statistics.fmean(spent), "max": max(spent)}
    print(
        f"{label:<22} {figures['p50']:>8.1f} {figures['mean']:>8.1f} {figures['max']:>8.1f} "
        f"{len(queries):>8} {size:>8} {sum(STATE_COLUMN in q for q in queries):>7}"
    )
    if profile:
        stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
        for title, column in (("cumulative", 3), ("own", 2)):
            print(f"--- {label}: top {profile_lines} by {title} CPU (ms per request: cumulative, own)")
            for (filename, line, func), (_cc, calls, own, cumulative, _callers) in sorted(
                stats.items(), key=lambda item: -item[1][column]
            )[:profile_lines]:
                where = filename.split("site-packages/")[-1].split(str(ROOT) + "/")[-1]
                per = (cumulative * 1000 / times, own * 1000 / times)
                print(f"  {per[0]:7.2f} {per[1]:7.2f}  {func} ({where}:{line}) x{calls / times:g}")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--times", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=2, help="AI rounds played before measuring")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="print the N costliest functions")
    parser.add_argument("--queries", action="store_true", help="print each request's SQL (first 300 characters)")
    args = parser.parse_args()
    load_before = open("/proc/loadavg").read().split()[:3]
    room = _room(args.rounds)
    state_bytes = len(json.dumps(Deliberation.objects.filter(pk=room.pk).values_list("engine_state", flat=True)[0]))
    settings.ANGRY_TASKS = "celery"  # as in service mode: tasks go to the broker, the worker runs them
    code = room.room_code
    student, teacher = _client(f"s{VOTER}"), _client("teacher")
    mode = "service (PostgreSQL, Redis)" if SERVICE else "embedded (SQLite, in-memory layer)"
    print(f"{mode}; {room.case.slug}, a room of 12 after {room.round_number} AI rounds")
    print(f"engine state: {state_bytes:,} characters of JSON")
    print(f"load average before: {' '.join(load_before)}")
    print(f"{'request':<22} {'CPU p50':>8} {'mean':>8} {'max':>8} {'queries':>8} {'bytes':>8} {'states':>7}")
    print("(ms of the request thread's CPU; states: queries that load the whole engine state)")
    hx = {"HTTP_HX_REQUEST": "true"}
    how = (args.times, args.profile, args.queries)
    _measure("GET controls", lambda n: student.get(f"/rooms/{code}/controls/", **hx), *how)
    _measure("GET room page", lambda n: student.get(f"/rooms/{code}/"), *how)
    _measure("GET teacher live", lambda n: teacher.get(f"/rooms/{code}/teacher/", **hx), *how)
    _measure(
        "POST vote",
        lambda n: student.post(f"/rooms/{code}/vote/", {"seat": VOTER, "vote": ("guilty", "not_guilty")[n % 2]}, **hx),
        *how,
    )
    print(f"load average after: {' '.join(open('/proc/loadavg').read().split()[:3])}")


if __name__ == "__main__":
    main()
