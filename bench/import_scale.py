"""Import throughput at the scale of the Proceedings, on PostgreSQL (service mode).

    DATABASE_URL=postgresql://... .venv/bin/python bench/import_scale.py [--workers N] [--dir DIR]
    .venv/bin/python bench/import_scale.py --parse-only     # the parser's CPU per trial alone

Imports the 13 whole sessions of ``more-sessions/`` (1,594 trials, 1800-1913) into the
database named by DATABASE_URL, after deleting its Old Bailey cases: parsing in N worker
processes, bulk writes, one transaction per file, the library's full-text index kept by the
database. The evidence indexes are queued in batches (one per file) as the import would send
them to Celery; the bench then builds a sample of them to give their rate per core.

Prints the wall-clock rate, the CPU seconds per trial of every process involved (the writer,
the parsing workers and the PostgreSQL backend, read from /proc), and the projected time for
the whole 1800-1913 release (about 130,000 trials) both at the measured rate and on an idle
machine with the same number of cores. On a machine shared with other work the wall-clock
figure is the pessimistic one; the CPU figures hardly depend on the load.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--dir", type=Path, default=MORE_SESSIONS)
    parser.add_argument("--sample", type=int, default=100, help="evidence indexes to build for their rate")
    parser.add_argument("--parse-only", action="store_true", help="time the parser alone (no database)")
    args = parser.parse_args()
    if args.parse_only:
        parse_only(sorted(args.dir.glob("*.xml")))
        return
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("Set DATABASE_URL to a PostgreSQL database of your own: this bench deletes its Old Bailey cases.")
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
    files = sorted(args.dir.glob("*.xml"))
    megabytes = sum(p.stat().st_size for p in files) / 1e6
    Case.objects.filter(source="oldbailey").delete()
    ImportedFile.objects.all().delete()
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE cases_case")
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]

    db0, main0, kids0, start = _proc_cpu(backend), time.process_time(), _children_cpu(), time.perf_counter()
    report = services.oldbailey_import_paths(paths=files, workers=args.workers, resume=False)
    wall = time.perf_counter() - start
    db_cpu, main_cpu, kids_cpu = _proc_cpu(backend) - db0, time.process_time() - main0, _children_cpu() - kids0
    assert not report.errors, report.errors
    trials = report.trials
    cpu = db_cpu + main_cpu + kids_cpu
    searchable = Case.objects.extra(where=["search_vector IS NOT NULL"]).count()

    sample = queued[: args.sample]
    index_start = time.perf_counter()
    rebuild_case_indexes(case_ids=sample)
    index_rate = len(sample) / (time.perf_counter() - index_start)

    cores = os.cpu_count() or 1
    print(f"files: {len(files)} session files, {megabytes:.1f} MB, {trials} trials ({args.dir})")
    print(f"cpus: {cores}; parsing workers: {args.workers}; load average at the end: {os.getloadavg()[0]:.1f}")
    print(f"import (parse + bulk writes + full-text index): {trials / wall:8.1f} trials/s wall ({wall:.1f} s)")
    print(
        f"cpu per trial: {1000 * cpu / trials:.2f} ms = parse workers {1000 * kids_cpu / trials:.2f} + "
        f"writer {1000 * main_cpu / trials:.2f} + PostgreSQL {1000 * db_cpu / trials:.2f}"
    )
    print(f"idle-machine ceiling on {cores} cores: {cores * trials / cpu:8.1f} trials/s")
    print(f"cases searchable by full text: {searchable}; evidence-index batches queued for {len(queued)} cases")
    print(f"evidence indexes (background, per core): {index_rate:8.1f} cases/s (sample of {len(sample)})")
    measured, ceiling = RELEASE_TRIALS / (trials / wall) / 60, RELEASE_TRIALS / (cores * trials / cpu) / 60
    print(
        f"whole release ({RELEASE_TRIALS:,} trials): {measured:.0f} min at the measured rate, "
        f"{ceiling:.0f} min at the idle-machine ceiling"
    )


if __name__ == "__main__":
    main()
