import random
from collections import Counter
from dataclasses import replace

from deliberation.engine.session import begin
from deliberation.engine.state import EngineSettings
from deliberation.engine.turns import select_speakers, speaker_count, speaker_weight
from tests.deliberation.engine.factories import build_case, build_jury


def fresh(side: str = "none"):  # type: ignore[no-untyped-def]
    jury = build_jury(side=side)
    state = begin(case=build_case(), jury=jury, seed=5, player_side=side)
    for memory in state.memories.values():
        memory.conviction = 0.9  # nobody on the fence unless a test says so
    state.round_number = 5
    return state, jury


def weight_of(state, jury, seat: int, addressed: set[int] = frozenset()) -> float:  # type: ignore[no-untyped-def]
    juror = next(j for j in jury if j.seat == seat)
    return speaker_weight(state, juror, set(addressed), mean_turns=0.0)


def test_a_juror_on_the_fence_is_favoured() -> None:
    state, jury = fresh()
    before = weight_of(state, jury, 8)
    state.memories[8].conviction = 0.5
    assert weight_of(state, jury, 8) > before


def test_a_juror_just_addressed_is_favoured() -> None:
    state, jury = fresh()
    assert weight_of(state, jury, 8, {8}) > weight_of(state, jury, 8)


def test_an_influential_juror_is_favoured_over_a_timid_one() -> None:
    state, jury = fresh()
    timid = replace(jury[7], influence=0.1)
    bold = replace(jury[7], influence=0.9)
    assert speaker_weight(state, bold, set(), 0.0) > speaker_weight(state, timid, set(), 0.0)


def test_quiet_jurors_are_favoured_over_talkative_ones() -> None:
    state, jury = fresh()
    juror = jury[7]
    state.memories[8].spoke_count = 0
    quiet = speaker_weight(state, juror, set(), mean_turns=3.0)
    state.memories[8].spoke_count = 6
    talkative = speaker_weight(state, juror, set(), mean_turns=3.0)
    assert quiet > talkative


def test_a_juror_who_just_spoke_is_penalised() -> None:
    state, jury = fresh()
    state.memories[8].spoke_count = 1
    state.memories[8].last_spoke_round = 1
    rested = weight_of(state, jury, 8)
    state.memories[8].last_spoke_round = 4
    assert weight_of(state, jury, 8) < rested


def test_fence_jurors_speak_more_often_over_many_draws() -> None:
    state, jury = fresh()
    state.memories[4].conviction = 0.5
    counts = Counter()
    rng = random.Random(0)
    for _ in range(500):
        counts.update(select_speakers(state, jury, count=2, rng=rng))
    assert counts[4] > counts[8]


def test_human_seats_are_never_chosen_to_speak() -> None:
    state, jury = fresh(side="defend")
    rng = random.Random(1)
    for _ in range(300):
        chosen = select_speakers(state, jury, count=4, addressed={7}, rng=rng)
        assert 7 not in chosen
        assert len(chosen) == len(set(chosen)) == 4


def test_agent_seats_are_never_chosen_to_speak() -> None:
    jury = build_jury(side="prosecute", seven_kind="agent")
    state = begin(case=build_case(), jury=jury, seed=2, player_side="prosecute")
    rng = random.Random(3)
    assert all(7 not in select_speakers(state, jury, count=4, rng=rng) for _ in range(200))


def test_the_number_of_speakers_stays_within_the_configured_range() -> None:
    state, _ = fresh()
    state.settings = EngineSettings(min_speakers=2, max_speakers=3)
    rng = random.Random(9)
    counts = {speaker_count(state, rng) for _ in range(200)}
    assert counts == {2, 3}
