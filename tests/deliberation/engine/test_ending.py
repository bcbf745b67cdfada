import pytest

from deliberation.engine import params
from deliberation.engine.ending import (
    FINAL_VOTE_ONLY,
    NEAR_LIMIT,
    NEAR_LIMIT_ALLEN,
    NEAR_MAJORITY,
    NEAR_ONE_SHORT,
    NEAR_ONE_SHORT_MAJORITY,
    NEAR_STABLE,
    NEAR_STABLE_ALLEN,
    NEAR_STABLE_SENT_BACK,
    NEAR_UNANIMOUS,
    NEAR_UNANIMOUS_WAITING,
    awaiting_vote,
    call_vote,
    cast_vote,
    end_reason,
    final_verdict,
    record_turn,
    tally_cast,
    verdict_of,
    verdict_outlook,
    waiting_for,
)
from deliberation.engine.rules import RuleProgress
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


def test_stability_rounds_without_a_vote_change_end_the_deliberation() -> None:
    quiet = params.STABILITY_ROUNDS  # four by default: a round stands for ten minutes of talk
    assert quiet == 4
    assert end_reason(state_with(SPLIT, round_number=6, rounds_without_change=quiet - 1)) is None
    assert end_reason(state_with(SPLIT, round_number=6, rounds_without_change=quiet)) == "stable"
    three = state_with(SPLIT, round_number=5, rounds_without_change=3, settings=EngineSettings(stability_rounds=3))
    assert end_reason(three) == "stable"


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


# --- Room to argue: the jury waits for its participants ------------------------------------------------

GATED = EngineSettings(turns_before_verdict=2)


def test_a_unanimous_jury_waits_for_a_participant_who_has_not_voted_themselves() -> None:
    state = state_with(ALL_GUILTY, round_number=3, settings=GATED, turns_had={7: 2}, vote_history=[ALL_GUILTY] * 2)
    assert waiting_for(state, [7]) == [7]
    assert end_reason(state, participants=[7]) is None
    cast_vote(state, seat=7, value="guilty")
    assert end_reason(state, participants=[7]) == "unanimous"


def test_a_unanimous_jury_waits_until_every_participant_has_had_their_turns() -> None:
    state = state_with(ALL_GUILTY, round_number=1, settings=GATED, own_votes=[7], vote_history=[ALL_GUILTY] * 2)
    record_turn(state, seat=7)
    assert end_reason(state, participants=[7]) is None
    record_turn(state, seat=7)
    assert end_reason(state, participants=[7]) == "unanimous"


def test_stability_waits_for_the_participants_too() -> None:
    state = state_with(SPLIT, round_number=5, rounds_without_change=4, settings=GATED)
    assert end_reason(state, participants=[7]) is None
    assert end_reason(state, participants=[]) == "stable"


def test_a_called_vote_and_the_round_limit_end_it_even_while_the_jury_waits() -> None:
    state = state_with(ALL_GUILTY, round_number=20, settings=GATED)
    assert end_reason(state, participants=[7]) == "round_limit"
    state = state_with(ALL_GUILTY, round_number=2, settings=GATED, vote_called=True)
    assert end_reason(state, participants=[7]) == "called"


def test_a_turn_whose_time_ran_out_settles_the_seats_ballot() -> None:
    state = state_with(
        ALL_GUILTY, round_number=2, settings=EngineSettings(turns_before_verdict=1), vote_history=[ALL_GUILTY] * 2
    )
    record_turn(state, seat=4, timed_out=True)
    assert waiting_for(state, [4]) == []
    assert end_reason(state, participants=[4]) == "unanimous"


def test_a_jury_that_turns_unanimous_in_one_round_waits_one_more_so_the_people_can_answer() -> None:
    ready = {"settings": GATED, "own_votes": [7], "turns_had": {7: 2}}
    sudden = state_with(ALL_GUILTY, round_number=2, vote_history=[SPLIT, ALL_GUILTY], **ready)
    assert end_reason(sudden, participants=[7]) is None
    eleven = {**ALL_GUILTY, 7: "not_guilty"}
    told = state_with(ALL_GUILTY, round_number=3, vote_history=[SPLIT, eleven, ALL_GUILTY], **ready)
    assert end_reason(told, participants=[7]) == "unanimous"
    other_way = {seat: "not_guilty" for seat in range(1, 13)}
    turned = state_with(ALL_GUILTY, round_number=3, vote_history=[SPLIT, other_way, ALL_GUILTY], **ready)
    assert end_reason(turned, participants=[7]) is None


