"""Offline counsel: questions, speeches and objections drawn from the case file alone.

Examination in chief: counsel walk their witness through its record, a line at a time, with the
question that line answers (``trial_asking``: who did it, when, where, how far, what was found, how
sure the witness is), each naming the act or the thing the line tells. Where the Old Bailey record
printed counsel's own question (``Q.``) and it names something of the record, they ask it verbatim.

Cross-examination tests the weakness the record shows, in this order: a contradiction with another
witness on the same point (a time, a man or a woman); what the witness concedes in its own cross
part, put back to it ("You did not examine the electrical circuits, did you?"); the case file's
notes on it (an Old Bailey label such as "Did not see clearly" sends counsel to the line that shows
it: "You say it was candle-light. How much light was there?"); and with nothing of that, how sure
the witness can be of its own main sight. Now and then (``DEFECT_RATE``) counsel asks a defective
question (leading in chief, speculation, hearsay, argumentative in cross) for the other side to
object to.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass

from deliberation.engine.trial import asking
from deliberation.engine.trial import topics as trial_topics
from deliberation.engine.trial.asking import Question
from deliberation.engine.trial.phrases import agree, charges_phrase, counted, join_names
from deliberation.engine.trial.text import RecordLine, content_words, sworn, witness_lines
from deliberation.engine.trial.witness import SHORT_LINE
from deliberation.engine.types import CaseFile, WitnessItem

SIDE_NAMES = {"prosecution": "Counsel for the prosecution", "defense": "Counsel for the defence"}
DEFECT_RATE = 0.12
WRONG_OBJECTION_RATE = 0.08
CHIEF_QUESTIONS = 3
CROSS_QUESTIONS = 2
# A credibility note (the Old Bailey importer's labels, or words of a curator's note) -> the record
# line that shows the weakness, and the question that tests it.
WEAKNESSES: tuple[tuple[re.Pattern[str], re.Pattern[str], str], ...] = (
    (
        re.compile(r"drink|drunk|liquor", re.I),
        re.compile(r"\b(?:drunk|drink|drinking|liquor|tipsy|fuddled|beer|gin|pints?)\b", re.I),
        "How much had you had to drink?",
    ),
    (
        re.compile(r"see clearly|view|dark|light", re.I),
        trial_topics.TOPICS["light"][1],  # the light or the view, not "a dark spot"
        "How much light was there, and how well could you see?",
    ),
    (
        re.compile(r"uncertain|will not swear|not sure|unsure|confiden|percent", re.I),
        re.compile(
            r"not sure|unsure|cannot swear|can't swear|could not swear|will not swear|I think|I believe|percent", re.I
        ),
        "Will you swear to it?",
    ),
    (
        re.compile(r"related|cousin|close to the accused|friend|known", re.I),
        re.compile(
            r"\b(?:cousin|brother|sister|wife|husband|son|daughter|mother|father|friend|known him|known her)\b", re.I
        ),
        "How close are you to the accused?",
    ),
    (
        re.compile(r"earlier statement|first told|changed", re.I),
        re.compile(
            r"\bfirst (?:told|said)|I may have said|before the magistrate|at the police|deposition|changed", re.I
        ),
        "Which is the truth: what you said then, or what you say now?",
    ),
    (
        re.compile(r"memory|recollect|remember", re.I),
        re.compile(r"recollect|remember|forget|memory", re.I),
        "How much of it do you really remember?",
    ),
    (
        re.compile(r"interest|paid|owed|reward|wages|sentence", re.I),
        re.compile(r"\breward\b|\bpaid\b|\bpaying\b|\bowe[sd]?\b|wages|sentence|quarrel|bad terms", re.I),
        "What do you stand to gain from your evidence?",
    ),
)
SIGHT = re.compile(r"\b(?:saw|seen|observed|noticed|recogni[sz]ed|picked|identified|watched)\b", re.I)
NEGATED = re.compile(r"\b(?:not|n't|never|no)\b", re.I)
SURE_PROBE = "Could you be mistaken?"
# Each defective question still names a fact of the record ({line}: a clause of the witness's own).
DEFECTS_CHIEF = (
    "Isn't it true that {line}, didn't you?",
    "When {line}, what did the neighbours say about it?",
    "When {line}, what do you think he meant by it?",
)
DEFECTS_CROSS = (
    "How can you expect the jury to believe that {line}?",
    "You say {line}. Why do you think the prisoner would do such a thing?",
)
WOMAN = re.compile(r"\b(?:a woman|woman|female|lady)\b", re.I)
MAN = re.compile(r"\b(?:a man|a guy|guy|male|a fellow)\b", re.I)


def side_name(side: str) -> str:
    return SIDE_NAMES.get(side, SIDE_NAMES["prosecution"])


STAND_IN_NAMES = {
    "prosecution": "AI counsel standing in for the prosecution",
    "defense": "AI counsel standing in for the defence",
}


def stand_in_name(side: str) -> str:
    """Who speaks when AI counsel make a person's move for them (her time ran out, or she asked):
    never her own side's name, so nobody reads AI counsel's words as hers."""
    return STAND_IN_NAMES.get(side, STAND_IN_NAMES["prosecution"])


def other(side: str) -> str:
    return "defense" if side == "prosecution" else "prosecution"


def second_person(line: str) -> str:
    text = asking.you(line.strip().rstrip("."))
    return text[:1].lower() + text[1:] if not text[:2].isupper() and not text.startswith("I ") else text


def spread(lines: list[RecordLine], k: int) -> list[RecordLine]:
    """``k`` lines spread evenly through the record (the start, the middle, the end)."""
    if len(lines) <= k:
        return list(lines)
    step = len(lines) / k
    return [lines[int(i * step)] for i in range(k)]


def _printed(line: RecordLine) -> str:
    """The record's own question, when counsel asked it ("(by the prisoner) ..." is not counsel's) and
    it names something the answer is about."""
    if not line.question or line.question.startswith("("):
        return ""
    named = asking.named_words(line.question)
    about = named & asking.named_words(line.text) or re.search(r"\d|\b[A-Z][a-z]{2,}", line.question[1:])
    # asked verbatim when it names a fact itself ("What time was it you left her?" names none)
    return line.question if about and asking.carries_record(line.question, line.question) else ""


def chief_plan(witness: WitnessItem, rng: random.Random, k: int = CHIEF_QUESTIONS) -> list[Question]:
    """Up to ``k`` questions in chief, from lines spread through the witness's own account."""
    record = sworn(witness)
    lines = [line for line in witness_lines(witness) if line.part == "chief"]
    asked: list[Question] = []
    used: set[str] = set()
    seen_questions: set[str] = set()
    # Walk the record from evenly spread starting points; a line that gives no question passes to the next.
    starts = [lines.index(line) for line in spread(lines, k)]
    for start in starts:
        for line in lines[start:]:
            if any(q.line == line.text for q in asked):
                continue
            printed = _printed(line)
            question = Question(printed, "printed", line.text) if printed else asking.chief_question(line, record, used)
            at = lines.index(line)
            if question is None and at > 0 and lines[at - 1].question == line.question:
                question = asking.after_question(lines[at - 1], line, record)
            if question is not None and question.text not in seen_questions:
                asked.append(question)
                used.add(question.kind)
                seen_questions.add(question.text)
                break
    return asked


