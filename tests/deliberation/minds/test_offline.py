import asyncio
import random

import pytest

from deliberation.engine import params
from deliberation.engine.ports import CraftRequest, HeardTurn, JurorOutlook, Listener, ReactRequest, SpeakRequest
from deliberation.engine.rounds import run_round
from deliberation.engine.strategies import STRATEGIES, STRATEGY_NEEDS_TARGET, STRATEGY_NEEDS_TEXT, StrategyError
from deliberation.minds.offline.mind import THOUGHT_WORDS, OfflineMind
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import build_case, build_jury
from tests.deliberation.engine.helpers import deadlocked

CASE = build_case()
JURY = build_jury()
NAMES = [item.label for item in CASE.evidence] + [w.name for w in CASE.witnesses]


def twenty_rounds(seed: int = 1):  # type: ignore[no-untyped-def]
    state, jury = deadlocked(seed)
    results = []
    while not state.end_reason:
        results.append(
            asyncio.run(
                run_round(state, case=CASE, jury=jury, mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points)
            )
        )
    assert state.round_number == 20
    return results, jury


def speak(seat: int, vote: str, recent: tuple[HeardTurn, ...] = (), seed: int = 0):  # type: ignore[no-untyped-def]
    juror = JURY[seat - 1]
    request = SpeakRequest(
        juror=juror,
        outlook=JurorOutlook(conviction=0.8 if vote == "guilty" else 0.2, vote=vote),
        case=CASE,
        recent=recent,
        passages=(),
        round_number=3,
        tally={"guilty": 7, "not_guilty": 5},
        jury=JURY,
        seed=seed,
    )
    return asyncio.run(OfflineMind().speak(request))


def craft(strategy: str, side: str = "defend", target: int | None = None, text: str = "", seed: int = 0):  # type: ignore[no-untyped-def]
    request = CraftRequest(
        player=JURY[6],
        side=side,
        strategy=strategy,
        case=CASE,
        recent=(),
        passages=(),
        round_number=2,
        tally={"guilty": 8, "not_guilty": 4},
        jury=JURY,
        target_seat=target,
        free_text=text,
        seed=seed,
    )
    return asyncio.run(OfflineMind().craft_argument(request))


def test_the_offline_mind_is_called_the_offline_engine() -> None:
    assert OfflineMind().name == "offline"


def test_at_least_eighty_percent_of_statements_are_distinct_over_twenty_rounds() -> None:
    results, _ = twenty_rounds()
    statements = [s.content for r in results for s in r.speeches]
    assert len(statements) >= 20
    assert len(set(statements)) / len(statements) >= 0.8


def test_every_statement_names_evidence_or_a_witness() -> None:
    results, _ = twenty_rounds(2)
    for speech in (s for r in results for s in r.speeches):
        assert any(name.lower() in speech.content.lower() for name in NAMES), speech.content


def test_a_juror_answers_the_previous_speaker_by_name() -> None:
    previous = HeardTurn(
        round_number=3, seat=3, speaker_name="Frank Russo", content="Guilty. It's obvious.", position="guilty"
    )
    speech = speak(2, "not_guilty", (previous,))
    assert speech.target_seat == 3
    assert "Frank" in speech.content  # by first name, as jurors address each other


def test_a_student_who_took_an_ai_jurors_seat_is_answered_by_her_own_name() -> None:
    """Frank Russo argued from seat 3 before a student, Anna Park, took the seat (or while his AI stood
    in for her): the jury as it sits now has Anna in seat 3, and a reply to seat 3 is hers."""
    from dataclasses import replace

    jury = tuple(replace(j, name="Anna Park", kind="human") if j.seat == 3 else j for j in JURY)
    previous = HeardTurn(
        round_number=3, seat=3, speaker_name="Frank Russo", content="Guilty. It's obvious.", position="guilty"
    )
    for seed in range(12):
        request = SpeakRequest(
            juror=JURY[1],
            outlook=JurorOutlook(conviction=0.2, vote="not_guilty"),
            case=CASE,
            recent=(previous,),
            passages=(),
            round_number=3,
            tally={"guilty": 7, "not_guilty": 5},
            jury=jury,
            seed=seed,
        )
        speech = asyncio.run(OfflineMind().speak(request))
        assert speech.target_seat == 3
        assert "Anna" in speech.content and "Frank" not in speech.content, speech.content


