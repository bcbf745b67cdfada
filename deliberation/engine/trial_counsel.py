"""Offline counsel: questions, speeches and objections drawn from the case file alone.

Examination in chief: counsel walk their witness through its record. Where the record printed the
question (Old Bailey ``Q.``) they ask it verbatim; otherwise they ask an open question about the
salient words of a line of the witness's chief evidence ("What can you tell the jury about the
cellar and the straws?"). Cross-examination: the other side puts the lines the record gives of the
cross-examination and the case file's notes on the witness's credibility ("Isn't it true that
..."), which is allowed in cross. Now and then (``DEFECT_RATE``) counsel asks a defective question
(leading in chief, speculation, hearsay, argumentative in cross) for the other side to object to.
"""

from __future__ import annotations

import random
import re

from deliberation.engine.trial_phrases import agree, charges_phrase, counted, join_names
from deliberation.engine.trial_text import STOP, RecordLine, record_lines
from deliberation.engine.types import CaseFile, WitnessItem

SIDE_NAMES = {"prosecution": "Counsel for the prosecution", "defense": "Counsel for the defence"}
DEFECT_RATE = 0.12
WRONG_OBJECTION_RATE = 0.08
CHIEF_QUESTIONS = 3
CROSS_QUESTIONS = 2
ISSUE_QUESTIONS = {  # Old Bailey credibility labels (cases.importers.oldbailey_rules) -> a cross question
    "Admits having been drinking": "Had you been drinking, or were you drunk?",
    "Did not see clearly": "Was it dark? Did you see his face?",
    "Uncertain or will not swear": "Will you swear to him? Are you sure?",
    "Related to or close to the accused": "How long have you known the prisoner, and are you related?",
}
OPEN_TEMPLATES = (
    "What can you tell the jury about {a} and {b}?",
    "Tell us about {a} and {b}.",
    "What do you know of {a} and {b}?",
)
ONE_WORD_TEMPLATES = ("What can you tell the jury about {a}?", "Tell us about {a}.")
DEFECTS_CHIEF = (
    "Isn't it true that {line}, didn't you?",
    "What did the neighbours say about it?",
    "What do you think the prisoner was intending?",
)
DEFECTS_CROSS = (
    "How can you expect the jury to believe that {line}?",
    "Why do you think the prisoner would do such a thing?",
)
SWAPS = (
    (re.compile(r"\bI am\b"), "you are"),
    (re.compile(r"\bI was\b"), "you were"),
    (re.compile(r"\bI'm\b"), "you're"),
    (re.compile(r"\bI\b"), "you"),
    (re.compile(r"\bmy\b", re.I), "your"),
    (re.compile(r"\bme\b"), "you"),
    (re.compile(r"\bmyself\b"), "yourself"),
)


def side_name(side: str) -> str:
    return SIDE_NAMES.get(side, SIDE_NAMES["prosecution"])


def other(side: str) -> str:
    return "defense" if side == "prosecution" else "prosecution"


def second_person(line: str) -> str:
    text = line.strip().rstrip(".")
    for pattern, words in SWAPS:
        text = pattern.sub(words, text)
    return text[:1].lower() + text[1:] if not text[:2].isupper() else text


DETERMINERS = frozenset({"the", "a", "an", "his", "her", "their", "its", "this", "that", "my", "our"})
OWN = {"my": "your", "our": "your"}
VERB_ENDINGS = ("ed", "ly", "ing")
TOKEN = re.compile(r"[A-Za-z][A-Za-z'’]*")  # "a" and "I" count here, unlike WORD
NAME = re.compile(r"[A-Z][a-z'’]+(?:\s+[A-Z][a-z'’]+)*")  # "Fleet Street" is one name


def salient(line: str, k: int = 2) -> list[str]:
    """The line's most telling words: capitalised names first, then the things it names (a word
    after "the", "his", "a"... with the adjective before it skipped: "a dark spot" gives "the spot"),
    never a verb ("remembers" or "slipped" never becomes "the remembers"). A line that names
    nothing gives nothing, and counsel ask what happened."""
    found = TOKEN.findall(line)
    first = TOKEN.search(line)
    body = line[first.end() :] if first else line  # the first word is capitalised for the sentence
    names = [  # "Hale's statement": the name, not its possessive
        name.removesuffix("'s").removesuffix("’s")
        for name in NAME.findall(body)
        if name.lower() not in STOP and (len(name) > 3 or " " in name)
    ]
    things: list[str] = []
    for at, word in enumerate(found):
        if word.lower() not in DETERMINERS:
            continue
        run: list[str] = []  # "a grey hooded sweatshirt came": grey, hooded, sweatshirt
        for following in found[at + 1 : at + 4]:
            if not following.islower() or following in STOP or following in DETERMINERS:
                break
            run.append(following)
        nouns = [w for w in run if len(w) > 2 and not w.endswith(VERB_ENDINGS)]
        if nouns:
            own = OWN.get(word.lower(), "the" if word.lower() in ("a", "an", "this", "that") else word.lower())
            things.append(f"{own} {nouns[-1]}")
    picked: list[str] = []
    for phrase in [*names, *things]:
        if phrase.split()[-1].lower() not in (p.split()[-1].lower() for p in picked):
            picked.append(phrase)
    return picked[:k]


