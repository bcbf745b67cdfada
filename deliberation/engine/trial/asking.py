"""Counsel's questions, built from what the witness's record says: who did what, when, where, how
far, what was found, how sure the witness is; and in cross-examination, the weakness the record
shows (what the witness concedes, what another witness said otherwise, the light, the drink, a
doubted identification).

Every question is made from one line of the record (``Question.line``) and names a fact of it: a
time or a place is asked about the act the line tells ("What time was it when you stopped a silver
2011 Honda Civic?"), an act about who did it ("Who came up to the coach?"), a thing found about
where ("What did you find in the glovebox?"), a certainty about what is certain ("How sure are you
that he is the same person?"). The clause a question carries is the record's own words, turned to
the second person outside quotations, so the question reads as counsel would put it and the
witness, answering from its record, finds the line the question came from.

A line that gives nothing to ask this way gives no question: counsel move on to the next line.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from deliberation.engine.trial.text import STOP, RecordLine, content_words, stem

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
    return "".join(pieces)


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


def _event(clause: str) -> bool:
    """A clause that tells something happening ("you stopped the car", "he was watching"), not a state."""
    return bool(ACTION.match(clause) or EVENT.search(clause)) and "?" not in clause


def _fits(clause: str) -> bool:
    words = clause.split()
    return 3 <= len(words) <= MAX_CLAUSE_WORDS and bool(content_words(clause))


def _when(line: RecordLine, record: str) -> Question | None:
    for pattern, frame in ((CLOCK, "What time was it when {c}?"), (DATE, "What day was it when {c}?")):
        match = pattern.search(line.text)
        if match:
            clause = _clause_without(line.text, match)
            for other in [*CLOCK.finditer(clause), *DATE.finditer(clause)]:  # "disarmed at 1:31 and re-armed at 1:44"
                clause = _tidy(clause.replace(other.group(0), " "))
            if _fits(clause) and _event(clause):
                return Question(frame.format(c=_lower_start(you(clause), record)), "when", line.text)
    return None


def _where(line: RecordLine, record: str) -> Question | None:
    for match in PLACE.finditer(line.text):
        if NOT_PLACES.match(match.group(0)):
            continue
        clause = _clause_without(line.text, match)
        for other in PLACE.finditer(clause):  # the question does not give the answer's other places away
            if not NOT_PLACES.match(other.group(0)):
                clause = _tidy(clause.replace(other.group(0), " "))
        if not _fits(clause):
            continue
        clause = _lower_start(you(clause), record)
        if DISTANCE.search(clause):
            continue  # "lifted 20 cm left of the register": a distance is asked with "How far"
        being = re.match(
            r"^(you|he|she|they|it|(?:the|a|an) [\w$'-]+(?: [\w$'-]+){0,2}?|[A-Z][a-z]+(?: [A-Z][a-z]+)?)"
            r" (was|were) (.+)$",
            clause,
        )
        person = being is not None and re.match(r"^(?:you|he|she|they|[A-Z])", being.group(1)) is not None
        if being and (
            person or re.match(r"^(?:\w+ly )?\w+ed\b|^(?:found|left|kept|hid|put|seen|taken)\b", being.group(3))
        ):
            subject, be, rest = being.groups()
            return Question(f"Where {be} {subject} {rest}?", "where", line.text)
        if _event(clause):
            return Question(f"Where was it that {clause}?", "where", line.text)
    return None


def _how_far(line: RecordLine, record: str) -> Question | None:
    match = DISTANCE.search(line.text)
    if not match:
        return None
    after = line.text[match.end() :]
    anchor = re.match(
        r"\s*(from|behind|of|off|in front of) "
        r"((?:the|a|an|his|her|my) [\w-]+(?: (?!and\b|or\b|to\b|with\b)[\w-]+)?|it|him|her)\b",
        after,
    )
    clause = _clause_without(line.text.replace(anchor.group(0), " ") if anchor else line.text, match)
    clause = _lower_start(you(clause), record) if clause else ""
    if anchor:
        prep, what = anchor.group(1), you(anchor.group(2))
        standing = re.match(r"^(you|he|she|they) (was|were)\b", clause)
        if standing and len(clause.split()) <= 6:  # "I was about 15 metres behind it" -> "How far behind it were you?"
            return Question(f"How far {prep} {what} {standing.group(2)} {standing.group(1)}?", "how_far", line.text)
        if prep == "from" and _fits(clause):
            return Question(f"How far from {what} was it when {clause}?", "how_far", line.text)
    if not _fits(clause):
        return None
    subject = re.match(r"^(you|he|she|they|the prisoner|the man)\b", clause)
    if subject is None:
        return None
    be = "were" if subject.group(1) in ("you", "they") else "was"
    return Question(f"How far away {be} {subject.group(1)} when {clause}?", "how_far", line.text)


def _what(line: RecordLine, record: str) -> Question | None:
    match = OBJECT.search(line.text)
    if not match:
        return None
    subject = match.group("subj")
    base = BASE[match.group("verb").lower()]
    rest = match.group("rest")
    if not rest:  # the place or the time the line gives elsewhere: "On the back seat I found ..."
        outside = line.text[: match.start()] + " " * (match.end() - match.start()) + line.text[match.end() :]
        where = next((m for m in PLACE.finditer(outside) if not NOT_PLACES.match(m.group(0))), None)
        when = CLOCK.search(outside) or DATE.search(outside)
        found = where or when
        rest = found.group(0) if found else ""
    if not rest or re.search(r"\b(?:had|has|have|was|were|is|are|been)\b|\?", rest):
        return None
    rest = you(rest.strip())
    rest = rest[:1].lower() + rest[1:]
    who = "you" if subject.lower() in ("i", "we") else _lower_start(subject, record)
    if base == "put" and who != "you":
        return None  # "What did he put in the box?" reads well, but "put" asks where more than what
    return Question(f"What did {who} {base} {rest}?", "what", line.text)


def _who(line: RecordLine, record: str) -> Question | None:
    for clause in _clauses(line.text)[:2]:
        match = WHO.match(clause)
        if not match or (match.group("subj").lower() in ("he", "she") and line.part == "cross"):
            continue
        pred = _tidy(you(match.group("pred")))
        if 2 <= len(pred.split()) <= MAX_CLAUSE_WORDS and content_words(pred) and "?" not in pred:
            return Question(f"Who {pred}?", "who", line.text)
    return None


def _how_sure(line: RecordLine, record: str) -> Question | None:
    match = SURE.search(line.text)
    if not match:
        return None
    what = _tidy(match.group("what") or match.group("what2") or "")
    if what and _has_subject(what) and _fits(what):
        return Question(f"How sure are you that {you(what)}?", "how_sure", line.text)
    clauses = [c for c in _clauses(line.text) if not SURE.search(c) and _has_subject(c) and _fits(c)]
    if clauses:
        return Question(f"How sure were you when {_lower_start(you(clauses[0]), record)}?", "how_sure", line.text)
    return None


def _how_long(line: RecordLine, record: str) -> Question | None:
    match = DURATION.search(line.text)
    if not match:
        return None
    clause = you(_clause_without(line.text, match))
    inverted = re.match(r"^you (have|had|were|are)( been)? (.+)$", clause)
    if inverted:
        been = inverted.group(2) or ""
        text = f"How long {inverted.group(1)} you{been} {inverted.group(3)}?"
    else:
        past = re.match(rf"^you ({'|'.join(sorted(BASE, key=len, reverse=True))}) (.+)$", clause)
        if past is None:
            return None
        text = f"How long did you {BASE[past.group(1)]} {past.group(2)}?"
    return Question(text, "how_long", line.text) if _fits(text) else None


CIRCUMSTANCE = re.compile(
    r"\b(?P<conj>(?i:when|as|after|before|while)) "
    r"(?P<what>(?:he|she|they|the \w+|it|I|we) (?!have|has|had done)[^,;.?]{3,60}?)"
    r"(?=[,;.]|$| I\b| he\b| she\b| they\b| we\b)"  # the circumstance ends where the main clause begins
)


def _do_when(line: RecordLine, record: str) -> Question | None:
    """ "When the bandana slipped I saw his chin" -> "What did you see when the bandana slipped?"."""
    match = CIRCUMSTANCE.search(line.text)
    if not match or not re.search(r"\bI\b", line.text.replace(match.group(0), "")):
        return None
    if not ACTION.match(match.group("what")) or len(named_words(match.group("what"))) < 2:
        return None  # "as you could", "when she was born": no act to ask about
    main = line.text.replace(match.group(0), " ")
    verb = re.search(rf"\bI ({'|'.join(sorted(BASE, key=len, reverse=True))})\b", main)
    act = BASE[verb.group(1)] if verb else "do"
    what = _tidy(you(match.group("what")))
    if not 2 <= len(what.split()) <= MAX_CLAUSE_WORDS:
        return None
    return Question(f"What did you {act} {match.group('conj').lower()} {what}?", "do_when", line.text)


WEARING = re.compile(
    r"(?P<who>a man|the man|the prisoner|he|she|a woman|the woman) (?P<act>[a-z]+(?: (?:in|up|out|off))?) wearing\b"
)


def _wearing(line: RecordLine, record: str) -> Question | None:
    match = WEARING.search(line.text)
    if not match:
        return None
    who = {"a man": "the man", "a woman": "the woman"}.get(match.group("who").lower(), match.group("who").lower())
    pronoun = "she" if "woman" in who or who == "she" else "he"
    subject = pronoun if who in ("he", "she") else who
    return Question(f"What was {subject} wearing when {pronoun} {match.group('act')}?", "wearing", line.text)


DESCRIBED = re.compile(
    r"^I told (?P<whom>the [\w ]+?|him|her|them|[A-Z][a-z]+(?: [A-Z][a-z]+)?)"
    r" (?:that )?(?:the|a) (?P<what>[a-z]+) was\b"
)


def _described(line: RecordLine, record: str) -> Question | None:
    """ "I told the first officer the driver was a guy" -> "How did you describe the driver to the first officer?"."""
    match = DESCRIBED.match(line.text)
    if not match:
        return None
    return Question(f"How did you describe the {match.group('what')} to {match.group('whom')}?", "described", line.text)


# Ways of asking for the next step of a story; which one is fixed by the clause (the same trial
# reads the same way on every run) so a witness's examination does not repeat one frame.
AFTER = ("What happened after {c}?", "And after {c}, what happened?", "What happened next, after {c}?")


ACTION = re.compile(
    rf"^(?:I|you|we|he|she|they|the prisoner|the man|a man|the [a-z]+(?: [a-z]+)?"
    rf"|(?-i:[A-Z][a-z]+(?: [A-Z][a-z]+)?)) (?:then |first |also )?"
    rf"(?:{ACTS}|{'|'.join(BASE)}|pressed|watched|emptied|ordered|told|test-fired|[a-z]{{3,}}ed)\b",
    re.I,
)


def after_question(previous: RecordLine, line: RecordLine, record: str) -> Question | None:
    """The next step of the story: "What happened after you pressed the silent alarm?", asked about the
    line before ``line`` when it tells an act (the witness answers with what came next, ``trial_witness``)."""
    for clause in _clauses(protect(previous.text))[:2]:
        clause = _from_subject(_tidy(clause))
        if ACTION.match(clause) and _fits(clause) and "?" not in clause and len(named_words(clause)) >= 2:
            frame = AFTER[sum(map(ord, clause)) % len(AFTER)]
            return Question(restore(frame.format(c=_lower_start(you(clause), record))), "after", line.text)
    return None


DESCRIBE = re.compile(
    r"^(?P<np>(?:The|A|An|His|Her|My) (?:(?!\b(?:is|was|were|are|had|has)\b)[^,;]){3,60}? (?:of|on|in|from|at|with)"
    r" (?:(?!\b(?:is|was|were|are|had|has|while|when)\b)[^,;]){3,40}?) (?:is|was|were|are|had|has)\b"
)


def _describe(line: RecordLine, record: str) -> Question | None:
    """ "The dent on Ms. Cordell's fender is broad" -> "What can you tell the jury about the dent on
    Ms. Cordell's fender?": a thing named with what the record ties to it, never a bare keyword."""
    match = DESCRIBE.match(line.text)
    if not match:
        return None
    np = _lower_start(you(match.group("np")), record)
    return Question(f"What can you tell the jury about {np}?", "describe", line.text)


