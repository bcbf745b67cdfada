"""A round records every call the offline engine answered instead of the model, and why."""

from __future__ import annotations

import asyncio

from deliberation.engine.failures import DETAIL_BUDGET, NOTE_REACTIONS_FAILED, CallFailure, cause_label
from deliberation.engine.ports import ReactionBatch
from deliberation.engine.rounds import BUDGET_NOTE, run_round
from deliberation.engine.session import run_to_end
from deliberation.engine.types import Usage
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import build_case
from tests.deliberation.engine.helpers import deadlocked


class RaisingMind(OfflineMind):
    name = "raising-model"

    async def speak(self, request, *, on_text=None):  # type: ignore[no-untyped-def]
        raise ConnectionError("model unreachable")


class PricedMind(OfflineMind):
    name = "priced-model"

    async def speak(self, request, *, on_text=None):  # type: ignore[no-untyped-def]
        speech = await super().speak(request, on_text=on_text)
        speech.usage = Usage(prompt_tokens=400, completion_tokens=100)
        return speech


class RateLimitedReactions(OfflineMind):
    """Reacts through the offline rules but reports the model's 429, as the LiteLLM mind does."""

    name = "limited-model"

    async def react_batch(self, request):  # type: ignore[no-untyped-def]
        batch = await super().react_batch(request)
        usage = Usage(fallback=True, cause="rate_limit", note="the model call failed after 3 attempts: 429")
        return ReactionBatch(reactions=batch.reactions, usage=usage)


def test_a_mind_that_raises_leaves_a_stand_in_turn_and_a_failure_with_the_error() -> None:
    state, jury = deadlocked(4)

    result = asyncio.run(
        run_round(state, case=build_case(), jury=jury, mind=RaisingMind(), fallback=OfflineMind(), reader=argued_points)
    )

    assert result.failures == [
        CallFailure("speech", "error", s.usage.note, s.seat) for s in result.speeches if s.seat != 2
    ]
    assert all(s.usage.cause == "error" and "ConnectionError" in s.usage.note for s in result.speeches)


def test_a_model_answering_well_leaves_no_failure() -> None:
    state, jury = deadlocked(4)

    result = asyncio.run(
        run_round(state, case=build_case(), jury=jury, mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points)
    )

    assert result.failures == [] and not any(s.is_fallback for s in result.speeches)


def test_failed_reactions_are_recorded_and_the_round_says_the_offline_rules_moved_the_jury() -> None:
    state, jury = deadlocked(6)

    result = asyncio.run(
        run_round(
            state,
            case=build_case(),
            jury=jury,
            mind=RateLimitedReactions(),
            fallback=OfflineMind(),
            reader=argued_points,
        )
    )

    assert [(f.kind, f.cause, f.seat) for f in result.failures] == [("reaction", "rate_limit", None)]
    notes = [line.content for line in result.process_lines if line.kind == "note"]
    assert notes == [NOTE_REACTIONS_FAILED.format(cause=cause_label("rate_limit"))]
    assert any(abs(r.delta) > 1e-6 for r in result.reactions)


def test_calls_past_the_budget_are_recorded_as_budget_failures_and_their_turns_as_stand_ins() -> None:
    state, jury = deadlocked(9, budget_tokens=1200)

    results = asyncio.run(
        run_to_end(state, case=build_case(), jury=jury, mind=PricedMind(), fallback=OfflineMind(), reader=argued_points)
    )

    spent = next(i for i, r in enumerate(results) if any(line.content == BUDGET_NOTE for line in r.process_lines))
    assert all(r.failures == [] for r in results[:spent])
    after = results[spent + 1 :]
    assert after, "the budget ran out before the last round"
    for result in after:
        assert {f.cause for f in result.failures} == {"budget"}
        assert {f.kind for f in result.failures} == {"speech", "reaction"} | (
            {"summary"} if result.summarized else set()
        )
        assert all(s.is_fallback and s.usage.cause == "budget" for s in result.speeches if s.seat != 2)
        assert all(f.detail == DETAIL_BUDGET for f in result.failures)
        # the budget note said so once; no note per round
        assert not [line for line in result.process_lines if line.kind == "note"]
