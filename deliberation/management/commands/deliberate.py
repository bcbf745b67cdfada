"""Run one deliberation end to end from the command line and store it.

Progress and the transcript go to stderr; with ``--json`` the last line of stdout is one JSON
object (see ``selectors.run_record``). With ``--side defend|prosecute`` seat 7 is an automated
player who argues that side through the mind's ``craft_argument``; with ``--side none`` the
"Juror 7" persona sits there.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from cases.models import Case
from deliberation import services
from deliberation.engine.rules import RULE_NAMES
from deliberation.management.format_arguments import add_format_arguments, format_options
from deliberation.minds.factory import engine_label
from deliberation.models import Deliberation, Phase
from deliberation.selectors import deliberations_with_record, run_record
from deliberation.services.counsel import trial_advance
from deliberation.services.discharge import juror_discharge
from jurors.models import PLAYER_SEAT

# The automated player's repertoire; a custom argument needs a person's own words.
AUTO_STRATEGIES = ("challenge_evidence", "question_witness", "reasonable_doubt", "alternative_theory", "address_juror")
ERROR_DISCHARGE_FORMAT = "--discharge takes SEAT@ROUND, such as 5@3 (not {value!r})."
ERROR_NO_CASE = "No case with slug {slug!r}. Try one of: {choices}."
WARNING_FALLBACK = (
    "warning: from round {round} some turns fell back to the offline engine ({reason}); "
    "the transcript marks each one.\n"
)


def rule_options(options: dict[str, Any]) -> dict[str, Any]:
    """The jury rules and foreperson settings given on the command line, as deliberation options."""
    given = {
        "rules": options.get("rules") or "unanimous",
        "poll": options.get("poll") or "hands",
        "foreperson_summary_every": options.get("summary_every"),
        "no_new_rounds": options.get("no_new_rounds"),
        "majority_after_rounds": options.get("majority_after"),
    }
    return {name: value for name, value in given.items() if value is not None}


class Command(BaseCommand):
    help = "Run a deliberation end to end and store it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--case", required=True, help="the case's slug")
        parser.add_argument("--engine", default=None, help="'offline' or a LiteLLM model string")
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--max-rounds", type=int, default=None)
        parser.add_argument("--side", choices=("defend", "prosecute", "none"), default="none")
        parser.add_argument("--rules", choices=RULE_NAMES, default="unanimous", help="the jury's rule set")
        parser.add_argument("--poll", choices=("hands", "secret"), default="hands", help="how the foreperson polls")
        parser.add_argument("--summary-every", type=int, default=None, help="foreperson's summary every N rounds")
        parser.add_argument("--no-new-rounds", type=int, default=None, help="end after K rounds with nothing new")
        parser.add_argument(
            "--majority-after", type=int, default=None, help="england-wales: rounds before the majority direction"
        )
        parser.add_argument("--json", action="store_true", help="print the run as one JSON line last")
        parser.add_argument(
            "--trial", action="store_true", help="hold the trial (counsel, witnesses, objections) first"
        )
        add_format_arguments(parser)
        parser.add_argument(
            "--discharge",
            default="",
            metavar="SEAT@ROUND",
            help="the judge discharges the AI juror in SEAT (illness) before ROUND, e.g. 5@3",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        case = Case.objects.filter(slug=options["case"]).first()
        if case is None:
            choices = ", ".join(Case.objects.playable().values_list("slug", flat=True)[:8])
            raise CommandError(ERROR_NO_CASE.format(slug=options["case"], choices=choices))
        side = options["side"]
        try:
            deliberation = services.deliberation_start(
                case=case,
                engine=options["engine"],
                seed=options["seed"],
                player_side=side,
                host_plays=side != "none",
                max_rounds=options["max_rounds"],
                options={
                    **rule_options(options),
                    **format_options(options),
                    **({"trial": True} if options["trial"] else {}),
                },
            )
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from None
        err = sys.stderr
        if deliberation.phase == Phase.TRIAL:  # a model's witnesses: the trial is played step by step
            trial_advance(deliberation_id=deliberation.pk)
            deliberation.refresh_from_db()
        discharge_at = self._discharge_at(options["discharge"])
        player = random.Random(deliberation.seed)
        limit = (deliberation.settings or {}).get("max_rounds") or 20
        err.write(f"Deliberation {deliberation.pk}: {case.title} ({engine_label(deliberation.engine)})\n")
        warned = False
        with tqdm(total=limit, desc="rounds", unit="round", file=err, leave=False) as progress:
            while deliberation.phase == Phase.DELIBERATION:
                if side != "none":
                    self._automated_move(deliberation, player)
                before = deliberation.round_number
                if discharge_at and discharge_at[1] == before + 1:
                    self._discharge(deliberation, discharge_at[0])
                if not services.round_run(deliberation_id=deliberation.pk):
                    raise CommandError(f"Round {before + 1} could not be run; see the log.")
                deliberation.refresh_from_db()
                progress.update(deliberation.round_number - before)
                fallback = deliberation.turns.filter(round_number__gt=before, is_fallback=True).first()
                if fallback is not None and not warned:
                    warned = True
                    err.write(WARNING_FALLBACK.format(round=fallback.round_number, reason=fallback.fallback_reason))
        record = run_record(deliberations_with_record().get(pk=deliberation.pk))
        self._print_transcript(deliberation, err)
        if options["json"]:
            self.stdout.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
        else:
            self.stdout.write(
                f"deliberation {record['deliberation_id']}: {record['verdict']} after {record['rounds']} rounds "
                f"({record['llm_calls']} model calls)"
            )

    @staticmethod
    def _discharge_at(value: str) -> tuple[int, int] | None:
        if not value:
            return None
        seat, _, number = value.partition("@")
        if not (seat.isdigit() and number.isdigit()):
            raise CommandError(ERROR_DISCHARGE_FORMAT.format(value=value))
        return int(seat), int(number)

    def _discharge(self, deliberation: Deliberation, seat: int) -> None:
        try:
            juror_discharge(deliberation_id=deliberation.pk, seat_number=seat)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from None
        deliberation.refresh_from_db()

    def _automated_move(self, deliberation: Deliberation, rng: random.Random) -> None:
        strategy = rng.choice(AUTO_STRATEGIES)
        target = None
        if strategy == "address_juror":
            against = "guilty" if deliberation.player_side == "defend" else "not_guilty"
            holdouts = list(
                deliberation.seats.filter(kind="ai", vote=against).order_by("number").values_list("number", flat=True)
            )
            if not holdouts:
                strategy = "reasonable_doubt" if deliberation.player_side == "defend" else "challenge_evidence"
            else:
                target = rng.choice(holdouts)
        services.player_speak(
            deliberation_id=deliberation.pk, seat_number=PLAYER_SEAT, strategy=strategy, target=target, start=False
        )

    def _print_transcript(self, deliberation: Deliberation, err: Any) -> None:
        deliberation.refresh_from_db()
        for turn in deliberation.turns.all():
            to = f" -> seat {turn.target_seat}" if turn.target_seat else ""
            kind = f"[{turn.argument_type}]" if turn.argument_type else f"({turn.get_kind_display().lower()})"
            err.write(f"R{turn.round_number} {turn.speaker_name}{to} {kind}: {turn.content}\n")
        err.write(f"Verdict: {deliberation.verdict_words} ({deliberation.get_end_reason_display()})\n")
