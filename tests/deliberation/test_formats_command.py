"""`deliberate` and `experiment` take the formats: turn mode, context scope, a discharge."""

from __future__ import annotations

import io
import json

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError

from cases.models import Case
from deliberation.engine.discharge import ERROR_NOT_AN_AI_JUROR
from deliberation.engine.formats import ERROR_TURN_MODE
from deliberation.management.commands.deliberate import ERROR_DISCHARGE_FORMAT
from deliberation.models import Deliberation, Experiment, Seat, Turn, TurnKind, Vote
from deliberation.services import deliberation_start
from deliberation.services.discharge import DISCHARGE_DIRECTION, juror_discharge
from deliberation.services.formats import check_format_options


def _run(*args: str) -> dict:
    out, err = io.StringIO(), io.StringIO()
    call_command("deliberate", *args, "--json", stdout=out, stderr=err)
    return json.loads(out.getvalue().strip().splitlines()[-1])


def test_deliberate_runs_round_robin_and_stores_the_formats_in_the_settings(library):
    record = _run(
        "--case",
        "pruitt-basement-killing",
        "--seed",
        "4",
        "--max-rounds",
        "4",
        "--turn-mode",
        "round-robin",
        "--context-scope",
        "last-n",
        "--last-n",
        "3",
    )
    assert record["turn_mode"] == "round-robin" and record["context_scope"] == "last-n"
    deliberation = Deliberation.objects.get(pk=record["deliberation_id"])
    assert deliberation.settings["turn_mode"] == "round-robin" and deliberation.settings["last_n"] == 3
    first_round = [t["seat"] for t in record["turns"] if t["round"] == 1]
    assert first_round == sorted(first_round) and first_round[0] == 1


def test_a_discharged_juror_leaves_the_jury_and_the_final_ballot_is_taken_on_eleven(library):
    record = _run("--case", "pruitt-basement-killing", "--seed", "4", "--max-rounds", "5", "--discharge", "5@2")
    assert record["discharged"] == [5]
    assert sum(record["final_ballot"].values()) == 11
    assert all(t["seat"] != 5 for t in record["turns"] if t["round"] >= 2)
    assert all("5" not in t["deltas"] for t in record["turns"] if t["round"] >= 2)
    deliberation = Deliberation.objects.get(pk=record["deliberation_id"])
    seat = deliberation.seats.get(number=5)
    assert seat.discharged_round == 2 and seat.vote == ""
    direction = Turn.objects.get(deliberation=deliberation, kind=TurnKind.JUDGE, target_seat=5)
    assert direction.content == DISCHARGE_DIRECTION.format(name=seat.display_name, size=11)
    assert not Vote.objects.filter(deliberation=deliberation, seat_number=5, round_number__gte=2).exists()


def test_a_bad_discharge_or_turn_mode_is_refused_with_its_message(library):
    with pytest.raises(CommandError) as bad:
        _run("--case", "pruitt-basement-killing", "--discharge", "five")
    assert str(bad.value) == ERROR_DISCHARGE_FORMAT.format(value="five")
    with pytest.raises(ValidationError) as caught:
        check_format_options({"turn_mode": "fishbowl"})
    assert caught.value.messages == [ERROR_TURN_MODE.format(value="fishbowl")]


def test_the_players_own_seat_cannot_be_discharged(library):
    case = Case.objects.get(slug="pruitt-basement-killing")
    deliberation = deliberation_start(case=case, seed=3, player_side="defend")
    with pytest.raises(ValidationError) as caught:
        juror_discharge(deliberation_id=deliberation.pk, seat_number=7)
    assert caught.value.messages == [ERROR_NOT_AN_AI_JUROR.format(seat=7)]
    assert Seat.objects.get(deliberation=deliberation, number=7).discharged_round is None


def test_an_experiment_runs_every_deliberation_under_its_turn_mode(library):
    out, err = io.StringIO(), io.StringIO()
    call_command(
        "experiment", "--cases", "pruitt-basement-killing", "--runs", "1", "--workers", "1",
        "--turn-mode", "round-robin", "--context-scope", "persona-only", stdout=out, stderr=err,
    )  # fmt: skip
    experiment = Experiment.objects.latest("pk")
    assert experiment.settings == {"turn_mode": "round-robin", "context_scope": "persona-only"}
    run = experiment.deliberations.get()
    assert run.engine_state["settings"]["turn_mode"] == "round-robin"
    first_round = list(run.turns.filter(round_number=1, kind=TurnKind.SPEECH).values_list("seat_number", flat=True))
    assert first_round == sorted(first_round) and first_round[0] == 1
