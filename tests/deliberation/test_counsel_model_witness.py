"""A game played with a model: the witness at a step-by-step trial answers through the model, with
only its retrieved lines and the rule, and never while the deliberation's row is locked."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import DatabaseError, connection, connections, transaction

from deliberation.engine import trial_steps
from deliberation.engine.trial_witness import WITNESS_RULE
from deliberation.models import Deliberation, Turn, TurnKind
from deliberation.services import counsel, deliberation_start, side_choose
from tests.deliberation.minds.openai_server import Reply, ScriptedOpenAIServer


def _row_is_free(deliberation_id: int) -> bool:
    """From another connection: may the deliberation's row be locked now? (PostgreSQL says at once.)"""
    try:
        with transaction.atomic():
            Deliberation.objects.select_for_update(nowait=True).filter(pk=deliberation_id).exists()
        return True
    except DatabaseError:
        return False
    finally:
        connections.close_all()


@pytest.mark.django_db(transaction=True)
def test_the_model_witness_answers_outside_the_steps_transaction_from_its_passages(robbery, settings, monkeypatch):
    settings.ANGRY_NARRATION = "text"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    free: list[bool] = []
    holder: dict[str, int] = {}

    def first_passage(body: dict[str, Any]) -> Reply:
        if connection.vendor == "postgresql":
            free.append(_row_is_free(holder["id"]))
        user = body["messages"][1]["content"]
        line = user.split("\n- ", 1)[1].split("\n", 1)[0] if "\n- " in user else "I couldn't say."
        return Reply(text=line, prompt_tokens=50, completion_tokens=10)

    with ScriptedOpenAIServer() as server:
        server.responder = first_passage
        settings.ANGRY_LLM_API_BASE = server.api_base
        settings.ANGRY_LLM_RETRIES = 0
        deliberation = deliberation_start(
            case=robbery, engine="openai/witness-model", options={"trial": True}, host_session_key="k"
        )
        holder["id"] = deliberation.pk
        side_choose(deliberation_id=deliberation.pk, side="prosecute", vote="guilty", counsel=True)
        counsel.trial_advance(deliberation_id=deliberation.pk)
        counsel.trial_move(deliberation_id=deliberation.pk, side="prosecution", action="ai_speak")
        counsel.trial_move(
            deliberation_id=deliberation.pk, side="prosecution", action="ask", text="What did you see that night?"
        )
        deliberation.refresh_from_db()
        waiting = trial_steps.awaiting(counsel.load(deliberation))
        assert waiting is not None and waiting.what == trial_steps.EXAMINE
        counsel.trial_move(deliberation_id=deliberation.pk, side="prosecution", action="rest")
        sent = json.dumps([r["messages"] for r in server.requests])
    answers = list(Turn.objects.filter(kind=TurnKind.TRIAL, strategy="answer").order_by("sequence"))
    assert server.requests and len(server.requests) >= len(answers) >= 2  # the person's question and AI cross
    assert WITNESS_RULE.split("{name}")[0] in sent and robbery.summary not in sent
    assert all(a.trial["grounded"] for a in answers)
    assert all(free), "a model call ran while the deliberation's row was locked"
