"""Offline jurors act their archetype and use their own memory when they speak."""

import asyncio

from deliberation.engine.ports import Impression, JurorOutlook, KeyMoment, ReactionBatch, SpeakRequest
from deliberation.engine.rounds import run_round
from deliberation.minds.offline.archetypes import LARGE_MAJORITY
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import build_case, build_jury
from tests.deliberation.engine.helpers import deadlocked

CASE = build_case()
JURY = build_jury()
SEATS = {j.archetype: j.seat for j in JURY}


def speak(archetype: str, outlook: JurorOutlook, *, tally: dict[str, int], round_number: int = 3, seed: int = 0):  # type: ignore[no-untyped-def]
    request = SpeakRequest(
        juror=JURY[SEATS[archetype] - 1],
        outlook=outlook,
        case=CASE,
        recent=(),
        passages=(),
        round_number=round_number,
        tally=tally,
        jury=JURY,
        seed=seed,
    )
    return asyncio.run(OfflineMind().speak(request))


def heard(seat: int, position: str, *, delta: float, round_number: int = 3, persuaded: bool = False) -> Impression:
    return Impression(round_number, seat, JURY[seat - 1].name, position, "w1", "Dolores Finch", delta, persuaded, "Hm.")


def test_the_contrarian_argues_against_a_large_majority_whatever_its_own_vote() -> None:
    assert 10 / 12 >= LARGE_MAJORITY
    for vote, conviction in (("guilty", 0.8), ("not_guilty", 0.3)):
        for seed in range(10):
            speech = speak(
                "contrarian", JurorOutlook(conviction, vote), tally={"guilty": 10, "not_guilty": 2}, seed=seed
            )
            assert speech.position == "not_guilty"
    speech = speak("contrarian", JurorOutlook(0.8, "guilty"), tally={"guilty": 10, "not_guilty": 2})
    assert (
        "devil's advocate" in speech.content.lower()
        or "other side" in speech.content.lower()
        or "suspicious" in speech.content.lower()
    )


def test_the_contrarian_argues_its_own_vote_in_a_divided_room() -> None:
    speech = speak("contrarian", JurorOutlook(0.8, "guilty"), tally={"guilty": 7, "not_guilty": 5})
    assert speech.position == "guilty"


def test_the_conformist_echoes_the_last_juror_who_persuaded_it_by_name() -> None:
    outlook = JurorOutlook(
        0.55, "guilty", impressions=(heard(3, "guilty", delta=-0.01), heard(2, "not_guilty", delta=-0.09))
    )
    for seed in range(10):
        speech = speak("conformist", outlook, tally={"guilty": 8, "not_guilty": 4}, seed=seed)
        assert speech.position == "not_guilty"
        assert speech.target_seat == 2 and "Sarah" in speech.content  # jurors call each other by first name


def test_the_conformist_with_nobody_to_echo_follows_the_majority() -> None:
    for seed in range(10):
        speech = speak("conformist", JurorOutlook(0.3, "not_guilty"), tally={"guilty": 8, "not_guilty": 4}, seed=seed)
        assert speech.position == "guilty"


def test_the_impatient_juror_presses_the_foreperson_to_vote_after_the_first_round() -> None:
    pressed = [
        "foreperson"
        in speak("impatient", JurorOutlook(0.8, "guilty"), tally={"guilty": 7, "not_guilty": 5}, seed=s).content.lower()
        for s in range(40)
    ]
    assert sum(pressed) >= 24
    first = [
        speak("impatient", JurorOutlook(0.8, "guilty"), tally={"guilty": 7, "not_guilty": 5}, round_number=1, seed=s)
        for s in range(20)
    ]
    assert not any("foreperson" in s.content.lower() for s in first)
    others = [
        speak("rationalist", JurorOutlook(0.8, "guilty"), tally={"guilty": 7, "not_guilty": 5}, seed=s)
        for s in range(20)
    ]
    assert not any("foreperson" in s.content.lower() for s in others)


def test_the_wildcard_sometimes_changes_its_mind_for_its_own_reasons() -> None:
    speeches = [
        speak("wildcard", JurorOutlook(0.75, "guilty"), tally={"guilty": 7, "not_guilty": 5}, seed=s) for s in range(60)
    ]
    turned = [s for s in speeches if s.position == "not_guilty"]
    assert 3 <= len(turned) <= 25
    assert all(s.own_shift < 0 and 0.75 + s.own_shift < 0.4 for s in turned)
    assert all(s.own_shift == 0 for s in speeches if s.position == "guilty")


