"""A game played with a model: the witness at the trial answers through the model, with only its
retrieved lines and the rule, and never while the deliberation's row is locked; with AI counsel on
both sides (`deliberate --trial`) too, the offline answer standing in, marked, when the model fails."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from contextlib import redirect_stderr
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, connections, transaction
from django.utils import timezone

from deliberation.engine.trial import steps as trial_steps
from deliberation.engine.trial.witness import WITNESS_RULE
from deliberation.models import Deliberation, Turn, TurnKind
from deliberation.services import counsel, deliberation_start, side_choose
from tests.deliberation.minds.openai_server import GARBAGE, Reply, ScriptedOpenAIServer


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


# --- The whole trial at once, AI counsel on both sides: the same model witness -------------------------

SWORN = "On my oath, "  # what this test's model puts before every answer (no fact the record lacks)


def _is_witness(body: dict[str, Any]) -> bool:
    """A witness's prompt (``trial_witness.witness_prompt``), not a juror's."""
    messages = body["messages"]
    return len(messages) == 2 and "a witness (" in messages[0]["content"] and "testimony:" in messages[1]["content"]


def _sworn_witness(body: dict[str, Any]) -> Reply:
    """A model that keeps to the rule in its own words; a juror's prompt gets the server's default."""
    if not _is_witness(body):
        return Reply()
    user = body["messages"][1]["content"]
    line = user.split("\n- ", 1)[1].split("\n", 1)[0] if "\n- " in user else "I couldn't say."
    return Reply(text=SWORN + line[:1].lower() + line[1:])


def _deliberate(*args: str) -> tuple[dict[str, Any], str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stderr(err):
        call_command("deliberate", *args, "--json", stdout=out, stderr=err)
    return json.loads(out.getvalue().strip().splitlines()[-1]), err.getvalue()


@pytest.mark.django_db(transaction=True)
def test_deliberate_with_the_trial_and_a_model_hears_the_model_witness_through_litellm(library, settings, monkeypatch):
    settings.ANGRY_NARRATION = "text"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with ScriptedOpenAIServer() as server:
        server.responder = _sworn_witness
        settings.ANGRY_LLM_API_BASE = server.api_base
        settings.ANGRY_LLM_RETRIES = 0
        record, transcript = _deliberate(
            "--case", "kessler-market-robbery", "--engine", "openai/witness-model", "--trial", "--seed", "3",
            "--max-rounds", "1",
        )  # fmt: skip
        witness_calls = [r for r in server.requests if _is_witness(r)]
    trial = record["trial"]
    answers = [t for t in trial["turns"] if t["kind"] == "answer"]
    by_model = [a for a in answers if a["answered_by"] == "openai/witness-model"]
    assert answers and len(by_model) == len(witness_calls)
    assert all(a["content"].startswith(SWORN) for a in by_model if a["content"] != "I couldn't say.")
    assert any(a["content"].startswith(SWORN) for a in by_model)
    assert trial["witness_fallbacks"] == 0 and trial["groundedness"] == 1.0
    assert f"(trial): {by_model[0]['content']}" in transcript  # the command's transcript shows them
    assert trial["turns"][-1]["kind"] == "directions" and sum(record["first_ballot"].values()) == 12


@pytest.mark.django_db(transaction=True)
def test_a_model_witness_that_times_out_or_answers_garbage_gives_way_to_its_record_and_says_so(
    library, settings, monkeypatch, caplog
):
    settings.ANGRY_NARRATION = "text"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with ScriptedOpenAIServer() as server:
        server.responder = _sworn_witness
        server.script(Reply(delay=3.0), Reply(raw=GARBAGE))  # the trial's first two answers
        settings.ANGRY_LLM_API_BASE = server.api_base
        settings.ANGRY_LLM_RETRIES = 0
        settings.ANGRY_LLM_TIMEOUT = 0.5
        with caplog.at_level(logging.WARNING, logger="deliberation.minds.trial_model"):
            record, _ = _deliberate(
                "--case", "kessler-market-robbery", "--engine", "openai/witness-model", "--trial", "--seed", "3",
                "--max-rounds", "1",
            )  # fmt: skip
    trial = record["trial"]
    answers = [t for t in trial["turns"] if t["kind"] == "answer"]
    replaced = [a for a in answers if a["answered_by"] == "offline"]
    assert trial["witness_fallbacks"] == len(replaced) == 2 and answers[:2] == replaced
    assert [a["fallback"] for a in replaced] == ["timed out", "unusable answer"]  # the cause, never the client's words
    assert all(not a["content"].startswith(SWORN) and a["grounded"] for a in replaced)  # the record's own lines
    assert any(a["content"].startswith(SWORN) for a in answers[2:])  # the model answers again after
    warnings = [r.getMessage() for r in caplog.records if "replaced by the offline answer" in r.getMessage()]
    assert len(warnings) == 2
    turns = Turn.objects.filter(deliberation_id=record["deliberation_id"], kind=TurnKind.TRIAL, is_fallback=True)
    assert turns.count() == 2 and {t.fallback_cause for t in turns} == {"timeout", "unusable"}


@pytest.fixture
def witness_game(client, library, settings, monkeypatch) -> Iterator[tuple[Deliberation, ScriptedOpenAIServer]]:
    """A game with the trial on, started in the courtroom with a model whose witness keeps to the rule."""
    settings.ANGRY_NARRATION = "text"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with ScriptedOpenAIServer() as server:
        server.responder = _sworn_witness
        settings.ANGRY_LLM_API_BASE = server.api_base
        settings.ANGRY_LLM_RETRIES = 0
        settings.ANGRY_LLM_MODEL = "openai/witness-model"
        client.post("/court/start/", {"case": "kessler-market-robbery", "trial": "kessler-market-robbery"})
        deliberation = Deliberation.objects.get()
        yield deliberation, server


@pytest.mark.django_db(transaction=True)
def test_a_player_who_leaves_the_trial_to_ai_counsel_hears_the_model_witness_off_the_request(client, witness_game):
    deliberation, server = witness_game
    assert deliberation.engine == "openai/witness-model"
    response = client.post(
        f"/court/{deliberation.public_id}/side/", {"side": "defend", "vote": "not_guilty"}, HTTP_HX_REQUEST="true"
    )  # no "counsel": AI counsel on both sides; the trial task plays it once the choice is stored
    witness_calls = [r for r in server.requests if _is_witness(r)]
    assert response.status_code == 200
    deliberation.refresh_from_db()
    assert deliberation.phase == "deliberation" and deliberation.player_side == "defend"
    answers = Turn.objects.filter(deliberation=deliberation, kind=TurnKind.TRIAL, strategy="answer")
    assert answers.filter(engine="openai/witness-model").count() == len(witness_calls) > 0
    assert all(a.content.startswith(SWORN) or a.content == "I couldn't say." for a in answers)
    assert counsel.load(deliberation).people == []  # nobody was counsel


@pytest.mark.django_db(transaction=True)
def test_a_trial_whose_task_died_goes_on_when_the_player_looks_at_the_courtroom_after_two_silent_minutes(
    client, witness_game
):
    deliberation, server = witness_game
    # The side is stored, and the task that was to play the trial never ran (its worker died).
    side_choose(deliberation_id=deliberation.pk, side="defend", vote="not_guilty")
    deliberation.refresh_from_db()
    assert deliberation.phase == "trial"
    trial_turns = Turn.objects.filter(deliberation=deliberation, kind=TurnKind.TRIAL)
    assert not trial_turns.exists()

    assert client.get(f"/court/{deliberation.public_id}/").status_code == 200  # a look within the limit
    assert not trial_turns.exists() and not [r for r in server.requests if _is_witness(r)]

    silent = timezone.now() - timedelta(seconds=counsel.TRIAL_STALL_SECONDS + 1)
    Turn.objects.filter(deliberation=deliberation).update(created_at=silent)
    stored = {**deliberation.trial_state, "began_at": silent.isoformat()}
    Deliberation.objects.filter(pk=deliberation.pk).update(trial_state=stored)
    assert client.get(f"/court/{deliberation.public_id}/").status_code == 200  # the trial goes on
    witness_calls = [r for r in server.requests if _is_witness(r)]
    deliberation.refresh_from_db()
    assert deliberation.phase == "deliberation"
    assert trial_turns.filter(strategy="answer", engine="openai/witness-model").count() == len(witness_calls) > 0
