"""What one pushed update costs to render, and what its payload weighs: a room of 12 (a teacher in
seat 7, ten students, one AI juror) mid-deliberation, on a scratch SQLite database, offline engine.

Each event the one broadcaster renders for a room ("vote", "turn", "seats", "thinking", "round") is
rendered ``--times`` times; the figures are the rendering thread's own CPU time (``time.thread_time``,
so they hold on a loaded machine), the database queries per render, and the bytes sent. A render
happens once per update and room, whatever the number of sockets: the consumers only forward it.

Run: .venv/bin/python bench/render_cost.py [--times 40]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SCRATCH = Path(tempfile.mkdtemp(prefix="angry-render-"))
for name, value in {
    "DJANGO_SETTINGS_MODULE": "angryagents.settings",
    "SQLITE_PATH": str(SCRATCH / "db.sqlite3"),
    "ANGRY_VAR_DIR": str(SCRATCH / "var"),
    "ANGRY_INDEX_DIR": str(SCRATCH / "index"),
    "ANGRY_TASKS": "sync",
    "ANGRY_NARRATION": "text",
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "LOG_LEVEL": "WARNING",
    "ALLOWED_HOSTS": "testserver",
}.items():
    os.environ[name] = value
for name in ("DATABASE_URL", "REDIS_URL"):
    os.environ.pop(name, None)

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from cases.models import Case  # noqa: E402
from deliberation.court import live  # noqa: E402
from deliberation.rooms import clock, services  # noqa: E402
from deliberation.rooms.services import Credential  # noqa: E402

SEATS = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)


def _requests(pk: int, times: int) -> None:
    """A student's vote post (with the broadcast it renders) and a controls fetch, through Django's
    whole request path (middleware, session, the view, its template), as Daphne runs them."""
    from django.test import Client

    from angryagents.identity import SESSION_FIELD
    from deliberation.models import Deliberation

    code = Deliberation.objects.get(pk=pk).room_code
    client = Client()
    session = client.session
    session[SESSION_FIELD] = "s3"
    session.save()
    for label, call in (
        (
            "POST vote",
            lambda n: client.post(
                f"/rooms/{code}/vote/", {"seat": 3, "vote": ("guilty", "not_guilty")[n % 2]}, HTTP_HX_REQUEST="true"
            ),
        ),
        ("GET controls", lambda n: client.get(f"/rooms/{code}/controls/", HTTP_HX_REQUEST="true")),
        ("GET room page", lambda n: client.get(f"/rooms/{code}/")),
    ):
        spent = []
        response = call(0)
        assert response.status_code == 200, (label, response.status_code)
        for n in range(times):
            started = time.thread_time()
            call(n + 1)
            spent.append((time.thread_time() - started) * 1000)
        print(f"{label:<14} {statistics.median(spent):>6.1f} {max(spent):>10.1f} {'-':>8} {len(response.content):>8}")


def _room() -> int:
    call_command("migrate", verbosity=0)
    call_command("load_cases", stdout=open(os.devnull, "w"))
    case = Case.objects.get(slug="kessler-market-robbery")
    teacher = Credential(session_key="teacher")
    room = services.room_create(case=case, host_session_key="teacher", host_plays=True, open_seats=SEATS, seed=11)
    for n in SEATS:
        services.room_join(code=room.room_code, credential=Credential(session_key=f"s{n}"), name=f"Student {n}")
    services.room_start(deliberation_id=room.pk, session_key=teacher.session_key, side="prosecute")
    clock.room_tick(deliberation_id=room.pk)  # the AI juror's first round; the floor goes to the people
    services.room_vote(deliberation_id=room.pk, credential=Credential(session_key="s2"), value="guilty")
    return room.pk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--times", type=int, default=40)
    args = parser.parse_args()
    pk = _room()
    print(f"one room of 12, rendered {args.times} times per event (thread CPU time, loaded-machine safe)")
    print(f"{'event':<10} {'CPU ms p50':>10} {'CPU ms max':>10} {'queries':>8} {'bytes':>8}")
    for event, data in (
        ("vote", {"seat": 2}),
        ("turn", {}),
        ("seats", {"seat": 2}),
        ("thinking", {"round": 2}),
        ("round", {"round": 1}),
    ):
        spent = []
        html = ""
        with CaptureQueriesContext(connection) as queries:
            html = live.render_event(pk, event, data)
        for _ in range(args.times):
            started = time.thread_time()
            live.render_event(pk, event, data)
            spent.append((time.thread_time() - started) * 1000)
        print(
            f"{event:<10} {statistics.median(spent):>10.1f} {max(spent):>10.1f} "
            f"{len(queries.captured_queries):>8} {len(html.encode()):>8}"
        )
    print("HTTP requests (the whole Django path; a vote includes rendering its broadcast):")
    _requests(pk, args.times)


if __name__ == "__main__":
    main()