CHIEF_KINDS = (_described, _how_sure, _when, _wearing, _who, _how_far, _do_when, _how_long, _what, _where, _describe)


def chief_question(line: RecordLine, record: str, used: set[str]) -> Question | None:
    """The question that brings out ``line`` in chief: a kind not yet asked of this witness first."""
    guarded = RecordLine(protect(line.text), line.part, line.question)
    found = [
        Question(restore(q.text), q.kind, line.text) for make in CHIEF_KINDS if (q := make(guarded, record)) is not None
    ]
    # A question carries two telling words of its line; one will do where the asked fact is the point
    # ("How far behind the bus were you?").
    telling = [
        q
        for q in found
        if len(named_words(q.text) & named_words(line.text)) >= (1 if q.kind in ("how_far", "how_sure", "who") else 2)
    ]
    fresh = [q for q in telling if q.kind not in used]
    return (fresh or telling)[0] if telling else None


def tag_question(line: str, record: str) -> str | None:
    """A first-person concession put back to the witness as cross-examination puts it:
    "I did not examine the circuits" -> "You did not examine the circuits, did you?"."""
    text = line.strip().rstrip(".")
    if not re.match(r"^I(?:'m|'ve)?\b", text) or not _speakable(text):
        return None
    words = you(text).split()
    at = 1
    while at < len(words) and words[at].lower() in ADVERBS and words[at].lower() != "never":
        at += 1
    if at >= len(words):
        return None
    verb = words[at].lower().strip(",")
    following = words[at + 1].lower() if at + 1 < len(words) else ""
    first = words[0].lower()
    if first in AUX_TAGS:  # "you're", "you've"
        verb, following = first, words[1].lower() if len(words) > 1 else ""
    if verb == "never":
        tag = "did you"
    elif verb in NEGATIVE:
        tag = f"{NEGATIVE[verb]} you"
    elif verb in AUX_TAGS or verb in ("you're", "you've"):
        base = {"you're": "are", "you've": "have"}.get(verb, verb)
        tag = f"{base} you" if following in ("not", "never") else f"{AUX_TAGS[base]} you"
    elif PAST.match(verb):
        tag = "didn't you"
    elif re.match(r"^[a-z]+$", verb):
        tag = "don't you"
    else:
        return None
    sentence = " ".join(words)
    return f"{sentence[:1].upper()}{sentence[1:]}, {tag}?"


def _speakable(text: str) -> bool:
    """Short enough to put in one breath, whole (no quotation left open), and not itself a question."""
    quotes = len(re.findall(r"\"|“|”", text))
    return 3 <= len(text.split()) <= MAX_CLAUSE_WORDS + 4 and quotes % 2 == 0 and "?" not in text


def put_to_witness(line: str, record: str) -> str | None:
    """A line of the record put to the witness in cross: a tag question where the witness speaks of
    itself, else "Isn't it right that ...?"; a long line is put by its first clause that can be."""
    for text in [line, *(restore(c) for c in _clauses(protect(line)))]:
        text = text.strip().rstrip(".")
        tagged = tag_question(text, record)
        if tagged:
            return tagged
        if _speakable(text) and _has_subject(text):
            return f"Isn't it right that {_lower_start(you(text), record)}?"
    return None


def named_words(text: str) -> set[str]:
    """The content words of a text that tell one line from another (stop words and "prisoner" aside)."""
    return {w for w in content_words(text) if w not in STOP and w not in ("prisoner", "defendant", stem("accused"))}
