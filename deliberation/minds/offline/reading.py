"""The offline reading of an argument: what in the case it is about, which way it pushes, how hard.

Any speech is read the same way, whoever made it: a person's free text, a crafted strategy
argument, an AI juror's speech, an MCP agent's ``make_argument``. The rules (READING.md beside
this file has them with examples):

1. **What it is about.** The case file is cut into *facets*: each evidence item, each contest
   reason, each witness's account and each of a witness's credibility issues. Every sentence of the
   text is matched against every facet by the words they share (stemmed, everyday synonyms joined,
   weighted by how rare the word is in this case: "thumbprint" says more than "night"). Facets the
   case's retriever also returned for the text (``passages``: BM25, or MiniLM when installed) count
   a little more. A sentence that shares nothing with the case touches nothing.
2. **Which way it pushes.** A facet taken at its word points one way: evidence the prosecution
   rates higher points to guilt, a contest reason or a credibility issue points against the side
   its item or witness helps. The sentence's own words then say how it treats what it is about:
   *relative* words say the item holds up ("matches", "solid") or fails ("blurry", "could be
   anyone"); *absolute* words say where the verdict goes ("places him there", "rules him out").
   A negator a few words before turns a word round: "the DNA does not rule him out" pushes
   towards guilt, "the DNA does not place him there" towards doubt.
3. **How hard.** Each touched facet pushes by how much the sentence is about it x its strength in
   the file (the item's ratings, a witness's issues; an objection or a credibility issue is blunted
   by the other side's strongest uncontested evidence, which it leaves standing); the pushes add up
   softly (1 - the product of what each leaves unmoved, so ten facets do not make ten times the
   case), scaled by how specific the text is (rare words and numbers of the case it repeats) and
   discounted for each time the room already
   heard the same facet argued the same way in this deliberation.
4. **Who listens.** ``Reading.impact_for(archetype)`` weighs the facets for one listener: evidence
   minds (rationalist, detail-obsessed, pragmatist) weigh physical and documentary evidence, human
   minds (empath, storyteller, moralist) weigh people's accounts, the cynic weighs motives.
5. Text that touches nothing in the case moves a listener at most ``LOOSE_FORCE``, whatever words
   it uses.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from deliberation.engine.types import CaseFile, Passage
from deliberation.minds.offline import lexicon as lex
from deliberation.minds.offline import stance as reading_stance
from deliberation.minds.offline import vectors as reading_vectors
from deliberation.minds.offline.facets import CaseIndex, Facet, case_index
from deliberation.minds.offline.text import has_verb, split_sentences

RELEVANCE_MASS = 5.0  # shared rare-word weight at which a sentence is ~63% about a facet
MIN_RELEVANCE = 0.5  # below this (one shared word is not enough) a facet is not what it is about
FOCUS = 0.6  # ... nor one the sentence is far less about than its main subject
MAIN = 0.9  # the facets within this share of the best match set the sentence's direction
RETRIEVED_BOOST = 0.25  # a facet the retriever also found for the text pushes this much harder
ABSOLUTE_WEIGHT = 1.5  # "places him there" outweighs the item's own lean
REPEAT_DISCOUNT = 0.6  # each earlier time the room heard this facet argued this way
SPECIFIC_FLOOR = 0.6  # a vague mention keeps this share of its force
DETAIL_IDF = 1.6  # a word at least this rare in the case is a detail
CONCEDED = 0.3  # what a clause answered by "but" / "however" still weighs
FOLLOW_SHARE = 0.8  # a sentence about what the last one said ("That's worthless.") weighs this much
LOOSE_FORCE = 0.04  # what stance words alone, about nothing in the case, can do
# A verdict declared about the accused with nothing in the case named ("Dorsey did it.", "shes innocent",
# "it wasnt him"): a juror saying where they stand moves the room as a weak argument does, once; each
# time the room already heard the same declaration, less (as a facet argued again).
DECLARED_FORCE = 0.1
DECLARED = "declared"  # the key a declaration is counted under in what the room has heard
READING_SCALE = 1.0  # reading push -> speech strength (-1..1)
# A sentence's vector against a facet's (cosine), mapped to relevance: at LOW it is about nothing in
# particular (every sentence of a case's own words sits this close), at HIGH it is plainly about it.
SEMANTIC_RANGE = {"static": (0.66, 0.86), "minilm": (0.25, 0.65)}
LIST_WEIGHT = 0.2  # a string of names with no verb and no stance word ("glovebox, hoodie, bandana")
# How a sentence's direction weighs its signals (``Signals``): the stance model's own verdict stance,
# its "affirms or undermines" x the item's side, the side of the case file's words it is closest to,
# the word rules, and the listed verdict words. Chosen on the older set and the development part, near
# what ``bench/reading_tune.py`` fits there.
STANCE_WEIGHTS = (0.5, 0.3, 1.5, 1.0, 1.0)
ANCHOR_SHARPNESS = 0.25  # how far (in SEMANTIC_RANGE) a facet must lead to count e times more in the anchor
OWN_CLIP = 3.0  # the stance model's own logit counts up to this (95%): beyond it, it is no surer of the case
DECISIVE = 0.3  # a sentence this far from neutral says which way it goes; a weaker one follows the text
FOLLOW_STANCE = 0.3  # a sentence about nothing this far from neutral speaks of what was just said

BUT_SPLIT = re.compile(r"[,;]\s+(?=(?:but|yet|however|even so|still)\b)", re.I)
CONTRAST = re.compile(r"^\W*(but|yet|however|still|even so|nevertheless)\b", re.I)
CONCESSION = re.compile(  # "Whatever is said of the print, ...": the opener concedes, the rest answers it
    r"^\W*(?:whatever|even if|even though|although|though|regardless of|no matter|whether or not|granted)\b"
    r"[^,;]*[,;]\s*",
    re.I,
)

# "If it wasn't her, ...": a supposition up to its comma ("what if ..." asks, "even if ..." concedes).
HYPOTHESIS = re.compile(r"(?<!\bwhat )(?<!\beven )\b(?:if|suppose|supposing)\b[^,;.?!]*[,;]", re.I)

EVIDENCE_MINDS = frozenset({"rationalist", "detail_obsessed", "pragmatist"})
HUMAN_MINDS = frozenset({"empath", "storyteller", "moralist"})
LEANING_WEIGHT = 1.3
OTHER_WEIGHT = 0.8
MOTIVE_WEIGHT = 1.6


@dataclass(frozen=True)
class Touch:
    facet: Facet
    relevance: float  # 0..1, how much the text is about it
    push: float  # signed, towards guilt when positive, before the listener's weighing


@dataclass(frozen=True)
class Reading:
    touches: tuple[Touch, ...]
    specificity: float  # 0..1
    loose: float  # the stance of what touched nothing, -1..1
    declared: float = 0.0  # a verdict declared about nothing in the case, -1..1 (+ towards guilt)

    @property
    def push(self) -> float:
        return self.impact_for("")

    @property
    def named(self) -> str:
        """What moved the listener most, as a thought names it ("" when nothing in the case)."""
        if not self.touches:
            return ""
        return max(self.touches, key=lambda t: (t.relevance, abs(t.push))).facet.name

    @property
    def keys(self) -> frozenset[tuple[str, int]]:
        keys = {(t.facet.key, 1 if t.push > 0 else -1) for t in self.touches if t.push}
        return frozenset(keys | ({self._declared_key} if self.declared else set()))

    @property
    def _declared_key(self) -> tuple[str, int]:
        return (DECLARED, 1 if self.declared > 0 else -1)

    def impact_for(self, archetype: str, heard: dict[tuple[str, int], int] | None = None) -> float:
        """-1..1 towards guilt for one listener; ``heard`` counts the facets the room already heard."""
        towards_guilt = towards_doubt = 1.0  # what is left unmoved, each way (facets add up softly)
        for touch in self.touches:
            weight = archetype_weight(touch.facet, archetype)
            sign = 1 if touch.push > 0 else -1
            repeats = (heard or {}).get((touch.facet.key, sign), 0)
            value = min(1.0, abs(touch.push) * weight / (1 + REPEAT_DISCOUNT * repeats))
            if sign > 0:
                towards_guilt *= 1 - value
            else:
                towards_doubt *= 1 - value
        total = towards_doubt - towards_guilt
        total *= SPECIFIC_FLOOR + (1 - SPECIFIC_FLOOR) * self.specificity
        total += LOOSE_FORCE * self.loose
        if self.declared:
            repeats = (heard or {}).get(self._declared_key, 0)
            total += DECLARED_FORCE * self.declared / (1 + REPEAT_DISCOUNT * repeats)
        return max(-1.0, min(1.0, READING_SCALE * total))


def archetype_weight(facet: Facet, archetype: str) -> float:
    if archetype == "cynic":
        return MOTIVE_WEIGHT if facet.motive else 1.0
    if archetype in EVIDENCE_MINDS:
        return OTHER_WEIGHT if facet.human else LEANING_WEIGHT
    if archetype in HUMAN_MINDS:
        return LEANING_WEIGHT if facet.human else OTHER_WEIGHT
    return 1.0


def _relevance(index: CaseIndex, words: set[str], facet: Facet) -> tuple[float, set[str]]:
    shared = words & facet.words
    mass = sum(index.idf.get(word, 0.0) for word in shared)
    return 1 - math.exp(-mass / RELEVANCE_MASS), shared


def _direction(facet: Facet, absolute: int, relative: int) -> float:
    """-1..1: which way a sentence about ``facet`` pushes, from how it treats it.

    Relative words always speak of the item: on an attack (contest reason, credibility issue) the
    attack is restated unless the sentence says the item holds up; on the item itself it stands
    unless the sentence says it fails. A side's argument echoed is that side's argument (its
    "only shows" or "proves" are its own words); only verdict words turn it round."""
    if facet.kind == "claim":  # a side's argument restated: its own words are the stance words
        turned = False
    else:
        turned = relative > 0 if facet.attack else relative < 0
    lean = -facet.lean if turned else facet.lean
    value = math.copysign(min(1.0, abs(lean)), lean) if lean else 0.0
    return max(-1.0, min(1.0, value + ABSOLUTE_WEIGHT * absolute))


def read(case: CaseFile, text: str, passages: tuple[Passage, ...] = ()) -> Reading:
    """The reading of ``text`` against ``case`` (cached: the same text is read once)."""
    retrieved = frozenset(p.item_id for p in passages)
    return _read(case_index(case), text, retrieved)


def _clauses(text: str) -> list[tuple[str, bool]]:
    """Sentences, with a "but" clause split off so that it can answer what came before it, and a
    conceding opener ("Whatever is said of the print, ...", "Even if she was sure, ...") split off the
    sentence's main clause, which answers it. Each clause comes with whether it answers the one before."""
    clauses: list[tuple[str, bool]] = []
    for sentence in split_sentences(text) or [text]:
        for part in BUT_SPLIT.split(sentence):
            conceded = CONCESSION.match(part)
            if conceded and part[conceded.end() :].strip():
                clauses += [(part[: conceded.end()].strip(), False), (part[conceded.end() :].strip(), True)]
            elif part.strip():
                clauses.append((part, bool(CONTRAST.match(part))))
    return clauses


