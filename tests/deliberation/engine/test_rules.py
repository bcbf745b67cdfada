"""Jury rule sets applied exactly: majority direction, the Allen charge, short Old Bailey juries,
"no new arguments", and the foreperson's summaries, polls and deadlock reports."""

import pytest

from deliberation.engine import rules
from deliberation.engine.ending import end_reason, final_verdict, settle_round
from deliberation.engine.foreperson import (
    DEADLOCK_REPORT,
    READY_TO_VOTE,
    SUMMARY_OPENING,
    UNHEARD,
    closing_lines,
    poll_line,
)
from deliberation.engine.phases import advance
from deliberation.engine.ports import HeardTurn
from deliberation.engine.session import begin
from deliberation.engine.state import DeliberationState, EngineSettings
from deliberation.engine.types import Speech
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import build_case, build_jury

JURY = build_jury()


def state_with(votes: dict[int, str], **settings: object) -> DeliberationState:
    state = begin(case=build_case(), jury=JURY, seed=3, settings=EngineSettings(**settings))
    state.votes = dict(votes)
    return state


def split(guilty: int, size: int = 12) -> dict[int, str]:
    return {seat: ("guilty" if seat <= guilty else "not_guilty") for seat in range(1, size + 1)}


def settle(state: DeliberationState, speeches: list[Speech] | None = None) -> tuple[str, list]:
    state.round_number += 1
    state.rounds_without_change += 1  # a round in which no vote changed
    return settle_round(state, jury=list(JURY), case=build_case(), speeches=speeches or [], reader=argued_points)


def verdict(state: DeliberationState, reason: str) -> str:
    state.end_reason = reason
    advance(state, "final_vote")
    return final_verdict(state)


def speech(text: str) -> Speech:
    return Speech(seat=1, speaker_name="Marcus Webb", content=text)


def test_ten_to_two_after_the_majority_direction_is_a_verdict_under_england_wales() -> None:
    state = state_with(split(10), rules="england-wales", majority_after_rounds=2)
    reason, lines = settle(state)
    assert reason == "" and not [line for line in lines if line.kind == "judge"]
    reason, lines = settle(state)
    direction = [line for line in lines if line.kind == "judge"]
    assert reason == "" and direction[0].content.startswith("Members of the jury, you have now been deliberating")
    assert "at least 10 of the 12" in direction[0].content
    assert settle(state)[0] == "majority"
    assert verdict(state, "majority") == "guilty"


def test_ten_to_two_is_not_a_verdict_under_unanimous_rules() -> None:
    state = state_with(split(10), rules="unanimous", majority_after_rounds=2, stability_rounds=99)
    for _ in range(5):
        assert settle(state)[0] == ""
    assert verdict(state, "called") == "hung"


def test_ten_to_two_before_the_direction_is_not_a_verdict_under_england_wales() -> None:
    state = state_with(split(10), rules="england-wales")
    state.round_number = 5
    assert end_reason(state) is None
    assert verdict(state, "called") == "hung"


def test_nine_to_three_is_not_a_verdict_even_after_the_direction() -> None:
    state = state_with(split(9), rules="england-wales")
    state.rule_progress.direction_round = 13
    state.round_number = 14
    assert end_reason(state) is None


@pytest.mark.parametrize(
    ("size", "guilty", "valid"),
    [(12, 11, True), (12, 10, True), (12, 9, False), (11, 10, True), (11, 9, False), (10, 9, True), (10, 8, False)],
)
def test_majority_thresholds_follow_the_number_of_jurors_still_sitting(size: int, guilty: int, valid: bool) -> None:
    progress = rules.RuleProgress(direction_round=13)
    found = rules.valid_verdict(split(guilty, size), rules=rules.rule_set("england-wales"), progress=progress)
    assert (found == "guilty") is valid


def test_a_stuck_jury_is_sent_back_before_the_majority_direction() -> None:
    state = state_with(split(7), rules="england-wales", stability_rounds=1)
    reason, lines = settle(state)
    assert reason == ""
    assert lines[0].content.startswith(DEADLOCK_REPORT) and lines[1].content == rules.KEEP_TRYING
    assert state.rounds_without_change == 0


