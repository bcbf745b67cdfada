import asyncio
import json

from deliberation.engine.rounds import run_round
from deliberation.engine.session import begin
from deliberation.engine.state import DeliberationState
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import build_case, build_jury


def play(state: DeliberationState, rounds: int) -> list[str]:
    case, jury = build_case(), build_jury()
    said = []
    for _ in range(rounds):
        if state.end_reason:
            break
        result = asyncio.run(
            run_round(state, case=case, jury=jury, mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points)
        )
        said.extend(s.content for s in result.speeches)
    return said


def test_the_state_survives_a_json_round_trip() -> None:
    state = begin(case=build_case(), jury=build_jury(), seed=21)
    play(state, 2)
    data = json.loads(json.dumps(state.to_dict()))
    restored = DeliberationState.from_dict(data)
    assert restored.to_dict() == state.to_dict()
    assert restored.convictions == state.convictions
    assert restored.memories[1].heard == state.memories[1].heard


def test_a_reloaded_state_continues_exactly_as_the_original() -> None:
    original = begin(case=build_case(), jury=build_jury(), seed=8)
    play(original, 1)
    reloaded = DeliberationState.from_dict(json.loads(json.dumps(original.to_dict())))
    assert play(original, 3) == play(reloaded, 3)
    assert original.to_dict() == reloaded.to_dict()


def test_a_memory_is_saved_as_exactly_what_asdict_would_give() -> None:
    """``to_dict`` builds each memory field by field (fast); a new nested field must not slip by."""
    from dataclasses import asdict

    state = begin(case=build_case(), jury=build_jury(), seed=21)
    play(state, 3)
    for memory in state.memories.values():
        expected = asdict(memory)
        expected["opinions"] = {str(seat): trust for seat, trust in memory.opinions.items()}
        assert memory.to_dict() == expected
    assert any(m.heard and m.impressions for m in state.memories.values())  # the nested lists were exercised
