import asyncio
import dataclasses

import pytest

from deliberation.engine import params
from deliberation.engine.ending import call_vote
from deliberation.engine.initial import case_lean
from deliberation.engine.ports import ReactionBatch, SummaryResult
from deliberation.engine.results import PlayerMove
from deliberation.engine.rounds import BUDGET_NOTE, MIND_FAILED_NOTE, run_round
from deliberation.engine.session import begin, run_to_end
from deliberation.engine.state import EngineSettings
from deliberation.engine.strategies import STRATEGY_NEEDS_TARGET, StrategyError
from deliberation.engine.types import Speech, Usage
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import CountingMind, build_case, build_jury
from tests.deliberation.engine.helpers import deadlocked


def transcript(seed: int, case=None) -> list[tuple]:  # type: ignore[no-untyped-def]
    case = case or build_case()
    jury = build_jury()
    state = begin(case=case, jury=jury, seed=seed)
    results = asyncio.run(
        run_to_end(state, case=case, jury=jury, mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points)
    )
    return [
        (r.round_number, s.seat, s.content, tuple(sorted(r.deltas_for(i).items())))
        for r in results
        for i, s in enumerate(r.speeches)
    ] + [(state.verdict, state.end_reason)]


def test_the_same_seed_gives_the_same_transcript() -> None:
    assert transcript(13) == transcript(13)


def test_different_seeds_give_different_transcripts() -> None:
    assert transcript(13) != transcript(14)


def test_a_historical_outcome_cannot_reach_the_engine() -> None:
    # CaseFile has no verdict field; swapping in a case object carrying one changes nothing.
    @dataclasses.dataclass(frozen=True)
    class CaseWithHistory(type(build_case())):  # type: ignore[misc]
        verdict: str = "guilty"
        punishment: str = "death"

    base = build_case()
    values = {f.name: getattr(base, f.name) for f in dataclasses.fields(base)}
    guilty = CaseWithHistory(**values, verdict="guilty", punishment="death")
    acquitted = CaseWithHistory(**values, verdict="notGuilty", punishment="")
    assert transcript(5, guilty) == transcript(5, acquitted) == transcript(5, base)


def test_calls_per_round_stay_within_speakers_plus_one_plus_summary() -> None:
    state, jury = deadlocked(2)
    mind = CountingMind()
    while not state.end_reason:
        before = len(mind.calls)
        result = asyncio.run(
            run_round(state, case=build_case(), jury=jury, mind=mind, fallback=OfflineMind(), reader=argued_points)
        )
        calls = len(mind.calls) - before
        assert calls == result.usage.calls
        assert calls <= len(result.speeches) + 1 + (1 if result.round_number % 5 == 0 else 0)
        assert mind.calls[before:].count("react_batch") == 1
        assert 1 <= len(result.speeches) <= 4


def test_every_listener_reacts_to_every_speech_but_its_own() -> None:
    state, jury = deadlocked(3)
    result = asyncio.run(
        run_round(state, case=build_case(), jury=jury, mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points)
    )
    ai = {j.seat for j in jury if j.kind == "ai"}
    for index, speech in enumerate(result.speeches):
        assert set(result.deltas_for(index)) == ai - {speech.seat}
    assert all(-0.3 <= r.delta <= 0.3 for r in result.reactions)


def test_a_players_crafted_argument_goes_first_and_leaves_the_ai_speakers_their_turns() -> None:
    state, jury = deadlocked(7, min_speakers=2, max_speakers=2)
    mind = CountingMind()
    move = PlayerMove(seat=7, side="prosecute", strategy="address_juror", target_seat=5)
    result = asyncio.run(
        run_round(
            state,
            case=build_case(),
            jury=jury,
            mind=mind,
            injected=[move],
            fallback=OfflineMind(),
            reader=argued_points,
        )
    )
    assert result.speeches[0].seat == 7 and result.speeches[0].strategy == "address_juror"
    assert "David Okonkwo" in result.speeches[0].content
    assert [s.seat for s in result.speeches[1:]] and all(s.seat not in (2, 7) for s in result.speeches[1:])
    assert len(result.speeches) == 3
    assert mind.calls.count("craft_argument") == 1


def test_five_participants_speaking_still_leave_one_to_four_ai_speakers_every_round() -> None:
    people = (2, 3, 4, 5, 7)
    jury = tuple(dataclasses.replace(j, kind="human") if j.seat in people else j for j in build_jury(side="defend"))
    case = build_case()
    for seed in range(10):
        state = begin(
            case=case, jury=jury, seed=seed, player_side="defend", settings=EngineSettings(stability_rounds=99)
        )
        for _ in range(3):
            if state.end_reason:
                break
            typed = [Speech(seat=seat, speaker_name=f"P{seat}", content="I doubt the hoodie.") for seat in people]
            result = asyncio.run(
                run_round(
                    state,
                    case=case,
                    jury=jury,
                    mind=OfflineMind(),
                    injected=typed,
                    fallback=OfflineMind(),
                    reader=argued_points,
                )
            )
            ai_speakers = [s.seat for s in result.speeches if s.seat not in people]
            assert [s.seat for s in result.speeches[: len(people)]] == list(people)
            assert 1 <= len(ai_speakers) <= 4


def test_a_ready_participant_speech_costs_no_call() -> None:
    state, jury = deadlocked(7)
    mind = CountingMind()
    typed = Speech(seat=2, speaker_name="Sarah Chen", content="The hoodie was borrowed. I doubt all of it.")
    result = asyncio.run(
        run_round(
            state,
            case=build_case(),
            jury=jury,
            mind=mind,
            injected=[typed],
            fallback=OfflineMind(),
            reader=argued_points,
        )
    )
    assert result.speeches[0] is typed
    assert len(mind.calls) == len(result.speeches) - 1 + 1


