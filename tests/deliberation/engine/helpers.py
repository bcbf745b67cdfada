"""Shared test helpers: a jury that cannot agree, so a run lasts all twenty rounds."""

from __future__ import annotations

from dataclasses import replace

from deliberation.engine.session import begin
from deliberation.engine.state import DeliberationState, EngineSettings
from deliberation.engine.types import JurorProfile
from tests.deliberation.engine.factories import build_case, build_jury


def deadlocked(seed: int, **settings: object) -> tuple[DeliberationState, tuple[JurorProfile, ...]]:
    """Seat 7 prosecutes and seat 2 is a human holding out for not guilty: never unanimous."""
    jury = build_jury(side="prosecute")
    jury = tuple(replace(j, kind="human") if j.seat == 2 else j for j in jury)
    state = begin(
        case=build_case(),
        jury=jury,
        seed=seed,
        player_side="prosecute",
        settings=EngineSettings(**{"stability_rounds": 99, **settings}),
    )
    state.votes[2] = state.memories[2].vote = "not_guilty"
    return state, jury
