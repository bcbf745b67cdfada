"""The words of a trial: a witness's record split into answerable lines, and word matching.

A witness's record is its testimony as the case file prints it. Old Bailey testimony is a run of
the witness's answers (the printed ``A.`` lines, or the dash-separated clauses the reporter kept
of them) with ``Cross-examined.`` marking where the other side's questions began; curated cases
give a summary. ``record_lines`` splits it into lines a witness may say verbatim, each tagged with
the part of the trial it came from (``chief`` or ``cross``) and, when the record printed the
question too (``Q. ... A. ...``), that question.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from deliberation.engine.types import WitnessItem

CROSS_MARK = re.compile(r"\b(?:Cross-examined|Cross-examination)\b[^.]*\.", re.IGNORECASE)
RE_MARK = re.compile(r"\bRe-?examined\b[^.]*\.", re.IGNORECASE)  # counsel who called the witness ask again
QA_MARK = re.compile(r"\bQ\.\s*(?P<q>.+?)\s*A\.\s*(?P<a>.+?)(?=\s*\bQ\.\s|$)", re.DOTALL)
# Sentence ends, dashes (the reporter's break between answers) and semicolons; never after a title.
BREAK = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(])|\s*[—–]\s*|\s+-\s+|;\s+")
# "p.m." before "I" ("At 10:04 p.m. I stopped the car") is more often inside a sentence than at its end.
TITLES = re.compile(r"\b(?:Mr|Mrs|Ms|Dr|St|No|Capt|Sgt|Insp|Det|Co|Messrs|Esq|Prof|Rev|[A-Z]|[ap]\.m)\.$")
WORD = re.compile(r"[A-Za-z][A-Za-z'’]+|\d+(?::\d+)?")
STOP = frozenset(
    """a about above after again against all am an and any are as at be because been before being below between
    both but by can could did do does doing down during each few for from further had has have having he her here
    hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of
    off on once only or other our ours out over own same she should so some such than that the their theirs them
    then there these they this those through to too under until up very was we were what when where which while
    who whom why will with would you your yours yourself tell court jury please happened happen describe say said
    saw see seen know knew remember anything something thing things did does done go went come came get got one
    us let make made please exactly recall think thought occur occurred show shows way whether also well yes
    prisoner's much many upon never already given ever always still though another every must shall might
    may sir""".split()
)
DOUBLED = frozenset("bdgmnpt")
MIN_LINE_CHARS = 3
MIN_NOTE_WORDS = 6


@dataclass(frozen=True)
class RecordLine:
    """One thing the record says the witness said, verbatim."""

    text: str
    part: str  # chief | cross | record (a credibility issue the case file notes about this witness)
    question: str = ""  # the printed question it answered, when the record has one


IRREGULAR = {
    "lent": "lend",
    "drunk": "drink",
    "drank": "drink",
    "came": "come",
    "saw": "see",
    "said": "say",
    "took": "take",
    "taken": "take",
    "brought": "bring",
    "gave": "give",
    "given": "give",
    "found": "find",
    "told": "tell",
    "ran": "run",
    "struck": "strike",
    "stole": "steal",
    "stolen": "steal",
    "caught": "catch",
    "sold": "sell",
    "bought": "buy",
    "left": "leave",
    "held": "hold",
    "kept": "keep",
    "met": "meet",
    "heard": "hear",
    "fell": "fall",
    "threw": "throw",
    "wore": "wear",
    "worn": "wear",
    "drove": "drive",
    "driven": "drive",
    "shot": "shoot",
    "hit": "hit",
    "paid": "pay",
    "died": "die",
    "dead": "die",
    "death": "die",
    "dying": "die",
}


def stem(word: str) -> str:
    """A crude stem, enough to match "watched" with "watch", "robbers" with "robber", "lent" with "lend"."""
    word = word.lower().replace("’", "'").strip("'").removesuffix("'s")  # 'sure' quoted is sure
    if word in IRREGULAR:
        return IRREGULAR[word]
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            word = word[: -len(suffix)]
            # "stopped" -> "stop", "robbing" -> "rob": the consonant doubled before the ending
            if suffix in ("ing", "ed") and len(word) > 3 and word[-1] == word[-2] and word[-1] in DOUBLED:
                word = word[:-1]
            return word
    return word


def content_words(text: str) -> set[str]:
    return {stem(w) for w in WORD.findall(text) if w.lower() not in STOP and len(w) > 1}


def split_lines(text: str) -> list[str]:
    """Sentences and dash-separated answers, not broken after "Mr." or an initial."""
    pieces: list[str] = []
    start = 0
    for match in BREAK.finditer(text):
        before = text[start : match.start()]
        if match.group(0).strip() == "" and TITLES.search(before):
            continue
        pieces.append(before)
        start = match.end()
    pieces.append(text[start:])
    return [p.strip(" -—–;") for p in pieces if len(p.strip(" -—–;.")) >= MIN_LINE_CHARS]


def _part_lines(text: str, part: str) -> list[RecordLine]:
    lines: list[RecordLine] = []
    first = text.find("Q.")
    if first >= 0 and QA_MARK.search(text):
        head = text[:first]
        lines.extend(RecordLine(line, part) for line in split_lines(head))
        for match in QA_MARK.finditer(text[first:]):
            answers = split_lines(match.group("a"))
            lines.extend(RecordLine(line, part, match.group("q").strip()) for line in answers)
        return lines
    return [RecordLine(line, part) for line in split_lines(text)]


def record_lines(testimony: str, credibility_issues: tuple[str, ...] = ()) -> list[RecordLine]:
    """Everything a witness may say: its testimony (chief, then cross) and the case file's notes on it."""
    marks = sorted([*CROSS_MARK.finditer(testimony), *RE_MARK.finditer(testimony)], key=lambda m: m.start())
    lines: list[RecordLine] = []
    if marks:
        lines.extend(_part_lines(testimony[: marks[0].start()], "chief"))
        for index, mark in enumerate(marks):
            end = marks[index + 1].start() if index + 1 < len(marks) else len(testimony)
            part = "chief" if RE_MARK.match(mark.group(0)) else "cross"  # re-examination is the caller's
            lines.extend(_part_lines(testimony[mark.end() : end], part))
    else:
        lines.extend(_part_lines(testimony, "chief"))
    # A note in sentences (curated cases) may be put to the witness; a label ("Did not see clearly",
    # from the Old Bailey importer) is a reason to ask, not something the witness said.
    lines.extend(
        RecordLine(issue.strip(), "record") for issue in credibility_issues if len(issue.split()) >= MIN_NOTE_WORDS
    )
    return lines


