import random

import pytest

from deliberation.engine.formats import ERROR_CONTEXT_SCOPE, ERROR_LAST_N, ERROR_TURN_MODE
from deliberation.engine.prompts import build_speak_messages
from deliberation.engine.state import EngineSettings
from deliberation.engine.turns import select_speakers
from tests.deliberation.engine.formats_helpers import RecordingMind, run

AI_SEATS = list(range(1, 13))
SPLIT_FOR_SEVEN = 20  # a seed whose jury is still split after seven rounds, so the minutes are written


def speakers(results) -> list[list[int]]:  # type: ignore[no-untyped-def]
    return [[s.seat for s in r.speeches] for r in results]


def test_round_robin_goes_round_the_table_in_seat_order_carrying_on_each_round() -> None:
    # A seed whose jury is still split after five rounds, so the table is gone round once.
    _, _, results = run(5, seed=0, turn_mode="round-robin", min_speakers=3, max_speakers=3)
    assert speakers(results) == [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12], [1, 2, 3]]


def test_round_robin_skips_a_withdrawn_juror_but_keeps_the_order() -> None:
    state, jury, _ = run(1, turn_mode="round-robin", min_speakers=3, max_speakers=3)
    state.memories[5].withdrawn = True
    assert select_speakers(state, jury, count=3, rng=random.Random(1)) == [4, 6, 7]
    assert select_speakers(state, jury, count=3, addressed={5}, rng=random.Random(1)) == [4, 5, 6]


def test_random_turns_are_a_uniform_draw_without_replacement() -> None:
    state, jury, _ = run(1, turn_mode="random")
    state.memories[3].withdrawn = True
    eligible = [seat for seat in AI_SEATS if seat != 3]
    assert select_speakers(state, jury, count=4, rng=random.Random(9)) == random.Random(9).sample(eligible, 4)


def test_in_a_reply_chain_each_speaker_answers_the_one_before() -> None:
    _, _, results = run(4, turn_mode="reply-chain", min_speakers=3, max_speakers=4)
    previous_round_last = None
    for result in results:
        seats = [s.seat for s in result.speeches]
        targets = [s.target_seat for s in result.speeches]
        assert targets[1:] == seats[:-1]
        if previous_round_last is not None and previous_round_last != seats[0]:
            assert targets[0] == previous_round_last
        previous_round_last = seats[-1]


def test_weighted_is_the_default_and_unchanged() -> None:
    _, _, default = run(3)
    _, _, weighted = run(3, turn_mode="weighted")
    assert speakers(default) == speakers(weighted)


@pytest.mark.parametrize(
    ("knobs", "message"),
    [
        ({"turn_mode": "fishbowl"}, ERROR_TURN_MODE.format(value="fishbowl")),
        ({"context_scope": "everything"}, ERROR_CONTEXT_SCOPE.format(value="everything")),
        ({"last_n": 0}, ERROR_LAST_N),
    ],
)
def test_an_unknown_format_is_refused_by_name(knobs: dict, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        EngineSettings(**knobs)
    assert str(caught.value) == message


def all_said(results) -> list[str]:  # type: ignore[no-untyped-def]
    return [s.content for r in results for s in r.speeches]


def test_window_and_summary_shows_the_memory_window_and_the_minutes() -> None:
    mind = RecordingMind()
    state, _, _results = run(7, mind, seed=SPLIT_FOR_SEVEN)
    last = mind.requests[-1]
    assert 0 < len(last.recent) <= last.juror.memory_window
    assert last.outlook.summary and last.outlook.summary == state.memories[last.juror.seat].summary


def test_full_log_shows_every_turn_of_the_deliberation_and_folds_nothing() -> None:
    mind = RecordingMind()
    _, _, results = run(7, mind, context_scope="full-log")
    last = mind.requests[-1]
    earlier_rounds = [s.content for r in results[:-1] for s in r.speeches]
    this_round = [s.content for s in results[-1].speeches][: len(last.recent) - len(earlier_rounds)]
    assert [t.content for t in last.recent] == earlier_rounds + this_round
    assert last.outlook.summary == ""
    assert not any(r.summarized for r in results)
    prompt = "\n".join(m["content"] for m in build_speak_messages(last))
    assert all(said[:60] in prompt for said in earlier_rounds)


def test_last_n_shows_exactly_the_last_n_turns_and_no_minutes() -> None:
    mind = RecordingMind()
    _, _, _results = run(7, mind, context_scope="last-n", last_n=2)
    for request in mind.requests[3:]:
        assert len(request.recent) == 2
        assert request.outlook.summary == ""
    last = mind.requests[-1]
    prompt = "\n".join(m["content"] for m in build_speak_messages(last))
    assert all(turn.content[:60] in prompt for turn in last.recent)


def test_summary_only_shows_the_minutes_and_no_turns() -> None:
    mind = RecordingMind()
    state, _, _ = run(7, mind, seed=SPLIT_FOR_SEVEN, context_scope="summary-only")
    last = mind.requests[-1]
    assert last.recent == ()
    assert last.outlook.summary == state.memories[last.juror.seat].summary != ""


def test_persona_only_shows_nothing_of_what_the_others_said() -> None:
    mind = RecordingMind()
    _, _, results = run(7, mind, context_scope="persona-only")
    last = mind.requests[-1]
    assert last.recent == () and last.outlook.summary == ""
    assert last.outlook.impressions == () and last.outlook.key_moments == () and last.outlook.opinions == {}
    prompt = "\n".join(m["content"] for m in build_speak_messages(last))
    others = [s for r in results for s in r.speeches if s.seat != last.juror.seat]
    assert not any(s.content[:60] in prompt for s in others)
    assert not any(f"{s.speaker_name} (" in prompt for s in others)