def spread(lines: list[RecordLine], k: int) -> list[RecordLine]:
    """``k`` lines spread evenly through the record (the start, the middle, the end)."""
    useful: list[RecordLine] = []
    for line in lines:  # one line per printed question: its other answer lines come with it
        if (salient(line.text, 1) or line.question) and not (
            line.question and useful and useful[-1].question == line.question
        ):
            useful.append(line)
    if len(useful) <= k:
        return useful
    step = len(useful) / k
    return [useful[int(i * step)] for i in range(k)]


def open_question(line: RecordLine, rng: random.Random) -> str:
    if line.question and not line.question.startswith("("):  # "(by the prisoner) ..." is not counsel's
        return line.question
    words = salient(line.text)
    if len(words) >= 2:
        return rng.choice(OPEN_TEMPLATES).format(a=words[0], b=words[1])
    return rng.choice(ONE_WORD_TEMPLATES).format(a=words[0] if words else "what happened")


def chief_questions(witness: WitnessItem, rng: random.Random, k: int = CHIEF_QUESTIONS) -> list[str]:
    lines = [line for line in record_lines(witness.testimony) if line.part == "chief"]
    questions = [open_question(line, rng) for line in spread(lines, k)]
    if questions and rng.random() < DEFECT_RATE:
        template = rng.choice(DEFECTS_CHIEF)
        questions.insert(rng.randrange(len(questions) + 1), template.format(line=second_person(lines[-1].text)))
    return questions


def cross_questions(witness: WitnessItem, case: CaseFile, rng: random.Random, k: int = CROSS_QUESTIONS) -> list[str]:
    lines = [line for line in record_lines(witness.testimony, witness.credibility_issues) if line.part != "chief"]
    questions: list[str] = []
    for line in spread(lines, k):
        printed = line.question if line.question and not line.question.startswith("(") else ""
        questions.append(printed or f"Isn't it true that {second_person(line.text)}?")
    for label in witness.credibility_issues:  # the importer's labels become the questions they call for
        if label in ISSUE_QUESTIONS and len(questions) < k + 1:
            questions.append(ISSUE_QUESTIONS[label])
    if not questions:  # nothing in the record of a cross: test how sure the witness is of their own evidence
        chief = [line for line in record_lines(witness.testimony) if line.part == "chief"]
        for line in spread(chief, 1):
            words = salient(line.text, 1)
            if words:
                questions.append(f"Can you be sure about {words[0]}?")
    if questions and rng.random() < DEFECT_RATE:
        lines_for = lines or record_lines(witness.testimony)
        template = rng.choice(DEFECTS_CROSS)
        questions.insert(rng.randrange(len(questions) + 1), template.format(line=second_person(lines_for[0].text)))
    return questions


def defendant_words(case: CaseFile) -> str:
    return join_names([d.name for d in case.defendants])


def _several(case: CaseFile) -> bool:
    return len(case.defendants) > 1


def call_words(side: str, witness: WitnessItem) -> str:
    return f"{side_name(side)} calls {witness.name} ({witness.role})."


def opening(case: CaseFile, side: str, witnesses: list[WitnessItem]) -> str:
    called = join_names([f"{w.name} ({w.role})" for w in witnesses[:4]], none="")
    charges = charges_phrase(case.charges)
    if side == "prosecution":
        stand = agree(len(case.defendants), "stands", "stand") if case.defendants else "stands"
        parts = [f"Members of the jury, {defendant_words(case)} {stand} charged with {charges}."]
        parts.extend(case.prosecution_arguments[:2])
        if called:
            parts.append(f"You will hear from {called}. Listen to what they saw.")
        return " ".join(parts)
    charge = "each of these charges" if len([c for c in case.charges if c.strip()]) > 1 else "this charge"
    parts = [
        f"Members of the jury, the prosecution must prove {charge} so that you are sure of it.",
        "Listen to how much each witness really saw, and how sure each can be.",
    ]
    parts.extend(case.defense_arguments[:2])
    if called:
        parts.append(f"You will hear from {called}.")
    return " ".join(parts)


def closing(side: str, quotes: list[tuple[str, str]], exposed: list[tuple[str, str]]) -> str:
    """A closing from the admitted record only: what helped this side, and what cross exposed."""
    if side == "prosecution":
        parts = ["Members of the jury, you have heard the evidence."]
        parts.extend(f'{name} told you: "{text}"' for name, text in quotes[:3])
        parts.append("On that evidence you can be sure, and the verdict is guilty.")
    else:
        parts = ["Members of the jury, the question is not whether the accused might have done it."]
        parts.extend(f'{name} told you: "{text}"' for name, text in exposed[:3])
        parts.extend(f'And {name} said: "{text}"' for name, text in quotes[:2])
        parts.append("If you cannot be sure, your verdict must be not guilty.")
    return " ".join(parts)


def directions(case: CaseFile, struck: int) -> str:
    be = "are" if _several(case) else "is"
    parts = [
        "Members of the jury, the burden of proof is on the prosecution from start to finish; "
        "the accused does not have to prove anything.",
        "You may convict only if the evidence makes you sure of guilt, beyond reasonable doubt.",
        f"You must decide whether the prosecution has proved that {defendant_words(case)} {be} guilty of "
        f"{charges_phrase(case.charges)}.",
        "Decide the case on the evidence you heard from the witness box, and on nothing else.",
    ]
    if _several(case):
        parts.append("Consider the evidence against each of the accused separately.")
    if struck:
        them = agree(struck, "it", "them")
        parts.append(
            f"{counted(struck, 'answer')} {agree(struck, 'was', 'were')} struck out: put {them} out of your minds."
        )
    return " ".join(parts)