def test_a_student_is_not_caught_contradicting_the_ai_juror_whose_seat_she_took() -> None:
    from deliberation.engine.ports import Impression
    from deliberation.minds.offline import reflection

    frank = Impression(1, 3, "Frank Russo", "guilty", "E1", "the receipt", 0.02, False, "")
    anna = Impression(2, 3, "Anna Park", "not_guilty", "E1", "the receipt", 0.02, False, "")
    outlook = JurorOutlook(conviction=0.5, vote="guilty", impressions=(frank, anna))
    assert reflection.contradiction(outlook, 3, 3) is None
    turned = Impression(2, 3, "Frank Russo", "not_guilty", "E1", "the receipt", 0.02, False, "")
    assert reflection.contradiction(JurorOutlook(conviction=0.5, vote="guilty", impressions=(frank, turned)), 3, 3)


def test_the_argument_type_comes_from_the_archetype() -> None:
    kinds = {speak(9, "guilty", seed=s).argument_type for s in range(40)}
    storyteller = {speak(11, "guilty", seed=s).argument_type for s in range(40)}
    assert "moral" in kinds and "narrative" in storyteller
    assert kinds != storyteller


def test_strength_follows_the_side_and_the_evidence() -> None:
    guilty = [speak(3, "guilty", seed=s).strength for s in range(20)]
    doubtful = [speak(3, "not_guilty", seed=s).strength for s in range(20)]
    assert all(value > 0 for value in guilty)
    assert all(value < 0 for value in doubtful)


def test_defence_arguments_use_contest_reasons_and_credibility_issues() -> None:
    texts = " ".join(speak(8, "not_guilty", seed=s).content for s in range(30))
    assert "timestamp ran four minutes fast" in texts or "borrowed the hoodie" in texts
    assert "broken street lamp" in texts or "taller man" in texts


def test_reactions_give_short_thoughts_and_move_listeners_with_the_speech() -> None:
    speech = speak(3, "guilty", seed=4)
    listeners = tuple(
        Listener(juror=j, outlook=JurorOutlook(conviction=0.5, vote="not_guilty"), active=j.seat % 2 == 0)
        for j in JURY
        if j.seat != 3
    )
    batch = asyncio.run(
        OfflineMind().react_batch(ReactRequest(case=CASE, speeches=(speech,), listeners=listeners, round_number=3))
    )
    assert len(batch.reactions) == 11
    assert all(len(r.thought.split()) <= THOUGHT_WORDS and r.thought for r in batch.reactions)
    assert sum(r.base_impact for r in batch.reactions) > 0


def test_a_listener_in_the_minority_feels_the_room() -> None:
    speech = speak(3, "guilty", seed=4)
    speech.strength = 0.0001  # almost nothing in the argument itself

    def impact(room_vote: str) -> float:
        listeners = [Listener(juror=JURY[0], outlook=JurorOutlook(conviction=0.45, vote="not_guilty"), active=True)]
        listeners += [
            Listener(juror=j, outlook=JurorOutlook(conviction=0.5, vote=room_vote), active=False) for j in JURY[3:12]
        ]
        request = ReactRequest(case=CASE, speeches=(speech,), listeners=tuple(listeners), round_number=3, seed=1)
        return asyncio.run(OfflineMind().react_batch(request)).reactions[0].base_impact

    assert impact("guilty") > impact("not_guilty")


def test_a_minority_juror_with_an_ally_holds_out_against_an_argument_better_than_one_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(params, "REACTION_JITTER", 0.0)  # the argument alone, without the listener's spread
    speech = speak(3, "guilty", seed=4)
    speech.position = None  # no side for the room's pull to ride on

    def impact(second_seat_vote: str) -> float:
        listeners = [Listener(juror=JURY[0], outlook=JurorOutlook(conviction=0.45, vote="not_guilty"), active=True)]
        second = JurorOutlook(conviction=0.45, vote=second_seat_vote)
        listeners.append(Listener(juror=JURY[1], outlook=second, active=True))
        listeners += [
            Listener(juror=j, outlook=JurorOutlook(conviction=0.7, vote="guilty"), active=False) for j in JURY[3:12]
        ]
        request = ReactRequest(case=CASE, speeches=(speech,), listeners=tuple(listeners), round_number=3, seed=1)
        return asyncio.run(OfflineMind().react_batch(request)).reactions[0].base_impact

    alone, with_ally = impact("guilty"), impact("not_guilty")
    assert alone > 0  # the argument pushes the dissenter towards guilt ...
    assert with_ally == pytest.approx(alone * (1 - params.ALLY_HOLD))  # ... less once someone votes with them
    assert params.ALLY_HOLD > 0


