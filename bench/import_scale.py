"""Import throughput at the scale of the Proceedings, on PostgreSQL (service mode).

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/wt_me .venv/bin/python bench/import_scale.py [--runs 3]
    .venv/bin/python bench/import_scale.py --parse-only     # the parser's CPU per trial alone

Imports the 13 whole sessions of ``more-sessions/`` (1,594 trials, 1800-1913) into a database
of its own, ``<the DATABASE_URL database>_import`` (created if missing, ``--database`` names
another), after deleting its Old Bailey cases, ``--runs`` times: parsing in N worker
processes, bulk writes, one transaction per file, the library's full-text index kept by the
database. The evidence indexes are queued in batches (one per file) as the import would send
them to Celery; the bench then builds a sample of them to give their rate per core.

Prints the wall-clock rate (best and median of the runs; how long the writer wrote and how
long it waited for parsed files), the load average before and after, the CPU seconds per trial
of every process involved (the writer, the parsing workers and the PostgreSQL backend, read
from /proc), and the projected time for
the whole 1800-1913 release (about 130,000 trials) both at the measured rate and on an idle
machine with the same number of cores. On a machine shared with other work the wall-clock
figure is the pessimistic one; the CPU figures hardly depend on the load.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
MORE_SESSIONS = Path("/work/shared/data/oldbailey/more-sessions")
RELEASE_TRIALS = 130_000
TICKS = os.sysconf("SC_CLK_TCK")


def _proc_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def parse_only(files: list[Path]) -> None:
    """CPU per trial of ``parse_file`` alone, best of two passes (no worker start-up, no writes)."""
    sys.path.insert(0, str(ROOT))
    from cases.importers.oldbailey import parse_file

    data = [(path.name, path.read_bytes()) for path in files]
    best = float("inf")
    for _ in range(2):
        start = time.process_time()
        trials = sum(len(parse_file(raw, name=name, max_bytes=1 << 30).trials) for name, raw in data)
        best = min(best, (time.process_time() - start) / trials)
    print(f"parsing alone: {1000 * best:.2f} ms CPU per trial ({trials} trials); load average {os.getloadavg()[0]:.1f}")


def own_database(url: str, name: str | None) -> str:
    """The URL of the bench's own database beside ``url``'s, created if it does not exist."""
    import psycopg

    parts = urlsplit(url)
    name = name or parts.path.lstrip("/") + "_import"
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as server:
        if not server.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            server.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path="/" + name))


def _loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--dir", type=Path, default=MORE_SESSIONS)
    parser.add_argument("--runs", type=int, default=1, help="full imports to time (the best and the median)")
    parser.add_argument("--database", help="the bench's database (default: DATABASE_URL's name + _import)")
    parser.add_argument("--sample", type=int, default=100, help="evidence indexes to build for their rate (0: none)")
    parser.add_argument("--parse-only", action="store_true", help="time the parser alone (no database)")
    args = parser.parse_args()
    if args.parse_only:
        parse_only(sorted(args.dir.glob("*.xml")))
        return
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
    from django.core.management import call_command
    from django.db import connection

    import cases.import_writer as writer
    import cases.services as services
    from cases.models import Case, ImportedFile
    from cases.retrieval import rebuild_case_indexes

    call_command("migrate", verbosity=0)
    queued: list[int] = []
    services.schedule_evidence_indexes = queued.extend  # the queue, as Celery would receive it
    writer.schedule_evidence_indexes = queued.extend
    writing = [0.0]  # the writer's own time (its CPU and its waits on PostgreSQL), file by file
    write_file = services.oldbailey_write_file

    def timed_write(**kwargs: object) -> object:
        start = time.perf_counter()
        try:
            return write_file(**kwargs)  # type: ignore[arg-type]
        finally:
            writing[0] += time.perf_counter() - start

    services.oldbailey_write_file = timed_write  # type: ignore[assignment]
    files = sorted(args.dir.glob("*.xml"))
    megabytes = sum(p.stat().st_size for p in files) / 1e6
    print(f"database: {connection.settings_dict['NAME']}; load average at the start: {_loadavg()}", flush=True)
    runs = []
    for _ in range(max(1, args.runs)):
        Case.objects.filter(source="oldbailey").delete()
        ImportedFile.objects.all().delete()
        queued.clear()
        writing[0] = 0.0
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE cases_case")
            cursor.execute("SELECT pg_backend_pid()")
            backend = cursor.fetchone()[0]
        db0, main0, kids0, start = _proc_cpu(backend), time.process_time(), _children_cpu(), time.perf_counter()
        report = services.oldbailey_import_paths(paths=files, workers=args.workers, resume=False)
        wall = time.perf_counter() - start
        db_cpu, main_cpu, kids_cpu = _proc_cpu(backend) - db0, time.process_time() - main0, _children_cpu() - kids0
        assert not report.errors, report.errors
        runs.append((wall, writing[0], db_cpu, main_cpu, kids_cpu))
        print(
            f"  run {len(runs)}: {report.trials / wall:6.1f} trials/s wall ({wall:.1f} s), load {_loadavg()}",
            flush=True,
        )
    trials = report.trials
    wall, write_wall, db_cpu, main_cpu, kids_cpu = min(runs)
    median_wall = statistics.median(run[0] for run in runs)
    cpu = db_cpu + main_cpu + kids_cpu
    searchable = Case.objects.extra(where=["search_vector IS NOT NULL"]).count()

    sample = queued[: args.sample]
    index_rate = 0.0
    if sample:
        index_start = time.perf_counter()
        rebuild_case_indexes(case_ids=sample)
        index_rate = len(sample) / (time.perf_counter() - index_start)

    cores = os.cpu_count() or 1
    print(f"files: {len(files)} session files, {megabytes:.1f} MB, {trials} trials ({args.dir})")
    print(f"cpus: {cores}; parsing workers: {args.workers}; load average at the end: {_loadavg()}")
    print(
        f"import, wall clock (parse + bulk writes + full-text index, one transaction per file): "
        f"{trials / wall:8.1f} trials/s best of {len(runs)} ({wall:.1f} s), {trials / median_wall:.1f} median"
    )
    print(
        f"  of which the writer wrote for {write_wall:.1f} s and waited for parsed files {wall - write_wall:.1f} s "
        f"(writing alone: {trials / write_wall:.0f} trials/s)"
    )
    print(
        f"cpu per trial: {1000 * cpu / trials:.2f} ms = parse workers {1000 * kids_cpu / trials:.2f} + "
        f"writer {1000 * main_cpu / trials:.2f} + PostgreSQL {1000 * db_cpu / trials:.2f}"
    )
    print(f"idle-machine ceiling on {cores} cores: {cores * trials / cpu:8.1f} trials/s")
    print(f"cases searchable by full text: {searchable}; evidence-index batches queued for {len(queued)} cases")
    if sample:
        print(f"evidence indexes (background, per core): {index_rate:8.1f} cases/s (sample of {len(sample)})")
    measured, ceiling = RELEASE_TRIALS / (trials / wall) / 60, RELEASE_TRIALS / (cores * trials / cpu) / 60
    print(
        f"whole release ({RELEASE_TRIALS:,} trials): {measured:.0f} min at the measured rate, "
        f"{ceiling:.0f} min at the idle-machine ceiling"
    )


if __name__ == "__main__":
    main()