@dataclass
class _Sentence:
    hits: list[tuple[float, Facet, set[str]]]  # (relevance, facet, shared words), one per item
    direction: float  # -1..1
    decisive: bool  # it says which way it goes (a plain citation of a fact does not)
    weight: float = 1.0  # less when the next clause answers it ("..., but ...")


@dataclass(frozen=True)
class Signals:
    """What says which way one sentence goes; ``direction`` weighs them (``STANCE_WEIGHTS``)."""

    own: float  # the stance model's verdict stance of the sentence alone (a logit, + towards guilt)
    turn: float  # the model's "affirms (+) or undermines (-) what it speaks of", x that item's side
    anchor: float  # -1..1: the side of the case file's own words it is closest to (arguments, objections)
    rule: float  # -1..1: the word rules (the items' lean turned by stance words, and verdict words)
    verdict: int  # the listed verdict words ("guilty", "reasonable doubt", "rules him out"), + towards guilt
    directed: float  # 0..1: how likely it argues the verdict at all

    @property
    def direction(self) -> float:
        own, turn, anchor, rule, verdict = STANCE_WEIGHTS
        said = max(-OWN_CLIP, min(OWN_CLIP, self.own))
        value = own * said + turn * self.turn + anchor * self.anchor + rule * self.rule
        value += verdict * max(-2, min(2, self.verdict))
        directed = 1.0 if self.verdict else self.directed  # "I say he is guilty" argues, however short
        return directed * math.tanh(value)

    @staticmethod
    def alone(said: reading_stance.Stance, verdict: int, item: float = 0.0) -> Signals:
        """A sentence about nothing in the case: its own stance, and how it treats ``item``'s side."""
        return Signals(said.own, item * said.turn, 0.0, 0.0, verdict, said.directed)


