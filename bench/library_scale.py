"""The case library with 100,000 cases: home page, case picker, search and admin list latency, on PostgreSQL.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/wt_me .venv/bin/python bench/library_scale.py [--runs 40]

Works in a database of its own: ``<the DATABASE_URL database>_library`` (created if missing,
``--database`` names another), so a run never touches the database the app or the tests use.
It migrates it, loads the curated cases, imports the 13 more-sessions files if it holds no Old
Bailey case yet (1,594 real trials: real titles, summaries, years and offences), then fills
the library up to ``--cases`` playable cases by copying them under new slugs ``bench-N`` with
one ``INSERT ... SELECT`` (a few seconds for 100,000) and gives each copy a defendant (a case
without one is not playable). ``VACUUM ANALYZE`` follows, as autovacuum would.

Each page is requested through Django's test client (URL routing, the view, its queries and
the template), once to warm up and ``--runs`` times measured; it prints p50 and p95 of the
whole request and of the time PostgreSQL took for its queries ("DB"), the number of queries,
and the load average before and after (``/proc/loadavg``): on a loaded machine the totals are
mostly waiting for a core, the DB figures much less so. "Deep" pages are reached as a reader
reaches them: the library's by its keyset cursor (the key of the 50,000th case), the admin's
by ``?p=`` within its count cap. ``--drop`` removes the copies.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import quote_plus, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
MORE_SESSIONS = Path("/work/shared/data/oldbailey/more-sessions")
DEEP = 50_000  # the library's deep pages start after this many cases
PAGES = [
    ("home, front page", "/"),
    ("home, page 2 (keyset)", "{second}"),
    ("home, page 4,168 by title (keyset)", "{deep_title}"),
    ("home, page 4,168 newest first (keyset)", "{deep_newest}"),
    ("search 'theft' (common word)", "/?q=theft"),
    ("search 'silver watch'", "/?q=silver+watch"),
    ("search 'highway robbery', newest first", "/?q=highway+robbery&sort=newest"),
    ("filter: kill in the 1850s", "/?offence=kill&decade=1850"),
    ("filter: verdict known, oldest first", "/?verdict=known&sort=oldest"),
    ("filter + htmx partial", "/?offence=theft&exclude=violence"),
    ("case picker, nothing typed", "/cases/pick/"),
    ("case picker 'watch'", "/cases/pick/?q=watch"),
    ("admin list", "/admin/cases/case/"),
    ("admin list, page 200 (the last within the count cap)", "/admin/cases/case/?p=199"),
    ("admin search 'watch'", "/admin/cases/case/?q=watch"),
    ("admin filter source + era", "/admin/cases/case/?source__exact=oldbailey&decade=1850"),
    ("admin filter: why unplayable (no evidence offered)", "/admin/cases/case/?why={why}"),
]
COPIED = (
    "title",
    "summary",
    "charges",
    "offence_category",
    "difficulty",
    "themes",
    "year",
    "jurisdiction",
    "historical_verdict",
    "historical_punishment",
    "playable",
    "content_notes",
    "original_text",
    "prosecution_arguments",
    "defense_arguments",
)


def own_database(url: str, name: str | None) -> str:
    """The URL of the bench's own database beside ``url``'s, created if it does not exist."""
    import psycopg

    parts = urlsplit(url)
    name = name or parts.path.lstrip("/") + "_library"
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as server:
        if not server.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            server.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path="/" + name))


def fill(target: int) -> int:
    """Copies of the Old Bailey cases, each with a defendant, until ``target`` cases are playable."""
    from django.db import connection, transaction

    from cases.models import Case

    have = Case.objects.playable().count()
    templates = Case.objects.filter(source="oldbailey", playable=True).count()
    start = Case.objects.filter(slug__startswith="bench-").count()
    missing = max(0, target - have)
    if not missing:
        return have
    columns = ", ".join(COPIED)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"""
            INSERT INTO cases_case (slug, source, source_id, created_at, updated_at, {columns})
            SELECT 'bench-' || n, 'other', 'bench-' || n, now(), now(), {columns}
            FROM generate_series(%s, %s) AS n
            JOIN (SELECT row_number() OVER (ORDER BY id) - 1 AS k, * FROM cases_case
                  WHERE source = 'oldbailey' AND playable) AS t ON t.k = n %% %s
            """,
            [start, start + missing - 1, templates],
        )
        cursor.execute(
            """
            INSERT INTO cases_defendant (case_id, name, gender, description, position)
            SELECT c.id, left(coalesce(nullif(replace(c.title, 'The Crown v. ', ''), ''), 'Unnamed'), 200),
                   'unknown', '', 0
            FROM cases_case c
            WHERE c.slug LIKE 'bench-%%' AND NOT EXISTS (SELECT 1 FROM cases_defendant d WHERE d.case_id = c.id)
            """
        )
    return Case.objects.playable().count()


def deep_cursor(order: str) -> str:
    """The cursor a reader would hold after paging through ``DEEP`` cases in ``order``."""
    from cases import keyset
    from cases.models import Case

    case = keyset.order_by(Case.objects.playable(), order)[DEEP - 1]
    return keyset.Cursor(order, keyset.NEXT, DEEP // 12 + 1, keyset.case_key(case, order)).encode()


def _percentiles(values: list[float]) -> tuple[float, float]:
    return statistics.median(values), statistics.quantiles(values, n=20)[-1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--database", help="the bench's database (default: DATABASE_URL's name + _library)")
    parser.add_argument("--only", help="time only the pages whose label holds this text")
    parser.add_argument("--drop", action="store_true", help="delete the bench copies and stop")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("Set DATABASE_URL to a PostgreSQL server and database of your own.")
    os.environ["DATABASE_URL"] = own_database(os.environ["DATABASE_URL"], args.database)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "angryagents.settings")
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ["ANGRY_TASKS"] = "sync"
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import setup_test_environment

    import cases.import_writer as writer
    import cases.services as services
    from cases.importers.oldbailey_reasons import REASON_NO_EVIDENCE_OFFERED
    from cases.models import Case

    if args.drop:
        print(f"deleted {Case.objects.filter(slug__startswith='bench-').delete()[0]} rows")
        return
    print(f"database: {connection.settings_dict['NAME']}", flush=True)
    call_command("migrate", verbosity=0)
    call_command("load_cases", stdout=open(os.devnull, "w"))
    if not Case.objects.filter(source="oldbailey", playable=True).exists():
        print("importing the more-sessions files to copy from...", flush=True)
        services.schedule_evidence_indexes = writer.schedule_evidence_indexes = lambda ids: None  # not needed here
        services.oldbailey_import_paths(paths=sorted(MORE_SESSIONS.glob("*.xml")), workers=os.cpu_count() or 1)
    fill_start = time.perf_counter()
    total = fill(args.cases)
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE cases_case")
        cursor.execute("VACUUM ANALYZE cases_defendant")
    print(f"playable cases: {total:,} (filled and vacuumed in {time.perf_counter() - fill_start:.1f} s)", flush=True)
    urls = {
        "second": None,
        "deep_title": "/?cursor=" + deep_cursor("title"),
        "deep_newest": "/?sort=newest&cursor=" + deep_cursor("newest"),
        "why": quote_plus(REASON_NO_EVIDENCE_OFFERED),  # a rare reason: the list reads far to fill a page
    }
    setup_test_environment()
    settings.DEBUG = True  # count the queries
    settings.ALLOWED_HOSTS = ["*"]
    admin, _ = User.objects.get_or_create(username="bench-admin", defaults={"is_staff": True, "is_superuser": True})
    client = Client()
    client.force_login(admin)
    first = client.get("/").content.decode()
    urls["second"] = "/" + first.split('rel="next" href="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    print(f"cpus: {os.cpu_count()}; load average at the start: {Path('/proc/loadavg').read_text().strip()}", flush=True)
    print(f"{'page':55} {'p50 ms':>7} {'p95 ms':>7} {'DB p50':>7} {'DB p95':>7} {'queries':>7}", flush=True)
    for label, template in PAGES:
        if args.only and args.only not in label:
            continue
        url = template.format(**urls)
        headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "case-results"} if "htmx" in label else {}
        assert client.get(url, **headers).status_code == 200, url
        times, db_times = [], []
        for _ in range(args.runs):
            reset_queries()
            start = time.perf_counter()
            response = client.get(url, **headers)
            times.append(1000 * (time.perf_counter() - start))
            db_times.append(1000 * sum(float(q["time"]) for q in connection.queries))
            assert response.status_code == 200
        queries = len(connection.queries)
        (p50, p95), (db50, db95) = _percentiles(times), _percentiles(db_times)
        print(f"{label:55} {p50:7.1f} {p95:7.1f} {db50:7.1f} {db95:7.1f} {queries:7d}", flush=True)
    print(f"load average at the end: {Path('/proc/loadavg').read_text().strip()}")


if __name__ == "__main__":
    main()
