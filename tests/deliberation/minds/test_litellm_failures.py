"""Every failed call is recorded with its kind and its real cause: the real LiteLLM client, the engine,
and a local OpenAI-protocol server that times out, rate-limits, errs or answers garbage on demand."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from deliberation.engine.failures import CALL_KINDS, NOTE_REACTIONS_FAILED, NOTE_SUMMARY_FAILED, cause_label
from deliberation.engine.results import PlayerMove, RoundResult
from deliberation.engine.rounds import run_round
from deliberation.minds.litellm.mind import LiteLLMMind, cause_of
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import build_case
from tests.deliberation.engine.helpers import deadlocked
from tests.deliberation.minds.jury import JURY, speak_request
from tests.deliberation.minds.jury_room import call_kind, jury_room
from tests.deliberation.minds.openai_server import Faults, Reply, ScriptedOpenAIServer

CLIENT_TIMEOUT = 2.0  # generous: only an injected fault may time out, never a slow but honest answer
FAULT_CAUSES = {"timeout": "timeout", "rate_limit": "rate_limit", "server_error": "server_error", "garbage": "unusable"}


@pytest.fixture(scope="module", autouse=True)
def warm_litellm() -> None:
    """LiteLLM's first call in a process sets itself up for seconds: make it before any timeout counts."""
    with ScriptedOpenAIServer() as running:
        asyncio.run(mind_for(running, timeout=60).speak(speak_request(JURY[0], ())))


@pytest.fixture
def server() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer() as running:
        running.responder = jury_room
        yield running


def mind_for(server: ScriptedOpenAIServer, **options: Any) -> LiteLLMMind:
    settings: dict[str, Any] = {"timeout": CLIENT_TIMEOUT, "retries": 0, "backoff": 0.01, **options}
    return LiteLLMMind("openai/juror-model", api_base=server.api_base, api_key="sk-test", **settings)


@pytest.mark.parametrize(
    ("reply", "cause"),
    [
        (Reply(status=429), "rate_limit"),
        (Reply(status=500), "server_error"),
        (Reply(status=502), "server_error"),
        (Reply(status=503), "server_error"),
        (Reply(status=401), "refused"),
        (Reply(status=404), "refused"),
        (Reply(raw=b"<html>502 Bad Gateway</html>"), "unusable"),
        (Reply(raw=b'{"choices": null}'), "unusable"),
        (Reply(text="%%$#@!&*^~~ }{ ]["), "unusable"),
        (Reply(text="   "), "unusable"),
        (Reply(delay=CLIENT_TIMEOUT + 3), "timeout"),
    ],
)
@pytest.mark.parametrize("streamed", [False, True])
def test_a_failed_speech_carries_its_real_cause(server: ScriptedOpenAIServer, reply: Reply, cause: str, streamed: bool):
    server.script(reply)
    sink = (lambda seat, chunk: None) if streamed else None

    speech = asyncio.run(mind_for(server).speak(speak_request(JURY[0], ()), on_text=sink))

    assert speech.is_fallback and speech.usage.fallback
    assert speech.usage.cause == cause, speech.usage.note
    assert speech.usage.note  # the words behind the cause: status, attempts, the provider's message


def test_a_model_nobody_serves_is_unreachable_not_a_server_error() -> None:
    closed = LiteLLMMind("openai/juror-model", api_base="http://127.0.0.1:9/v1", api_key="sk-test", retries=0)

    speech = asyncio.run(closed.speak(speak_request(JURY[0], ())))

    assert speech.usage.cause == "unreachable"


def test_a_spent_budget_is_its_own_cause(server: ScriptedOpenAIServer) -> None:
    mind = mind_for(server, token_budget=1)
    asyncio.run(mind.speak(speak_request(JURY[0], ())))

    second = asyncio.run(mind.speak(speak_request(JURY[0], ())))

    assert second.usage.cause == "budget" and len(server.requests) == 1


def test_an_exception_with_no_http_answer_behind_it_is_an_unusable_answer() -> None:
    assert cause_of(ValueError("half a JSON document")) == "unusable"


def _round_with_failing(server: ScriptedOpenAIServer, kind: str, fault: str) -> tuple[RoundResult, Counter[str]]:
    """Round 1 answered well; in round 2 every call of ``kind`` meets ``fault``. Summaries every round."""
    state, jury = deadlocked(5, summary_interval=1, min_speakers=2)
    mind, case = mind_for(server), build_case()
    move = PlayerMove(seat=7, side="prosecute", strategy="reasonable_doubt")
    asyncio.run(
        run_round(state, case=case, jury=jury, mind=mind, injected=[move], fallback=OfflineMind(), reader=argued_points)
    )
    faults = Faults(rate=1.0, kinds=(fault,), delay=CLIENT_TIMEOUT + 3)
    made: Counter[str] = Counter()

    def answer(body: dict[str, Any]) -> Reply:
        if call_kind(body) == kind:
            made[kind] += 1
            return faults.reply(fault)
        return jury_room(body)

    server.responder = answer
    result = asyncio.run(
        run_round(state, case=case, jury=jury, mind=mind, injected=[move], fallback=OfflineMind(), reader=argued_points)
    )
    return result, made


@pytest.mark.parametrize("fault", list(FAULT_CAUSES))
@pytest.mark.parametrize("kind", CALL_KINDS)
def test_each_kind_of_failed_call_is_recorded_with_its_cause(server: ScriptedOpenAIServer, kind: str, fault: str):
    result, made = _round_with_failing(server, kind, fault)

    cause = FAULT_CAUSES[fault]
    assert made[kind] >= 1
    assert [(f.kind, f.cause) for f in result.failures] == [(kind, cause)] * made[kind]
    assert result.usage.fallback_calls == made[kind]
    notes = [line.content for line in result.process_lines if line.kind == "note"]
    stand_ins = [s for s in result.speeches if s.is_fallback]
    if kind in ("speech", "argument"):
        assert len(stand_ins) == made[kind] and {s.usage.cause for s in stand_ins} == {cause}
        assert {f.seat for f in result.failures} == {s.seat for s in stand_ins}
        assert notes == []
    else:
        assert stand_ins == []
        note = NOTE_REACTIONS_FAILED if kind == "reaction" else NOTE_SUMMARY_FAILED
        assert notes == [note.format(cause=cause_label(cause))]


def test_a_jury_whose_reactions_failed_still_moves_by_the_offline_rules(server: ScriptedOpenAIServer) -> None:
    result, made = _round_with_failing(server, "reaction", "server_error")

    assert made["reaction"] == 1 and result.failures[0].kind == "reaction"
    moved = [r for r in result.reactions if abs(r.delta) > 1e-6]
    assert moved, "the offline rules move the listeners when the model's reactions fail"
    assert {r.base_impact for r in result.reactions} != {-0.2}  # not the model's uniform answer
