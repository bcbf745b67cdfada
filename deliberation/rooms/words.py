"""The operator's word filter (``ANGRY_WORD_FILTER``): words a participant may not say in a room.

Checked before a participant's words are shown to anyone or heard by the jury (typed speeches,
the words added to a strategy, names): a refused text is not stored, and the refusal names the
words so the writer can change them; the page keeps the text in its box.
"""

from __future__ import annotations

import re
from functools import lru_cache

from django.conf import settings
from django.core.exceptions import ValidationError

ERROR_FILTERED = (
    "This room does not allow {words}. Nothing was sent: your text is still in the box, change it and try again."
)


@lru_cache(maxsize=4)
def _pattern(words: tuple[str, ...]) -> re.Pattern[str] | None:
    if not words:
        return None
    alternatives = "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)


def filtered_words(text: str) -> list[str]:
    """The filtered words found in ``text`` (whole words, any case), each once, in order of appearance."""
    pattern = _pattern(tuple(getattr(settings, "ANGRY_WORD_FILTER", ()) or ()))
    if pattern is None or not text:
        return []
    return list(dict.fromkeys(match.group(0).lower() for match in pattern.finditer(text)))


def check_words(text: str) -> None:
    """Refuse ``text`` with ``ERROR_FILTERED`` if it holds a filtered word."""
    found = filtered_words(text)
    if found:
        quoted = ", ".join(f"“{w}”" for w in found)
        raise ValidationError(ERROR_FILTERED.format(words=f"the word{'s' if len(found) > 1 else ''} {quoted}"))