def test_summaries_are_bullets_for_every_juror() -> None:
    results, jury = twenty_rounds(3)
    assert any(r.summarized for r in results)
    from deliberation.engine.ports import SummarizeRequest

    turns = tuple(
        HeardTurn(round_number=r.round_number, seat=s.seat, speaker_name=s.speaker_name, content=s.content)
        for r in results[:5]
        for s in r.speeches
    )
    result = asyncio.run(OfflineMind().summarize(SummarizeRequest(CASE, turns, "", jury, 5)))
    assert set(result.summaries) >= {j.seat for j in jury}
    assert all(line.startswith("•") for line in result.summaries[1].splitlines())


def test_the_offline_summary_names_who_raised_each_point_once_in_whole_sentences() -> None:
    from deliberation.engine.ports import SummarizeRequest

    label = CASE.evidence[0].label
    said = f"Look again at the {label.lower()}; it matters."
    turns = (
        HeardTurn(round_number=1, seat=3, speaker_name="Ann Lee", content=said),
        HeardTurn(round_number=2, seat=4, speaker_name="Bo Park", content=said),
    )
    summary = asyncio.run(OfflineMind().summarize(SummarizeRequest(CASE, turns, "", (), 3))).summaries[0]
    lines = summary.splitlines()
    assert any(line.startswith("• By round 3, Ann Lee raised ") for line in lines)
    assert sum(line.lower().count(label.lower()) for line in lines) == 1  # under Ann Lee alone
    assert all(line.endswith(".") for line in lines)


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("side", ["defend", "prosecute"])
def test_every_strategy_argues_the_players_side(strategy: str, side: str) -> None:
    speech = craft(strategy, side, target=5, text="Think about the timing.")
    assert speech.strategy == strategy
    assert (speech.strength > 0) == (side == "prosecute")
    if strategy == "free_argument":  # the person's words alone, as typed: nothing from the file added
        assert (speech.content, speech.crafted) == ("Think about the timing.", "")
        return
    assert speech.content == f"{speech.crafted} Think about the timing."
    assert any(name.lower() in speech.crafted.lower() for name in NAMES)


def test_addressing_a_juror_speaks_to_them_by_name() -> None:
    speech = craft("address_juror", target=11)
    assert speech.content.startswith("Miguel Santos,")
    assert speech.target_seat == 11


def test_strategies_that_need_a_target_or_text_refuse_without_them() -> None:
    with pytest.raises(StrategyError, match=STRATEGY_NEEDS_TARGET):
        craft("address_juror")
    with pytest.raises(StrategyError, match=STRATEGY_NEEDS_TEXT):
        craft("free_argument", text="  ")


def test_the_same_seed_gives_the_same_words() -> None:
    seed = random.Random(5).randrange(1000)
    assert speak(4, "guilty", seed=seed).content == speak(4, "guilty", seed=seed).content
    assert craft("alternative_theory", seed=seed).content == craft("alternative_theory", seed=seed).content


def test_a_juror_says_nothing_the_game_has_said_even_beyond_its_memory() -> None:
    """``SpeakRequest.said`` holds the whole game: what was said rounds ago is not said again."""
    from dataclasses import replace

    from deliberation.minds.offline.saying import Said

    first = speak(8, "not_guilty", seed=3)
    again = speak(8, "not_guilty", seed=3)
    assert first.content == again.content  # the same request, the same words
    juror = JURY[7]
    request = SpeakRequest(
        juror=juror,
        outlook=JurorOutlook(conviction=0.2, vote="not_guilty"),
        case=CASE,
        recent=(),
        passages=(),
        round_number=3,
        tally={"guilty": 7, "not_guilty": 5},
        jury=JURY,
        seed=3,
    )
    later = asyncio.run(OfflineMind().speak(replace(request, said=(first.content,))))
    assert later.content != first.content
    assert Said([first.content]).repeats(later.content) == 0, (first.content, later.content)
