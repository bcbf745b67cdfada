"""A witness answered by a model sees only the rule and its own retrieved lines, and cannot invent facts."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from deliberation.engine.trial.course import groundedness, run_trial
from deliberation.engine.trial.witness import WITNESS_RULE
from deliberation.minds.trial_model import ModelWitness
from tests.deliberation.engine.factories import build_case
from tests.deliberation.minds.openai_server import Reply, ScriptedOpenAIServer


@pytest.fixture
def server() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer() as running:
        yield running


def _witness_model(server: ScriptedOpenAIServer) -> ModelWitness:
    return ModelWitness("openai/witness-model", api_base=server.api_base, api_key="sk-test", retries=0, timeout=5.0)


def _first_passage(body: dict[str, Any]) -> Reply:
    """A model that keeps to the rule: it repeats the first passage it was given."""
    user = body["messages"][1]["content"]
    line = user.split("\n- ", 1)[1].split("\n", 1)[0] if "\n- " in user else "I couldn't say."
    return Reply(text=line, prompt_tokens=len(json.dumps(body["messages"])) // 4, completion_tokens=len(line) // 4)


def test_a_trial_with_a_model_witness_counts_one_call_per_answer_and_stays_grounded(server):
    server.responder = _first_passage
    case = build_case()
    model = _witness_model(server)
    trial = run_trial(case, seed=3, answerer=model)
    answers = [e for e in trial.events if e.kind == "answer"]
    assert model.totals["calls"] == len(answers) == len(server.requests)
    assert model.totals["prompt_tokens"] > 0 and groundedness(trial.events) == 1.0


def test_the_witness_prompt_holds_the_rule_and_no_other_part_of_the_case(server):
    server.responder = _first_passage
    case = build_case()
    run_trial(case, seed=3, answerer=_witness_model(server))
    sent = json.dumps([r["messages"] for r in server.requests])
    assert WITNESS_RULE.split("{name}")[0] in sent
    assert case.summary not in sent and all(e.description not in sent for e in case.evidence)


def test_an_invented_name_or_time_is_replaced_by_the_witnesss_own_record(server):
    server.default = Reply(text="It was Mr. Smithers, at 11 o'clock, outside the Crown and Anchor.")
    case = build_case()
    model = _witness_model(server)
    trial = run_trial(case, seed=3, answerer=model)
    assert "Smithers" not in json.dumps([e.to_dict() for e in trial.events])
    assert model.totals["fallbacks"] == model.totals["calls"] > 0
    assert groundedness(trial.events) == 1.0