def test_without_the_setting_the_jury_never_waits() -> None:
    state = state_with(ALL_GUILTY, round_number=1)
    assert waiting_for(state, [7]) == [] and awaiting_vote(state, [7]) == []
    assert end_reason(state, participants=[7]) == "unanimous"


def test_the_participants_record_survives_the_json_round_trip() -> None:
    state = state_with(SPLIT, round_number=1, settings=GATED)
    cast_vote(state, seat=7, value="not_guilty")
    record_turn(state, seat=7)
    again = DeliberationState.from_dict(state.to_dict())
    assert again.own_votes == [7] and again.turns_had == {7: 1}
    assert again.settings.turns_before_verdict == 2


# --- Telling the people how close the jury is --------------------------------------------------------------


def outlook_of(votes: dict[int, str], **numbers: object) -> str:
    defaults: dict[str, object] = {"round_number": 3, "max_rounds": 20, "rounds_without_change": 0}
    return verdict_outlook(votes=votes, stability_rounds=3, **{**defaults, **numbers})  # type: ignore[arg-type]


UNANIMOUS_RULES = "rules: Unanimous"
ENGLAND_WALES = "rules: England and Wales (majority direction)"
ALLEN = "rules: United States (Allen charge)"
OLD_BAILEY = "rules: Old Bailey, 1674-1913"
ELEVEN_TO_ONE = {**ALL_GUILTY, 7: "not_guilty"}
TEN_TO_TWO = {**ALL_GUILTY, 6: "not_guilty", 7: "not_guilty"}
DIRECTION_GIVEN = RuleProgress(direction_round=13)


def test_the_people_are_told_when_one_vote_would_make_the_jury_unanimous() -> None:
    assert outlook_of(ELEVEN_TO_ONE) == NEAR_ONE_SHORT.format(
        count=11, size=12, verdict="guilty", rules=UNANIMOUS_RULES
    )


def test_the_people_are_told_a_unanimous_jury_gives_its_verdict_after_the_next_round() -> None:
    assert outlook_of(ALL_GUILTY) == NEAR_UNANIMOUS.format(verdict="guilty")
    waiting = outlook_of(ALL_GUILTY, waiting=True, turns_needed=2)
    assert waiting == NEAR_UNANIMOUS_WAITING.format(verdict="guilty", turns="2 turns")


def test_the_people_are_told_when_one_more_quiet_round_hangs_the_jury() -> None:
    hung = NEAR_STABLE.format(rounds="2 rounds", required="a unanimous verdict", rules=UNANIMOUS_RULES)
    assert outlook_of(SPLIT, rounds_without_change=2) == hung
    assert outlook_of(SPLIT, rounds_without_change=1) == ""
    assert outlook_of(SPLIT, rounds_without_change=2, waiting=True) == ""


def test_the_people_are_told_when_the_last_round_comes() -> None:
    last = NEAR_LIMIT.format(limit=20, required="a unanimous verdict", rules=UNANIMOUS_RULES)
    assert outlook_of(SPLIT, round_number=19) == last


def test_a_divided_jury_far_from_any_end_gives_no_warning() -> None:
    assert outlook_of(SPLIT) == ""


# --- ... under the jury's rules, which every such line names --------------------------------------------------


def test_after_the_majority_direction_ten_to_two_is_announced_as_a_verdict_the_judge_can_accept() -> None:
    line = outlook_of(TEN_TO_TWO, round_number=14, rules="england-wales", progress=DIRECTION_GIVEN)
    assert line == NEAR_MAJORITY.format(count=10, rest=2, verdict="guilty", rules=ENGLAND_WALES)
    assert outlook_of(TEN_TO_TWO, round_number=14, rules="unanimous", progress=DIRECTION_GIVEN) == ""


def test_after_the_majority_direction_nine_to_three_is_one_vote_short_of_ten_to_two() -> None:
    nine = {**TEN_TO_TWO, 5: "not_guilty"}
    line = outlook_of(nine, round_number=14, rules="england-wales", progress=DIRECTION_GIVEN)
    assert line == NEAR_ONE_SHORT_MAJORITY.format(
        count=9, size=12, verdict="guilty", required="a verdict of at least 10 to 2", rules=ENGLAND_WALES
    )


