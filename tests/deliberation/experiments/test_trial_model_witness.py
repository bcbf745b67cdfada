"""An experiment run with the trial and a model engine hears the model witness (through LiteLLM, from a
local OpenAI-compatible server), the offline answer standing in for one the model could not give."""

from __future__ import annotations

from typing import Any

import pytest

from cases.models import Case
from deliberation.experiments.simulate import RunJob, case_input, current_context, simulate
from tests.deliberation.minds.openai_server import GARBAGE, Reply, ScriptedOpenAIServer


def _is_witness(body: dict[str, Any]) -> bool:
    messages = body["messages"]
    return len(messages) == 2 and "a witness (" in messages[0]["content"] and "testimony:" in messages[1]["content"]


def _witness_or_juror(body: dict[str, Any]) -> Reply:
    if not _is_witness(body):
        return Reply()
    user = body["messages"][1]["content"]
    return Reply(text=user.split("\n- ", 1)[1].split("\n", 1)[0] if "\n- " in user else "I couldn't say.")


@pytest.mark.django_db(transaction=True)
def test_an_experiment_runs_trial_hears_the_model_witness_and_counts_its_fallbacks(library, settings, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    case = Case.objects.get(slug="kessler-market-robbery")
    with ScriptedOpenAIServer() as server:
        server.responder = _witness_or_juror
        server.script(Reply(raw=GARBAGE))  # the trial's first answer
        settings.ANGRY_LLM_API_BASE = server.api_base
        settings.ANGRY_LLM_RETRIES = 0
        job = RunJob(case_id=case.pk, seed=3, engine="openai/witness-model", trial=True)
        outcome = simulate(job, case_input(case.pk), current_context(options={"max_rounds": 1}))
        witness_calls = [r for r in server.requests if _is_witness(r)]
    assert not outcome.error and outcome.verdict
    assert outcome.trial_witness["calls"] == len(witness_calls) > 1  # every answer of the trial asked the model
    assert outcome.trial_witness["fallbacks"] == 1
