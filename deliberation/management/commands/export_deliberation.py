"""Write one stored deliberation out as Markdown, JSON or a summary (seed 003's logging modes).

``ID`` is the ``deliberation_id`` that ``deliberate`` prints. Output goes to stdout unless
``--out FILE``; turn content is written verbatim.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from deliberation.models import Deliberation
from deliberation.review import exports
from deliberation.review.selectors import build_transcript, deliberation_for_review

ERROR_NO_DELIBERATION = "No deliberation with id {pk}."
ERROR_UNWRITABLE = "Cannot write {path}: {reason}."


class Command(BaseCommand):
    help = "Export a stored deliberation as Markdown, JSON or a summary."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("id", type=int, help="the deliberation_id printed by `deliberate`")
        parser.add_argument("--format", choices=sorted(exports.FORMATS), default="md")
        parser.add_argument("--out", default=None, help="write to this file instead of stdout")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            deliberation = deliberation_for_review(options["id"])
        except Deliberation.DoesNotExist:
            raise CommandError(ERROR_NO_DELIBERATION.format(pk=options["id"])) from None
        text = exports.render(build_transcript(deliberation), options["format"])
        if options["out"]:
            path = Path(options["out"])
            try:
                # newline="" keeps the content's own line endings exactly as stored.
                path.write_text(text, encoding="utf-8", newline="")
            except OSError as exc:
                raise CommandError(ERROR_UNWRITABLE.format(path=path, reason=exc.strerror or exc)) from None
            self.stderr.write(f"Wrote {path} ({len(text.encode('utf-8'))} bytes).")
        else:
            self.stdout.write(text, ending="")