def test_us_allen_hangs_only_on_the_second_deadlock() -> None:
    state = state_with(split(7), rules="us-allen", stability_rounds=1)
    reason, lines = settle(state)
    assert reason == ""
    assert [line.kind for line in lines[:2]] == ["process", "judge"]
    assert lines[0].content.startswith(DEADLOCK_REPORT) and lines[1].content == rules.ALLEN_INSTRUCTION
    assert "No juror should give up an honest conviction" in lines[1].content
    reason, lines = settle(state)
    assert reason == "deadlock" and lines[0].content.startswith(DEADLOCK_REPORT)
    assert verdict(state, reason) == "hung"


def test_an_allen_instruction_at_the_round_limit_gives_the_jury_more_rounds() -> None:
    state = state_with(split(7), rules="us-allen", max_rounds=3, stability_rounds=99)
    state.round_number = 2
    assert settle(state)[0] == ""
    assert state.rule_progress.extra_rounds == rules.ALLEN_EXTRA_ROUNDS
    state.round_number = 3 + rules.ALLEN_EXTRA_ROUNDS - 1
    assert settle(state)[0] == "deadlock"


def test_unanimous_rules_hang_at_the_first_deadlock() -> None:
    state = state_with(split(7), rules="unanimous", stability_rounds=1)
    reason, lines = settle(state)
    assert reason == "stable" and lines[0].content.startswith(DEADLOCK_REPORT)


def test_an_old_bailey_jury_not_agreed_in_the_box_is_sent_out_until_agreed() -> None:
    state = state_with(split(9), rules="historical-old-bailey", stability_rounds=99)
    for _ in range(rules.OLD_BAILEY_BOX_ROUNDS - 1):
        reason, lines = settle(state)
        assert reason == "" and not [line for line in lines if line.kind == "judge"]
    reason, lines = settle(state)
    judge = [line.content for line in lines if line.kind == "judge"]
    assert reason == "" and judge == [rules.SEND_OUT]
    assert state.rule_progress.retired_round == rules.OLD_BAILEY_BOX_ROUNDS


def test_a_kept_jury_that_reports_it_cannot_agree_is_sent_back_not_hung() -> None:
    state = state_with(split(9), rules="historical-old-bailey", stability_rounds=1)
    assert [line.content for line in settle(state)[1] if line.kind == "judge"] == [rules.SEND_OUT]
    reason, lines = settle(state)
    assert reason == ""
    assert lines[0].content.startswith(DEADLOCK_REPORT)
    assert [line.content for line in lines if line.kind == "judge"] == [rules.SEND_BACK]


def test_the_foreperson_of_a_kept_jury_presses_the_minority_by_name() -> None:
    state = state_with(split(9), rules="historical-old-bailey", stability_rounds=99)
    state.rule_progress.retired_round = 2
    state.round_number = 2
    _, lines = settle(state)
    press = [line.content for line in lines if line.content.startswith("We stand 9 to 3 for guilty")]
    names = [juror.name for juror in JURY if juror.seat in (10, 11, 12)]
    assert press and all(name in press[0] for name in names)


def test_a_kept_jury_is_discharged_unagreed_only_at_the_courts_limit() -> None:
    state = state_with(split(11), rules="historical-old-bailey", stability_rounds=99)
    state.rule_progress.retired_round = 2
    state.round_number = rules.OLD_BAILEY_ROUNDS - 2
    assert settle(state)[0] == ""
    reason, lines = settle(state)
    assert reason == "deadlock"
    assert [line.content for line in lines if line.kind == "judge"] == [rules.DISCHARGE_UNAGREED]
    assert verdict(state, reason) == "hung"


