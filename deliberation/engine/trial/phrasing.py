"""How a line of a witness's record is read for a question: the patterns of times, dates, places,
distances and acts; the line split into clauses; the record's words turned to the second person
("I saw" -> "you saw") outside quotations, with titles and quotations kept intact.

Below ``asking``, which builds counsel's questions from these pieces.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from deliberation.engine.trial.text import STOP, content_words

MAX_CLAUSE_WORDS = 18
NUMBER_WORDS = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|"
    "a hundred|a few|several|some|half an?|a|an"
)
MONTHS = (
    "January|February|March|April|May|June|July|August|September|October|November|December|"
    "Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec"
)
DAYS = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"
_HOUR = r"(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
CLOCK = re.compile(
    rf"\b(?:(?:about|at|by|near|nearly|after|before|till|until|past|towards?|soon|just|from|little|a) ){{0,3}}(?:"
    rf"\d{{1,2}}[:.]\d{{2}}(?:\s*[ap]\.m\.?)?|\d{{1,2}}\s*[ap]\.m\.?|{_HOUR} o'clock|half[- ]past {_HOUR}"
    rf"|a quarter (?:past|to|before|after) {_HOUR}|between {_HOUR} and {_HOUR}(?: o'clock)?"
    rf")(?: (?:in the|at) (?:morning|evening|night|afternoon|forenoon))?",
    re.I,
)
DATE = re.compile(
    rf"\b(?:(?i:on|about) )?(?:the )?\d{{1,2}}(?:st|nd|rd|th|d)? (?:of )?(?:{MONTHS})\b\.?(?: last)?"
    rf"|\b(?:(?i:on|about) )?(?:{MONTHS}) \d{{1,2}}(?:st|nd|rd|th)?\b(?:, \d{{4}})?"
    rf"|\b(?:on|last) (?:{DAYS})(?: (?:morning|evening|night|afternoon|last))?"
    rf"|\b(?i:{NUMBER_WORDS}|\d+) (?:days|weeks|months) (?:later|afterwards|after|ago)\b",
)
DURATION = re.compile(
    rf"\bfor (?:about |nearly |almost |above |upwards of |only |just )?(?:{NUMBER_WORDS}|\d+(?:\.\d+)?)"
    r" (?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b",
    re.I,
)
DISTANCE = re.compile(
    rf"\b(?:(?:from|at) )?(?:(?:about|nearly|almost|above|some|within|not) )?(?:{NUMBER_WORDS}|\d+(?:\.\d+)?) "
    r"(?:feet|foot(?! (?:\d|one|two|three|four|five|six|seven|eight|nine|ten|eleven))"  # not "five foot nine"
    r"|yards?|metres?|meters?|miles?|paces|inches|cm|centimetres|m)\b(?![/\w])(?: (?:away|off))?",
    re.I,
)
PLACE_NOUNS = (
    "street|road|lane|avenue|house|shop|room|yard|stable|kitchen|parlour|cellar|glovebox|seat|counter|bar|door|"
    "window|field|fields|market|apartment|alley|basement|crosswalk|sidewalk|station|coach|cart|box|pocket|drawer|"
    "bed|stairs|passage|court|square|bridge|corner|cell|garage|workshop|sink|bench|table|chest|trunk|portmanteau|"
    "closet|cupboard|dining-room|lodging|lodgings|public-house|watch-house|church|inn|tavern|gate|wharf|warehouse|"
    "ship|boat|barracks|office|bank|lab|hospital|diner|store|scene|floor|ground|pavement|gutter"
)
PLACE = re.compile(
    rf"\b(?i:in|at|on|into|from|near|under|behind|outside|inside|opposite|in front of) "
    rf"(?:(?i:the|a|an|his|her|my|their|our|your) )?"
    rf"(?:(?!(?:Mr|Mrs|Ms|Dr|St)\b)(?:[A-Z][\w'’-]+)(?: (?:[A-Z][\w'’-]+|of|de|in))*(?<!of)(?<!in)"  # Salem Avenue
    rf"|(?:[a-z-]+ ){{0,2}}(?:{PLACE_NOUNS})(?: \d+[A-Z]\b)?)\b"  # the back seat, apartment 1B
)
NOT_PLACES = re.compile(
    rf"^(?i:in|at|on|into|near|under|behind|outside|inside|opposite|in front of) (?:{MONTHS}|{DAYS}|I)\b"
)
SURE = re.compile(
    r"\bI (?:am|was|feel|felt) (?:quite |very |perfectly |one hundred percent |\d+ percent )?(?:sure|positive|certain)"
    r"(?: (?:that |of |it was |it is ))?(?P<what>[^,;.]*)"
    r"|\bI have (?:not the least |no )doubt (?:that |of |but )?(?P<what2>[^,;.]*)",
)
# Verbs whose past is asked about with "did": the base form, so "What did you find in the glovebox?".
BASE = {
    "found": "find",
    "took": "take",
    "saw": "see",
    "picked up": "pick up",
    "pawned": "pawn",
    "missed": "miss",
    "lost": "lose",
    "gave": "give",
    "brought": "bring",
    "bought": "buy",
    "sold": "sell",
    "produced": "produce",
    "recovered": "recover",
    "collected": "collect",
    "discovered": "discover",
    "stole": "steal",
    "received": "receive",
    "showed": "show",
    "offered": "offer",
    "carried": "carry",
    "dropped": "drop",
    "threw": "throw",
    "heard": "hear",
    "noticed": "notice",
    "observed": "observe",
    "lent": "lend",
    "left": "leave",
    "put": "put",
}
VERBS = "|".join(sorted(BASE, key=len, reverse=True))  # "picked up" before "picked"
OBJECT = re.compile(
    rf"\b(?P<subj>I|we|he|she|they|the prisoner|the prosecutor) (?P<verb>{VERBS}) "
    r"(?P<obj>(?:the|a|an|his|her|my|their|some|two|three|four|five|six|seven|eight|nine|ten|\d+|all|this|these|those"
    r"|one)\b[^,;.]*?)(?P<rest> (?:in|on|at|from|under|into|behind|upon|out of|near|inside) [^,;.]+)?(?=[,;.]|$)",
    re.I,
)
SUBJECT_WORDS = r"the prisoner|the prosecutor|the deceased|the man|a man|the woman|a woman"
ACTS = (
    "came|went|struck|took|gave|showed|asked|ran|pointed|walked|knocked|seized|snatched|stopped|pulled|brought|put"
    "|called|shot|fired|threw|pushed|picked|followed|hit|robbed|demanded|collected|arrested|interviewed|passed|drove"
    "|turned|braked|accelerated|matched|verified|delivered|offered|pawned|sold|bought|stole|broke|opened|carried"
    "|fetched|sent|jumped|rode|fell|kicked|cut|stabbed|held|caught|laid|wrote|signed|paid|refused|denied|owned"
    "|confessed|produced|found|searched|lifted|gripped|left|returned|dropped|tore|ripped"
)
WHO = re.compile(
    rf"^(?P<subj>(?i:{SUBJECT_WORDS})|(?:Mr\.|Mrs\.|Dr\.|Detective|Officer|Captain) [A-Z][a-z]+(?: [A-Z][a-z]+)?"
    rf"|[A-Z][a-z]+ [A-Z][a-z]+) (?P<pred>(?i:{ACTS})\b.*)$",
)
CLAUSE_BREAK = re.compile(r"\s*(?:;|:(?=\s)|, )\s*")
QUOTE = re.compile(r"((?<![\w])'(?:[^']|(?<=\w)'(?=\w))*'(?![\w])|\"[^\"]*\"|‘[^’]*’|“[^”]*”)")
SWAPS = (
    # A witness who spoke to the prisoner ("I have seen you before") is put that to as "the prisoner".
    (re.compile(r"\byour\b"), "the prisoner's"),
    (re.compile(r"\byou\b"), "the prisoner"),
    (re.compile(r"\bI am\b"), "you are"),
    (re.compile(r"\bI was\b"), "you were"),
    (re.compile(r"\bI'm\b"), "you're"),
    (re.compile(r"\bI've\b"), "you've"),
    (re.compile(r"\bI'd\b"), "you'd"),
    (re.compile(r"\bI\b"), "you"),
    (re.compile(r"\b[Mm]yself\b"), "yourself"),
    (re.compile(r"\b[Mm]ine\b"), "yours"),
    (re.compile(r"\b[Mm]y\b"), "your"),
    (re.compile(r"\bme\b"), "you"),
    (re.compile(r"\bam\b"), "are"),
)
ADVERBS = frozenset("first also only just still always usually then never later once afterwards".split())
AUX_TAGS = {
    "are": "aren't",
    "were": "weren't",
    "have": "haven't",
    "had": "hadn't",
    "did": "didn't",
    "do": "don't",
    "can": "can't",
    "could": "couldn't",
    "will": "won't",
    "would": "wouldn't",
    "should": "shouldn't",
    "must": "mustn't",
    "you're": "aren't",
    "you've": "haven't",
}
NEGATIVE = {"cannot": "can", "can't": "can", "couldn't": "could", "didn't": "did", "don't": "do", "won't": "will"}
PAST = re.compile(
    r"^(?:[a-z]+ed|saw|knew|went|came|took|gave|told|said|found|heard|left|made|got|put|ran|met|held|kept"
    r"|lost|paid|sent|sold|bought|brought|thought|felt|stood|sat|wrote|rode|drove|struck|threw|owed|had)$"
)


@dataclass(frozen=True)
class Question:
    """A question counsel ask, the kind of fact it asks for, and the record line it was made from."""

    text: str
    kind: str  # when | where | how_far | what | who | how_sure | concession | contradiction | probe | printed
    line: str


TITLE_DOT = re.compile(r"\b(Mr|Mrs|Ms|Dr|St|Messrs)\.")


def protect(text: str) -> str:
    """Titles keep their full stop out of the way of clause and sentence ends ("Mr. Herne's money")."""
    return TITLE_DOT.sub(lambda m: m.group(1) + "\u00b7", text)


def restore(text: str) -> str:
    return text.replace("\u00b7", ".")


def you(text: str) -> str:
    """The record's words turned to the second person, outside quotations ("I saw my brother" ->
    "you saw your brother"; "he said 'I was driving'" keeps the quoted "I")."""
    pieces = QUOTE.split(text)
    for index in range(0, len(pieces), 2):
        for pattern, words in SWAPS:
            pieces[index] = pattern.sub(words, pieces[index])
        # "you were joking", said to the prisoner, is "the prisoner was joking" when put to the witness
        pieces[index] = PRISONER_AGREES.sub(lambda m: f"the prisoner {AGREEMENT[m.group(1)]}", pieces[index])
    return "".join(pieces)


AGREEMENT = {"were": "was", "have": "has", "are": "is", "do": "does"}
PRISONER_AGREES = re.compile(r"\bthe prisoner (were|have|are|do)\b")


def _lower_start(text: str, record: str) -> str:
    """A clause inside a question: its first word loses the capital a sentence gave it, unless it
    is a name (the record never writes it in lower case, or writes it capitalised inside a sentence)."""
    first = text.split(" ", 1)[0]
    if not first[:1].isupper() or first in ("I",) or first[1:2].isupper():
        return text
    plain = first.lower().removesuffix("'s").removesuffix("’s")
    named = re.search(rf"[a-z,;]\s+{re.escape(first)}\b", record) is not None
    common = plain.endswith(("ness", "tion", "ment", "ity", "ing", "ly", "ed", "ance", "ence"))
    if named or (plain not in STOP and not common and not re.search(rf"\b{re.escape(plain)}\b", record)):
        return text
    return text[:1].lower() + text[1:]


def _tidy(text: str) -> str:
    text = re.sub(r"\s+([,;.])", r"\1", re.sub(r"\s{2,}", " ", text)).strip(" ,;:-—–")
    text = re.sub(r"^(?:and|but|then|so)\s+", "", text, flags=re.I)
    return text.rstrip(".")


def _is_quote(text: str, at: int, inside: bool) -> bool:
    """Whether the apostrophe at ``at`` opens or closes a quotation (not "don't", not "Kessler's")."""
    before = text[at - 1] if at > 0 else " "
    after = text[at + 1] if at + 1 < len(text) else " "
    if before.isalnum() and after.isalnum():
        return False
    return (not before.isalnum()) if not inside else (not after.isalnum())


def _clauses(text: str) -> list[str]:
    return list(_clauses_of(text))


@functools.lru_cache(maxsize=8192)
def _clauses_of(text: str) -> tuple[str, ...]:
    """A line's clauses (split at semicolons, colons and commas), quotations kept whole; a piece of
    three words or fewer ("narrow object", "Dustin Reale") stays with the clause before it."""
    pieces, start, inside = [], 0, False
    for match in re.finditer(r"'|\"|‘|’|“|”|" + CLAUSE_BREAK.pattern, text):
        token = match.group(0)
        if token in ("'", "’"):
            if _is_quote(text, match.start(), inside):
                inside = not inside
            continue
        if token in ('"', "‘", "“", "”"):
            inside = not inside
            continue
        if inside:
            continue
        pieces.append(text[start : match.start()])
        start = match.end()
    pieces.append(text[start:])
    merged: list[str] = []
    for piece in (p.strip() for p in pieces if p.strip()):
        joined = re.match(r"^(?:and|but|then|or|so)\b", piece, re.I)
        if merged and len(piece.split()) <= 3 and not joined:
            merged[-1] = f"{merged[-1]}, {piece}"
        elif not (joined and len(piece.split()) <= 3):  # "and said": a tail with nothing to ask about
            merged.append(piece)
    return tuple(merged)


RELATIVES = frozenset("who which whom whose where that".split())
PREPOSITIONS = frozenset("on in at after before when then from with by to for during about upon as while".split())
SUBJECT_START = re.compile(
    r"\b(?:I|we|he|she|they|the prisoner|the man|a man"
    r"|[A-Z][a-z]+(?= (?:[a-z]+ed|told|said|was|were|saw|came|went|had|took|gave|left|ran|stood)\b))\b"
)


TIME_START = re.compile(
    r"^(?:that|this|the|next|same|a few|several|\d+|one|two|three) (?:night|evening|morning|day|minutes?|hours?)\b",
    re.I,
)


def _from_subject(clause: str) -> str:
    """A clause that opens with a circumstance ("On the night of the robbery he was at my apartment",
    "That night I was at the bar") from its subject on ("he was at my apartment")."""
    if clause.split(" ", 1)[0].lower() not in PREPOSITIONS and not TIME_START.match(clause):
        return clause
    match = SUBJECT_START.search(QUOTE.sub(lambda q: " " * len(q.group(0)), clause))  # not an "I" quoted
    return clause[match.start() :] if match and match.start() > 0 else clause


def _has_subject(clause: str) -> bool:
    if not clause or clause.split(" ", 1)[0].lower() in PREPOSITIONS | RELATIVES or TIME_START.match(clause):
        return False
    return bool(
        re.match(
            r"^(?:I|we|he|she|they|it|you|there|the [a-z-]+(?: [a-z-]+)?|[A-Z][a-z]+(?: [A-Z][a-z]+)*|a [a-z]+"
            r"|his|her|my)\s+\S",
            clause,
            re.I,
        )
    )


def _clause_without(line: str, span: re.Match[str]) -> str:
    """The clause of ``line`` that holds ``span``, with the span taken out (the act the fact belongs to).
    When the span is a clause of its own ("On the 13th of September, I was going to Aylesbury"), the
    clause after it."""
    clauses = _clauses(line)
    fact = span.group(0)
    for index, clause in enumerate(clauses):
        if fact in clause:
            rest = _from_subject(_tidy(clause.replace(fact, " ")))
            if not rest or not _has_subject(rest) or len(rest.split()) < 3:
                following = clauses[index + 1] if index + 1 < len(clauses) else ""
                following = _from_subject(_tidy(following))
                rest = following if _has_subject(following) else ""
            return rest
    return ""


EVENT = re.compile(
    r"\b(?:was|were) \w+(?:ing|ed)\b|\b(?:was|were) (?:found|seen|taken|left|shot|struck|stolen|put|kept)\b"
)


ACTION = re.compile(
    rf"^(?:I|you|we|he|she|they|the prisoner|the man|a man|the [a-z]+(?: [a-z]+)?"
    rf"|(?-i:[A-Z][a-z]+(?: [A-Z][a-z]+)?)) (?:then |first |also )?"
    rf"(?:{ACTS}|{'|'.join(BASE)}|pressed|watched|emptied|ordered|told|test-fired|[a-z]{{3,}}ed)\b",
    re.I,
)


def _event(clause: str) -> bool:
    """A clause that tells something happening ("you stopped the car", "he was watching"), not a state."""
    return bool(ACTION.match(clause) or EVENT.search(clause)) and "?" not in clause


def _fits(clause: str) -> bool:
    words = clause.split()
    return 3 <= len(words) <= MAX_CLAUSE_WORDS and bool(content_words(clause))
