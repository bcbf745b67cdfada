import asyncio
import dataclasses

import pytest

from deliberation.engine.discharge import (
    ERROR_NOT_AN_AI_JUROR,
    ERROR_TOO_FEW,
    DischargeError,
    allows_discharge,
    discharge,
)
from deliberation.engine.ending import is_unanimous
from deliberation.engine.parsing import parse_speech
from deliberation.engine.ports import Impression
from deliberation.engine.reflection import REJOIN_NOTE, WITHDRAW_NOTE
from deliberation.engine.state import DeliberationState
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.offline.reflection import WITHDRAW_LINES, has_nothing_to_add
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import build_jury
from tests.deliberation.engine.formats_helpers import RecordingMind, run


def test_a_withdrawn_tag_in_a_models_answer_withdraws_the_juror() -> None:
    jury = build_jury()
    tagged = "<SpeakingTo>everyone</SpeakingTo><Withdrawn>true</Withdrawn><Content>I have nothing to add.</Content>"
    staying = "<SpeakingTo>everyone</SpeakingTo><Withdrawn>false</Withdrawn><Content>One more point.</Content>"
    assert parse_speech(tagged, jury=jury).withdrawn is True  # type: ignore[union-attr]
    assert parse_speech(staying, jury=jury).withdrawn is False  # type: ignore[union-attr]
    assert parse_speech("<Content>No tag at all here.</Content>", jury=jury).withdrawn is False  # type: ignore[union-attr]
    assert parse_speech('{"content": "Done, I think.", "withdrawn": true}', jury=jury).withdrawn is True  # type: ignore[union-attr]


def test_a_withdrawn_juror_is_noted_stays_silent_unless_addressed_and_still_votes() -> None:
    state, _, results = run(6, RecordingMind(withdraw=(4,)), turn_mode="round-robin", min_speakers=4, max_speakers=4)
    first = results[0]
    assert [s.seat for s in first.speeches] == [1, 2, 3, 4]
    assert WITHDRAW_NOTE.format(name=first.speeches[3].speaker_name) in [line.content for line in first.process_lines]
    assert state.memories[4].withdrawn
    later = [s.seat for r in results[1:] for s in r.speeches]
    addressed = {s.target_seat for r in results for s in r.speeches} | {
        line.target_seat for r in results for line in r.process_lines
    }
    assert 4 not in later or 4 in addressed
    assert 4 in state.votes and sum(state.tally().values()) == 12


def test_a_juror_whose_vote_changes_rejoins_the_discussion() -> None:
    state, _, results = run(1, RecordingMind(withdraw=(1,)), turn_mode="round-robin", min_speakers=1, max_speakers=1)
    assert state.memories[1].withdrawn
    from deliberation.engine.reflection import note_withdrawals
    from deliberation.engine.results import Flip

    class Work:  # the bookkeeping note_withdrawals reads, with a flip of seat 1
        def __init__(self) -> None:
            self.state, self.result, self.speeches = state, results[0], []
            self.by_seat = {j.seat: j for j in build_jury()}

    work = Work()
    work.result.flips.append(Flip(1, "guilty", "not_guilty"))
    note_withdrawals(work)  # type: ignore[arg-type]
    assert not state.memories[1].withdrawn
    assert work.result.process_lines[-1].content == REJOIN_NOTE.format(name=work.by_seat[1].name)


def test_the_offline_juror_withdraws_only_with_its_core_points_made_nothing_new_to_answer_and_a_sure_vote() -> None:
    mind = RecordingMind()
    run(1, mind)
    outlook = mind.requests[0].outlook
    labels = ["the knife", "the pawn ticket"]
    done = dataclasses.replace(outlook, points_made=tuple(labels), counterpoints=(), conviction=0.9)
    assert has_nothing_to_add(done, labels, "guilty")
    assert not has_nothing_to_add(dataclasses.replace(done, conviction=0.7), labels, "guilty")  # not sure enough
    only_knife = dataclasses.replace(done, points_made=("the knife",), impressions=())
    assert not has_nothing_to_add(only_knife, labels, "guilty")
    # a point another juror argued on the same side, in the turns it remembers, is spent too
    assert has_nothing_to_add(only_knife, labels, "guilty", [("guilty", "And the pawn ticket says it all.")])
    assert not has_nothing_to_add(only_knife, labels, "guilty", [("not_guilty", "The pawn ticket proves nothing.")])
    new_challenge = Impression(1, 3, "Someone", "not_guilty", "E9", "the alibi", -0.1, False, "")
    assert not has_nothing_to_add(dataclasses.replace(done, counterpoints=(new_challenge,)), labels, "guilty")
    # answering again on a point it has argued already would only repeat it
    repeated = Impression(1, 3, "Someone", "not_guilty", "E1", "the knife", -0.1, False, "")
    assert has_nothing_to_add(dataclasses.replace(done, counterpoints=(repeated,)), labels, "guilty")
    # only the strongest points count: a third, weaker one left unargued does not keep it talking
    assert has_nothing_to_add(done, [*labels, "the weather that night"], "guilty")
    heard_all = [("guilty", "the knife and the pawn ticket")]
    assert not has_nothing_to_add(dataclasses.replace(done, points_made=()), labels, "guilty", heard_all)  # spoke not