def _cosines(index: CaseIndex, sentence: str) -> np.ndarray:
    """The sentence's vector against each facet's (cosine)."""
    return index.matrix @ reading_vectors.embed((sentence,), index.kind)[0]


def _semantic(index: CaseIndex, cosines: np.ndarray) -> np.ndarray:
    """How much the sentence is about each facet by meaning (0..1), whatever words it uses."""
    low, high = SEMANTIC_RANGE[index.kind]
    return np.clip((cosines - low) / (high - low), 0.0, 1.0)


def stance_words(index: CaseIndex, sentence: str) -> tuple[int, int]:
    """The lexicon's stance words in a sentence (``lex.stance_of``), read as said of this case: the
    defendant's name is heard as "him" or "her" ("its not Dorsey" is "not him", "that places Hale there"
    is "places him there"), another person the file names said to be the culprit is "someone else"
    ("Merrick did it"), and what a sentence only supposes ("If it wasn't her, why did the boy pick her
    out?") says nothing."""
    sentence = HYPOTHESIS.sub(" ", sentence)
    if index.someone_else is not None:
        sentence = index.someone_else.sub("someone else", sentence)
    if index.as_pronoun is not None:
        pattern, pronoun, possessive = index.as_pronoun
        sentence = pattern.sub(lambda m: possessive if m.group(1) else pronoun, sentence)
    return lex.stance_of(sentence)