def sworn(witness: WitnessItem) -> str:
    """What the witness says on the stand: its own words where the case file gives them (a curated
    witness's first-person testimony), else its testimony as printed (an Old Bailey record)."""
    return witness.first_person or witness.testimony


def witness_lines(witness: WitnessItem) -> list[RecordLine]:
    """A witness's record: its own words alone when it has them (the case file's notes on it are
    then what the other side puts to it, not lines it says), else its testimony and the notes."""
    if witness.first_person:
        return list(_lines(witness.first_person, ()))
    return list(_lines(witness.testimony, tuple(witness.credibility_issues)))


@functools.lru_cache(maxsize=1024)
def _lines(testimony: str, issues: tuple[str, ...]) -> tuple[RecordLine, ...]:
    """A record split once per trial, not once per question counsel plan (the lines are frozen)."""
    return tuple(record_lines(testimony, issues))


def overlap(question: set[str], line: set[str]) -> float:
    """How much of the question a line answers: shared words over the question's words."""
    if not question or not line:
        return 0.0
    return len(question & line) / len(question)


def similarity(a: str, b: str) -> float:
    """Jaccard similarity of two texts' content words (for "asked and answered")."""
    left, right = content_words(a), content_words(b)
    if not left or not right:
        return 0.0
    return len(left & right) / len(left | right)


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("’", "'")).strip().lower()


# How a student types a question in a hurry, read as the words they mean: text-speak and the
# common misspellings of question words, and the contractions typed without their apostrophe
# ("didnt", "wasnt", "whats"). Words that are also English words ("id", "ill", "were", "wed")
# are left alone.
TEXTED = {
    "u": "you",
    "ya": "you",
    "r": "are",
    "ur": "your",
    "yr": "your",
    "tho": "though",
    "wat": "what",
    "wot": "what",
    "wut": "what",
    "wht": "what",
    "wen": "when",
    "wn": "when",
    "wher": "where",
    "whr": "where",
    "hw": "how",
    "y": "why",
    "b4": "before",
    "abt": "about",
    "bc": "because",
    "cuz": "because",
    "coz": "because",
    "thru": "through",
    "pls": "please",
    "plz": "please",
    "ppl": "people",
    "nite": "night",
    "happend": "happened",
    "happned": "happened",
    "im": "I'm",
    "ive": "I've",
    "youre": "you're",
    "theyre": "they're",
    "thats": "that's",
    "whats": "what's",
    "wheres": "where's",
    "whos": "who's",
    "hes": "he's",
    "shes": "she's",
    "theres": "there's",
}
NEGATED = "didn wasn weren isn aren don doesn haven hadn couldn wouldn shouldn hasn mustn"
TEXTING = re.compile(r"\b(?:" + "|".join(TEXTED) + r")\b", re.I)
NO_APOSTROPHE = re.compile(r"\b(" + "|".join(NEGATED.split()) + r"|can|won)t\b", re.I)


def typed(question: str) -> str:
    """A question as typed in a hurry, read as the words it means: "wat time did u leave, wasnt it"
    reads "what time did you leave, wasn't it"."""
    question = question.replace("’", "'")
    question = TEXTING.sub(lambda m: TEXTED[m.group(0).lower()], question)
    return NO_APOSTROPHE.sub(lambda m: m.group(1) + "'t", question)
