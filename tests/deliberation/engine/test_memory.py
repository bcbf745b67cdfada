import asyncio
import json

from deliberation.engine import params
from deliberation.engine.memory import (
    fold,
    is_summary_round,
    named,
    note_flip,
    note_impression,
    note_spoken,
    recent_turns,
    turns_to_fold,
)
from deliberation.engine.ports import HeardTurn, Impression
from deliberation.engine.rounds import run_round
from deliberation.engine.state import DeliberationState, JurorMemory
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.stand_ins import argued_points
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
        result = asyncio.run(
            run_round(
                state, case=build_case(), jury=jury, mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points
            )
        )
        sizes.append(len(state.memories[1].heard))
        if state.round_number % 5 == 0:
            assert result.summarized
            assert state.memories[1].summary.startswith("•")
    assert state.round_number == 20
    assert max(sizes) <= 3 + 5 * 4  # 3 kept + at most 5 rounds of 4 speakers
    assert len(state.memories[1].heard) <= 3 + 4


# --- Memory per listener (layers 2 and 3): impressions, counter-points, key moments, points made ----


def impression(seat: int = 3, position: str = "guilty", **changes: object) -> Impression:
    values: dict[str, object] = {
        "round_number": 2,
        "seat": seat,
        "speaker_name": f"Juror {seat}",
        "position": position,
        "item_id": "e1",
        "label": "Pawn ticket",
        "delta": 0.02,
        "persuaded": False,
        "thought": "Not convinced.",
    }
    values.update(changes)
    return Impression(**values)  # type: ignore[arg-type]


def test_every_listener_remembers_how_each_argument_struck_it() -> None:
    state, jury = deadlocked(4)
    result = asyncio.run(
        run_round(state, case=build_case(), jury=jury, mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points)
    )
    for record in result.reactions:
        speech = result.speeches[record.speech_index]
        kept = [i for i in state.memories[record.seat].impressions if i.seat == speech.seat and i.round_number == 1]
        assert kept, (record.seat, speech.seat)
        assert round(record.delta, 4) in {i.delta for i in kept}
        assert record.persuaded in {i.persuaded for i in kept}


def test_listeners_remember_the_same_speech_differently() -> None:
    state, jury = deadlocked(4)
    asyncio.run(
        run_round(state, case=build_case(), jury=jury, mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points)
    )
    deltas = {
        state.memories[seat].impressions[0].delta for seat in (1, 3, 5, 9, 11) if state.memories[seat].impressions
    }
    assert len(deltas) > 1


def test_an_unpersuasive_argument_against_ones_vote_becomes_a_counterpoint() -> None:
    memory = JurorMemory(seat=1, vote="not_guilty")
    note_impression(memory, impression(), vote="not_guilty")
    note_impression(memory, impression(seat=4, position="not_guilty"), vote="not_guilty")
    note_impression(memory, impression(seat=5, persuaded=True, delta=0.2), vote="not_guilty")
    assert [c.seat for c in memory.counterpoints] == [3]


def test_answering_a_counterpoint_or_changing_sides_lets_it_go() -> None:
    memory = JurorMemory(seat=1, vote="not_guilty")
    note_impression(memory, impression(seat=3), vote="not_guilty")
    note_impression(memory, impression(seat=4, label="Alibi", item_id="e2"), vote="not_guilty")
    note_spoken(memory, label="Pawn ticket", answered=None)
    assert [c.seat for c in memory.counterpoints] == [4]
    assert memory.points_made == ["Pawn ticket"]
    note_flip(memory, round_number=3, name="Juror 1", after="guilty", own=True)
    assert memory.counterpoints == []


