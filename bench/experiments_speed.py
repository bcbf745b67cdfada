"""Wall time of 100 offline deliberations run as one experiment. Target: under 60 s on 2 cores.

Run: .venv/bin/python bench/experiments_speed.py [--cases 20] [--runs 5] [--workers 2]
On a throw-away SQLite database: the shipped jury and the Old Bailey trials are loaded first
(not timed), then ``manage.py experiment`` runs cases x runs deliberations in worker processes
and stores every run. The figure is the command's wall time, storing and measuring included.
"""

from __future__ import annotations

import argparse
import io
import json
import time

from _django import DATA, setup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=20)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    setup()
    from django.core.management import call_command

    from cases.models import Case

    call_command("load_cases", stdout=io.StringIO())
    call_command("import_oldbailey", str(DATA / "trials"), stdout=io.StringIO(), stderr=io.StringIO())
    slugs = list(Case.objects.filter(source="oldbailey", playable=True).order_by("slug").values_list("slug", flat=True))
    chosen = ",".join(slugs[: args.cases])
    out = io.StringIO()
    start = time.perf_counter()
    call_command(
        "experiment",
        "--cases",
        chosen,
        "--runs",
        str(args.runs),
        "--workers",
        str(args.workers),
        "--json",
        stdout=out,
        stderr=io.StringIO(),
    )
    wall = time.perf_counter() - start
    figures = json.loads(out.getvalue().strip().splitlines()[-1])
    runs = figures["runs"]
    print(f"{runs} offline deliberations ({args.cases} cases x {args.runs} runs, {args.workers} workers)")
    print(f"wall time: {wall:.1f} s (target: under 60 s for 100)")
    print(f"per run: {wall / runs * 1000:.0f} ms; mean rounds {figures['mean_rounds']}")


if __name__ == "__main__":
    main()
