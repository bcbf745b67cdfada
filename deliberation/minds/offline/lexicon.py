"""The words the offline reading knows: how it cuts a text into words, and which words carry a stance.

Nothing here is about one case. The word lists are the everyday ways people in a jury room say
that something places the defendant there or leaves room for doubt, and that a piece of evidence
holds up or does not; ``offline_reading`` decides what they are about.
"""

from __future__ import annotations

import re
from functools import lru_cache

TOKEN = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")

STOPWORDS = frozenset(
    """a about above after again against all also am an and any are aren't as at be because been before
    being below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers herself him himself his how i if in into is it its itself
    just me more most my myself of off on once only or other our ours out over own same she should so
    some such than that the their theirs them themselves then there these they this those through to
    too under until up very was we were what when where which while who whom why will with would you
    your yours yourself yourselves let us one two get got go going went really think know say said
    says look see well thing things way something anything everything even still yet much many lot
    like want make made tell told i'm it's that's he's she's they're we're you're don't didn't doesn't
    can't won't isn't wasn't weren't couldn't wouldn't shouldn't haven't hasn't hadn't ever never
    not no nor nothing nobody none cannot guy man woman people person anyone anybody someone somebody
    evidence case jury juror jurors court trial defendant prosecution defense defence state crown
    guilty innocent doubt reasonable proof prove proves proved justice convict conviction verdict
    clearly obviously clear obvious fact facts truth true point argument story believe feel honestly
    right wrong sure certain definitely probably maybe rest hear heard listen listened talk talking
    time times day days week weeks year years place places back first last long new old good bad
    little big left still outside inside here there around someone's everyone everybody else
    honestly actually basically literally kind sort whole part seem seems seemed maybe perhaps
    come came take took give gave put keep kept need needed try tried use used ask asked
    tell telling mean means meant ever always usually sometimes often every""".split()
)

# Everyday words mapped to one form, so "thumbprint" meets "fingerprint" and "cash" meets "bills".
SYNONYMS = {
    **dict.fromkeys(("fingerprint", "thumbprint", "thumb", "prints", "latent", "minutiae"), "print"),
    **dict.fromkeys(("cctv", "camera", "footage", "video", "tape", "recording", "frame", "frames"), "camera"),
    **dict.fromkeys(("gun", "pistol", "firearm", "weapon", "revolver", "handgun"), "gun"),
    **dict.fromkeys(("money", "cash", "bills", "bill", "notes", "twenties", "dollars", "banknotes"), "money"),
    **dict.fromkeys(("car", "vehicle", "sedan", "truck", "van", "civic"), "car"),
    **dict.fromkeys(("phone", "cellphone", "mobile", "cell"), "phone"),
    **dict.fromkeys(("hoodie", "sweatshirt", "hooded", "hood", "jumper"), "hoodie"),
    **dict.fromkeys(("mask", "bandana", "scarf"), "mask"),
    **dict.fromkeys(("clerk", "cashier", "shopkeeper"), "clerk"),
    **dict.fromkeys(("police", "officer", "cop", "cops", "detective", "patrol"), "police"),
    **dict.fromkeys(("lineup", "array", "photos", "photo", "identification", "identified", "picked"), "lineup"),
    **dict.fromkeys(("dna", "genetic"), "dna"),
    **dict.fromkeys(("blood", "bloodstain", "bloody"), "blood"),
    **dict.fromkeys(("petrol", "gasoline", "gas", "accelerant", "fuel"), "fuel"),
    **dict.fromkeys(("insurance", "policy", "payout", "claim"), "insurance"),
    **dict.fromkeys(("alarm", "code", "keypad", "disarmed"), "alarm"),
    **dict.fromkeys(("cousin", "relative", "family", "brother", "sister", "wife", "husband"), "relative"),
    **dict.fromkeys(("knife", "blade"), "knife"),
    **dict.fromkeys(("tire", "tyre", "tread"), "tire"),
    **dict.fromkeys(("paint", "scrape", "scratch"), "paint"),
    **dict.fromkeys(("receipt", "ticket", "stub"), "receipt"),
    **dict.fromkeys(("lab", "laboratory", "sample", "samples", "test", "tested"), "lab"),
}