def test_a_strong_argument_a_contradiction_and_a_flip_are_key_moments() -> None:
    memory = JurorMemory(seat=1, vote="not_guilty")
    note_impression(memory, impression(seat=3, delta=0.15), vote="not_guilty", words="the pawn ticket")
    note_impression(memory, impression(seat=3, position="not_guilty", round_number=4), vote="not_guilty")
    note_flip(memory, round_number=4, name="Linda Park", after="guilty", own=False)
    assert [(m.kind, m.text) for m in memory.key_moments] == [
        ("strong", "Juror 3's argument on the pawn ticket moved me towards guilty"),
        ("contradiction", "Juror 3 argued not guilty after arguing guilty in round 2"),
        ("flip", "Linda Park switched to guilty"),
    ]


def test_an_argument_that_moved_a_listener_the_other_way_is_no_strong_moment() -> None:
    memory = JurorMemory(seat=1, vote="not_guilty")
    note_impression(memory, impression(seat=3, position="guilty", delta=-0.2), vote="not_guilty")
    assert [m.kind for m in memory.key_moments] == []


def test_items_are_named_as_they_sit_mid_sentence() -> None:
    assert named("Debris sample #4 (gasoline positive)", witness=False) == "the debris sample #4 (gasoline positive)"
    # a name's report is named as the jurors' speeches name it ("naming.item_name_of"): no article
    assert named("Captain Deckard's origin-and-cause report", witness=False).startswith("Captain Deckard's")
    # a common noun's takes "the"; a label's capital goes mid-sentence, a name's stays
    assert named("Defendant's statements to police", witness=False) == "the defendant's statements to police"
    assert named("Thumbprint on the counter", witness=False) == "the thumbprint on the counter"
    assert named("Photo array identification by Miles Ferraro", witness=False).startswith("the photo array")
    assert named("Wade's alibi", witness=False, names={"wade"}) == "Wade's alibi"
    assert named("The pawn ticket", witness=False) == "the pawn ticket"
    assert named("Dolores Finch", witness=True) == "Dolores Finch"


def test_every_ai_juror_flags_the_rounds_vote_changes() -> None:
    for seed in range(30):
        state, jury = deadlocked(seed)
        result = asyncio.run(
            run_round(
                state, case=build_case(), jury=jury, mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points
            )
        )
        if result.flips:
            flip = result.flips[0]
            ai = [j.seat for j in jury if j.kind == "ai"]
            assert all(any(m.kind == "flip" and m.round_number == 1 for m in state.memories[s].key_moments) for s in ai)
            own = state.memories[flip.seat].key_moments
            assert any(m.text.startswith("I changed my vote") for m in own)
            return
    raise AssertionError("no seed flipped a vote in round 1")


def test_a_speaker_remembers_the_item_it_argued_so_as_not_to_repeat_it() -> None:
    state, jury = deadlocked(6)
    result = asyncio.run(
        run_round(state, case=build_case(), jury=jury, mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points)
    )
    labels = {item.id: item.label for item in build_case().evidence} | {w.id: w.name for w in build_case().witnesses}
    for speech in result.speeches:
        if speech.cited and speech.cited[0] in labels:
            assert labels[speech.cited[0]] in state.memories[speech.seat].points_made


def test_listener_memory_survives_the_round_trip_through_json() -> None:
    state, jury = deadlocked(4)
    for _ in range(3):
        asyncio.run(
            run_round(
                state, case=build_case(), jury=jury, mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points
            )
        )
    restored = DeliberationState.from_dict(json.loads(json.dumps(state.to_dict())))
    for seat, memory in state.memories.items():
        again = restored.memories[seat]
        assert again.impressions == memory.impressions and again.key_moments == memory.key_moments
        assert again.counterpoints == memory.counterpoints and again.points_made == memory.points_made


def test_the_outlook_a_mind_sees_carries_the_listeners_memory() -> None:
    memory = JurorMemory(seat=1, vote="not_guilty")
    for n in range(10):
        note_impression(memory, impression(seat=3, round_number=n), vote="not_guilty")
    outlook = memory.outlook()
    assert len(outlook.impressions) == params.OUTLOOK_IMPRESSIONS
    assert outlook.counterpoints and outlook.counterpoints[-1].seat == 3
