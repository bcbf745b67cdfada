import asyncio

from deliberation.engine.memory import fold, is_summary_round, recent_turns, turns_to_fold
from deliberation.engine.ports import HeardTurn
from deliberation.engine.rounds import run_round
from deliberation.engine.state import JurorMemory
from deliberation.minds.offline import OfflineMind
from tests.deliberation.engine.factories import build_case
from tests.deliberation.engine.helpers import deadlocked


def turns(count: int) -> list[HeardTurn]:
    return [
        HeardTurn(round_number=i, seat=1 + i % 12, speaker_name=f"J{i}", content=f"point {i}") for i in range(count)
    ]


def test_a_juror_sees_only_its_memory_window_in_full() -> None:
    memory = JurorMemory(seat=1, heard=turns(15))
    window = recent_turns(memory, 10)
    assert [t.content for t in window] == [f"point {i}" for i in range(5, 15)]


def test_the_window_counts_this_rounds_earlier_speeches() -> None:
    memory = JurorMemory(seat=1, heard=turns(4))
    extra = tuple(turns(6)[4:])
    assert recent_turns(memory, 3, extra)[-1].content == "point 5"


def test_summaries_happen_every_five_rounds() -> None:
    assert [n for n in range(1, 21) if is_summary_round(n, 5)] == [5, 10, 15, 20]


def test_folding_keeps_the_three_most_recent_turns() -> None:
    memory = JurorMemory(seat=1, heard=turns(9))
    old = turns_to_fold(memory, 3)
    fold(memory, folded=len(old), summary="• earlier")
    assert len(old) == 6
    assert [t.content for t in memory.heard] == ["point 6", "point 7", "point 8"]
    assert memory.summary == "• earlier"


def test_a_long_deliberation_keeps_memory_bounded_and_summarised() -> None:
    state, jury = deadlocked(4)
    sizes = []
    while not state.end_reason:
        result = asyncio.run(run_round(state, case=build_case(), jury=jury, mind=OfflineMind()))
        sizes.append(len(state.memories[1].heard))
        if state.round_number % 5 == 0:
            assert result.summarized
            assert state.memories[1].summary.startswith("•")
    assert state.round_number == 20
    assert max(sizes) <= 3 + 5 * 4  # 3 kept + at most 5 rounds of 4 speakers
    assert len(state.memories[1].heard) <= 3 + 4
