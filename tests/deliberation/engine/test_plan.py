"""A model round is planned before it is generated: who answers whom, and who must wait."""

from __future__ import annotations

import asyncio
import dataclasses

from deliberation.engine.plan import plan_answers
from deliberation.engine.ports import CraftRequest, HeardTurn, ReactRequest, SpeakRequest, SummarizeRequest
from deliberation.engine.results import PlayerMove
from deliberation.engine.rounds import run_round
from deliberation.engine.session import begin
from deliberation.engine.state import EngineSettings
from deliberation.engine.types import Speech
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import build_case, build_jury
from tests.deliberation.engine.helpers import deadlocked


class SlowModel:
    """A model-like mind (``concurrent``): every call yields to the loop; it logs starts and ends."""

    concurrent = True
    name = "slow-model"

    def __init__(self) -> None:
        self.inner = OfflineMind()
        self.events: list[tuple[str, str, int]] = []  # (start|end, kind, seat)
        self.in_flight = 0
        self.most_in_flight = 0
        self.speak_requests: list[SpeakRequest] = []

    async def _call(self, kind: str, seat: int, work):  # type: ignore[no-untyped-def]
        self.events.append(("start", kind, seat))
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        await asyncio.sleep(0.01)
        self.in_flight -= 1
        result = await work
        self.events.append(("end", kind, seat))
        return result

    async def speak(self, request: SpeakRequest, *, on_text=None) -> Speech:  # type: ignore[no-untyped-def]
        self.speak_requests.append(request)
        return await self._call("speak", request.juror.seat, self.inner.speak(request, on_text=on_text))

    async def craft_argument(self, request: CraftRequest, *, on_text=None) -> Speech:  # type: ignore[no-untyped-def]
        return await self._call("craft", request.player.seat, self.inner.craft_argument(request, on_text=on_text))

    async def react_batch(self, request: ReactRequest):  # type: ignore[no-untyped-def]
        return await self._call("react", 0, self.inner.react_batch(request))

    async def summarize(self, request: SummarizeRequest):  # type: ignore[no-untyped-def]
        return await self._call("summarize", 0, self.inner.summarize(request))


def a_round(seed: int, injected=(), **settings: object):  # type: ignore[no-untyped-def]
    state, jury = deadlocked(seed, min_speakers=4, max_speakers=4, **settings)
    mind = SlowModel()
    result = asyncio.run(
        run_round(
            state,
            case=build_case(),
            jury=jury,
            mind=mind,
            injected=injected,
            fallback=OfflineMind(),
            reader=argued_points,
        )
    )
    return result, mind


def test_speakers_who_answer_the_previous_round_are_generated_at_the_same_time() -> None:
    result, mind = a_round(3)

    speakers = [s.seat for s in result.speeches]
    assert len(speakers) == 4
    assert mind.most_in_flight == 4  # all four were thinking at once
    starts = [seat for event, kind, seat in mind.events if event == "start" and kind == "speak"]
    first_end = next(i for i, e in enumerate(mind.events) if e[0] == "end")
    assert len(starts) == 4 and all(mind.events.index(("start", "speak", s)) < first_end for s in starts)


def test_calls_per_round_stay_speakers_plus_one_when_speakers_go_at_once() -> None:
    result, mind = a_round(3)

    kinds = [kind for event, kind, _ in mind.events if event == "start"]
    assert kinds.count("speak") == len(result.speeches) and kinds.count("react") == 1
    assert result.usage.calls == len(result.speeches) + 1
    assert kinds[-1] == "react"  # the reactions hear every speech of the round


def test_an_answer_to_a_crafted_argument_waits_for_it_and_hears_it() -> None:
    move = PlayerMove(seat=7, side="prosecute", strategy="challenge_evidence")
    result, mind = a_round(4, injected=(move,))

    craft_end = mind.events.index(("end", "craft", 7))
    speak_starts = [i for i, (event, kind, _) in enumerate(mind.events) if event == "start" and kind == "speak"]
    assert speak_starts and all(start > craft_end for start in speak_starts)
    assert result.speeches[0].seat == 7
    assert all(any(t.seat == 7 and t.round_number == 1 for t in r.recent) for r in mind.speak_requests)
    assert all(r.answering == 7 for r in mind.speak_requests)


def test_a_typed_speech_is_answered_without_waiting() -> None:
    typed = Speech(seat=7, speaker_name="Juror 7", content="The bait bills prove nothing about the gun.", target_seat=3)
    result, mind = a_round(5, injected=(typed,))

    assert mind.most_in_flight == len(result.speeches) - 1  # every AI speaker at once
    planned = {r.juror.seat: r.answering for r in mind.speak_requests}
    assert set(planned.values()) == {7}


def test_a_planned_round_is_the_same_for_the_same_seed() -> None:
    first, _ = a_round(9)
    again, _ = a_round(9)

    assert [(s.seat, s.content) for s in first.speeches] == [(s.seat, s.content) for s in again.speeches]


def test_without_participants_a_juror_answers_whoever_addressed_them_last_round_else_the_last_voice() -> None:
    jury = build_jury()
    state = begin(case=build_case(), jury=jury, seed=1, settings=EngineSettings())
    state.round_number = 3
    state.memories[4].heard = [
        HeardTurn(2, 5, "Five", "To four.", target_seat=4),
        HeardTurn(2, 6, "Six", "To the room."),
    ]
    state.memories[8].heard = list(state.memories[4].heard)

    plan = plan_answers(state, [4, 8], [])

    assert [(p.seat, p.answering, p.waits_for) for p in plan] == [(4, 5, ()), (8, 6, ())]


def test_a_juror_a_participant_addressed_answers_that_participant() -> None:
    jury = build_jury()
    state = begin(case=build_case(), jury=jury, seed=1, settings=EngineSettings())
    typed = Speech(seat=7, speaker_name="Juror 7", content="Frank, look again.", target_seat=3)
    move = dataclasses.replace(PlayerMove(seat=2, side="defend", strategy="reasonable_doubt"))

    plan = plan_answers(state, [3, 5], [typed, move])

    assert plan[0].answering == 7 and plan[1].answering == 2
    assert plan[0].waits_for == plan[1].waits_for == (1,)  # the crafted argument is heard by both
