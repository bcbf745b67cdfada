"""Load the shipped content: the jury and the curated cases. Idempotent."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from cases.curation import CURATED_DIR, case_import_yaml_file
from jurors.services import shipped_jurors_load


class Command(BaseCommand):
    help = "Load the eleven jurors, Juror 7 and the curated cases (running it twice changes nothing)."

    def handle(self, *args: Any, **options: Any) -> None:
        written = shipped_jurors_load()
        self.stdout.write(f"jurors: {written} row(s) written")
        counts = {"created": 0, "updated": 0, "unchanged": 0}
        for path in sorted(CURATED_DIR.glob("*.yaml")):
            try:
                _case, status = case_import_yaml_file(path=path)
            except ValidationError as exc:
                raise CommandError(" ".join(exc.messages)) from None
            counts[status] += 1
        self.stdout.write("cases: {created} created, {updated} updated, {unchanged} unchanged".format(**counts))