def _item_lean(facet: Facet) -> float:
    """The side of the thing a facet speaks of: an objection or a credibility issue speaks of an item or
    a witness of the other side."""
    return -facet.lean if facet.attack else facet.lean


def _sentence(index: CaseIndex, sentence: str, said: reading_stance.Stance) -> tuple[_Sentence | None, Signals | None]:
    """What one sentence is about and which way it goes; None when it is about nothing in the case."""
    about = set(lex.content_words(sentence))
    absolute, relative = stance_words(index, sentence)
    cosines = _cosines(index, sentence)
    meaning = _semantic(index, cosines)
    scores = np.zeros(len(index.facets))
    found = []
    for position, facet in enumerate(index.facets):
        score, shared = _relevance(index, about, facet)
        score = max(score, float(meaning[position]))
        scores[position] = score
        if score >= MIN_RELEVANCE:
            found.append((score, facet, shared))
    if not found:
        return None, None
    best = max(score for score, _, _ in found)
    per_item: dict[str, tuple[float, Facet, set[str]]] = {}
    for hit in found:
        held = per_item.get(hit[1].item_id)
        if hit[0] >= FOCUS * best and (held is None or hit[0] > held[0]):
            per_item[hit[1].item_id] = hit
    hits = list(per_item.values())
    main = [hit for hit in hits if hit[0] >= MAIN * best]  # what the sentence is mostly about
    mass = sum(score**2 for score, _, _ in main)
    item = sum(score**2 * _item_lean(facet) for score, facet, _ in main) / mass
    # The anchor: the side of the file's words closest in meaning (the cosine, not the shared words, which
    # favour the item's own long description over the objection a sentence restates in other words),
    # counted as far as the sentence is surely about the case at all.
    low, high = SEMANTIC_RANGE[index.kind]
    near = np.where(index.anchors, (cosines - low) / (high - low), -np.inf)
    closeness = np.exp((near - near.max()) / ANCHOR_SHARPNESS) if index.anchors.any() else np.zeros(len(scores))
    anchor = float(closeness @ index.leans / closeness.sum()) if closeness.sum() else 0.0
    anchor *= min(1.0, (best - MIN_RELEVANCE) / (1 - MIN_RELEVANCE))
    rule = _towards(main, absolute, relative)
    signals = Signals(said.own, item * said.turn, anchor, rule, absolute, said.directed)
    direction = signals.direction
    decisive = abs(direction) >= DECISIVE
    weight = 1.0 if absolute or relative or has_verb(sentence) else LIST_WEIGHT  # a list of names claims nothing
    return _Sentence(hits, direction, decisive, weight), signals


