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
How a line is read (its patterns, clauses and second person) is ``phrasing``.
"""

from __future__ import annotations

import re

from deliberation.engine.trial.phrasing import (
    ACTION,
    ADVERBS,
    AUX_TAGS,
    BASE,
    CLOCK,
    DATE,
    DAYS,
    DISTANCE,
    DURATION,
    MAX_CLAUSE_WORDS,
    MONTHS,
    NEGATIVE,
    NOT_PLACES,
    OBJECT,
    PAST,
    PLACE,
    SURE,
    WHO,
    Question,
    _clause_without,
    _clauses,
    _event,
    _fits,
    _from_subject,
    _has_subject,
    _lower_start,
    _tidy,
    protect,
    restore,
    you,
)
from deliberation.engine.trial.text import STOP, RecordLine, content_words, stem

RUN_WORDS = 4  # words of the record in a row a question carries
TELLING_WORDS = 2  # of which this many are not stop words
SPOKEN = re.compile(r"[a-z0-9$£]+(?:'[a-z]+)?")
# The witness's "I was" is counsel's "you were": the two are the same words of the record.
SAME_PERSON = {"i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself", "am": "are", "was": "were"}
SENTENCE = re.compile(r"(?<=[.!?;])\s+|\s+[—–-]\s+")


def _spoken(text: str) -> list[str]:
    return [SAME_PERSON.get(w, w) for w in SPOKEN.findall(text.lower().replace("’", "'"))]


def carries_record(question: str, line: str) -> bool:
    """Whether a question puts the record's own words to the witness: ``RUN_WORDS`` words of ``line``
    in a row (in the second person, as counsel say them), ``TELLING_WORDS`` of them not stop words, or
    a figure the line gives ("$412", "10:04"). "What did you find in a cupboard?" carries only "in a
    cupboard" of "I found these articles in a cupboard"; "Where was it that you found these articles?"
    carries the fact itself."""
    asked = _spoken(question)
    said = [_spoken(piece) for piece in SENTENCE.split(line)]
    if any(re.search(r"\d", w) and any(w in words for words in said) for w in asked):
        return True
    runs = {tuple(words[at : at + RUN_WORDS]) for words in said for at in range(len(words) - RUN_WORDS + 1)}
    for at in range(len(asked) - RUN_WORDS + 1):
        run = tuple(asked[at : at + RUN_WORDS])
        if run in runs and sum(1 for w in run if w not in STOP) >= TELLING_WORDS:
            return True
    return False


def _when(line: RecordLine, record: str) -> Question | None:
    for pattern, frame in ((CLOCK, "What time was it when {c}?"), (DATE, "What day was it when {c}?")):
        match = pattern.search(line.text)
        if match:
            clause = _clause_without(line.text, match)
            for other in [*CLOCK.finditer(clause), *DATE.finditer(clause)]:  # "disarmed at 1:31 and re-armed at 1:44"
                clause = _tidy(clause.replace(other.group(0), " "))
            clause = _tidy(re.sub(r"\bo'clock\b(?: (?:in the|at) \w+)?", " ", clause))  # "half-past six o'clock"
            if re.match(rf"^(?:{DAYS}|{MONTHS})\b", clause):
                continue  # "On Monday and Tuesday Bob came": the other day is part of the answer
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
            inverted = f"Where {be} {subject} {rest}?"
            if carries_record(restore(inverted), restore(line.text)) or not _event(clause):
                return Question(inverted, "where", line.text)
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
        r"((?:the|a|an|his|her|my) [\w-]+(?: (?!and\b|or\b|to\b|with\b|when\b|as\b|while\b)[\w-]+)?|it|him|her)\b",
        after,
    )
    clause = _clause_without(line.text.replace(anchor.group(0), " ") if anchor else line.text, match)
    clause = _lower_start(you(clause), record) if clause else ""
    if anchor:
        prep, what = anchor.group(1), you(anchor.group(2))
        moment = CIRCUMSTANCE.search(line.text[match.end() :])  # "... from the door, when I heard a bang"
        when = f" {moment.group('conj').lower()} {_tidy(you(moment.group('what')))}" if moment else ""
        bare = _tidy(clause.replace(_tidy(when), " ")) if when else clause
        standing = re.match(r"^(you|he|she|they) (was|were)\b", bare)
        if standing and len(bare.split()) <= 6:  # "I was about 15 metres behind it" -> "How far behind it were you?"
            asked = f"How far {prep} {what} {standing.group(2)} {standing.group(1)}{when}?"
            return Question(asked, "how_far", line.text)
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
    """ "I told the first officer the driver was a guy" -> "How did you describe the driver when you
    told the first officer?"."""
    match = DESCRIBED.match(line.text)
    if not match:
        return None
    whom, what = match.group("whom"), match.group("what")
    return Question(f"How did you describe the {what} when you told {whom}?", "described", line.text)


# Ways of asking for the next step of a story; which one is fixed by the clause (the same trial
# reads the same way on every run) so a witness's examination does not repeat one frame.
STATE = re.compile(
    r"^\S+(?: [A-Z]\S*)? (?:loved|liked|looked|seemed|appeared|lived|wanted|hoped|believed|supposed|considered"
    r"|expected|feared|wished|lodged|resided|belonged)\b"
)
AFTER = ("What happened after {c}?", "And after {c}, what happened?", "What happened next, after {c}?")


def after_question(previous: RecordLine, line: RecordLine, record: str) -> Question | None:
    """The next step of the story: "What happened after you pressed the silent alarm?", asked about the
    line before ``line`` when it tells an act (the witness answers with what came next, ``trial_witness``)."""
    for clause in _clauses(protect(previous.text))[:2]:
        clause = re.sub(r"^(I|we|he|she|they) then\b", r"\1", _from_subject(_tidy(clause)))
        if STATE.match(clause):
            continue  # "he loved that place like a child": a state, not a step of the story
        if ACTION.match(clause) and _fits(clause) and "?" not in clause and len(named_words(clause)) >= 2:
            frame = AFTER[sum(map(ord, clause)) % len(AFTER)]
            asked = restore(frame.format(c=_lower_start(you(clause), record)))
            if carries_record(asked, restore(previous.text)):
                return Question(asked, "after", line.text)
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
    telling = [q for q in telling if carries_record(q.text, line.text)]
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
    for text in [line, *(_tidy(restore(c)) for c in _clauses(protect(line)))]:
        text = text.strip().rstrip(".")
        tagged = tag_question(text, record)
        if tagged and carries_record(tagged, line):
            return tagged
        put = f"Isn't it right that {_lower_start(you(text), record)}?"
        if not tagged and _speakable(text) and whole_clause(text):
            if carries_record(put, line):
                return put
    return None


NOT_A_CLAUSE = re.compile(r"^(?:not|no|yes|and|but|or|nor|if|because|though|although)\b", re.I)


def whole_clause(text: str) -> bool:
    """A clause that opens with its subject, not with a verb whose subject was left behind ("saw
    the cow lying there dead") nor with a conjunction ("and she as a spinster")."""
    first = text.split(" ", 1)[0]
    return _has_subject(text) and not NOT_A_CLAUSE.match(text) and not (first.islower() and PAST.match(first))


def named_words(text: str) -> set[str]:
    """The content words of a text that tell one line from another (stop words and "prisoner" aside)."""
    return {w for w in content_words(text) if w not in STOP and w not in ("prisoner", "defendant", stem("accused"))}
