import pytest

from deliberation.engine.ending import FINAL_VOTE_ONLY, call_vote, cast_vote, end_reason, final_verdict, verdict_of
from deliberation.engine.session import begin
from deliberation.engine.state import DeliberationState, EngineSettings
from tests.deliberation.engine.factories import build_case, build_jury


def state_with(votes: dict[int, str], **fields: object) -> DeliberationState:
    state = begin(case=build_case(), jury=build_jury(), seed=3)
    state.votes = dict(votes)
    for name, value in fields.items():
        setattr(state, name, value)
    return state


SPLIT = {seat: ("guilty" if seat <= 8 else "not_guilty") for seat in range(1, 13)}
ALL_GUILTY = dict.fromkeys(range(1, 13), "guilty")


def test_nothing_ends_before_round_one() -> None:
    assert end_reason(state_with(ALL_GUILTY, round_number=0)) is None


def test_a_unanimous_jury_ends_the_deliberation() -> None:
    assert end_reason(state_with(ALL_GUILTY, round_number=1)) == "unanimous"


def test_a_called_vote_ends_the_deliberation() -> None:
    state = state_with(SPLIT, round_number=2)
    assert end_reason(state) is None
    call_vote(state)
    assert end_reason(state) == "called"


def test_three_rounds_without_a_vote_change_end_the_deliberation() -> None:
    assert end_reason(state_with(SPLIT, round_number=5, rounds_without_change=2)) is None
    assert end_reason(state_with(SPLIT, round_number=5, rounds_without_change=3)) == "stable"


def test_the_round_limit_ends_the_deliberation() -> None:
    assert end_reason(state_with(SPLIT, round_number=19)) is None
    assert end_reason(state_with(SPLIT, round_number=20)) == "round_limit"
    short = state_with(SPLIT, round_number=4, settings=EngineSettings(max_rounds=4))
    assert end_reason(short) == "round_limit"


def test_a_split_jury_is_hung_and_a_unanimous_one_gives_its_verdict() -> None:
    assert verdict_of(SPLIT) == "hung"
    assert verdict_of(ALL_GUILTY) == "guilty"
    assert verdict_of(dict.fromkeys(range(1, 13), "not_guilty")) == "not_guilty"


def test_the_verdict_is_read_only_after_the_final_vote() -> None:
    state = state_with(ALL_GUILTY, round_number=1)
    with pytest.raises(ValueError, match=FINAL_VOTE_ONLY):
        final_verdict(state)


def test_a_participant_vote_change_is_recorded() -> None:
    state = state_with(SPLIT, round_number=1)
    assert cast_vote(state, seat=12, value="guilty") is True
    assert state.votes[12] == "guilty"
    assert cast_vote(state, seat=12, value="guilty") is False