def test_a_speakers_own_change_of_mind_moves_its_vote_in_the_round() -> None:
    class Turning(OfflineMind):
        async def speak(self, request, *, on_text=None):  # type: ignore[no-untyped-def]
            speech = await super().speak(request, on_text=on_text)
            if request.juror.seat == 12:
                speech.own_shift = 1.0 - request.outlook.conviction
            return speech

        async def react_batch(self, request):  # type: ignore[no-untyped-def]
            return ReactionBatch(reactions=())  # nobody else moves it: only its own change of mind

    for seed in range(40):
        state, jury = deadlocked(seed, min_speakers=4, max_speakers=4)
        state.memories[12].conviction, state.memories[12].vote, state.votes[12] = 0.38, "not_guilty", "not_guilty"
        result = asyncio.run(
            run_round(state, case=CASE, jury=jury, mind=Turning(), fallback=OfflineMind(), reader=argued_points)
        )
        if any(s.seat == 12 for s in result.speeches):
            assert any(f.seat == 12 and f.after == "guilty" for f in result.flips)
            return
    raise AssertionError("seat 12 never spoke")


def test_a_juror_answers_the_counterpoint_it_kept_by_name() -> None:
    keep = heard(3, "guilty", delta=0.01)
    answered = [
        speak(
            "rationalist",
            JurorOutlook(0.2, "not_guilty", counterpoints=(keep,)),
            tally={"guilty": 6, "not_guilty": 6},
            seed=s,
        )
        for s in range(20)
    ]
    replies = [s for s in answered if s.target_seat == 3]
    assert len(replies) >= 10
    assert all("Frank" in s.content for s in replies)  # by first name, as jurors address each other


def test_a_juror_does_not_repeat_a_point_it_has_made_while_others_remain() -> None:
    labels = [item.label for item in CASE.evidence] + [w.name for w in CASE.witnesses]
    for seed in range(10):
        first = speak("rationalist", JurorOutlook(0.2, "not_guilty"), tally={"guilty": 6, "not_guilty": 6}, seed=seed)
        made = tuple(label for label in labels if label.lower() in first.reasoning.lower())
        again = speak(
            "rationalist",
            JurorOutlook(0.2, "not_guilty", points_made=made),
            tally={"guilty": 6, "not_guilty": 6},
            seed=seed,
        )
        assert not any(again.reasoning.startswith(label) for label in made)


def test_a_juror_sometimes_recalls_a_key_moment_it_flagged() -> None:
    moment = KeyMoment(2, "flip", "Linda Park changed their vote to guilty")
    outlook = JurorOutlook(0.8, "guilty", key_moments=(moment,))
    said = [speak("rationalist", outlook, tally={"guilty": 7, "not_guilty": 5}, seed=s).content for s in range(40)]
    recalled = [text for text in said if "Linda Park changed their vote to guilty" in text]
    assert 3 <= len(recalled) <= 20
    assert all("round 2" in text for text in recalled)


def test_the_archetype_jury_still_plays_a_whole_deliberation_deterministically() -> None:
    def transcript() -> list[str]:
        state, jury = deadlocked(3)
        out: list[str] = []
        while not state.end_reason:
            out += [
                s.content
                for s in asyncio.run(
                    run_round(
                        state, case=CASE, jury=jury, mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points
                    )
                ).speeches
            ]
        return out

    assert transcript() == transcript()


def test_the_impatient_juror_never_asks_for_the_vote_twice_in_the_same_words() -> None:
    for seed in range(60):
        text = speak("impatient", JurorOutlook(0.8, "guilty"), tally={"guilty": 7, "not_guilty": 5}, seed=seed).content
        assert text.lower().count("vote already") <= 1, text


def test_a_juror_refers_to_what_a_witness_said_at_the_trial() -> None:
    from deliberation.engine.trial.course import run_trial
    from deliberation.engine.trial.jury import moments

    kept = moments(run_trial(CASE, seed=5).events)  # the admitted answers worth remembering
    assert kept and all(m.kind == "trial" for m in kept)
    witness = kept[0].text.split(" said ")[0]
    assert witness in {w.name for w in CASE.witnesses}
    outlook = JurorOutlook(0.3, "not_guilty", key_moments=(kept[0],))
    said = [speak("empath", outlook, tally={"guilty": 7, "not_guilty": 5}, seed=s).content for s in range(40)]
    recalled = [text for text in said if f"At the trial, {kept[0].text}" in text]
    assert recalled, said[:3]