def test_before_the_direction_a_quiet_england_and_wales_jury_is_warned_it_will_be_sent_back_not_hung() -> None:
    line = outlook_of(SPLIT, rounds_without_change=2, rules="england-wales")
    assert line == NEAR_STABLE_SENT_BACK.format(rounds="2 rounds", rules=ENGLAND_WALES)
    after = outlook_of(SPLIT, round_number=14, rounds_without_change=2, rules="england-wales", progress=DIRECTION_GIVEN)
    assert after == NEAR_STABLE.format(rounds="2 rounds", required="a verdict of at least 10 to 2", rules=ENGLAND_WALES)


def test_the_last_round_after_the_direction_names_the_majority_the_jury_still_needs() -> None:
    line = outlook_of(SPLIT, round_number=19, rules="england-wales", progress=DIRECTION_GIVEN)
    assert line == NEAR_LIMIT.format(limit=20, required="a verdict of at least 10 to 2", rules=ENGLAND_WALES)


def test_an_allen_jury_is_warned_of_the_further_instruction_first_and_of_a_mistrial_only_after_it() -> None:
    assert outlook_of(SPLIT, rounds_without_change=2, rules="us-allen") == NEAR_STABLE_ALLEN.format(
        rounds="2 rounds", rules=ALLEN
    )
    assert outlook_of(SPLIT, round_number=19, rules="us-allen") == NEAR_LIMIT_ALLEN.format(
        limit=20, extra=5, rules=ALLEN
    )
    charged = RuleProgress(deadlocks=1)
    again = outlook_of(SPLIT, round_number=19, rules="us-allen", progress=charged)
    assert again == NEAR_LIMIT.format(limit=20, required="a unanimous verdict", rules=ALLEN)


def test_a_kept_old_bailey_jury_is_warned_it_will_be_sent_back_and_hangs_only_at_the_courts_limit() -> None:
    out = RuleProgress(retired_round=2)
    line = outlook_of(SPLIT, round_number=5, rounds_without_change=2, rules="historical-old-bailey", progress=out)
    assert line == NEAR_STABLE_SENT_BACK.format(rounds="2 rounds", rules=OLD_BAILEY)
    last = outlook_of(SPLIT, round_number=9, max_rounds=10, rules="historical-old-bailey", progress=out)
    assert last == NEAR_LIMIT.format(limit=10, required="a unanimous verdict", rules=OLD_BAILEY)


def test_with_a_juror_discharged_the_outlook_counts_the_eleven_who_remain() -> None:
    eleven = {seat: vote for seat, vote in ELEVEN_TO_ONE.items() if seat != 7}
    assert outlook_of(eleven, size=11) == NEAR_UNANIMOUS.format(verdict="guilty")
    ten = {**eleven, 3: "not_guilty"}
    assert outlook_of(ten, size=11) == NEAR_ONE_SHORT.format(count=10, size=11, verdict="guilty", rules=UNANIMOUS_RULES)
    line = outlook_of(SPLIT, round_number=19, size=11)
    assert line == NEAR_LIMIT.format(limit=20, required="a unanimous verdict of all 11", rules=UNANIMOUS_RULES)


def test_the_cast_tally_counts_a_person_yet_to_vote_apart_so_eleven_to_nothing_is_not_unanimous() -> None:
    state = state_with(ALL_GUILTY, round_number=1, settings=GATED)
    assert tally_cast(state, [7]) == {"guilty": 11, "not_guilty": 0, "waiting": 1}
    cast_vote(state, seat=7, value="guilty")
    assert tally_cast(state, [7]) == {"guilty": 12, "not_guilty": 0, "waiting": 0}


def test_a_person_whose_run_out_turn_left_no_vote_is_still_counted_as_yet_to_vote() -> None:
    state = state_with(ALL_GUILTY, round_number=1, settings=GATED)
    record_turn(state, seat=7, timed_out=True)  # her turn ran out before she voted: her ballot settles
    state.votes.pop(7)  # as the room does (lifecycle.record_turn): nobody's vote stands for her
    assert tally_cast(state, [7]) == {"guilty": 11, "not_guilty": 0, "waiting": 1}  # not "unanimous"
