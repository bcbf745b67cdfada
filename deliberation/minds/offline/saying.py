"""What has been said in a game, and how a juror avoids saying it again.

A jury room that repeats itself reads as a machine: the same objection word for word from four
jurors, a persona's closing line three times in a game. The engine hands the mind every speech of
the game so far (``SpeakRequest.said``); ``Said`` keeps their eight-word sequences and their
sentences of six words or more, and ``pick`` chooses among a piece's candidates (an opener, a
point's sentence, a closer) one that says none of them again and, where it can, whose frame (the
template's own words) nobody has used yet. A piece the speech can do without (an opener, an aside,
a closer) is left out when every candidate would repeat the room; the point itself is said in the
freshest words there are.

Clauses: a point carries one short clause of the case file (a fact, a figure, a reason), never the
file's whole sentence, and a clause the game has heard is not used again (``unsaid_clauses``).
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterable, Sequence

from deliberation.minds.offline.text import (
    DETERMINERS,
    SUBJECTS,
    VERBS,
    clean_line,
    clip,
    ends_dangling,
    has_verb,
    mend,
    role_like,
    split_sentences,
    unstopped,
)

GRAM = 8
LONG_SENTENCE = 6
CLAUSE_WORDS = 16  # the longest clause a juror repeats from the file
SHORT_CLAUSE_WORDS = 10  # the impatient juror's
MIN_CLAUSE_WORDS = 4
FRAME_WORDS = 2  # a template's fixed words this long, heard in the game, mark the frame as used
_WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")
_CLAUSE_BREAK = re.compile(r";\s+|:\s+|,\s+(?=(?:and|but|so|while|whereas|although|though)\s)|\s+[–—]\s+|\s+-\s+")
_PLACEHOLDER = re.compile(r"\{[^}]*\}|\[[^\]]*\]")
_LEADING_JOINER = re.compile(r"^(?:and|but|so|while|whereas|although|though)\s+", re.I)
# A clause led by a pronoun or a pointing word leans on the sentence before it: out of it, "it" is nobody.
_PREPOSITIONS = frozenset("at after before in on from by with during into under over for of to".split())
_LEANING = frozenset("it they this these those that he she his her its their both neither there".split())


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("’", "'"))


def grams(text: str) -> set[tuple[str, ...]]:
    w = words(text)
    return {tuple(w[i : i + GRAM]) for i in range(len(w) - GRAM + 1)}


def long_sentences(text: str) -> set[str]:
    found = set()
    for sentence in split_sentences(text):
        key = " ".join(words(sentence))
        if len(key.split()) >= LONG_SENTENCE:
            found.add(key)
    return found


def _lines(text: str) -> set[str]:
    return {key for key in (" ".join(words(s)) for s in split_sentences(text)) if len(key.split()) >= 2}


@functools.lru_cache(maxsize=4096)
def _heard(text: str) -> tuple[frozenset[tuple[str, ...]], frozenset[str], frozenset[str], str]:
    """A speech's eight-word sequences, long sentences, sentences and words, worked out once: the
    mind rebuilds the game's ``Said`` at every speech from every speech before it."""
    return frozenset(grams(text)), frozenset(long_sentences(text)), frozenset(_lines(text)), " ".join(words(text))


class Said:
    """The game's words so far: eight-word sequences, long sentences and the text itself."""

    def __init__(self, texts: Iterable[str] = ()) -> None:
        self.grams: set[tuple[str, ...]] = set()
        self.sentences: set[str] = set()
        self.lines: set[str] = set()  # every sentence said, however short
        self._words: list[str] = []
        for text in texts:
            self.add(text)

    def add(self, text: str) -> None:
        heard_grams, heard_sentences, heard_lines, heard_words = _heard(text)
        self.grams |= heard_grams
        self.sentences |= heard_sentences
        self.lines |= heard_lines
        self._words.append(heard_words)

    @property
    def text(self) -> str:
        return " | ".join(self._words)

    def repeats(self, text: str) -> int:
        """How much of ``text`` the game has said: its old eight-word sequences, and its old long
        sentences (which count thrice), and any shorter sentence said before word for word."""
        heard_grams, heard_sentences, heard_lines, _ = _heard(text)
        return len(heard_grams & self.grams) + 3 * len(heard_sentences & self.sentences) + len(heard_lines & self.lines)

    def frame_uses(self, template: str) -> int:
        """How often the game has said a template's own words (its longest run of ``FRAME_WORDS``
        words or more between placeholders); 0 for a template with no such run."""
        runs = [words(re.sub(r"^['’]s\b", "", chunk)) for chunk in _PLACEHOLDER.split(template)]
        longest = max((r for r in runs if len(r) >= FRAME_WORDS), key=len, default=None)
        if longest is None:
            return 0
        return f" {self.text} ".count(f" {' '.join(longest)} ")


