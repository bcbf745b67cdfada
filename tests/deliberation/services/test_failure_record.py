"""With 30% of model calls failing, every failed call is in the stored record: the real LiteLLM
client against a local OpenAI-protocol server that injects timeouts, 429s, 500s and garbage.

Which calls fail is drawn at random, so not every run fails a summary (at most two per game);
tests/deliberation/minds/test_litellm_failures.py fails each kind with each fault on purpose."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from deliberation import services
from deliberation.engine.failures import NOTE_REACTIONS_FAILED, NOTE_SUMMARY_FAILED, cause_label
from deliberation.minds.factory import mind_for
from deliberation.models import Deliberation, Phase, RoundStats, Turn, TurnKind
from deliberation.review import exports
from deliberation.review.selectors import build_transcript, deliberation_for_review
from tests.deliberation.minds.jury import JURY, speak_request
from tests.deliberation.minds.jury_room import call_kind, jury_room
from tests.deliberation.minds.openai_server import Faults, ScriptedOpenAIServer

FAULT_CAUSES = {"timeout": "timeout", "rate_limit": "rate_limit", "server_error": "server_error", "garbage": "unusable"}
ENGINE = "openai/juror-model"
MIN_CALLS = 80
MAX_GAMES = 8


@pytest.fixture
def flaky_model(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer() as server:
        server.responder = jury_room
        settings.ANGRY_LLM_API_BASE = server.api_base
        settings.ANGRY_LLM_TIMEOUT = 2.0  # an honest local answer never takes this long; a timeout fault does
        settings.ANGRY_LLM_RETRIES = 0  # one request per call, so requests failed = calls failed
        monkeypatch.setenv("OPENAI_API_KEY", "sk-local-test")
        # LiteLLM's first call in a process sets itself up for seconds; with a 2 s limit that call
        # would time out (and be recorded as such) before any fault was injected. Warm it up first.
        asyncio.run(mind_for(ENGINE).speak(speak_request(JURY[0], ())))
        server.requests.clear()
        server.faults = Faults(rate=0.3, seed=12)
        yield server


def _played(robbery: Any, seed: int) -> Deliberation:
    """A single-player game on the model: the player argues every round, the jury answers."""
    deliberation = services.deliberation_start(
        case=robbery, engine=ENGINE, seed=seed, player_side="defend", host_session_key="player", max_rounds=12
    )
    state = deliberation.engine_state  # argue all the rounds (two of them summary rounds): no end for stable votes
    state["settings"] = {**state["settings"], "stability_rounds": 1000}
    Deliberation.objects.filter(pk=deliberation.pk).update(engine_state=state)
    while deliberation.phase == Phase.DELIBERATION:
        services.player_speak(deliberation_id=deliberation.pk, seat_number=7, strategy="reasonable_doubt", start=False)
        assert services.round_run(deliberation_id=deliberation.pk)
        deliberation.refresh_from_db()
    return deliberation


def test_failed_calls_made_and_recorded_are_equal_by_kind_and_cause_and_each_is_shown(flaky_model, robbery):
    games = []
    while len(flaky_model.requests) < MIN_CALLS and len(games) < MAX_GAMES:
        games.append(_played(robbery, seed=len(games) + 1))

    made = Counter((call_kind(fault.body), FAULT_CAUSES[fault.fault]) for fault in flaky_model.injected)
    stats = list(RoundStats.objects.filter(deliberation__in=games))
    recorded = Counter((f["kind"], f["cause"]) for s in stats for f in s.failures)
    calls = len(flaky_model.requests)
    assert calls >= MIN_CALLS and sum(made.values()) >= calls // 5, f"{sum(made.values())} of {calls} calls failed"
    assert recorded == made
    assert sum(s.failed_calls for s in stats) == sum(made.values())
    assert sum(s.llm_calls for s in stats) == calls  # every call counted, failed or not

    # ... and each shows where it happened: on the stand-in turn, or as a note in its round.
    failures = [f for s in stats for f in s.failures]
    stand_ins = list(Turn.objects.filter(deliberation__in=games, is_fallback=True))
    spoken = Counter(f["cause"] for f in failures if f["kind"] in ("speech", "argument"))
    assert Counter(t.fallback_cause for t in stand_ins) == spoken
    assert all(t.fallback_reason for t in stand_ins)
    notes = Counter(t.content for t in Turn.objects.filter(deliberation__in=games, kind=TurnKind.NOTE))
    for kind, template in (("reaction", NOTE_REACTIONS_FAILED), ("summary", NOTE_SUMMARY_FAILED)):
        expected = Counter(template.format(cause=cause_label(f["cause"])) for f in failures if f["kind"] == kind)
        assert {line: notes[line] for line in expected} == dict(expected)


@pytest.fixture
def caching_model(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[ScriptedOpenAIServer]:
    """A provider that serves 512 of every speaking call's prompt tokens from its prompt cache."""
    with ScriptedOpenAIServer() as server:

        def cached_speeches(body: dict[str, Any]) -> Any:
            reply = jury_room(body)
            if call_kind(body) in {"speech", "argument"}:
                return replace(reply, prompt_tokens=900, cached_tokens=512)
            return reply

        server.responder = cached_speeches
        settings.ANGRY_LLM_API_BASE = server.api_base
        monkeypatch.setenv("OPENAI_API_KEY", "sk-local-test")
        yield server


def test_prompt_tokens_the_provider_served_from_its_cache_are_kept_with_the_round(caching_model, robbery):
    game = _played(robbery, seed=5)
    stats = list(RoundStats.objects.filter(deliberation=game))
    speeches = [r for r in caching_model.requests if call_kind(r) in {"speech", "argument"}]
    assert speeches
    assert sum(s.cached_prompt_tokens for s in stats) == 512 * len(speeches)
    assert all(s.cached_prompt_tokens <= s.prompt_tokens for s in stats)
    record = json.loads(exports.render(build_transcript(deliberation_for_review(game.pk)), "json"))
    figures = [r["figures"] for r in record["round_log"] if r["figures"]]
    assert sum(f["cached_prompt_tokens"] for f in figures) == 512 * len(speeches)
    markdown = exports.render(build_transcript(deliberation_for_review(game.pk)), "md")
    assert f"({512 * len(speeches)} served from the provider's cache)" in markdown
