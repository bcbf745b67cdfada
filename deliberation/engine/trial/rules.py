"""Objections and rulings, offline: the documented rules counsel object by and the judge rules by.

Counsel object to a question before it is answered, or to an answer (move to strike) after it.
The judge applies the same rules independently of the objector: an objection is sustained when
its ground's rule holds, overruled otherwise, always with a one-line reason (on leading, one that
names the words that lead, or says why the question may stand). A sustained
objection to a question means the witness does not answer; a sustained objection to an answer
strikes it, the jury is told to disregard it, and it never reaches the jurors' memory.

| ground            | against    | the rule (sustained when ...)                                                   |
|-------------------|------------|---------------------------------------------------------------------------------|
| leading           | question   | counsel examining their own witness (chief) suggests the answer: the question   |
|                   |            | opens "Isn't it true / Didn't you / You saw ..." or a statement ends in a tag,  |
|                   |            | as typed (", didn't you?", "wasnt it", "...didn't he", "right?", ", correct?",  |
|                   |            | "isn't that true"). Leading is allowed in cross-examination.                    |
| hearsay           | question   | the question asks what someone told the witness ("what did X tell you", "what  |
|                   | or answer  | did they say"), unless that someone is the accused; an answer is hearsay when   |
|                   |            | it reports what the witness was told or heard from others ("I was told", "I     |
|                   |            | heard that", "from information I received").                                    |
| speculation       | question   | it asks for a guess or another person's mind: "what was he thinking", "why do   |
|                   |            | you think", "do you suppose", "guess", "what would have happened", "imagine".   |
| relevance         | question   | it shares no content word with the case file (summary, charges, defendants,     |
|                   |            | evidence, this witness's record) nor with ``TESTING_WORDS``: how long, how far, |
|                   |            | how light, how sure a witness was bears on every witness's evidence.            |
| argumentative     | question   | it argues with the witness instead of asking: "you're lying", "how can you      |
|                   |            | expect", "do you expect the jury", "admit it", "liar".                          |
| asked and answered| question   | the same side asked this witness the same question and it was answered (not     |
|                   |            | struck): it asks for the same thing (where, when, how far, yes or no...) about  |
|                   |            | the same facts (``ASKED_SIMILARITY`` of the words that carry its meaning, the   |
|                   |            | verbs kept: "see" and "know" ask different things). See ``repeats``.            |

An AI counsel objects whenever a rule holds for the other side's question or witness's answer;
now and then (``counsel.WRONG_OBJECTION_RATE``) it also objects "leading" to a cross-examination
question, which the judge overrules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from deliberation.engine.trial.text import WORD, content_words, normalise, stem, typed

GROUNDS: tuple[str, ...] = ("leading", "hearsay", "speculation", "relevance", "argumentative", "asked_and_answered")
GROUND_WORDS = {
    "leading": "Leading",
    "hearsay": "Hearsay",
    "speculation": "Calls for speculation",
    "relevance": "Relevance",
    "argumentative": "Argumentative",
    "asked_and_answered": "Asked and answered",
}
ASKED_SIMILARITY = 0.7

LEADING = re.compile(  # an opening that tells the witness the answer
    r"^\s*(?:isn't (?:it|that) (?:true|a fact|right|so)|is it not (?:true|a fact)|didn't you|did you not|wasn't it|"
    r"weren't you|you (?:saw|knew|heard|were|did|told|went|had|took)\b)",
    re.IGNORECASE,
)
# A tag that asks the witness only to agree, as typed (``typed`` puts the apostrophes back): "it was
# dark, wasn't it?", "it was dark wasnt it", "...didn't he", "...right?", "..., correct?", "...isn't
# that true". A tag needs a statement before it (``TAGGED_WORDS``): "Why didn't he?" and "Is that
# right?" ask. A bare "right?" after "or", "the", "turn", "his"... is a side, not a tag, and after a
# question ("Is that right?", "Was it correct?") it asks.
TAG = re.compile(
    r"(?:,\s*|\s+)(?:didn't|wasn't|weren't|isn't|aren't|don't|doesn't|won't|haven't|hadn't|hasn't|couldn't|can't"
    r"|wouldn't|shouldn't|mustn't)\s+(?:you|he|she|it|they|there|we|I|that)\s*[?.!]*\s*$"
    r"|,\s*(?:did|is|was|were|do|does|have|had)\s+(?:you|he|she|it|they|there)(?:\s+not)?\s*\?\s*$"
    r"|,\s*(?:right|correct|true|yes|yeah|innit|no)\s*[?.!]*\s*$"
    r"|(?<!\bor)(?<!\bthe)(?<!\bto)(?<!\bon)(?<!\bturn)(?<!\bturned)(?<!\bhis)(?<!\bher)(?<!\bmy)(?<!\byour)"
    r"(?<!\btheir)(?<!\bits)\s+(?P<bare>right|correct)\s*\?+\s*$"
    r"|(?:,\s*|\s+)(?:isn't|is) that (?:true|right|correct|so)\s*[?.!]*\s*$",
    re.IGNORECASE,
)
TAGGED_WORDS = 2
ASKING = re.compile(
    r"^\W*(?:is|was|are|were|did|do|does|can|could|would|will|has|have|had|which|what|who|where|when|why|how)\b", re.I
)
HEARSAY_QUESTION = re.compile(
    r"\bwhat did (?P<who>[\w .'’-]+?) (?:tell|say to|say about|say|write|report)\b|\bwhat were you told\b"
    r"|\bwhat did (?:people|others|the neighbours|anyone) say\b",
    re.IGNORECASE,
)
HEARSAY_ANSWER = re.compile(
    r"\b(?:I was (?:told|informed)|I heard (?:that|it said|say)|from information (?:I|which I) received|"
    r"somebody (?:said|told)|someone (?:said|told)|they told me|it was said|people said|I understood from)\b",
    re.IGNORECASE,
)
SPECULATION = re.compile(
    r"\b(?:what (?:was|were) (?:he|she|they|the prisoner|the defendant|the accused) thinking|why do you think|"
    r"do you suppose|can you guess|guess|what would have happened|imagine|what might|would you say he|"
    r"what do you think (?:he|she|they)|in your opinion,? why|what was (?:his|her|their) intention)\b",
    re.IGNORECASE,
)
ARGUMENTATIVE = re.compile(
    r"\b(?:you(?:'re| are) lying|liar|how can you (?:expect|possibly|seriously)|do you expect (?:the jury|us|anyone)|"
    r"admit it|you're making (?:this|it) up|isn't that (?:ridiculous|absurd)|come now)\b",
    re.IGNORECASE,
)
ACCUSED_WORDS = ("prisoner", "defendant", "accused", "he ", "she ")

REASONS = {
    ("leading", True): "Sustained: counsel may not put the answer into their own witness's mouth.",
    ("leading", False): "Overruled: the question does not suggest its answer, or this is cross-examination.",
    ("hearsay", True): "Sustained: the witness may tell what they saw and heard done, not what others told them.",
    ("hearsay", False): "Overruled: the witness speaks from their own knowledge, or repeats the accused's words.",
    ("speculation", True): "Sustained: the witness may give facts, not guesses about another's mind.",
    ("speculation", False): "Overruled: the question asks for what the witness observed.",
    ("relevance", True): "Sustained: the question has nothing to do with the charge or this witness's evidence.",
    ("relevance", False): "Overruled: the question bears on the evidence in this case.",
    ("argumentative", True): "Sustained: counsel will ask questions and keep the argument for the closing.",
    ("argumentative", False): "Overruled: that is a fair question, firmly put.",
    ("asked_and_answered", True): "Sustained: the witness has already answered that question.",
    ("asked_and_answered", False): "Overruled: that is a new question.",
}


@dataclass(frozen=True)
class Ruling:
    ground: str
    sustained: bool
    reason: str


def _tag(question: str) -> re.Match[str] | None:
    """The tag that ends a statement put to the witness, if any (``TAG``, ``TAGGED_WORDS``)."""
    tag = TAG.search(question)
    if tag is None or len(WORD.findall(question[: tag.start()])) < TAGGED_WORDS:
        return None
    if tag.group("bare") and ASKING.match(question):
        return None
    return tag


def _lead(question: str) -> tuple[str, bool] | None:
    """What makes ``question`` lead, as typed: its opening (``LEADING``) or its tag (``TAG``), and
    whether it is a tag; None when it does not lead."""
    question = typed(question).strip()
    found = LEADING.search(question)
    if found is not None:
        return found.group(0).strip(), False
    tag = _tag(question)
    if tag is not None:
        return tag.group(0).strip().lstrip(",").strip(), True
    return None


def untagged(question: str) -> str:
    """The statement a tag question puts, without its tag ("it was dark, wasn't it?" -> "it was dark")."""
    question = typed(question).strip()
    tag = _tag(question)
    if tag is None:
        return question
    return question[: tag.start()].rstrip(" ,")


def is_leading(question: str) -> bool:
    return _lead(question) is not None


def asks_hearsay(question: str, defendants: Sequence[str] = ()) -> bool:
    match = HEARSAY_QUESTION.search(question)
    if not match:
        return False
    who = (match.groupdict().get("who") or "").lower()
    if any(word.strip() and word.strip() in who.split() for word in ("prisoner", "defendant", "accused")):
        return False  # the accused's own words are admissions, not hearsay
    return not any(part.lower() in who for name in defendants for part in name.split() if len(part) > 2)


def is_hearsay_answer(answer: str) -> bool:
    return bool(HEARSAY_ANSWER.search(answer))


def is_speculation(question: str) -> bool:
    return bool(SPECULATION.search(question))


def is_argumentative(question: str) -> bool:
    return bool(ARGUMENTATIVE.search(question))


# What tests any witness's evidence: the time they had, the light, the distance, their view, memory
# and certainty. A question about these is relevant to every witness, whatever their record says
# ("Isn't it true you only saw him for a moment?").
TESTING_WORDS = content_words(
    """moment moments second seconds minute minutes hour hours long time glimpse glance look looked looking
    view light lit dark darkness lamp moon night daylight far near close distance away yards feet metres
    face faces eyes eyesight glasses spectacles clothes clothing dressed sure certain certainty swear
    mistake mistaken doubt memory forget forgotten drunk drinking sober identify identified recognise
    recognised recognize recognized description"""
)


def is_irrelevant(question: str, vocabulary: AbstractSet[str]) -> bool:
    words = content_words(question)
    return bool(words) and not (words & (vocabulary | TESTING_WORDS))


# What a question asks for: its question word ("where" and "when" ask different things of the same
# event), or a yes or no.
ASKS_FOR = re.compile(
    r"\b(how (?:far|long|many|much|old|often|sure|well)|what time|what|when|where|who|whom|whose|why|which|how)\b", re.I
)
# The words that say nothing of what a question is about; everything else (what was done, seen,
# known, said, names, numbers, places) is its meaning, compared whole.
FUNCTION_WORDS = frozenset(
    """a an the and or but of to in on at by for with from into upon about as is are was were be been being am
    do does did done have has had will would shall should can could may might must i you he she it we they me
    him her us them my your his its our their this that these those there here then so if not no yes please
    tell jury court just now well again once some any""".split()
)


def _meaning(question: str) -> tuple[str, frozenset[str]]:
    """What ``question`` asks for (its question word, or "yes/no") and the words that carry its
    meaning (stemmed; common verbs such as see, know and hear kept, unlike ``content_words``)."""
    found = ASKS_FOR.search(question)
    asks = " ".join(found.group(1).lower().split()) if found else "yes/no"
    words = {stem(w) for w in WORD.findall(question) if w.lower() not in FUNCTION_WORDS}
    words -= {stem(w) for w in asks.split()}
    return asks, frozenset(words)


def repeats(question: str, earlier: str) -> bool:
    """Does ``question`` ask again what ``earlier`` asked: the same thing asked for (where, when, how
    far, yes or no...) about the same facts (``ASKED_SIMILARITY`` of the words that carry each
    question's meaning)? Two questions sharing common words ("Did you see the man?", "Did you know
    the man?"; "Where was the car?", "When was the car there?") are two questions."""
    if normalise(question).rstrip("?. ") == normalise(earlier).rstrip("?. "):
        return True
    asks, words = _meaning(question)
    asks_then, words_then = _meaning(earlier)
    if asks != asks_then or not words or not words_then:
        return False
    return len(words & words_then) / len(words | words_then) >= ASKED_SIMILARITY


def was_asked(question: str, answered: Sequence[str]) -> bool:
    """The same side already asked this witness ``question`` (``repeats``) and it was answered."""
    return any(repeats(question, earlier) for earlier in answered)


def question_grounds(
    question: str,
    *,
    cross: bool,
    vocabulary: AbstractSet[str],
    answered: Sequence[str],
    defendants: Sequence[str] = (),
) -> list[str]:
    """Every ground on which the rules say ``question`` is objectionable, in ``GROUNDS`` order."""
    found: list[str] = []
    if not cross and is_leading(question):
        found.append("leading")
    if asks_hearsay(question, defendants):
        found.append("hearsay")
    if is_speculation(question):
        found.append("speculation")
    if is_irrelevant(question, vocabulary):
        found.append("relevance")
    if is_argumentative(question):
        found.append("argumentative")
    if was_asked(question, answered):
        found.append("asked_and_answered")
    return found


QUOTED_WORDS = 8  # a question up to this many words is quoted whole in a ruling, a longer one by its start


def _quoted(question: str) -> str:
    words = question.split()
    return " ".join(words) if len(words) <= QUOTED_WORDS else " ".join(words[: QUOTED_WORDS - 2]) + "…"


def leading_reason(question: str, *, cross: bool, sustained: bool) -> str:
    """Why the judge ruled as they did on "leading", naming what made ``question`` lead (its opening
    or its tag), or why it may stand: it suggests no answer, or this is cross-examination."""
    found = _lead(question)
    if found is None:
        quoted = _quoted(question)
        if cross:
            return f'Overruled: "{quoted}" does not suggest its answer, and counsel may lead in cross-examination.'
        if _meaning(question)[0] == "yes/no":
            return f'Overruled: "{quoted}" asks the witness yes or no without suggesting which.'
        return f'Overruled: "{quoted}" asks for the witness\'s own account without suggesting the answer.'
    lead, tag = found
    if tag:
        how = f'ends "{lead}", asking the witness only to agree'
    else:
        how = f'opens "{lead[:1].upper()}{lead[1:]}", telling the witness the answer'
    if sustained:
        return f"Sustained: the question {how}; counsel may not put words into their own witness's mouth."
    return f"Overruled: the question {how}, but in cross-examination counsel may lead the other side's witness."


def rule(ground: str, sustained: bool, reason: str = "") -> Ruling:
    return Ruling(ground=ground, sustained=sustained, reason=reason or REASONS[(ground, sustained)])


def rule_on_question(
    ground: str,
    question: str,
    *,
    cross: bool,
    vocabulary: AbstractSet[str],
    answered: Sequence[str],
    defendants: Sequence[str] = (),
) -> Ruling:
    """The judge's ruling on an objection to a question: sustained exactly when the ground's rule holds."""
    grounds = question_grounds(question, cross=cross, vocabulary=vocabulary, answered=answered, defendants=defendants)
    sustained = ground in grounds
    if ground == "leading":
        return rule(ground, sustained, leading_reason(question, cross=cross, sustained=sustained))
    return rule(ground, sustained)


def rule_on_answer(ground: str, answer: str) -> Ruling:
    """A motion to strike an answer: only hearsay can strike what a witness said from the record."""
    return rule(ground, ground == "hearsay" and is_hearsay_answer(answer))
