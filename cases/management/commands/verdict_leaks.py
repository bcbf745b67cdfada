"""``manage.py verdict_leaks``: list every passage a juror may read that looks like the historical answer.

Scans every playable case (``--all``: every case; ``--source oldbailey``: one source) through
``cases.leaks``: its summary, arguments, witnesses, evidence and the chunks of its retrieval
index. Each suspicious sentence is printed as ``<case> | <where> | <sentence>``; the last line is
always ``N suspicious passage(s) in M of K case(s)``. With ``--fail`` the command exits
non-zero when anything is found, for scripts and CI.

A flagged sentence the check can explain as another outcome than this trial's (an earlier
trial, the indictment's recital, a wish: ``cases.leaks.explain``) is not counted; ``--explained``
lists those too, as ``<case> | <where> | explained: <reason> | <sentence>``, and the line
before the last always counts them by reason.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cases.leaks import Leak, case_leaks
from cases.models import Case
from cases.retrieval import index_chunks

ERROR_LEAKS_FOUND = "{n} suspicious passage(s) found; read them above."
LAST_LINE = "{n} suspicious passage(s) in {cases} of {total} case(s)"
EXPLAINED_LINE = "{n} explained passage(s) in {cases} case(s), another outcome than the trial's{reasons}"


class Command(BaseCommand):
    help = "List verdict, sentence or mercy text in what jurors may read, for every playable case."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--all", action="store_true", help="Check unplayable cases too.")
        parser.add_argument("--source", default="", help="Only cases of this source (e.g. oldbailey).")
        parser.add_argument("--no-index", action="store_true", help="Skip the retrieval index chunks (faster).")
        parser.add_argument("--fail", action="store_true", help="Exit non-zero when anything is found.")
        parser.add_argument("--explained", action="store_true", help="List the explained passages too.")

    def handle(self, *args: Any, **options: Any) -> None:
        cases = Case.objects.with_file().order_by("source", "source_id", "slug")
        if not options["all"]:
            cases = cases.filter(playable=True)
        if options["source"]:
            cases = cases.filter(source=options["source"])
        leaks: list[Leak] = []
        explained: list[Leak] = []
        total = 0
        for case in cases.iterator(chunk_size=200):
            total += 1
            chunks = () if options["no_index"] else index_chunks(case)
            for leak in case_leaks(case, chunks=chunks):
                if leak.reason:
                    explained.append(leak)
                    if options["explained"]:
                        self.stdout.write(f"{leak.case} | {leak.where} | explained: {leak.reason} | {leak.text}")
                    continue
                leaks.append(leak)
                self.stdout.write(f"{leak.case} | {leak.where} | {leak.text}")
        reasons = Counter(leak.reason for leak in explained)
        self.stdout.write(
            EXPLAINED_LINE.format(
                n=len(explained),
                cases=len({leak.case for leak in explained}),
                reasons="".join(f"; {reason} {n}" for reason, n in sorted(reasons.items())),
            )
        )
        affected = len({leak.case for leak in leaks})
        self.stdout.write(LAST_LINE.format(n=len(leaks), cases=affected, total=total))
        if leaks and options["fail"]:
            raise CommandError(ERROR_LEAKS_FOUND.format(n=len(leaks)))
