"""``manage.py import_oldbailey PATH [PATH ...]``: import Old Bailey session, trial or OBC2 files.

A bad file (malformed, hostile, oversize, unreadable) is reported on stderr as it happens and
the command goes on with the other files: one bad file in a batch of a hundred should not
cost the other ninety-nine, and each file is its own transaction, so nothing of the bad file
is left behind. The command still exits non-zero at the end so scripts notice. The last
line on stdout is always ``imported N, updated M, skipped K``.

Files are parsed in ``--workers`` processes (default: one per CPU) while this process writes.
An interrupted import resumes: files a previous run committed are not read again (``--again``
reads everything). The progress bar runs over the bytes of the files and shows trials a second
and the time left.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from cases.services import ImportReport, oldbailey_import_paths

ERROR_FILES_FAILED = "{n} file(s) could not be imported; see the errors above."
ERROR_NO_FILES = "No XML files found in: {paths}."
BAR = "{percentage:3.0f}%|{bar}| {n_fmt}B/{total_fmt}B [{elapsed} elapsed, {remaining} left{postfix}]"


class Command(BaseCommand):
    help = "Import Old Bailey Proceedings XML (OBO 7.2 sessions or trials, OBC2) as cases."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", type=Path, help="XML files, or folders holding *.xml files.")
        parser.add_argument(
            "--workers", type=int, default=os.cpu_count() or 1, help="Parsing processes (default: one per CPU)."
        )
        parser.add_argument(
            "--again", action="store_true", help="Read every file, even those an earlier run already imported."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        files = _expand(options["paths"])
        if not files:
            raise CommandError(ERROR_NO_FILES.format(paths=", ".join(map(str, options["paths"]))))
        failed = trials = 0
        sizes = {path: _size(path) for path in files}
        started = time.monotonic()
        with tqdm(total=sum(sizes.values()), unit="B", unit_scale=True, file=self.stderr._out, bar_format=BAR) as bar:

            def on_file(path: Path, result: ImportReport) -> None:
                nonlocal failed, trials
                for message in result.errors:
                    failed += 1
                    bar.write(f"error: {message}", file=self.stderr._out)
                if not result.files_resumed:  # resumed files cost nothing: they would inflate the rate
                    trials += result.trials
                else:
                    bar.total -= sizes[path]
                bar.set_postfix_str(f"{trials / max(time.monotonic() - started, 1e-9):.0f} trials/s", refresh=False)
                bar.update(0 if result.files_resumed else sizes[path])

            report = oldbailey_import_paths(
                paths=files, on_file=on_file, workers=options["workers"], resume=not options["again"]
            )
        for line in report.lines()[:-1]:
            if not line.startswith("error: "):  # errors were already printed as they happened
                self.stdout.write(line)
        self.stdout.write(report.last_line())
        if failed:
            raise CommandError(ERROR_FILES_FAILED.format(n=failed))


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _expand(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        files.extend(sorted(path.glob("*.xml")) if path.is_dir() else [path])
    return files