# A stance word and its reach ("*" stands for any one word: "rule * out"). ABSOLUTE words say which
# way the verdict goes, whatever the text is about ("it places him there", "it rules him out").
# RELATIVE words say whether the thing the sentence is about holds up ("the print is solid") or not
# ("the footage is blurry"); the reading turns them towards guilt or doubt by which side that thing
# helps.
GUILT_PHRASES = (
    "at the scene",
    "his height",
    "her height",
    "his build",
    "her build",
    "matches him",
    "matches her",
    "looks like him",
    "looks like her",
    "fits his",
    "fits her",
    "places * there",
    "place * there",
    "placed * there",
    "puts * there",
    "put * there",
    "places * at",
    "puts * at",
    "put * at",
    "ties * to",
    "links * to",
    "single * out",
    "singles * out",
    "narrows it",
    "narrowed it",
    "narrows it down",
    "picked * out",
    "identified him",
    "identified her",
    "recognised him",
    "recognized him",
    "confessed",
    "admitted",
    "bragged",
    "he shot",
    "she shot",
    "he killed",
    "she killed",
    "killed him",
    "ties him",
    "tie him",
    "ties her",
    "links him",
    "link him",
    "connects him",
    "points to him",
    "points at him",
    "points to her",
    "he did it",
    "she did it",
    "did it",
    "done it",
    "was him",
    "was her",
    "it's him",
    "it's her",
    "is him",
    "it is her",  # not "is her": "that is her car"
    "that's him",
    "its him",
    "its her",
    "be him",
    "be her",
    "was there",
    "caught",
    "red-handed",
    "guilty",
    "convict",
    "no innocent",
    "no other explanation",
    "only explanation",
    "beyond reasonable doubt",
    "beyond a reasonable doubt",
)
DOUBT_PHRASES = (
    "excluded",
    "excludes him",
    "excludes her",
    "rule * out",
    "rules * out",
    "ruled * out",
    "clear her",
    "someone could have",
    "somebody could have",
    "anyone could have",
    "anybody could have",
    "could be anyone",
    "could be anybody",
    "rules him out",
    "rule him out",
    "ruled him out",
    "rules her out",
    "rule her out",
    "clears him",
    "clear him",
    "clears her",
    "exonerate",
    "someone else",
    "somebody else",
    "someone else did it",
    "somebody else did it",
    "someone else done it",
    "someone else was there",
    "didn't do it",
    "did not do it",
    "never do it",
    "not do it",
    "anyone else",
    "anybody else",
    "could have been anyone",
    "innocent",
    "not guilty",
    "reasonable doubt",
    "doubt",
    "acquit",
    "wasn't there",
    "not him",
    "not her",
    "wasn't him",
    "wasn't her",
    "isn't him",
    "isn't her",
    "was not there",
    "wrong man",
    "wrong person",
    "set up",
    "framed",
    "fits his story",
    "fits her story",
    "fits his account",
    "fits her account",
    "fits both",
    "just as well",
)
HOLDS_WORDS = (
    "sure",
    "certain",
    "tell",
    "tells",
    "prove",
    "proves",
    "proved",
    "show",
    "shows",
    "showed",
    "mean",
    "means",
    "meant",
    "match",
    "matches",
    "matched",
    "matching",
    "confirm",
    "confirms",
    "confirmed",
    "exactly",
    "precise",
    "solid",
    "strong",
    "reliable",
    "credible",
    "honest",
    "consistent",
    "corroborate",
    "corroborates",
    "backs up",
    "back up",
    "fits",
    "all six",
    "every one",
    "identical",
    "unmistakable",
    "damning",
    "trust",
    "trusted",
    "believe",
    "no reason to lie",
    "stands",
    "holds up",
)
FAILS_WORDS = (
    "not that",
    "not who",
    "not when",
    "not where",
    "not which",
    "worthless",
    "useless",
    "meaningless",
    "proves nothing",
    "means nothing",
    "only shows",
    "only proves",
    "only tells",
    "only means",
    "just shows",
    "just tells",
    "just means",
    "merely shows",
    "huge area",
    "unreliable",
    "weak",
    "flimsy",
    "shaky",
    "blurry",
    "grainy",
    "fuzzy",
    "pixels",
    "shadow",
    "smudge",
    "mistaken",
    "mistake",
    "wrong",
    "contaminated",
    "contamination",
    "coincidence",
    "common",
    "biased",
    "bias",
    "lying",
    "liar",
    "made up",
    "guess",
    "guessed",
    "unsure",
    "not sure",
    # A witness who hedges fails the side that called them (the Proceedings' "I did not see him take
    # it", "I cannot swear to him"): said of a witness, these take its account the other way.
    "hedged",
    "hedges",
    "did not see",
    "didn't see",
    "never saw",
    "cannot swear",
    "can't swear",
    "could not swear",
    "couldn't swear",
    "will not swear",
    "won't swear",
    "inconsistent",
    "contradicts",
    "contradicted",
    "flawed",
    "sloppy",
    "rigged",
    "suggestive",
    "leading",
    "merely",
    "cannot be dated",
    "can't be dated",
    "explain away",
    "explained away",
    "innocent explanation",
    "any time",
    "anytime",
    "wide",
    "vague",
    "stress",
    "grudge",
    "protect",
    "covering",
)
# Phrases that only look like a stance word: "innocent people don't..." claims nobody's innocence.
NEUTRAL_PHRASES = (
    "innocent people",
    "innocent person",
    "innocent man",
    "innocent woman",
    "innocent until",
    "i mean",  # a filler, not "it means he was there"
    "means to",
    "which one was him",  # "the detective knew which one was him": who the suspect was, not that he did it
    "which one was her",
)
NEGATORS = frozenset(
    "not no never nothing nobody none cannot can't don't doesn't didn't isn't wasn't aren't weren't "
    "won't wouldn't couldn't shouldn't hasn't haven't hadn't without hardly neither nor fails fail "
    "failed beyond".split()
)
NEGATION_REACH = 4  # a negator this many words before a stance word turns it round