def chief_questions(witness: WitnessItem, rng: random.Random, k: int = CHIEF_QUESTIONS) -> list[Question]:
    questions = chief_plan(witness, rng, k)
    lines = [line for line in witness_lines(witness) if line.part == "chief"]
    if questions and lines and rng.random() < DEFECT_RATE:
        template = rng.choice(DEFECTS_CHIEF)
        fact = _fact_clause(lines[::-1])
        if fact:
            questions.insert(rng.randrange(len(questions) + 1), Question(template.format(line=fact), "defect", ""))
    return questions


def _fact_clause(lines: list[RecordLine]) -> str:
    """The first clause of these lines that can be put in a question and names a fact of its line,
    in the second person ("you found the watch in his pocket"); "" when none can."""
    for line in lines:
        said = _said_clause(line.text, shows=None)
        if said:
            return said
    return ""


@functools.lru_cache(maxsize=4096)
def _short_clauses(line: str) -> tuple[str, ...]:
    pieces = [asking.restore(c).strip().rstrip(".") for c in asking._clauses(asking.protect(line))]
    fit = [c for c in pieces if 3 <= len(c.split()) <= asking.MAX_CLAUSE_WORDS and "?" not in c]
    return tuple(c[:1].upper() + c[1:] for c in fit if asking._has_subject(c))


def contradictions(witness: WitnessItem, case: CaseFile) -> list[Question]:
    """Where another witness said otherwise on the same point: a different clock time in a clause
    about the same act, or a man where the other saw a woman (and the reverse), clause by clause.
    Only clauses that hold a time or say man or woman are compared (each read once)."""
    mine = [(line, c) for line in witness_lines(witness) for c in _short_clauses(line.text) if _facts(c).marked]
    if not mine:
        return []
    for them in case.witnesses:
        if them.id == witness.id:
            continue
        theirs = [c for li in witness_lines(them) for c in _short_clauses(li.text) if _facts(c).marked]
        for line, own in mine:
            for other in theirs:
                if _contradict(own, other):
                    text = f'{them.name} told the jury: "{other}". You say {second_person(own)}. Which is right?'
                    return [Question(text, "contradiction", line.text)]
    return []


