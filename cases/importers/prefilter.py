"""A cheap test that tells when a rule's pattern cannot match a text, so the regex need not run.

The importer runs a few dozen case-insensitive patterns over every witness's testimony (and
over each of its sentences). Python's regex engine tries such a pattern at every position of
the text, which is most of the parsing time, while most patterns match few testimonies. Every
match of a pattern contains one of a few literal words it spells out: ``\\b(found|pawned|in
(his|her) (pocket|possession))\\b`` cannot match a text holding none of "found", "pawned",
"pocket" and "possession". ``may_match`` looks for those words in the lowered text first
(a plain substring search, many times faster) and answers False only when the regex could not
match: it is a necessary condition, never a change of what matches.

Why lowering is safe: under ``re.IGNORECASE`` an ASCII letter in a pattern matches only the
same letter in either case, apart from four non-ASCII characters (İ, ı, ſ and the Kelvin sign,
``CASE_TWINS``); a text holding any of them is never filtered. Only ASCII literals are used.
"""

from __future__ import annotations

import re

try:  # Python 3.11+
    import re._constants as sre_constants
    import re._parser as sre_parse
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

# Non-ASCII characters that match an ASCII letter under re.IGNORECASE (tests/cases/importers/test_prefilter.py).
CASE_TWINS = frozenset("\u0130\u0131\u017f\u212a")

_LITERAL = sre_constants.LITERAL
_SUBPATTERN = sre_constants.SUBPATTERN
_BRANCH = sre_constants.BRANCH
_AT = sre_constants.AT
_IN = sre_constants.IN
_REPEATS = (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT, getattr(sre_constants, "POSSESSIVE_REPEAT", None))
_ATOMIC = getattr(sre_constants, "ATOMIC_GROUP", None)

Words = frozenset[str]
_WORDS: dict[re.Pattern[str], Words | None] = {}


def fold(text: str) -> str | None:
    """The text as ``may_match`` reads it; None when it holds a character the lowering cannot stand for."""
    if not text.isascii() and any(map(text.__contains__, CASE_TWINS)):
        return None
    return text.lower()


def may_match(pattern: re.Pattern[str], folded: str | None) -> bool:
    """False only when ``pattern`` cannot match the text ``folded`` came from (nor any part of it)."""
    return words_in(pattern, folded) != ()


def words_in(pattern: re.Pattern[str], folded: str | None) -> tuple[str, ...] | None:
    """The pattern's words that the text holds: () when it cannot match, None when it must be tried.

    A part of the text (a sentence) can then be tested with ``holds_any`` on these words alone.
    """
    if folded is None:
        return None
    try:
        words = _WORDS[pattern]
    except KeyError:
        words = _WORDS[pattern] = required_words(pattern)
    return None if words is None else tuple(filter(folded.__contains__, words))


def holds_any(folded: str | None, words: tuple[str, ...] | None) -> bool:
    """Whether a part of a text may match, given ``words_in`` of the whole text."""
    return folded is None or words is None or any(map(folded.__contains__, words))


def required_words(pattern: re.Pattern[str]) -> Words | None:
    """Lowered words of which every match of ``pattern`` contains at least one; None when there are none."""
    return _sequence(sre_parse.parse(pattern.pattern, pattern.flags))


def longest_match(pattern: re.Pattern[str]) -> int:
    """The most characters one match of ``pattern`` can span (about 2**32 when it has no bound)."""
    return sre_parse.parse(pattern.pattern, pattern.flags).getwidth()[1]


def _sequence(items) -> Words | None:
    """Every element of a sequence must match: any one element's words will do, the most selective is kept.

    Neighbouring elements that each match one of a few exact strings are read together, as every
    string their concatenation can spell ("I (was|am) (drunk|tipsy)": "i was drunk", "i am tipsy"...).
    """
    options: list[Words] = []
    chain: Words = frozenset({""})
    for op, arg in [*items, (None, None)]:
        exact = _exact(op, arg)
        if exact is not None and len(chain) * len(exact) <= MAX_SPELLINGS:
            chain = frozenset(a + b for a in chain for b in exact)
            continue
        if "" not in chain:
            options.append(chain)
        chain = exact if exact is not None else frozenset({""})
        words = _element(op, arg) if exact is None else None
        if words is not None:
            options.append(words)
    if not options:
        return None
    return max(options, key=lambda words: (min(map(len, words)), -len(words)))


MAX_SPELLINGS = 16  # more spellings filter a little better but cost more substring searches


def _exact(op, arg) -> Words | None:
    """The strings an element matches when they are few and known (lowered), else None."""
    if op is _LITERAL:
        return frozenset({chr(arg).lower()}) if arg < 128 else None
    if op is _AT:
        return frozenset({""})  # an anchor or word boundary spells nothing
    if op is _IN:
        chars = [chr(value).lower() for kind, value in arg if kind is _LITERAL and value < 128]
        return frozenset(chars) if len(chars) == len(arg) else None
    if op is _SUBPATTERN:
        return _exact_sequence(arg[-1])
    if op is _BRANCH:
        found: set[str] = set()
        for branch in arg[1]:
            words = _exact_sequence(branch)
            if words is None:
                return None
            found |= words
        return frozenset(found) if len(found) <= MAX_SPELLINGS else None
    if op in _REPEATS and op is not None:
        low, high, body = arg
        if (low, high) != (0, 1):
            return None
        words = _exact_sequence(body)
        return None if words is None else words | {""}
    return None


def _exact_sequence(items) -> Words | None:
    chain: Words = frozenset({""})
    for op, arg in items:
        exact = _exact(op, arg)
        if exact is None or len(chain) * len(exact) > MAX_SPELLINGS:
            return None
        chain = frozenset(a + b for a in chain for b in exact)
    return chain


def _element(op, arg) -> Words | None:
    """Words one element that is not exact needs (a group, an alternation, a repetition of at least one)."""
    if op is _SUBPATTERN:
        return _sequence(arg[-1])
    if op is _ATOMIC and _ATOMIC is not None:
        return _sequence(arg)
    if op is _BRANCH:
        found: set[str] = set()
        for branch in arg[1]:
            words = _sequence(branch)
            if words is None:
                return None  # a branch that needs no word: the alternation needs none either
            found |= words
        return frozenset(found)
    if op in _REPEATS and op is not None:
        low, _high, body = arg
        return _sequence(body) if low >= 1 else None
    return None