def _towards(hits: list[tuple[float, Facet, set[str]]], absolute: int, relative: int) -> float:
    """The word rules' direction: the facets' leans turned by the stance words, the most relevant
    counting most, and the verdict words."""
    weight = sum(score**2 for score, _, _ in hits)
    lean = sum(score**2 * _direction(facet, 0, relative) for score, facet, _ in hits) / weight
    return max(-1.0, min(1.0, lean + ABSOLUTE_WEIGHT * absolute))


def text_signals(case: CaseFile, text: str) -> list[Signals | None]:
    """Each clause's signals (None for one about nothing in the case): what ``STANCE_WEIGHTS`` is fitted on."""
    index = case_index(case)
    lines = [line for line, _ in _clauses(text)]
    said = reading_stance.stances(tuple(lines), index.kind)
    found: list[Signals | None] = []
    for line, stance in zip(lines, said, strict=True):
        _, signals = _sentence(index, line, stance)
        found.append(signals or Signals.alone(stance, stance_words(index, line)[0]))
    return found


@lru_cache(maxsize=4096)
def _read(index: CaseIndex, text: str, retrieved: frozenset[str]) -> Reading:
    sentences: list[_Sentence] = []
    loose = 0.0
    declared = 0.0
    clauses = _clauses(text)
    lines = [line for line, _ in clauses]
    said = reading_stance.stances(tuple(lines), index.kind)
    for (line, answers), stance in zip(clauses, said, strict=True):
        if answers and sentences:  # "..., but ..." or "Whatever ..., ...": what came before is conceded
            sentences[-1] = replace(sentences[-1], weight=CONCEDED)
        read_line, _ = _sentence(index, line, stance)
        if read_line is not None:
            sentences.append(read_line)
            continue
        verdict = stance_words(index, line)[0]
        alone = Signals.alone(stance, verdict).direction
        if sentences and abs(alone) >= FOLLOW_STANCE:  # "That identification is worthless.": about what was just said
            previous = sentences[-1]
            hits: list[tuple[float, Facet, set[str]]] = [
                (score * FOLLOW_SHARE, facet, set()) for score, facet, _ in previous.hits
            ]
            mass = sum(score**2 for score, _, _ in hits)
            item = sum(score**2 * _item_lean(facet) for score, facet, _ in hits) / mass
            follow = Signals.alone(stance, verdict, item).direction
            sentences.append(_Sentence(hits, follow, True))
        else:
            loose += alone
            # The verdict words, as the sentence's own stance takes them ("dont think they proved it was him").
            if verdict:
                declared += alone
    # A plain citation serves the text's argument: it goes the way the text's decisive sentences go.
    steer = sum(
        sentence.direction * sentence.weight * max(score for score, _, _ in sentence.hits)
        for sentence in sentences
        if sentence.decisive
    )
    pushes: dict[str, float] = {}
    relevance: dict[str, float] = {}
    facets: dict[str, Facet] = {}
    details: set[str] = set()
    for sentence in sentences:
        direction = (
            sentence.direction if sentence.decisive or not steer else math.copysign(abs(sentence.direction), steer)
        )
        for score, facet, shared in sentence.hits:
            boost = 1 + RETRIEVED_BOOST if facet.item_id in retrieved else 1.0
            push = direction * score * facet.force * boost * sentence.weight
            pushes[facet.key] = max(-facet.force, min(facet.force, pushes.get(facet.key, 0.0) + push))
            relevance[facet.key] = max(relevance.get(facet.key, 0.0), score)
            facets[facet.key] = facet
            details |= {w for w in shared if w.isdigit() or index.idf.get(w, 0.0) >= DETAIL_IDF}
    touches = tuple(Touch(facets[key], relevance[key], push) for key, push in pushes.items() if push)
    specificity = min(1.0, len(details) / 3)
    return Reading(
        touches=touches,
        specificity=specificity,
        loose=max(-1.0, min(1.0, loose)),
        declared=max(-1.0, min(1.0, declared)),
    )


def heard_counts(
    readings: Iterable[Reading], counts: dict[tuple[str, int], int] | None = None
) -> dict[tuple[str, int], int]:
    """How often the room has heard each facet argued each way (added to ``counts`` when given)."""
    counts = dict(counts or {})
    for reading in readings:
        for key in reading.keys:
            counts[key] = counts.get(key, 0) + 1
    return counts