def test_a_kept_jury_that_agrees_but_waits_for_a_persons_vote_never_reports_it_cannot_agree() -> None:
    state = state_with(split(0), rules="historical-old-bailey", stability_rounds=1, turns_before_verdict=1)
    waiting_on = [7]  # seat 7 is a person who has spoken but never cast a vote of their own
    state.turns_had[7] = 3
    for _ in range(rules.OLD_BAILEY_ROUNDS - 1):
        state.round_number += 1
        state.rounds_without_change += 1
        reason, lines = settle_round(
            state, jury=list(JURY), case=build_case(), speeches=[], participants=waiting_on, reader=argued_points
        )
        assert reason == ""
        assert not [line for line in lines if line.content.startswith(DEADLOCK_REPORT)]
        assert not [line for line in lines if line.kind == "judge"]  # neither sent out nor sent back
    state.round_number += 1
    reason, lines = settle_round(
        state, jury=list(JURY), case=build_case(), speeches=[], participants=waiting_on, reader=argued_points
    )
    assert reason == "round_limit"  # the court's limit: the verdict is taken on the votes
    assert verdict(state, reason) == "not_guilty"


def test_the_minority_of_a_kept_jury_feels_a_growing_pull_and_the_stubborn_less() -> None:
    old_bailey = rules.rule_set("historical-old-bailey")
    out = rules.RuleProgress(retired_round=2)
    assert rules.yielding_pull(rules=old_bailey, progress=rules.RuleProgress(), round_number=2, stubbornness=0) == 0
    first = rules.yielding_pull(rules=old_bailey, progress=out, round_number=3, stubbornness=0)
    later = rules.yielding_pull(rules=old_bailey, progress=out, round_number=5, stubbornness=0)
    stubborn = rules.yielding_pull(rules=old_bailey, progress=out, round_number=5, stubbornness=1)
    assert first == rules.RETIRED_PULL and later == 3 * first and stubborn == later / 2
    unanimous = rules.rule_set("unanimous")
    assert rules.yielding_pull(rules=unanimous, progress=out, round_number=5, stubbornness=0) == 0


def test_an_even_kept_jury_is_pressed_towards_acquittal() -> None:
    assert rules.pressed_towards(split(6)) == "not_guilty"
    assert rules.pressed_towards(split(7)) == "guilty"


def test_the_verdict_words_name_the_rule_the_verdict_was_taken_under() -> None:
    after_direction = {"guilty": 9, "not_guilty": 3, "direction_given": True}
    assert rules.verdict_phrase("england-wales", verdict="hung", **after_direction) == (
        "Hung jury: it could not reach a verdict of at least 10 to 2 (rules: England and Wales (majority direction))"
    )
    assert rules.verdict_phrase("unanimous", verdict="hung", guilty=9, not_guilty=3).startswith(
        "Hung jury: it could not reach a unanimous verdict"
    )
    majority = rules.verdict_phrase("england-wales", verdict="guilty", guilty=10, not_guilty=2, direction_given=True)
    assert majority.startswith("Guilty, by a majority of 10 to 2")
    assert rules.required_verdict("england-wales", size=10, direction_given=True) == "a verdict of at least 9 to 1"
    assert rules.required_verdict("england-wales", size=12) == "a unanimous verdict"  # before the direction
    allen = rules.verdict_phrase("us-allen", verdict="hung", guilty=7, not_guilty=5, end_reason="deadlock")
    assert "deadlocked twice" in allen and "mistrial" in allen
    kept = rules.verdict_phrase("historical-old-bailey", verdict="hung", guilty=11, not_guilty=1, end_reason="deadlock")
    assert kept.startswith("Hung jury: kept until agreed")


def test_the_verdict_required_of_a_ballot_with_an_abstention_is_of_those_who_voted() -> None:
    assert rules.required_of_cast("unanimous", size=11, abstained=True) == "a unanimous verdict of the 11 who voted"
    assert rules.required_of_cast("unanimous", size=11) == "a unanimous verdict of all 11"  # a juror discharged
    assert rules.required_of_cast("unanimous", size=12) == "a unanimous verdict"
    majority = rules.required_of_cast("england-wales", size=11, direction_given=True, abstained=True)
    assert majority == "a verdict of at least 10 to 1"


