"""`manage.py deliberate` runs a whole deliberation and prints one JSON line last."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from cases.models import Case

KEYS = {
    "deliberation_id",
    "case",
    "engine",
    "seed",
    "rounds",
    "verdict",
    "first_ballot",
    "final_ballot",
    "vote_changes",
    "llm_calls",
    "prompt_tokens",
    "turns",
}


def _run(*args: str) -> dict:
    out, err = io.StringIO(), io.StringIO()
    call_command("deliberate", *args, "--json", stdout=out, stderr=err)
    return json.loads(out.getvalue().strip().splitlines()[-1])


def test_the_json_line_holds_the_whole_run(library):
    record = _run("--case", "pruitt-basement-killing", "--seed", "4")
    assert KEYS <= set(record)
    assert record["verdict"] in {"guilty", "not_guilty", "hung"}
    assert sum(record["first_ballot"].values()) == sum(record["final_ballot"].values()) == 12
    assert record["llm_calls"] >= record["rounds"] * 2
    assert all(t["content"] and "seat" in t and "deltas" in t for t in record["turns"])
    assert not any(t["speaker"] == "Foreperson" for t in record["turns"])


def test_the_offline_engine_gives_the_same_transcript_for_the_same_seed(library):
    first = _run("--case", "alder-street-hit-and-run", "--seed", "9", "--max-rounds", "6")
    second = _run("--case", "alder-street-hit-and-run", "--seed", "9", "--max-rounds", "6")
    assert first["deliberation_id"] != second["deliberation_id"]
    assert first["turns"] == second["turns"] and first["verdict"] == second["verdict"]


def test_the_historical_verdict_cannot_change_the_deliberation(library):
    first = _run("--case", "copper-kettle-fire", "--seed", "2", "--max-rounds", "5")
    Case.objects.filter(slug="copper-kettle-fire").update(historical_verdict="guilty", historical_punishment="Death")
    second = _run("--case", "copper-kettle-fire", "--seed", "2", "--max-rounds", "5")
    assert first["turns"] == second["turns"]


def test_an_automated_player_argues_from_seat_seven(library):
    record = _run("--case", "route-nine-fuel-stop-murder", "--seed", "1", "--side", "defend", "--max-rounds", "3")
    assert any(t["seat"] == 7 for t in record["turns"])


def test_an_unknown_case_is_a_clear_error(library):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="No case with slug 'nope'"):
        call_command("deliberate", "--case", "nope")
