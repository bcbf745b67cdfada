"""``manage.py import_oldbailey PATH [PATH ...]``: import Old Bailey session, trial or OBC2 files.

A bad file (malformed, hostile, oversize, unreadable) is reported on stderr as it happens and
the command goes on with the other files: one bad file in a batch of a hundred should not
cost the other ninety-nine, and each file is its own transaction, so nothing of the bad file
is left behind. The command still exits non-zero at the end so scripts notice. The last
line on stdout is always ``imported N, updated M, skipped K``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from cases.services import ImportReport, oldbailey_import_paths

ERROR_FILES_FAILED = "{n} file(s) could not be imported; see the errors above."
ERROR_NO_FILES = "No XML files found in: {paths}."


class Command(BaseCommand):
    help = "Import Old Bailey Proceedings XML (OBO 7.2 sessions or trials, OBC2) as cases."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", type=Path, help="XML files, or folders holding *.xml files.")

    def handle(self, *args: Any, **options: Any) -> None:
        files = _expand(options["paths"])
        if not files:
            raise CommandError(ERROR_NO_FILES.format(paths=", ".join(map(str, options["paths"]))))
        failed = 0
        with tqdm(total=len(files), unit="file", file=self.stderr._out, disable=False) as bar:

            def on_file(path: Path, result: ImportReport) -> None:
                nonlocal failed
                for message in result.errors:
                    failed += 1
                    bar.write(f"error: {message}", file=self.stderr._out)
                bar.update(1)

            report = oldbailey_import_paths(paths=files, on_file=on_file)
        for line in report.lines()[:-1]:
            if not line.startswith("error: "):  # errors were already printed as they happened
                self.stdout.write(line)
        self.stdout.write(report.last_line())
        if failed:
            raise CommandError(ERROR_FILES_FAILED.format(n=failed))


def _expand(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        files.extend(sorted(path.glob("*.xml")) if path.is_dir() else [path])
    return files