def test_the_verdict_words_say_who_cast_no_vote_rather_than_a_jury_of_eleven() -> None:
    votes = {str(seat): "guilty" if seat < 8 else "not_guilty" for seat in range(1, 13) if seat != 3}
    hung = rules.verdict_phrase_of({"votes": votes, "discharged": []}, "unanimous", "hung")
    assert hung == (
        "Hung jury: it could not reach a unanimous verdict of the 11 who voted (seat 3 did not vote) (rules: Unanimous)"
    )
    both = {str(seat): "guilty" for seat in range(1, 13) if seat not in (2, 3)}
    assert rules.verdict_phrase_of({"votes": both}, "unanimous", "guilty").startswith(
        "Guilty, unanimously (seats 2 and 3 did not vote)"
    )
    discharged = {str(seat): "guilty" for seat in range(2, 13)}  # seat 1 discharged: no abstention
    phrase = rules.verdict_phrase_of({"votes": discharged, "discharged": [1]}, "unanimous", "guilty")
    assert "did not vote" not in phrase


def test_an_unknown_rule_set_is_refused_with_its_name() -> None:
    with pytest.raises(ValueError, match="Unknown jury rules 'scottish'"):
        EngineSettings(rules="scottish")


def test_nothing_new_for_k_rounds_ends_the_deliberation() -> None:
    state = state_with(split(7), no_new_rounds=2, stability_rounds=99)
    same = [speech("The grey hoodie had the owner's blood on it.")]
    assert settle(state, same)[0] == ""  # new to the room
    assert settle(state, same)[0] == ""  # nothing new, once
    assert settle(state, same)[0] == "no_new_arguments"


def test_a_new_point_resets_the_count_of_rounds_without_new_arguments() -> None:
    state = state_with(split(7), no_new_rounds=2, stability_rounds=99)
    settle(state, [speech("The grey hoodie had the owner's blood on it.")])
    settle(state, [speech("The grey hoodie had the owner's blood on it.")])
    assert settle(state, [speech("The till receipt shows the last sale at 22:39.")])[0] == ""
    assert state.rule_progress.rounds_without_new == 0


def test_the_foreperson_asks_whether_the_jury_is_ready_after_two_quiet_rounds() -> None:
    state = state_with(split(7), stability_rounds=99)
    same = [speech("The grey hoodie had the owner's blood on it.")]
    settle(state, same)
    assert not any(READY_TO_VOTE in line.content for line in settle(state, same)[1])
    assert any(line.content.startswith(READY_TO_VOTE) for line in settle(state, same)[1])


def said_by(state: DeliberationState, seat: int, text: str, position: str) -> Speech:
    """A speech every juror heard (as a round leaves it in their memories)."""
    name = next(j.name for j in JURY if j.seat == seat)
    for memory in state.memories.values():
        memory.heard.append(HeardTurn(state.round_number + 1, seat, name, text, position=position))
    return Speech(seat=seat, speaker_name=name, content=text)


def test_the_foreperson_sums_up_every_n_rounds_with_points_each_way_and_who_is_unheard() -> None:
    state = state_with(split(7), foreperson_summary_every=2, stability_rounds=99)
    settle(state, [speech("The grey hoodie had the owner's blood on it.")])
    lines = settle(state, [speech("The CCTV footage is grainy; the face is never visible.")])[1]
    summary = next(line for line in lines if line.content.startswith(SUMMARY_OPENING.format(round=2)))
    assert "For guilt, the grey hoodie" in summary.content
    assert "Against it, " in summary.content
    assert UNHEARD.split("{")[0] in summary.content


