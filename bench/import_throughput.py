"""Import throughput on the two whole session files of the sample, in trials per second.

Prints parse-only throughput and the full import (parse, write, and the per-case index
rebuild that follows each commit), each the best of three runs on a fresh database.
"""

from __future__ import annotations

import shutil
import time

from _django import DATA, setup


def main() -> None:
    scratch = setup()
    from django.conf import settings

    from cases.importers.oldbailey import parse_file
    from cases.models import Case
    from cases.services import oldbailey_import_paths

    sessions = sorted((DATA / "sessions").glob("*.xml"))
    blobs = [(p, p.read_bytes()) for p in sessions]
    parse_times, trials = [], 0
    for _ in range(3):
        start = time.perf_counter()
        trials = sum(
            len(parse_file(b, name=p.name, max_bytes=settings.ANGRY_IMPORT_MAX_BYTES).trials) for p, b in blobs
        )
        parse_times.append(time.perf_counter() - start)
    import_times = []
    for _ in range(3):
        Case.objects.all().delete()
        shutil.rmtree(scratch / "index", ignore_errors=True)
        start = time.perf_counter()
        report = oldbailey_import_paths(paths=sessions, resume=False)
        import_times.append(time.perf_counter() - start)
        assert report.imported == trials and not report.errors, report.lines()
    reimport_start = time.perf_counter()
    oldbailey_import_paths(paths=sessions, resume=False)
    reimport = time.perf_counter() - reimport_start
    print(f"session files: {', '.join(p.name for p in sessions)} ({trials} trials)")
    print(f"parse only:            {trials / min(parse_times):8.1f} trials/s")
    print(f"full import + indexes: {trials / min(import_times):8.1f} trials/s")
    print(f"re-import (unchanged): {trials / reimport:8.1f} trials/s")
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
