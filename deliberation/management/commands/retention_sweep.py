"""``python manage.py retention_sweep``: delete now what has outlived ANGRY_RETENTION_DAYS."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from angryagents.retention import sweep


class Command(BaseCommand):
    help = (
        "Delete classes, rooms and games untouched for ANGRY_RETENTION_DAYS days with everything their people "
        "wrote, uploads no import needs, expired sessions and spent login lockouts (what the scheduled sweep does)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        gone = sweep()
        days = settings.ANGRY_RETENTION_DAYS
        kept = f"kept for {days} days" if days else "kept until deleted (ANGRY_RETENTION_DAYS=0)"
        self.stdout.write(f"Games and classes are {kept}.")
        self.stdout.write(
            f"Deleted {gone['classes']} class(es), {gone['deliberations']} game(s) and room(s), "
            f"{gone['uploads']} upload(s), {gone['sessions']} expired session(s), "
            f"{gone['login_attempts']} spent login lockout(s)."
        )
