import asyncio

import pytest

from deliberation.engine.initial import new_state
from deliberation.engine.phases import ILLEGAL_TRANSITION, PHASES, WRONG_PHASE, PhaseError, advance
from deliberation.engine.rounds import run_round
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import build_case, build_jury


def test_phases_follow_the_specified_order() -> None:
    state = new_state(jury=build_jury(), seed=1)
    for phase in PHASES[1:]:
        advance(state, phase)
    assert state.phase == "verdict"


def test_an_illegal_transition_is_refused_with_a_clear_message() -> None:
    state = new_state(jury=build_jury(), seed=1)
    with pytest.raises(PhaseError) as error:
        advance(state, "deliberation")
    assert str(error.value) == ILLEGAL_TRANSITION.format(current="setup", target="deliberation")
    assert state.phase == "setup"


def test_the_verdict_is_final() -> None:
    state = new_state(jury=build_jury(), seed=1)
    state.phase = "verdict"
    with pytest.raises(PhaseError):
        advance(state, "deliberation")


def test_a_round_cannot_run_before_the_deliberation_phase() -> None:
    state = new_state(jury=build_jury(), seed=1)
    with pytest.raises(PhaseError) as error:
        asyncio.run(
            run_round(
                state,
                case=build_case(),
                jury=build_jury(),
                mind=OfflineMind(),
                fallback=OfflineMind(),
                reader=argued_points,
            )
        )
    assert str(error.value) == WRONG_PHASE.format(expected="deliberation", current="setup")
