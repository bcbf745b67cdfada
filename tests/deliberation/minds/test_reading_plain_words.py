"""The offline reading hears the plainest things a student types: a verdict declared with no evidence
named ("dorsey did it", "shes innocent"), another person named as the culprit ("merrick did it"),
and contractions typed without their apostrophe ("it wasnt him")."""

from __future__ import annotations

import pytest

from deliberation.minds.offline import lexicon as lex
from deliberation.minds.offline.facets import case_index
from deliberation.minds.offline.reading import DECLARED_FORCE, heard_counts, read, stance_words
from tests.deliberation.minds.curated import curated_case

MASK = curated_case("route-nine-fuel-stop-murder")  # Calvin Dorsey; the file names Merrick as another man
HIT_AND_RUN = curated_case("alder-street-hit-and-run")  # Leanne Cordell; her car is a Subaru Forester
STRONG = "The DNA on the ski mask is a mixture, and Dorsey is only a possible minor contributor to it."


@pytest.mark.parametrize(
    ("bare", "typed"),
    [
        ("it wasn't him", "it wasnt him"),
        ("the camera doesn't rule him out", "the camera doesnt rule him out"),
        ("it can't be her", "it cant be her"),
        ("he didn't do it", "he didnt do it"),
        ("she's innocent", "shes innocent"),
    ],
)
def test_a_contraction_typed_without_its_apostrophe_reads_as_the_contraction(bare: str, typed: str) -> None:
    assert lex.stance_of(typed) == lex.stance_of(bare) != (0, 0)


def test_a_negation_does_not_reach_across_a_comma_to_the_next_clause() -> None:
    assert lex.stance_of("its not him, its someone else") == (-2, 0)
    assert lex.stance_of("it isn't close. he did it") == (1, 0)


def test_a_decimal_point_is_not_the_end_of_a_clause() -> None:
    assert lex.stance_of("3.5 metres doesn't rule him out") == lex.stance_of("three metres doesn't rule him out")


@pytest.mark.parametrize(
    ("text", "sign"),
    [
        ("Dorsey did it.", 1),
        ("i think its him tbh", 1),
        ("dorsey is innocent", -1),
        ("it wasnt him", -1),
        ("he didnt do it", -1),
    ],
)
def test_a_verdict_declared_about_the_accused_moves_listeners_like_a_weak_argument(text: str, sign: int) -> None:
    reading = read(MASK, text)
    assert reading.touches == ()
    assert sign * reading.declared > 0.3
    assert sign * reading.push >= 0.5 * DECLARED_FORCE
    assert abs(reading.push) * 2 < abs(read(MASK, STRONG).push)


def test_a_declaration_the_room_has_heard_before_moves_it_less_each_time() -> None:
    reading = read(MASK, "Dorsey did it.")
    heard_once = heard_counts([reading])
    heard_twice = heard_counts([reading], heard_once)
    first, second, third = (reading.impact_for("", heard) for heard in ({}, heard_once, heard_twice))
    assert first > second > third > 0


def test_chatter_declares_nothing() -> None:
    reading = read(MASK, "Can we open a window, it is boiling in here.")
    assert not reading.declared
    assert abs(reading.push) < 0.5 * DECLARED_FORCE


@pytest.mark.parametrize(
    "text",
    ["Merrick did it, not Dorsey.", "it was probably merrick", "honestly i reckon it was Merrick all along"],
)
def test_another_man_the_file_names_called_the_culprit_reads_towards_doubt(text: str) -> None:
    assert read(MASK, text).push < 0
    assert stance_words(case_index(MASK), text)[0] < 0


def test_a_thing_the_file_names_is_not_taken_for_another_culprit() -> None:
    index = case_index(HIT_AND_RUN)
    assert stance_words(index, "it was Forester glass on the road") == (0, 0)
    assert stance_words(index, "it was a Forester, her car") == (0, 0)
    assert stance_words(index, "Cordell did it") == (1, 0)
