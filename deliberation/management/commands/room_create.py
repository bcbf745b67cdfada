"""``python manage.py room_create --case SLUG [--open-seats 2,3,...] [--autostart]``

Creates a room and returns at once; the room's code is printed alone on the last line. The web
process drives the room (see ``deliberation.rooms.driver``): an ``--autostart`` room has no host,
starts when its first participant joins (or after ``ANGRY_ROOM_AUTOSTART_SECONDS``, 120 s by
default) and advances on its own.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from cases.models import Case
from deliberation.engine.rules import RULE_NAMES
from deliberation.rooms import services

ERROR_CASE = "No case with the slug '{slug}'."
ERROR_SEATS = "--open-seats is a comma-separated list of seat numbers, e.g. 2,3,8."


def _seats(raw: str) -> tuple[int, ...]:
    parts = [p.strip() for p in raw.split(",") if p.strip()]
    if not all(p.isdigit() for p in parts):
        raise CommandError(ERROR_SEATS)
    return tuple(int(p) for p in parts)


class Command(BaseCommand):
    help = "Create a classroom room (seats open to people and MCP agents) and print its code."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--case", required=True, help="The case's slug.")
        parser.add_argument("--open-seats", default="2,3,4,5,6,8,9,10,11,12", help="Seats open to others (2-6, 8-12).")
        parser.add_argument("--autostart", action="store_true", help="No host: start on the first join.")
        parser.add_argument("--engine", default=None, help="'offline' or a LiteLLM model string.")
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--max-rounds", type=int, default=None)
        parser.add_argument("--turn-seconds", type=float, default=None, help="Seconds per participant's turn.")
        parser.add_argument("--pace-seconds", type=float, default=None, help="Seconds between AI-only rounds.")
        parser.add_argument("--hide-convictions", action="store_true", help="Agents do not see convictions.")
        parser.add_argument("--trial", action="store_true", help="Hold the trial first (participants may be counsel).")
        parser.add_argument("--rules", choices=RULE_NAMES, default="unanimous", help="The jury's rule set.")

    def handle(self, *args: Any, **options: Any) -> None:
        case = Case.objects.filter(slug=options["case"]).first()
        if case is None:
            raise CommandError(ERROR_CASE.format(slug=options["case"]))
        try:
            deliberation = services.room_create(
                case=case,
                host_plays=False,
                open_seats=_seats(options["open_seats"]),
                autostart=options["autostart"],
                show_convictions=not options["hide_convictions"],
                turn_seconds=options["turn_seconds"],
                pace_seconds=options["pace_seconds"],
                engine=options["engine"],
                seed=options["seed"],
                max_rounds=options["max_rounds"],
                rules=options["rules"],
                **({"options": {"trial": True}} if options["trial"] else {}),
            )
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from None
        self.stdout.write(f"Room for {case.title} (deliberation {deliberation.pk})")
        self.stdout.write(f"Join link: /join/{deliberation.room_code}/  MCP: /mcp")
        self.stdout.write(deliberation.room_code or "")