def test_the_foreperson_names_who_raised_each_point_once_in_whole_sentences() -> None:
    state = state_with(split(7), foreperson_summary_every=2, stability_rounds=99)
    hoodie = "The grey hoodie had the owner's blood on it."
    settle(state, [said_by(state, 3, hoodie, "guilty")])
    doubt = said_by(state, 9, "The CCTV footage is grainy; the face is never visible.", "not_guilty")
    lines = settle(state, [doubt, said_by(state, 4, hoodie, "guilty")])[1]
    summary = next(line for line in lines if line.content.startswith(SUMMARY_OPENING.format(round=2))).content
    guilt = next(s for s in summary.split(". ") if s.startswith("For guilt, "))
    against = next(s for s in summary.split(". ") if s.startswith("Against it, "))
    assert guilt.startswith(f"For guilt, {JURY[2].name} raised the grey hoodie")  # the first to argue it, not seat 4
    assert against.startswith(f"Against it, {JURY[8].name} raised the doubts about the CCTV footage")
    assert summary.lower().count("grey hoodie") == 1 and summary.lower().count("cctv footage") == 1


def test_the_foreperson_never_credits_a_point_to_a_juror_who_only_answered_it() -> None:
    state = state_with(split(7), foreperson_summary_every=2, stability_rounds=99)
    conceded = "The grey hoodie had the owner's blood on it."  # said by a juror arguing for acquittal
    settle(state, [said_by(state, 9, conceded, "not_guilty")])
    lines = settle(state, [said_by(state, 10, "The CCTV footage is grainy; the face is never visible.", "not_guilty")])
    summary = next(line for line in lines[1] if line.content.startswith(SUMMARY_OPENING.format(round=2))).content
    guilt = next(s for s in summary.split(". ") if s.startswith("For guilt, "))
    assert f"{JURY[8].name} raised the grey hoodie" not in guilt
    assert guilt == f"For guilt, the grey hoodie came up when {JURY[8].name} answered it"


def test_a_secret_ballot_gives_counts_and_a_show_of_hands_gives_names() -> None:
    hands = state_with(split(7))
    secret = state_with(split(7), poll="secret")
    assert poll_line(secret, JURY) == "On a secret ballot: 7 guilty, 5 not guilty."
    assert JURY[0].name in poll_line(hands, JURY)


def test_no_summary_when_the_setting_is_zero() -> None:
    state = state_with(split(7), foreperson_summary_every=0)
    state.round_number = 10
    assert closing_lines(state, JURY, after=0) == []


def test_the_rules_progress_survives_a_reload() -> None:
    state = state_with(split(10), rules="us-allen", stability_rounds=1)
    settle(state, [speech("The grey hoodie had the owner's blood on it.")])
    again = DeliberationState.from_dict(state.to_dict())
    assert again.rule_progress == state.rule_progress and again.settings.rules == "us-allen"


def test_with_a_model_the_summary_adds_the_models_own_summary_of_the_argument() -> None:
    state = state_with(split(7), foreperson_summary_every=5)
    state.round_number = 4
    lines = settle(state, [speech("The grey hoodie had the owner's blood on it.")])
    assert not any("In short:" in line.content for line in lines[1])
    state.round_number = 10
    state.rounds_without_change = 0
    _reason, lines = settle_round(
        state,
        jury=list(JURY),
        case=build_case(),
        speeches=[],
        model_summary="• Sarah Chen argued for doubt.",
        reader=argued_points,
    )
    summary = next(line for line in lines if line.content.startswith(SUMMARY_OPENING.format(round=10)))
    assert summary.content.endswith("In short: Sarah Chen argued for doubt.")


def test_a_model_mind_feeds_its_summary_to_the_foreperson_in_a_round() -> None:
    import asyncio

    from deliberation.engine.rounds import run_round
    from tests.deliberation.engine.factories import CountingMind
    from tests.deliberation.engine.helpers import deadlocked

    state, jury = deadlocked(6)
    mind = CountingMind()
    mind.concurrent = True  # type: ignore[attr-defined]  # plans its round like a model
    for _ in range(5):
        result = asyncio.run(
            run_round(state, case=build_case(), jury=jury, mind=mind, fallback=OfflineMind(), reader=argued_points)
        )
    summary = next(line for line in result.process_lines if line.content.startswith(SUMMARY_OPENING.format(round=5)))
    assert "In short: By round 5, " in summary.content
