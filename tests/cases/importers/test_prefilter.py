"""The importer's cheap pre-test of a pattern never says "cannot match" where the pattern matches."""

from __future__ import annotations

import random
import re
import sys

import pytest

from cases.importers import oldbailey_points, oldbailey_rules
from cases.importers.oldbailey_xml import clean
from cases.importers.prefilter import CASE_TWINS, fold, longest_match, may_match, required_words

RULE_PATTERNS = [
    *(pattern for _label, pattern in oldbailey_rules.CREDIBILITY_RULES),
    *(rule.pattern for rule in oldbailey_rules.EVIDENCE_RULES),
    *(point.pattern for point in oldbailey_points.SENTENCE_POINTS),
]


def test_the_case_twins_are_every_non_ascii_character_that_matches_an_ascii_one_ignoring_case():
    ascii_char = re.compile("[\x00-\x7f]", re.IGNORECASE)
    found = {chr(code) for code in range(128, sys.maxunicode + 1) if ascii_char.fullmatch(chr(code))}
    assert found == CASE_TWINS


def test_an_alternation_needs_one_of_the_words_it_spells():
    pattern = re.compile(r"\b(found|produce[sd]?|in (his|her) (pocket|possession))\b", re.IGNORECASE)
    assert required_words(pattern) == {
        "found",
        "produce",
        "produced",
        "produces",
        "in his pocket",
        "in her pocket",
        "in his possession",
        "in her possession",
    }
    assert not may_match(pattern, fold("He had the watch in his hand."))
    assert may_match(pattern, fold("It was IN HER POCKET."))


def test_a_pattern_that_needs_no_word_is_always_tried():
    pattern = re.compile(r"\d+ (?:guineas|pounds)?|[A-Z]{3}")
    assert required_words(pattern) is None
    assert may_match(pattern, fold("nothing here"))


def test_a_text_with_a_case_twin_is_always_tried():
    pattern = re.compile(r"sworn", re.IGNORECASE)
    assert pattern.search("ſworn")  # the long s matches s when case is ignored
    assert fold("ſworn") is None
    assert may_match(pattern, fold("ſworn"))


@pytest.mark.parametrize("pattern", RULE_PATTERNS, ids=lambda p: p.pattern[:40])
def test_no_rule_is_filtered_out_where_it_matches(pattern):
    rng = random.Random(pattern.pattern)
    words = sorted(required_words(pattern) or ["x"])
    filler = ["the", "prisoner", "I", "was", "not", "—", ".", "Q.", "said", "him", "her", "a", "man", "sure"]
    for _ in range(400):
        parts = [rng.choice(filler + words) for _ in range(rng.randint(1, 12))]
        text = " ".join(part.upper() if rng.random() < 0.2 else part for part in parts)
        if pattern.search(text):
            assert may_match(pattern, fold(text)), text


def test_longest_match_is_the_widest_a_pattern_can_span():
    assert longest_match(oldbailey_rules.NUMBER_ABBREVIATION) == 4
    assert longest_match(re.compile(r"(?:^|\s)(?:Mr|Serjeant)\.$")) == 10


def test_sentences_after_a_long_run_of_abbreviations_split_as_before():
    text = "I saw Mr. A. B. C. Smith at No. 4 St. James's. He ran—I followed. Q. Did you? A. Yes."
    assert oldbailey_rules.split_sentences(text) == [
        "I saw Mr. A. B. C. Smith at No. 4 St. James's.",
        "He ran",
        "I followed.",
        "Q. Did you?",
        "A. Yes.",
    ]


def _clean_by_regex(text: str) -> str:
    return re.sub(r"\s+([,.;:!?)])", r"\1", re.sub(r"\s+", " ", text)).strip()


def test_clean_collapses_whitespace_exactly_as_the_regex_definition():
    rng = random.Random(17)
    alphabet = " \t\n\r\x0b\x0c\xa0\u2003\u3000\x1c\x85,.;:!?)(ab—"
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        assert clean(text) == _clean_by_regex(text), repr(text)
