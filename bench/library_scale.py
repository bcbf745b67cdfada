"""The case library with 100,000 cases: home page, search and admin list latency, on PostgreSQL.

    DATABASE_URL=postgresql://... .venv/bin/python bench/library_scale.py [--cases 100000] [--runs 40]

Fills the library up to ``--cases`` playable cases by copying the Old Bailey cases already in
the database (run ``bench/import_scale.py`` first: its 1,594 real trials give real titles,
summaries, years and offences) under new slugs, then times each page through Django's test
client (URL routing, the view, its queries and the template) and prints p50 and p95 over
``--runs`` requests after one warm-up, with the number of queries each page made and the time
the database took for them (p50; it depends on the machine's load far less than the whole). The copies
keep their slugs starting ``bench-`` so ``--drop`` removes them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [
    ("home, front page", "/"),
    ("home, page 4,000", "/?page=4000"),
    ("search 'theft' (common word)", "/?q=theft"),
    ("search 'silver watch'", "/?q=silver+watch"),
    ("search 'highway robbery', newest first", "/?q=highway+robbery&sort=newest"),
    ("filter: kill in the 1850s", "/?offence=kill&decade=1850"),
    ("filter: verdict known, oldest first", "/?verdict=known&sort=oldest"),
    ("filter + htmx partial", "/?offence=theft&exclude=violence"),
    ("admin list", "/admin/cases/case/"),
    ("admin list, page 200 (the last within the count cap)", "/admin/cases/case/?p=199"),
    ("admin search 'watch'", "/admin/cases/case/?q=watch"),
    ("admin filter source + era", "/admin/cases/case/?source__exact=oldbailey&decade=1850"),
]
COPY_FIELDS = (
    "title",
    "summary",
    "charges",
    "offence_category",
    "difficulty",
    "year",
    "jurisdiction",
    "historical_verdict",
    "historical_punishment",
    "content_notes",
)


def fill(target: int) -> int:
    from cases.models import Case, Defendant

    have = Case.objects.playable().count()
    templates = list(Case.objects.filter(source="oldbailey", playable=True).values(*COPY_FIELDS)[:5000])
    if not templates:
        sys.exit("No Old Bailey cases to copy: run bench/import_scale.py first.")
    start = Case.objects.filter(slug__startswith="bench-").count()
    batch: list[Case] = []
    for n in range(start, start + max(0, target - have)):
        row = templates[n % len(templates)]
        batch.append(Case(slug=f"bench-{n}", source="other", source_id=f"bench-{n}", playable=True, **row))
        if len(batch) == 5000:
            _create_with_defendants(Case, Defendant, batch)
            batch.clear()
            print(f"  {Case.objects.count():,} cases", flush=True)
    _create_with_defendants(Case, Defendant, batch)
    return Case.objects.playable().count()


def _create_with_defendants(case_model, defendant_model, batch: list) -> None:
    """A playable case has a defendant to try (``Case.objects.playable``): each copy gets one."""
    created = case_model.objects.bulk_create(batch)
    names = [case.title.removeprefix("The Crown v. ").removesuffix(" and others")[:200] for case in created]
    defendant_model.objects.bulk_create(
        [
            defendant_model(case=case, name=name or "Unnamed", position=0)
            for case, name in zip(created, names, strict=True)
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--drop", action="store_true", help="delete the bench copies and stop")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("Set DATABASE_URL to a PostgreSQL database of your own.")
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

    from cases.models import Case

    if args.drop:
        print(f"deleted {Case.objects.filter(slug__startswith='bench-').delete()[0]} rows")
        return
    call_command("migrate", verbosity=0)
    call_command("load_cases", stdout=open(os.devnull, "w"))
    total = fill(args.cases)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE cases_case")
    setup_test_environment()
    settings.DEBUG = True  # count the queries
    settings.ALLOWED_HOSTS = ["*"]
    admin, _ = User.objects.get_or_create(username="bench-admin", defaults={"is_staff": True, "is_superuser": True})
    client = Client()
    client.force_login(admin)
    print(f"playable cases: {total:,}; cpus: {os.cpu_count()}; load average: {os.getloadavg()[0]:.1f}", flush=True)
    print(f"{'page':52} {'p50 ms':>8} {'p95 ms':>8} {'queries':>8} {'DB ms p50':>10}", flush=True)
    for label, url in PAGES:
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
        p95 = statistics.quantiles(times, n=20)[-1]
        db = statistics.median(db_times)
        print(f"{label:52} {statistics.median(times):8.1f} {p95:8.1f} {queries:8d} {db:10.1f}", flush=True)
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
