"""The shape of the two-part argument set (``reading_dev`` to tune on, ``reading_heldout`` to report):
enough of every kind per case, the same kinds in both parts, and nothing shared between the parts or
with the older set. Nothing here looks at how the reading scores them."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from tests.deliberation.minds.curated import SLUGS
from tests.deliberation.minds.reading_dev import DEV_ARGUMENTS, DEV_PAIRS
from tests.deliberation.minds.reading_heldout import HELDOUT_ARGUMENTS, HELDOUT_PAIRS
from tests.deliberation.minds.reading_set import ARGUMENTS, HELD_OUT_ARGUMENTS, HELD_OUT_PAIRS, PAIRS, Argument, Pair

PARTS = {"dev": (DEV_ARGUMENTS, DEV_PAIRS), "heldout": (HELDOUT_ARGUMENTS, HELDOUT_PAIRS)}
# Per case and per part: the fewest arguments of each (side, grade), and of pairs.
MINIMUM = {
    ("guilty", "strong"): 4,
    ("not_guilty", "strong"): 4,
    ("guilty", "weak"): 3,
    ("not_guilty", "weak"): 3,
    ("none", "off_topic"): 4,
    ("none", "salad"): 2,
}
MINIMUM_PAIRS = 5
MINIMUM_ITEMS = 240  # arguments and pairs, both parts together


def _texts(arguments: tuple[Argument, ...], pairs: tuple[Pair, ...]) -> list[str]:
    return [a.text for a in arguments] + [t for p in pairs for t in (p.guilty, p.not_guilty)]


def _key(text: str) -> str:
    """A text as compared across sets: case, spacing and punctuation at the ends do not make it new."""
    return re.sub(r"\s+", " ", text).strip(" .!?").casefold()


@pytest.mark.parametrize("part", PARTS)
def test_every_case_has_enough_of_every_kind(part: str) -> None:
    arguments, pairs = PARTS[part]
    for slug in SLUGS:
        kinds = Counter((a.side, a.grade) for a in arguments if a.case == slug)
        short = {kind: kinds[kind] for kind, least in MINIMUM.items() if kinds[kind] < least}
        assert not short, f"{part} {slug}: too few {short}"
        assert set(kinds) <= set(MINIMUM), f"{part} {slug}: unknown side/grade {set(kinds) - set(MINIMUM)}"
        assert sum(p.case == slug for p in pairs) >= MINIMUM_PAIRS, f"{part} {slug}: too few pairs"


def test_the_parts_are_the_same_size_in_every_stratum() -> None:
    def strata(arguments: tuple[Argument, ...], pairs: tuple[Pair, ...]) -> Counter[tuple[str, str, str]]:
        return Counter((a.case, a.side, a.grade) for a in arguments) + Counter((p.case, "pair", "") for p in pairs)

    assert strata(DEV_ARGUMENTS, DEV_PAIRS) == strata(HELDOUT_ARGUMENTS, HELDOUT_PAIRS)
    items = sum(len(arguments) + len(pairs) for arguments, pairs in PARTS.values())
    assert items >= MINIMUM_ITEMS


def test_every_slug_is_a_curated_case() -> None:
    for arguments, pairs in PARTS.values():
        assert {a.case for a in arguments} | {p.case for p in pairs} <= set(SLUGS)


def test_no_text_is_in_both_parts_twice_in_one_or_in_the_older_set() -> None:
    dev = [_key(t) for t in _texts(DEV_ARGUMENTS, DEV_PAIRS)]
    held = [_key(t) for t in _texts(HELDOUT_ARGUMENTS, HELDOUT_PAIRS)]
    older = {_key(t) for t in _texts(ARGUMENTS, PAIRS) + _texts(HELD_OUT_ARGUMENTS, HELD_OUT_PAIRS)}
    assert len(set(dev)) == len(dev)
    assert len(set(held)) == len(held)
    assert not set(dev) & set(held)
    assert not (set(dev) | set(held)) & older


def test_a_pair_reads_one_named_item_in_two_different_texts() -> None:
    for _, pairs in PARTS.values():
        for pair in pairs:
            assert pair.about.strip()
            assert _key(pair.guilty) != _key(pair.not_guilty), pair.about


def test_off_topic_text_has_no_side_and_every_argument_some_words() -> None:
    for arguments, _ in PARTS.values():
        for argument in arguments:
            assert argument.text.strip()
            assert (argument.side == "none") == (argument.grade in {"off_topic", "salad"}), argument.text[:40]