HOURS = re.compile(r"\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve")
ROLES = frozenset({"driver", "person", "robber", "figure"})


@dataclass(frozen=True)
class _Facts:
    named: frozenset[str]
    words: frozenset[str]
    hours: frozenset[str]
    clock: str
    woman: bool
    man: bool

    @property
    def marked(self) -> bool:
        return bool(self.hours) or self.woman or self.man


@functools.lru_cache(maxsize=8192)
def _facts(clause: str) -> _Facts:
    clock = asking.CLOCK.search(clause)
    return _Facts(
        named=frozenset(asking.named_words(clause)),
        words=frozenset(content_words(clause)),
        hours=frozenset(HOURS.findall(clock.group(0).lower())) if clock else frozenset(),
        clock=clock.group(0) if clock else "",
        woman=bool(WOMAN.search(clause)),
        man=bool(MAN.search(clause)),
    )


def _contradict(mine: str, theirs: str) -> bool:
    left, right = _facts(mine), _facts(theirs)
    if (left.woman and right.man and not right.woman) or (left.man and right.woman and not left.woman):
        return bool((left.words | right.words) & ROLES)
    if not (left.hours and right.hours) or left.hours & right.hours:
        return False
    timeless = (left.named & right.named) - content_words(f"{left.clock} {right.clock}")
    return len(timeless) >= 2


def _weak_lines(witness: WitnessItem) -> list[tuple[RecordLine, str, re.Pattern[str]]]:
    """The record lines that show a weakness the case file notes about this witness, with its probe
    and what in the line shows it."""
    lines = witness_lines(witness)
    found: list[tuple[RecordLine, str, re.Pattern[str]]] = []
    for note in witness.credibility_issues:
        for label, shows, probe in WEAKNESSES:
            if not label.search(note):
                continue
            line = next((li for li in lines if shows.search(li.text) and li.part != "record"), None)
            if line is not None and all(line is not f[0] for f in found):
                found.append((line, probe, shows))
            break
    return found


def cross_plan(witness: WitnessItem, case: CaseFile, k: int = CROSS_QUESTIONS) -> list[Question]:
    """The questions that test this witness's evidence, most telling first (see the module's order)."""
    record = sworn(witness)
    questions: list[Question] = contradictions(witness, case)[:1]
    cross_lines = [line for line in witness_lines(witness) if line.part in ("cross", "record")]
    # The witness's own admissions first ("I did not ..."), every other line (a short answer brings the
    # next line with it); a line that only excuses ("That was a typing slip") is not put to it.
    cross_lines = [
        line
        for line in cross_lines
        if not re.match(r"^(?:That|This|It|There)\b|^(?:Re-?examined|Cross-?examined)\b", line.text, re.I)
    ]
    ordered = cross_lines[::2] + cross_lines[1::2]
    chosen: list[RecordLine] = []
    for line in sorted(ordered, key=lambda li: not li.text.startswith("I ")):
        if len(questions) >= k:
            break
        if any(q.line == line.text for q in questions) or _brought_along(line, chosen, cross_lines):
            continue
        chosen.append(line)
        printed = _printed(line)
        if printed:
            questions.append(Question(printed, "printed", line.text))
        elif line.part == "record":  # a curator's note in sentences, about the witness
            if re.match(r"^(?:She|He|Her|His|They|Their)\b", line.text):
                questions.append(Question(f"Isn't it right that {_note_to_you(line.text)}?", "concession", line.text))
        else:
            put = asking.put_to_witness(line.text, record)
            if put:
                questions.append(Question(put, "concession", line.text))
    for line, probe, shows in [] if witness.first_person else _weak_lines(witness):
        if len(questions) >= k + 1:
            break
        if any(q.line == line.text for q in questions):
            continue
        said = _said_clause(line.text, shows=shows, negated=True) or _said_clause(line.text, shows=None)
        if said:
            questions.append(Question(f"You say {said}. {probe}", "probe", line.text))
    if not questions:  # nothing in the record of a cross: how sure the witness can be of its main sight
        chief = [line for line in witness_lines(witness) if line.part == "chief" and SIGHT.search(line.text)]
        for line in chief:
            said = _said_clause(line.text, shows=SIGHT)
            if said:
                questions.append(Question(f"You say {said}. {SURE_PROBE}", "probe", line.text))
                break
    return questions