def test_an_invalid_player_move_is_refused_with_a_clear_message() -> None:
    state, jury = deadlocked(7)
    move = PlayerMove(seat=7, side="prosecute", strategy="address_juror")
    with pytest.raises(StrategyError, match=STRATEGY_NEEDS_TARGET):
        asyncio.run(
            run_round(
                state,
                case=build_case(),
                jury=jury,
                mind=OfflineMind(),
                injected=[move],
                fallback=OfflineMind(),
                reader=argued_points,
            )
        )


def test_a_called_vote_ends_the_deliberation_after_the_round() -> None:
    state, jury = deadlocked(1)
    call_vote(state)
    result = asyncio.run(
        run_round(state, case=build_case(), jury=jury, mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points)
    )
    assert result.end_reason == "called" == state.end_reason


class PricedMind(OfflineMind):
    name = "priced-model"

    async def speak(self, request, *, on_text=None):  # type: ignore[no-untyped-def]
        speech = await super().speak(request, on_text=on_text)
        speech.usage = Usage(prompt_tokens=400, completion_tokens=100)
        return speech


def test_past_the_budget_the_jurors_continue_offline_with_a_visible_note() -> None:
    state, jury = deadlocked(9, budget_tokens=1200)
    results = asyncio.run(
        run_to_end(state, case=build_case(), jury=jury, mind=PricedMind(), fallback=OfflineMind(), reader=argued_points)
    )
    notes = [line for r in results for line in r.process_lines if line.kind == "note"]
    assert [line.content for line in notes] == [BUDGET_NOTE]
    assert state.budget_exhausted
    assert results[-1].engine == "offline"
    assert state.usage["prompt_tokens"] + state.usage["completion_tokens"] >= 1200


class BrokenMind(OfflineMind):
    name = "broken-model"

    async def speak(self, request, *, on_text=None):  # type: ignore[no-untyped-def]
        raise ConnectionError("model unreachable")


def test_a_failing_mind_falls_back_to_the_offline_engine_for_that_turn() -> None:
    state, jury = deadlocked(4)
    result = asyncio.run(
        run_round(state, case=build_case(), jury=jury, mind=BrokenMind(), fallback=OfflineMind(), reader=argued_points)
    )
    assert all(s.is_fallback for s in result.speeches)
    names = [s.speaker_name for s in result.speeches]
    assert [line.content for line in result.process_lines if line.kind == "note"] == [
        MIND_FAILED_NOTE.format(name=name) for name in names
    ]


class RendezvousMind(OfflineMind):
    """Summaries and the batch reaction each wait for the other to have started."""

    def __init__(self) -> None:
        self.react_started = asyncio.Event()
        self.summary_started = asyncio.Event()

    async def react_batch(self, request):  # type: ignore[no-untyped-def]
        self.react_started.set()
        await asyncio.wait_for(self.summary_started.wait(), timeout=5)
        return await super().react_batch(request)

    async def summarize(self, request):  # type: ignore[no-untyped-def]
        self.summary_started.set()
        await asyncio.wait_for(self.react_started.wait(), timeout=5)
        return await super().summarize(request)


def test_the_summary_runs_alongside_the_batch_reaction() -> None:
    state, jury = deadlocked(2, summary_interval=3, min_speakers=2)

    async def three_rounds() -> bool:
        for _ in range(2):  # at least four turns heard, so round 3 has something to fold
            await run_round(
                state, case=build_case(), jury=jury, mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points
            )
        result = await run_round(
            state, case=build_case(), jury=jury, mind=RendezvousMind(), fallback=OfflineMind(), reader=argued_points
        )
        return result.summarized

    assert asyncio.run(three_rounds())  # sequential calls would time out waiting for each other


def test_results_report_flips_and_convictions_consistent_with_the_state() -> None:
    state, jury = deadlocked(11)
    for _ in range(6):
        before = dict(state.votes)
        result = asyncio.run(
            run_round(
                state, case=build_case(), jury=jury, mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points
            )
        )
        assert {f.seat for f in result.flips} == {s for s in before if before[s] != state.votes[s]}
        assert result.convictions == state.convictions
        assert all(0.0 <= c <= 1.0 for c in result.convictions.values())


def test_the_rooms_hunch_gives_way_to_the_evidence_round_by_round() -> None:
    case, jury = build_case(), build_jury()
    state = begin(case=case, jury=jury, seed=3)
    for _ in range(3):
        before = {seat: memory.hunch for seat, memory in state.memories.items()}
        asyncio.run(
            run_round(state, case=case, jury=jury, mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points)
        )
        assert any(before.values())
        for seat, memory in state.memories.items():
            assert memory.hunch == pytest.approx(before[seat] * (1 - params.HUNCH_FADE))


def test_a_first_majority_against_the_evidence_lean_can_turn_in_deliberation() -> None:
    case, jury = build_case(), build_jury()
    lean = "guilty" if case_lean(case) >= 0.5 else "not_guilty"
    other = "not_guilty" if lean == "guilty" else "guilty"
    turned = 0
    for seed in range(30):
        state = begin(case=case, jury=jury, seed=seed)
        if state.first_ballot[other] <= state.first_ballot[lean]:
            continue
        asyncio.run(
            run_to_end(state, case=case, jury=jury, mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points)
        )
        turned += state.verdict == lean
    assert turned > 0


def test_settings_refuse_more_than_four_speakers() -> None:
    with pytest.raises(ValueError):
        EngineSettings(max_speakers=5)


def test_summaries_and_reactions_use_the_declared_result_types() -> None:
    assert ReactionBatch.__dataclass_fields__ and SummaryResult.__dataclass_fields__