def test_in_a_seeded_offline_game_a_juror_withdraws_stays_silent_unless_addressed_and_still_votes() -> None:
    from deliberation.engine.session import begin, run_to_end
    from tests.deliberation.engine.factories import build_case

    jury, case = build_jury(), build_case()
    state = begin(case=case, jury=jury, seed=1)  # a seed in which a juror withdraws in round 7 of 10
    results = asyncio.run(
        run_to_end(state, case=case, jury=list(jury), mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points)
    )
    notes = [(r.round_number, line.content) for r in results for line in r.process_lines if "withdraws" in line.content]
    assert notes, "someone withdraws in this seeded game"
    round_number, note = notes[0]
    juror = next(j for j in jury if note == WITHDRAW_NOTE.format(name=j.name))
    last = next(s for s in results[round_number - 1].speeches if s.seat == juror.seat)
    assert last.withdrawn and last.content.endswith(WITHDRAW_LINES)
    for result in results[round_number:]:
        spoke = [s for s in result.speeches if s.seat == juror.seat]
        addressed = {s.target_seat for r in results for s in r.speeches if r.round_number == result.round_number - 1}
        invited = {line.target_seat for line in result.process_lines}
        assert not spoke or juror.seat in addressed | invited
    assert state.memories[juror.seat].withdrawn and juror.seat in state.votes
    assert sum(state.tally().values()) == 12


def test_an_offline_juror_with_nothing_left_to_argue_says_so_and_withdraws() -> None:
    from deliberation.minds.offline.points import all_points

    mind = RecordingMind()
    run(1, mind)
    request = mind.requests[0]
    side = request.outlook.vote
    import random

    labels = tuple(p.label for p in all_points(request.case, side, random.Random(0)))
    outlook = dataclasses.replace(
        request.outlook, points_made=labels, counterpoints=(), conviction=0.95 if side == "guilty" else 0.05
    )
    speech = asyncio.run(OfflineMind().speak(dataclasses.replace(request, outlook=outlook)))
    assert speech.withdrawn and speech.content.endswith(WITHDRAW_LINES)


def test_a_discharged_juror_leaves_turns_votes_and_tallies_and_the_jury_goes_on_with_eleven() -> None:
    # A seed whose jury of eleven is still split ten rounds on (the test needs six).
    state, jury, _ = run(1, seed=68, turn_mode="round-robin", min_speakers=4, max_speakers=4)
    discharge(state, jury, seat=5)
    assert 5 not in state.votes and state.jury_size() == 11 and sum(state.tally().values()) == 11
    from deliberation.engine.rounds import run_round
    from tests.deliberation.engine.factories import build_case

    case = build_case()
    spoken, reacting = [], set()
    for _ in range(5):
        result = asyncio.run(
            run_round(state, case=case, jury=jury, mind=RecordingMind(), fallback=OfflineMind(), reader=argued_points)
        )
        spoken += [s.seat for s in result.speeches]
        reacting |= {r.seat for r in result.reactions}
        assert 5 not in result.votes and sum(result.tally.values()) == 11
        assert all(flip.seat != 5 for flip in result.flips)
    assert 5 not in spoken and 5 not in reacting
    assert spoken[:4] == [6, 7, 8, 9]  # round-robin carries on past the empty seat
    restored = DeliberationState.from_dict(state.to_dict())
    assert restored.discharged == [5] and restored.jury_size() == 11


def test_eleven_jurors_agreeing_are_unanimous_after_a_discharge() -> None:
    state, jury, _ = run(1)
    discharge(state, jury, seat=2)
    for seat in state.votes:
        state.votes[seat] = "guilty"
    assert is_unanimous(state.votes) and state.jury_size() == 11


def test_discharge_is_refused_below_the_minimum_for_a_person_and_under_the_historical_rules() -> None:
    state, jury, _ = run(1)
    for seat in (1, 2, 3):
        discharge(state, jury, seat=seat)
    with pytest.raises(DischargeError) as too_few:
        discharge(state, jury, seat=4)
    assert str(too_few.value) == ERROR_TOO_FEW.format(minimum=9)
    with pytest.raises(DischargeError) as twice:
        discharge(state, jury, seat=1)
    assert str(twice.value) == ERROR_NOT_AN_AI_JUROR.format(seat=1)
    assert allows_discharge("england-wales") and allows_discharge("unanimous")
    assert not allows_discharge("historical-old-bailey")


def test_in_a_reply_chain_nobody_answers_a_discharged_juror() -> None:
    state, jury, _ = run(1, turn_mode="reply-chain", min_speakers=2, max_speakers=2)
    last = state.last_speakers[-1]
    discharge(state, jury, seat=last)
    from deliberation.engine.rounds import run_round
    from tests.deliberation.engine.factories import build_case

    result = asyncio.run(
        run_round(
            state, case=build_case(), jury=jury, mind=RecordingMind(), fallback=OfflineMind(), reader=argued_points
        )
    )
    assert all(speech.target_seat != last for speech in result.speeches)
