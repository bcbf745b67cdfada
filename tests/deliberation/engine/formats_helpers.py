"""A mind that records what each speaker was asked, and a helper that runs rounds under a format."""

from __future__ import annotations

import asyncio
from typing import Any

from deliberation.engine.ports import SpeakRequest
from deliberation.engine.results import RoundResult
from deliberation.engine.rounds import run_round
from deliberation.engine.session import begin
from deliberation.engine.state import DeliberationState, EngineSettings
from deliberation.engine.types import JurorProfile, Speech
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import build_case, build_jury


class RecordingMind(OfflineMind):
    """The offline mind, keeping every speak request; ``withdraw`` seats always withdraw."""

    def __init__(self, withdraw: tuple[int, ...] = ()) -> None:
        self.requests: list[SpeakRequest] = []
        self.withdraw = withdraw

    async def speak(self, request: SpeakRequest, *, on_text: Any = None) -> Speech:
        self.requests.append(request)
        speech = await super().speak(request, on_text=on_text)
        if request.juror.seat in self.withdraw:
            speech.withdrawn = True
        return speech


def run(
    rounds: int, mind: OfflineMind | None = None, seed: int = 11, **settings: Any
) -> tuple[DeliberationState, tuple[JurorProfile, ...], list[RoundResult]]:
    """``rounds`` rounds of an all-AI jury that never ends early (no stability, a high limit)."""
    case, jury = build_case(), build_jury()
    options = {"stability_rounds": 99, "max_rounds": 50, **settings}
    state = begin(case=case, jury=jury, seed=seed, settings=EngineSettings(**options))
    mind = mind or OfflineMind()
    results = []
    for _ in range(rounds):
        if state.end_reason:
            break
        results.append(
            asyncio.run(run_round(state, case=case, jury=jury, mind=mind, fallback=OfflineMind(), reader=argued_points))
        )
    return state, jury, results