# Credibility issues that speak of a motive (a relative, money, a grudge): what the cynic listens for.
MOTIVE_WORDS = frozenset(
    "cousin relative brother sister wife husband friend family owed debt money paid reward deal grudge "
    "insurance rival hated jealous lover revenge immunity plea charges bias biased".split()
)


def stem(word: str) -> str:
    """A light stemmer: enough that "matched" meets "match" and "bills" meets "bill"."""
    word = word.replace("’", "'")
    if word.endswith("'s"):
        word = word[:-2]
    word = SYNONYMS.get(word, word)
    for suffix in ("ings", "ing", "edly", "ed", "ies", "es", "s", "ly"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            word = word[: -len(suffix)] + ("y" if suffix == "ies" else "")
            break
    return SYNONYMS.get(word, word)


# Contractions typed without their apostrophe, as students type them ("it wasnt him", "cant be her"):
# heard as the contraction, so a negator is a negator and "wasnt him" is "wasn't him". ("its", "hell",
# "shell", "were" and "id" are words of their own and are left alone; "wont" is nearly always "won't"),
# and a few words students often misspell.
BARE_CONTRACTIONS = {
    word.replace("'", ""): word
    for word in (
        "can't don't doesn't didn't isn't wasn't aren't weren't wouldn't couldn't shouldn't hasn't haven't "
        "hadn't won't i'm he's she's that's there's they're you're"
    ).split()
} | {"aint": "isn't", "wich": "which", "becuase": "because", "beacuse": "because", "definately": "definitely"}


def tokens(text: str) -> list[str]:
    return [BARE_CONTRACTIONS.get(word, word) for word in TOKEN.findall(text.lower().replace("’", "'"))]


def content_words(text: str) -> list[str]:
    """The words a text is about: stemmed, without the words every argument uses."""
    return [stem(word) for word in tokens(text) if word not in STOPWORDS and (len(word) > 2 or word.isdigit())]


Phrase = tuple[tuple[str, ...], int]  # (words, sign)


@lru_cache(maxsize=16)
def _by_first_word(phrases: tuple[str, ...], sign: int) -> dict[str, tuple[Phrase, ...]]:
    index: dict[str, list[Phrase]] = {}
    for phrase in phrases:
        parts = tuple(phrase.split())
        index.setdefault(parts[0], []).append((parts, sign))
    return {word: tuple(found) for word, found in index.items()}


def _phrase_hits(words: list[str], phrases: tuple[str, ...], sign: int) -> list[tuple[int, int, int]]:
    """(start, length, sign) of every occurrence of every phrase."""
    index = _by_first_word(phrases, sign)
    hits = []
    for start, word in enumerate(words):
        for parts, phrase_sign in index.get(word, ()):
            size = len(parts)
            window = words[start : start + size]
            if len(window) == size and all(p == "*" or p == w for p, w in zip(parts, window, strict=True)):
                hits.append((start, size, phrase_sign))
    return hits


def _negated(words: list[str], at: int) -> bool:
    return any(word in NEGATORS for word in words[max(0, at - NEGATION_REACH) : at])


def _cue(words: list[str], positive: tuple[str, ...], negative: tuple[str, ...]) -> int:
    """The sum of the stance words, longest phrase first ("not guilty" is not also "guilty")."""
    hits = _phrase_hits(words, positive, 1) + _phrase_hits(words, negative, -1)
    hits += _phrase_hits(words, NEUTRAL_PHRASES, 0)
    taken: set[int] = set()
    score = 0
    for start, size, sign in sorted(hits, key=lambda hit: -hit[1]):
        span = set(range(start, start + size))
        if span & taken:
            continue
        taken |= span
        score += -sign if _negated(words, start) else sign  # a neutral phrase only takes its words
    return score


def stance_words(words: list[str]) -> tuple[int, int]:
    """(absolute, relative): + towards guilt / the item holding up, - towards doubt / it failing."""
    return _cue(words, GUILT_PHRASES, DOUBT_PHRASES), _cue(words, HOLDS_WORDS, FAILS_WORDS)


CLAUSE_BREAK = re.compile(r"[,;:!?]+|\.(?!\d)")


@lru_cache(maxsize=8192)
def stance_of(text: str) -> tuple[int, int]:
    """``stance_words`` of a text, clause by clause (cached: the reading and the stance model both ask): a
    phrase or a negator does not reach across a comma or a full stop ("its not him, its Merrick": the
    "not" is not said of Merrick)."""
    absolute = relative = 0
    for clause in CLAUSE_BREAK.split(text):
        found = stance_words(tokens(clause))
        absolute += found[0]
        relative += found[1]
    return absolute, relative
