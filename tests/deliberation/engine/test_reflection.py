import asyncio
import dataclasses

from deliberation.engine.ports import HeardTurn, Impression, KeyMoment
from deliberation.engine.reflection import REASON_MOVED, REASON_OWN, flip_reason
from deliberation.engine.state import JurorMemory
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.offline.reflection import CONTRADICTION_LINES, contradiction
from tests.deliberation.engine.formats_helpers import RecordingMind, run


def heard(round_number: int, position: str, delta: float, label: str = "the knife") -> Impression:
    return Impression(round_number, 3, "Mrs Adler", position, "E1", label, delta, False, "")


def test_a_change_of_mind_gives_the_argument_that_moved_it_furthest_this_round() -> None:
    memory = JurorMemory(seat=5)
    memory.impressions = [
        heard(4, "not_guilty", -0.30, "the old alibi"),  # an earlier round: not this change's reason
        heard(5, "not_guilty", -0.05, "the pawn ticket"),
        dataclasses.replace(heard(5, "not_guilty", -0.12, "the receipt"), speaker_name="Mr Bell"),
        heard(5, "guilty", 0.2),  # the other way
    ]
    assert flip_reason(memory, 5, "not_guilty") == REASON_MOVED.format(speaker="Mr Bell", about=" on the receipt")
    assert flip_reason(memory, 6, "not_guilty") == REASON_OWN


def test_every_recorded_flip_carries_its_reason() -> None:
    _, _, results = run(12)
    flips = [flip for r in results for flip in r.flips]
    assert flips, "the seeded run changes a mind"
    assert all(flip.reason.startswith(("moved by ", "on reflection")) for flip in flips)


def test_a_juror_calls_out_a_speaker_who_argued_one_side_and_now_the_other() -> None:
    mind = RecordingMind()
    run(1, mind)
    request = mind.requests[0]
    outlook = dataclasses.replace(request.outlook, impressions=(heard(2, "guilty", 0.1), heard(4, "not_guilty", -0.1)))
    said = HeardTurn(4, 3, "Mrs Adler", "The knife proves nothing.", position="not_guilty")
    asked = dataclasses.replace(request, outlook=outlook, recent=(said,), round_number=5, answering=None)
    speech = asyncio.run(OfflineMind().speak(asked))
    lines = [
        line.format(name="Mrs Adler", before_round=2, before="guilty", after="not guilty")
        for line in CONTRADICTION_LINES
    ]
    assert any(line in speech.content for line in lines), speech.content


def test_a_change_of_vote_in_between_is_no_contradiction_and_an_old_one_is_not_raised() -> None:
    base = dataclasses.replace(_outlook(), impressions=(heard(2, "guilty", 0.1), heard(4, "not_guilty", -0.1)))
    assert contradiction(base, 3, 5) is not None
    flipped = dataclasses.replace(
        base, key_moments=(KeyMoment(3, "flip", "Mrs Adler changed their vote to not guilty"),)
    )
    assert contradiction(flipped, 3, 5) is None
    assert contradiction(base, 3, 7) is None  # the newer argument is two rounds old


def _outlook():  # type: ignore[no-untyped-def]
    mind = RecordingMind()
    run(1, mind)
    return mind.requests[0].outlook


def test_a_model_juror_is_reminded_of_a_contradiction_it_noticed_and_told_it_may_say_so() -> None:
    from deliberation.engine.prompts import CONTRADICTION_HINT, build_speak_messages

    mind = RecordingMind()
    run(1, mind)
    request = mind.requests[0]
    noticed = KeyMoment(2, "contradiction", "Mrs Adler argued not guilty after arguing guilty in round 1")
    later = KeyMoment(3, "flip", "Mr Bell changed their vote to guilty")
    outlook = dataclasses.replace(request.outlook, key_moments=(noticed, later))
    prompt = build_speak_messages(dataclasses.replace(request, outlook=outlook))[-1]["content"]
    assert CONTRADICTION_HINT.format(text=noticed.text, round=2) in prompt


def test_a_change_of_mind_in_round_1_never_speaks_of_earlier_rounds() -> None:
    from deliberation.engine.reflection import REASON_OWN_FIRST, REASON_OWN_SPEECH

    memory = JurorMemory(seat=5)
    assert flip_reason(memory, 1, "guilty") == REASON_OWN_FIRST
    assert "earlier rounds" not in flip_reason(memory, 1, "guilty")
    assert flip_reason(memory, 3, "guilty") == REASON_OWN
    assert flip_reason(memory, 1, "guilty", spoke=True) == REASON_OWN_SPEECH


def test_a_change_of_mind_names_the_item_as_it_sits_mid_sentence() -> None:
    memory = JurorMemory(seat=5)
    memory.impressions = [heard(2, "not_guilty", -0.2, "Thumbprint on the counter")]
    named = {"E1": "the thumbprint on the counter"}
    assert flip_reason(memory, 2, "not_guilty", named) == REASON_MOVED.format(
        speaker="Mrs Adler", about=" on the thumbprint on the counter"
    )


def test_a_change_of_vote_is_shown_under_the_speech_that_moved_the_juror_towards_it() -> None:
    checked = 0
    for seed in range(11, 17):
        _, _, results = run(6, seed=seed)
        for result in results:
            for flip in result.flips:
                if flip.reason.startswith("yielded"):
                    continue
                sign = 1.0 if flip.after == "guilty" else -1.0
                reactions = [r for r in result.reactions if r.seat == flip.seat]
                if flip.speech_index is None:
                    assert not any(sign * r.delta > 0 for r in reactions)
                    continue
                speech = result.speeches[flip.speech_index]
                if speech.seat == flip.seat:  # moved by their own argument as they made it
                    assert flip.reason.startswith("on reflection") and sign * speech.own_shift > 0
                    continue
                moved = next(r for r in reactions if r.speech_index == flip.speech_index)
                assert sign * moved.delta == max(sign * r.delta for r in reactions), (flip, result.round_number)
                assert flip.reason.startswith(f"moved by {speech.speaker_name}'s argument")
                if result.round_number == 1:
                    assert "earlier rounds" not in flip.reason
                checked += 1
    assert checked, "the seeded runs change a mind"
