"""A witness on the stand: it answers only with lines of its own record, or says it does not know.

Offline, the answer is the record line (or two) that best answers the question: the line whose
printed question (Old Bailey ``Q.``) matches the question asked, else the line about what is asked
(``trial_topics``: the time, the light, the distance, identity, acquaintance, drink, money,
clothing, the place) that holds at least ``MIN_OVERLAP`` of the question's other content words,
each weighed by how rare it is in this record (one common or incidental shared word is not
enough). Ties go to the part of the trial being held (chief or cross), then to a line not yet
said. Asked again, the witness gives the line already said: "As I said, ...". An open question
about their story ("What did you see that night?", "Tell the jury what happened") is answered with
the next line of their own account in chief (``OPEN``), a line about seeing first when asked what
they saw; their introduction ("I am the night clerk") is not the story. With no such line
the witness says ``DONT_KNOW`` or, for a question about seeing, ``DIDNT_SEE``: it never invents a
fact, a name, a time or a place.

A question is read as typed (``text.typed``: "wat", "hw far", "u", "didnt") and a tag question as
the statement it puts (``rules.untagged``). A question word the record does not use is read as the
record's word of the same root, else at half weight as a plain synonym it uses (``SAME_THING``); a
narrow question ("what colour", "how sure", "was he drunk") is answered only by a line on its topic.

With a model, ``witness_prompt`` gives only the retrieved lines and the rule; ``ungrounded``
checks the model's answer the same way the tests check the offline one.
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import lru_cache

from deliberation.engine.trial import topics as trial_topics
from deliberation.engine.trial.rules import is_hearsay_answer, untagged
from deliberation.engine.trial.text import (
    RecordLine,
    content_words,
    normalise,
    record_lines,
    similarity,
    stem,
    sworn,
    witness_lines,
)
from deliberation.engine.types import WitnessItem

DONT_KNOW = "I couldn't say."
DIDNT_SEE = "I didn't see that."
NO_KNOWLEDGE = (DONT_KNOW, DIDNT_SEE)
SEEING = re.compile(r"\b(?:see|saw|seen|notice|noticed|look|looked|observe|observed)\b", re.I)
MIN_OVERLAP = 0.5  # of the question's weighted words besides its topic
ABSENT_WEIGHT = 0.5  # a question word the record never uses
TOPIC_BONUS = 0.5  # a line about what is asked (the time, the light, the distance...)
SAID_PENALTY = 0.05
# A question word read as the record's word of the same root (``_record_word``): a root of at least
# ROOT_MIN letters, and an ending the crude stem leaves on a short word ("owed", "hired", "lived").
ROOT_MIN, ROOT_ENDINGS = 3, frozenset({"d", "e", "ed", "s", "es", "er", "ers"})
AS_I_SAID = "As I said, "
# Words a student uses for what the record calls otherwise: a question word the record never uses
# is read as the first word of its group that the record does use ("gun" as "pistol", "paid" as
# "fee"). Plain English equivalents, not a case's facts.
SAME_THING = tuple(
    tuple(stem(word) for word in group.split())
    for group in (
        "car vehicle suv sedan van truck",
        "gun pistol revolver weapon firearm",
        "money cash dollars",
        "pay fee wages",
        "job work occupation",
        "headphones earbuds earphones",
        "asleep dozing sleeping sleep",
        "hit strike blows blow punched",
        "wiring wires electrical circuits",
        "check examine inspect test",
        "testify testimony",
        "man guy fellow",
        "woman lady",
        "shop store market",
        "bike bicycle",
        "photo photos picture pictures photograph",
        "police officer detective",
        "home house apartment flat",
        "scared frightened afraid",
        "hurt injury injured",
        "glasses spectacles",
    )
)
SYNONYMS = {word: group for group in SAME_THING for word in group}
# Verbs that carry little of what a question asks ("where did you find the money?" asks where the
# money was): half the weight of the other words.
LIGHT_VERBS = frozenset(stem(word) for word in "find found get got have do".split())
LIGHT = 0.5
# Question words that ask nothing of the record ("what was it like", "isn't it", "shouldn't you");
# "how many times" asks a number.
ASKING_ONLY = frozenset(
    content_words(
        "like isn't wasn't weren't aren't didn't don't doesn't haven't hadn't hasn't couldn't wouldn't shouldn't"
        " mustn't can't won't"
    )
)
EITHER = re.compile(r"\b([A-Za-z]+)\s+or\s+(?:a\s+|an\s+|the\s+)?([A-Za-z]+)\b")  # "a man or a woman"
HOW_MANY_TIMES = re.compile(r"\bhow many times\b", re.I)
# A line that opens with a pronoun ("It braked ...") speaks of what the line before it named: it
# is matched with that line's words too, at this weight.
PRONOUN_LINE = re.compile(r"^(?:It|He|She|They)\b")
CARRIED = 0.5
MONEY = re.compile(r"[$£]\s?\d|\b(?:dollars?|pounds?|cash|shillings?|guineas?)\b", re.I)
COMPOUND_TAIL = 4  # "thumbprint" holds "print": a question word of this length at least, counted at CARRIED
NARROW_BONUS = 0.25  # a line on a narrow topic asked about ("what colour", "what time") over one merely on topic
INTRO_PENALTY = 0.3  # a witness's introduction ("I have been a print examiner ...") answers a question about them
ABOUT_THEM = re.compile(r"\b(?:you|your|yours|yourself)\b", re.I)
SEEING_BONUS = 0.1  # asked what they could see, a line about seeing
SEEN_LINE = re.compile(r"\b(?:saw|seen|see|watched|noticed|spotted|looked)\b", re.I)
OTHERS_WORDS = re.compile(r"[^.?!]*\btold the jury: \"[^\"]*\"\.?")
NEXT = re.compile(  # "What happened after ...?", "And after ..., what happened?": the next line of the story
    r"^\s*(?:what happened (?:after|next,? after|then,? after)\b|(?:and )?after .+, what happened\b)", re.I
)
# An open question about the witness's story: what they saw, heard or did, what happened. What
# follows it ("that night", "next") asks nothing more; anything else ("...at the crosswalk") is a
# question about that, and goes to the scoring.
OPEN = re.compile(
    r"^\W*(?:(?:and|so|now|okay|ok|well|please|just|can you|could you|would you|will you)\W+)*"
    r"(?:(?:tell|describe|explain)\W+(?:(?:to\W+)?(?:the jury|the court|us|me|them)\W+)?"
    r"(?:in your own words\W+)?(?:about\W+)?)?"
    r"(?:what\W+(?:did\W+you\W+|you\W+)(?:see|saw|notice|noticed|observe|observed|witness|witnessed|hear|heard|do|did)"
    r"|what\W+(?:happened|went on)|what\W+(?:do|did)\W+you\W+remember)\b(?P<rest>.*)$",
    re.I,
)
OPEN_FILLER = frozenset(
    content_words("night day evening morning afternoon time moment next then first there own words all that")
)
SEEING_LINE = re.compile(r"\b(?:saw|seen|watched|noticed|spotted)\b", re.I)
INTRO = re.compile(r"^(?:I am|I'm|I have been|I've been|I was (?:the|a|an)|I live|I work|My name)\b", re.I)
TITLES = frozenset({"Mr", "Mrs", "Miss", "Dr", "St", "Sir", "Captain", "Officer", "Detective"})
PRINTED_QUESTION_MATCH = 0.6
SHORT_LINE = 60  # a best line shorter than this brings the next line of the same part with it
# Facts a witness may not invent: numbers and times, and capitalised words (names and places).
FACT = re.compile(r"\b\d[\d:.,]*\b|\b[A-Z][a-z]{2,}\b")
NOT_FACTS = frozenset({"I", "The", "Yes", "No", "Mr", "Mrs", "Sir", "God", "Cross", "He", "She", "They", "It"})

WITNESS_RULE = (
    "You are {name}, a witness ({role}) on oath. Answer the question in the first person from the passages "
    'of your own testimony below and nothing else. If they do not answer it, say only "I couldn\'t say" or '
    '"I didn\'t see that". Never add a name, a time, a place or a fact that the passages do not contain.'
)


def is_non_answer(text: str) -> bool:
    """ "I couldn't say." / "I didn't see that.": the witness has no line for it. Not an answer from
    the record, so never counted as a grounded one."""
    return normalise(text).rstrip(".! ") in {normalise(said).rstrip(".") for said in NO_KNOWLEDGE}


@dataclass(frozen=True)
class Answer:
    text: str
    lines: tuple[str, ...]  # the record lines used, verbatim (empty for "I couldn't say")
    part: str = ""  # chief | cross | record

    @property
    def knows(self) -> bool:
        return bool(self.lines)


@lru_cache(maxsize=256)
def _record(
    testimony: str, issues: tuple[str, ...]
) -> tuple[tuple[RecordLine, ...], tuple[frozenset[str], ...], tuple[frozenset[str], ...]]:
    """A witness's record lines, the content words of each (with "money" for a line that names a
    sum), and the words each line carries from the line before when it opens with a pronoun ("It
    braked ..." after "An SUV passed me ..."): read once per record, not per question."""
    lines = tuple(record_lines(testimony, issues))
    words = tuple(
        frozenset(content_words(line.text) | ({"money"} if MONEY.search(line.text) else set())) for line in lines
    )
    carried = tuple(
        words[i - 1] - words[i]
        if i and PRONOUN_LINE.match(line.text) and lines[i - 1].part == line.part
        else frozenset()
        for i, line in enumerate(lines)
    )
    return lines, words, carried


def _weights(words: set[str], line_words: tuple[frozenset[str], ...]) -> dict[str, float]:
    """A question word weighs less the more lines of this record it occurs in ("prisoner", "coach"):
    it tells less about which line is meant. A word the record never uses weighs ``ABSENT_WEIGHT``;
    a light verb ("find", "get") half of what it would."""
    counts = {word: sum(1 for found in line_words if word in found) for word in words}
    return {
        word: (1.0 / count if count else ABSENT_WEIGHT) * (LIGHT if word in LIGHT_VERBS else 1.0)
        for word, count in counts.items()
    }


def _share(
    words: AbstractSet[str], found: AbstractSet[str], weights: dict[str, float], loose: AbstractSet[str] = frozenset()
) -> float:
    """The weighted share of ``words`` in ``found``; a word read through a synonym (``loose``) counts
    for ``CARRIED`` of its weight: "shop" found as "market" is weaker evidence than "market"."""
    total = sum(weights[word] for word in words)
    held = sum(weights[word] * (CARRIED if word in loose else 1.0) for word in words & found)
    return held / total if total else 0.0


def _compounds(words: AbstractSet[str], line_words: frozenset[str]) -> frozenset[str]:
    """The question words a line holds inside a compound ("print" in "thumbprint")."""
    return frozenset(
        word
        for word in words
        if len(word) >= COMPOUND_TAIL
        and word not in line_words
        and any(found.endswith(word) and len(found) - len(word) >= 3 for found in line_words)
    )


def _score(
    question: str,
    asked: Asked,
    line: RecordLine,
    line_words: frozenset[str],
    carried: frozenset[str],
    part: str,
    said: set[str],
) -> float:
    if line.question and similarity(question, line.question) >= PRINTED_QUESTION_MATCH:
        return 10.0  # the record's own question: its A. line answers it directly
    spoken = trial_topics.spoken(line.text, asked.topics)
    on_topic = bool(spoken)
    narrow = asked.topics & trial_topics.NARROW
    if narrow and not spoken & narrow:
        return 0.0  # "what colour ...?" is not answered by a line with no colour in it
    found = line_words
    carried = carried | _compounds(asked.words, line_words)
    # What the question asks besides its topic must be in the line: at least MIN_OVERLAP of it by weight
    # (a word the line carries from the line before, or holds in a compound, counts for ``CARRIED``).
    core = asked.core - {b for a, b in asked.either if a in found and b not in found}
    core -= {a for a, b in asked.either if b in found and a not in found}
    if core:
        matched = _share(core, found, asked.weights, asked.loose) + CARRIED * _share(
            core, carried - found, asked.weights
        )
    else:
        matched = float(on_topic)
    if narrow and core <= asked.vocabulary:
        # On the narrow topic asked, about things the witness speaks of: "how sure were you when you
        # picked the photo?" is answered by how sure they were, wherever the record says it.
        matched = max(matched, MIN_OVERLAP)
    if narrow and core - asked.vocabulary and matched <= MIN_OVERLAP:
        return 0.0  # "what colour was the roof rack?" of a record with no roof rack in it
    if matched < MIN_OVERLAP or not (on_topic or asked.core & (found | carried)):
        return 0.0
    shared = asked.words & found
    score = matched + TOPIC_BONUS * on_topic + 0.2 * _share(asked.words, found, asked.weights)
    score += NARROW_BONUS * len(spoken & (trial_topics.NARROW | {"clock"}))
    score += 0.1 * len(shared) / max(len(line_words), 1)
    if SEEING.search(question) and SEEN_LINE.search(line.text):
        score += SEEING_BONUS
    if INTRO.match(line.text) and not ABOUT_THEM.search(question):
        score -= INTRO_PENALTY  # "where did the print come from?" asks about the print, not the examiner
    if line.part == part or (part == "cross" and line.part == "record"):
        score += 0.1
    if normalise(line.text) in said:
        score -= SAID_PENALTY  # a new line as good as one already said is preferred, a better one is not
    return score


@dataclass(frozen=True)
class Asked:
    """A question as the selection reads it: its content words, their weights, its topics, the
    words it asks about besides its topics (``core``), and every word of the record."""

    words: set[str]
    weights: dict[str, float]
    topics: set[str]
    core: set[str]
    vocabulary: frozenset[str] = frozenset()
    loose: frozenset[str] = frozenset()  # the record's words the question was read as through a synonym
    either: tuple[tuple[str, str], ...] = ()  # "a man or a woman": a line with one need not have the other


def _record_word(word: str, vocabulary: AbstractSet[str]) -> str:
    """A question word the record does not use as it stands, read as the record's word of the same
    root that the crude ``stem`` left apart ("owe" and "owed", "hire" and "hired", "lived" and
    "live", "driv(ing)" and "driver"): one is the other with one of ``ROOT_ENDINGS`` more, on a root
    of at least ``ROOT_MIN`` letters; else as the first word of its ``SAME_THING`` group that the
    record uses ("gun" as "pistol"). The word itself when the record uses it or has no such word."""
    if word in vocabulary or len(word) < ROOT_MIN:
        return word
    near = sorted(
        found
        for found in vocabulary
        if len(found) >= ROOT_MIN
        and (found.startswith(word) or word.startswith(found))
        and (found[len(word) :] or word[len(found) :]) in ROOT_ENDINGS
    )
    if near:
        return near[0]
    return _synonym(word, vocabulary)


def _synonym(word: str, vocabulary: AbstractSet[str]) -> str:
    return next((same for same in SYNONYMS.get(word, ()) if same in vocabulary), word)


def _asked(question: str, line_words: tuple[frozenset[str], ...]) -> Asked:
    vocabulary = frozenset().union(*line_words)
    typed = content_words(question) - ASKING_ONLY
    words = {_record_word(word, vocabulary) for word in typed}
    loose = frozenset(_synonym(word, vocabulary) for word in typed if word not in vocabulary) - typed
    if HOW_MANY_TIMES.search(question):
        words.discard("time")  # "how many times was he hit?" asks a number, not the time
    topics = trial_topics.asked(question)
    core = words - trial_topics.TOPIC_WORDS if topics else words
    if topics and topics <= trial_topics.PERSON_TOPICS:
        core -= trial_topics.PERSON_WORDS
    either = tuple(
        (_record_word(a, vocabulary), _record_word(b, vocabulary))
        for first, second in EITHER.findall(question)
        for a in content_words(first)
        for b in content_words(second)
    )
    return Asked(words, _weights(words, line_words), topics, core, vocabulary, loose, either)


def answer(witness: WitnessItem, question: str, *, part: str = "chief", said: set[str] | None = None) -> Answer:
    """The witness's answer from its own record (see the module's rules)."""
    said = said if said is not None else set()
    question = OTHERS_WORDS.sub(" ", question)  # what another witness said is put, not asked
    question = untagged(question)  # "r u sure it was him tho", "it was dark, wasnt it?"
    lines, line_words, carried = _record(
        sworn(witness), () if witness.first_person else tuple(witness.credibility_issues)
    )
    story = _story(lines, question, said) if _is_open(question) else None
    if story is not None:
        return _said_from(witness, lines, story, said)
    asked = _asked(question, line_words)
    scored = [
        (_score(question, asked, line, words, carry, part, said), -index)
        for index, (line, words, carry) in enumerate(zip(lines, line_words, carried, strict=True))
    ]
    best, index = max(scored, default=(0.0, 0))
    index = -index  # ties go to the line the record gives first
    if best <= 0.0:
        return Answer(DIDNT_SEE if SEEING.search(question) else DONT_KNOW, ())
    if NEXT.match(question):  # "What happened after ...?": the line after the one it names, in the same part
        following = lines[index + 1] if index + 1 < len(lines) else None
        if following is None or following.part != lines[index].part or is_hearsay_answer(following.text):
            return Answer(DONT_KNOW, ())
        index += 1
    return _said_from(witness, lines, index, said)


def _is_open(question: str) -> bool:
    match = OPEN.match(question)
    return match is not None and not content_words(match.group("rest")) - OPEN_FILLER


def _story(lines: tuple[RecordLine, ...], question: str, said: set[str]) -> int | None:
    """The line an open question gets: the first of the witness's account in chief not yet said (one
    about seeing first, asked what they saw), or the first again when all of it has been said."""
    told = [i for i, line in enumerate(lines) if line.part == "chief" and not is_hearsay_answer(line.text)]
    story = [i for i in told if not INTRO.match(lines[i].text)] or told
    if not story:
        return None
    fresh = [i for i in story if normalise(lines[i].text) not in said]
    if SEEING.search(question):
        seen = [i for i in fresh if SEEING_LINE.search(lines[i].text)]
        fresh = seen or fresh
    return (fresh or story)[0]


def _said_from(witness: WitnessItem, lines: tuple[RecordLine, ...], index: int, said: set[str]) -> Answer:
    """The answer that starts at ``lines[index]``: "As I said, ..." if it was said, else the line
    (with the next of its part when it is short)."""
    chosen = [lines[index]]
    if normalise(chosen[0].text) in said:  # asked again: the same line, as said before
        again = _sentence(chosen[0].text, lower=True, record=record_text(witness))
        return Answer(f"{AS_I_SAID}{again}", (chosen[0].text,), chosen[0].part)
    following = lines[index + 1] if index + 1 < len(lines) else None
    if (
        len(chosen[0].text) < SHORT_LINE
        and following is not None
        and following.part == chosen[0].part
        and normalise(following.text) not in said
        and not is_hearsay_answer(following.text)  # a line the question did not ask for brings no hearsay in
    ):
        chosen.append(following)
    texts = tuple(line.text for line in chosen)
    return Answer(" ".join(_sentence(text) for text in texts), texts, chosen[0].part)


def _keeps_capital(word: str, record: str) -> bool:
    """After "As I said, " a line's first word keeps its capital when it is "I", a title or a name
    (the record also writes it capitalised inside a sentence)."""
    if word in ("I", "I'm", "I've", "I'd") or word.rstrip(".") in TITLES:
        return True
    return word[:1].isupper() and re.search(rf"[a-z,;]\s+{re.escape(word)}\b", record) is not None


def _sentence(text: str, *, lower: bool = False, record: str = "") -> str:
    text = text.strip()
    first = text[:1]
    if lower and not _keeps_capital(text.split(" ", 1)[0], record):
        first = first.lower()
    elif not lower:
        first = first.upper()
    text = first + text[1:]
    return text if text[-1:] in ".!?\"'" else text + "."


def record_text(witness: WitnessItem) -> str:
    """Everything the witness may say: its own words, or its printed testimony and the notes on it."""
    if witness.first_person:
        return witness.first_person
    return " ".join([witness.testimony, *witness.credibility_issues])


def ungrounded(text: str, witness: WitnessItem) -> list[str]:
    """The facts (numbers, times, names, places) in ``text`` that the witness's record does not contain."""
    if text in NO_KNOWLEDGE:
        return []
    record = normalise(record_text(witness))
    missing: list[str] = []
    for match in FACT.finditer(text):
        fact = match.group(0).strip(".,")
        if fact in NOT_FACTS or not fact:
            continue
        if fact.lower() not in record:
            missing.append(fact)
    return missing


def is_grounded(text: str, lines: tuple[str, ...], witness: WitnessItem) -> bool:
    """An answer is grounded when every line it quotes is in the record verbatim and it adds no fact."""
    record = normalise(record_text(witness))
    return all(normalise(line) in record for line in lines) and not ungrounded(text, witness)


def witness_prompt(witness: WitnessItem, question: str, passages: list[str]) -> list[dict[str, str]]:
    """The model's prompt: the rule and the retrieved passages of this witness's record, nothing else."""
    rule = WITNESS_RULE.format(name=witness.name, role=witness.role)
    body = "\n".join(f"- {p}" for p in passages) or "- (nothing in your testimony bears on this)"
    return [
        {"role": "system", "content": rule},
        {"role": "user", "content": f"Your testimony:\n{body}\n\nQuestion: {question}"},
    ]


def passages_for(witness: WitnessItem, question: str, k: int = 3) -> list[str]:
    """The ``k`` record lines closest to the question (retrieval over this witness's record only)."""
    lines = witness_lines(witness)
    words = content_words(question)
    ranked = sorted(lines, key=lambda line: -len(words & content_words(line.text)))
    return [line.text for line in ranked[:k] if words & content_words(line.text)]