def pick(options: Sequence[tuple[str, str]], rng: random.Random, said: Said, *, required: bool = True) -> str:
    """One rendered candidate of ``options`` ((template, rendered) pairs) that says nothing the game
    has said, in the frame the game has used least; when every candidate repeats something, the one
    in the least used frame that repeats least if the piece is ``required``. An optional piece
    (``required`` False) is said only in a frame the game has not used, else it is left out ("")."""
    if not options:
        return ""
    fresh = [(t, r) for t, r in options if said.repeats(r) == 0]
    uses = {t: said.frame_uses(t) for t, _ in fresh}
    if not required:  # an opener, an aside, a closer: once in a game, in any words
        fresh = [(t, r) for t, r in fresh if uses[t] == 0]
    if fresh:
        least = min(uses[t] for t, _ in fresh)
        return rng.choice([r for t, r in fresh if uses[t] == least])
    if not required:
        return ""
    worn = {(t, r): (said.frame_uses(t), said.repeats(r)) for t, r in options}  # the least worn frame first
    least_worn = min(worn.values())
    return rng.choice([r for (t, r), wear in worn.items() if wear == least_worn])


def clauses(text: str, *, role: str = "", limit: int = CLAUSE_WORDS, split: bool = False, label: str = "") -> list[str]:
    """Short whole clauses of ``text`` a juror could repeat: a sentence short enough, or the parts of
    a long one between semicolons, colons, dashes and ", and"/", but". Each has a verb, does not stop
    mid-clause and is not a job title nor a caption of the item ``label`` names ("Panel log
    downloaded from the alarm company"); no question by counsel. A clause whose second half leaves
    its subject out ("never visited the scene; worked from photographs") joins it with "and"."""
    found: list[str] = []
    for raw in split_sentences(text):
        if raw.startswith("Q.") or raw.rstrip().endswith("?"):
            continue
        sentence = unstopped(clean_line(raw).rstrip(" !"))  # "9:49 p.m." keeps its stop
        pieces = [sentence] if len(sentence.split()) <= limit and not split else _CLAUSE_BREAK.split(sentence)
        for piece in pieces:
            piece = _LEADING_JOINER.sub("", piece.strip(" ,;:")).strip()
            if len(piece.split()) > limit:
                piece = clip(piece, limit).rstrip(".")
            size = len(piece.split())
            if not MIN_CLAUSE_WORDS <= size <= limit or not _quotes_closed(piece):
                continue
            if piece.count("(") != piece.count(")") or ends_dangling(piece + ".") or role_like(piece + ".", role):
                continue
            if piece.split()[0].lower() in _LEANING and found:
                continue  # not the sentence's first clause: its pronoun points back
            if piece.split()[0].lower() in _LEANING and piece is not sentence and len(pieces) > 1:
                continue
            first = piece.split()[0]
            if first.islower() and (first in VERBS or first.endswith("ed")):
                continue  # "found she was ...": its subject is in the clause before
            if first.lower() in _PREPOSITIONS:
                continue  # "At the station at 11:40 p.m., after being told ...": a phrase, not a clause
            if caption(piece, label or role):
                continue
            piece = mend(piece)
            if has_verb(piece) and _finite(piece) and piece not in found:
                found.append(piece)
    return found


_STOP_WORDS = frozenset("the a an of on in at to by for from with and or its his her their".split())


def caption(piece: str, label: str = "") -> bool:
    """Whether a clause is a caption, not a statement: its only verb a participle after a comma
    ("Fire protection engineer and certified fire investigator, called by the defense") or after the
    item's own name ("Panel log downloaded from the alarm company", for the "Alarm panel log")."""
    low = words(piece)
    verbs = [
        w for w, after in zip(low[1:], [*low[2:], ""], strict=True) if w in VERBS and after != "of"
    ]  # not "left of"
    if verbs or any(w in SUBJECTS for w in low):
        return False
    named = {w for w in words(label) if w not in _STOP_WORDS and len(w) > 2}
    for at, word in enumerate(low[1:-1], start=1):
        if len(word) <= 4 or not word.endswith("ed") or low[at + 1] not in _PREPOSITIONS:
            continue
        if re.search(rf",\s+{re.escape(word)}\b", piece, re.I) or named & set(low[:at]):
            return True
    return False


def _quotes_closed(piece: str) -> bool:
    """Every quotation opened in the clause is closed in it (an apostrophe in "Hale's" is neither)."""
    opened = len(re.findall(r"(?:^|[\s(])['‘\"“]", piece))
    closed = len(re.findall(r"['’\"”](?=$|[\s),.;:!?])", piece)) - len(re.findall(r"\ws['’](?=\s)", piece))
    return opened == closed


def _finite(piece: str) -> bool:
    """A clause has a verb of its own: a word of ``VERBS`` after its first, a subject pronoun, or an
    -ed word that is not an adjective before its noun ("samples collected at", not "hooded sweatshirt")."""
    low = words(piece)
    if any(w in VERBS for w in low[1:]) or any(w in SUBJECTS for w in low):
        return True
    for here, after in zip(low[1:], [*low[2:], ""], strict=False):
        if here.endswith("ed") and len(here) > 4 and (not after or after in _PREPOSITIONS or after in DETERMINERS):
            return True
    return False


def unsaid_clauses(candidates: Sequence[str], said: Said) -> list[str]:
    """The clauses the game has not said (none of their eight-word sequences heard, nor the clause
    itself when it is shorter than that)."""
    out = []
    for clause in candidates:
        key = " ".join(words(clause))
        if said.repeats(clause) or (key and f" {key} " in f" {said.text} "):
            continue
        out.append(clause)
    return out