def _said_clause(line: str, shows: re.Pattern[str] | None, negated: bool = False) -> str:
    """The clause of a line that shows what is put to the witness ("You say it was candle-light"),
    short enough to hear in one breath, whole (with its subject), naming a fact of the line, in the
    second person; "" when no clause is. A denial ("I could not see him") shows a weakness only
    where ``negated`` says so."""
    for piece in (asking._tidy(asking.restore(c)) for c in asking._clauses(asking.protect(line))):
        if shows is not None and (not shows.search(piece) or (NEGATED.search(piece) and not negated)):
            continue
        if not (3 <= len(piece.split()) <= asking.MAX_CLAUSE_WORDS and "?" not in piece):
            continue
        said = second_person(piece)
        if asking.whole_clause(piece) and asking.carries_record(said, line):
            return said
    return ""


def _brought_along(line: RecordLine, chosen: list[RecordLine], lines: list[RecordLine]) -> bool:
    """Whether a line already asked for is short enough that the witness says ``line`` with it
    (``trial_witness.SHORT_LINE``), so it need not be asked again."""
    at = lines.index(line) if line in lines else -1
    return at > 0 and lines[at - 1] in chosen and len(lines[at - 1].text) < SHORT_LINE


def _note_to_you(note: str) -> str:
    """A curator's note about the witness, put to the witness: "She is his cousin" -> "you are his cousin"."""
    text = note.strip().rstrip(".")
    swaps = (
        (r"^(?:She|He) is\b", "you are"),
        (r"^(?:She|He) was\b", "you were"),
        (r"^(?:She|He) has\b", "you have"),
        (r"^(?:She|He) (\w+?)s\b", r"you \1"),
        (r"^(?:She|He) ", "you "),
        (r"^(?:Her|His) ", "your "),
    )
    for pattern, words in swaps:
        if re.match(pattern, text):
            return re.sub(pattern, words, text, count=1)
    return text[:1].lower() + text[1:] if not text[1:2].isupper() else text


def cross_questions(
    witness: WitnessItem, case: CaseFile, rng: random.Random, k: int = CROSS_QUESTIONS
) -> list[Question]:
    questions = cross_plan(witness, case, k)
    if questions and rng.random() < DEFECT_RATE:
        template = rng.choice(DEFECTS_CROSS)
        fact = _fact_clause(witness_lines(witness))
        if fact:
            questions.insert(rng.randrange(len(questions) + 1), Question(template.format(line=fact), "defect", ""))
    return questions


def names_of_record(witness: WitnessItem) -> set[str]:
    return content_words(sworn(witness))


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


INTRODUCTION = re.compile(r"^(?:I am|I'm|I have been|I was the|I've been)\b")


def _telling(quotes: list[tuple[str, str]], k: int) -> list[tuple[str, str]]:
    """The answers worth quoting first: what a witness saw or found before who the witness is."""
    return sorted(quotes, key=lambda q: bool(INTRODUCTION.match(q[1])))[:k]


def closing(
    side: str,
    quotes: list[tuple[str, str]],
    exposed: list[tuple[str, str]],
    unanswered: list[tuple[str, str]] | None = None,
) -> str:
    """A closing from the admitted record only: what helped this side, what cross exposed, and what a
    witness could not answer (``unanswered``: the witness and the question)."""
    if side == "prosecution":
        parts = ["Members of the jury, you have heard the evidence."]
        parts.extend(f'{name} told you: "{text}"' for name, text in _telling(quotes, 3))
        parts.append("On that evidence you can be sure, and the verdict is guilty.")
    else:
        parts = ["Members of the jury, the question is not whether the accused might have done it."]
        parts.extend(f'{name} told you: "{text}"' for name, text in exposed[:3])
        parts.extend(f'Asked "{asked.rstrip("?")}?", {name} could not say.' for name, asked in (unanswered or [])[:1])
        parts.extend(f'And {name} said: "{text}"' for name, text in _telling(quotes, 2))
        parts.append("If you cannot be sure, your verdict must be not guilty.")
    return " ".join(parts)


# What the jury may use, as the jurors use it (``engine.round_work.as_heard``): the witnesses' answers
# and the exhibits; the file's statements of what a witness would say are neither.
DECIDE_ON = (
    "Decide the case only on the evidence: the answers the witnesses gave you from the witness box, "
    "and the exhibits put in evidence."
)


def directions(case: CaseFile, struck: int) -> str:
    be = "are" if _several(case) else "is"
    parts = [
        "Members of the jury, the burden of proof is on the prosecution from start to finish; "
        "the accused does not have to prove anything.",
        "You may convict only if the evidence makes you sure of guilt, beyond reasonable doubt.",
        f"You must decide whether the prosecution has proved that {defendant_words(case)} {be} guilty of "
        f"{charges_phrase(case.charges)}.",
        DECIDE_ON,
    ]
    if _several(case):
        parts.append("Consider the evidence against each of the accused separately.")
    if struck:
        them = agree(struck, "it", "them")
        parts.append(
            f"{counted(struck, 'answer')} {agree(struck, 'was', 'were')} struck out: put {them} out of your minds."
        )
    return " ".join(parts)
