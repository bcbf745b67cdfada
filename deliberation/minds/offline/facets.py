"""The case file as the reading sees it: its facets (each piece of evidence, witness, contested
point, credibility issue and each side's claims, with the words that name it and the way it leans)
and an index of their words and vectors, built once per case."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from deliberation.engine.types import CaseFile
from deliberation.minds.offline import lexicon as lex
from deliberation.minds.offline import vectors as reading_vectors
from deliberation.minds.offline.text import fit

CLAIM_FORCE = 0.3  # echoing one side's argument in the case file
STANDING_WEIGHT = 0.6  # how much the other side's uncontested evidence blunts an objection


ANCHOR_KINDS = frozenset({"claim", "contest", "issue", "evidence", "witness"})  # the file's words that take a side


@dataclass(frozen=True)
class Facet:
    """One thing in the case file an argument can be about."""

    item_id: str
    kind: str  # evidence | contest | witness | issue | claim (a side's argument in the file)
    name: str  # how a listener names it ("the bait bills in the glovebox", "Tasha Hale")
    lean: float  # -1..1: which way it points taken at its word (+ towards guilt)
    force: float  # 0..1: how much it can move a listener
    human: bool  # a person's account (testimony, identification)
    motive: bool  # a credibility issue that speaks of a motive
    words: frozenset[str]
    text: str = ""  # the file's own words for it, for the vectors (``reading_vectors``)

    @property
    def attack(self) -> bool:
        return self.kind in {"contest", "issue"}

    @property
    def key(self) -> str:
        return f"{self.item_id}:{self.kind}:{self.name}" if self.kind == "issue" else f"{self.item_id}:{self.kind}"


class CaseIndex:
    """A case's facets, how rare each word is in it, and each facet's vector; built once per case file."""

    def __init__(self, case: CaseFile, kind: str = "static") -> None:
        self.kind = kind
        items = list(_facets(case))
        self.facets = tuple(items + list(_claims(case, [f for f in items if f.kind in {"evidence", "witness"}])))
        documents = [facet.words for facet in self.facets] + [frozenset(lex.content_words(case.summary))]
        count = len(documents)
        frequency: dict[str, int] = {}
        for words in documents:
            for word in words:
                frequency[word] = frequency.get(word, 0) + 1
        self.idf = {word: math.log(1 + count / seen) for word, seen in frequency.items()}
        names = {d.name.lower() for d in case.defendants} | {n for d in case.defendants for n in d.name.lower().split()}
        self.as_pronoun = _pronouns(case)
        self.someone_else = _someone_else(case)
        for word in names:  # the defendant's name is in every argument: it says nothing about what
            self.idf[lex.stem(word)] = 0.0
        texts = tuple(facet.text or " ".join(sorted(facet.words)) for facet in self.facets)
        self.matrix = reading_vectors.embed(texts, kind)
        self.leans = np.array([facet.lean for facet in self.facets], dtype=np.float32)
        self.anchors = np.array([facet.kind in ANCHOR_KINDS for facet in self.facets])


HONORIFICS = frozenset("mr mrs ms miss dr mister".split())
NOT_A_CULPRIT = frozenset(  # capitalised words of a case file that name no person: dates, places, titles
    "january february march april may june july august september october november december monday tuesday "
    "wednesday thursday friday saturday sunday state crown court street road avenue the detective officer sergeant "
    "captain constable god".split()
)
CULPRIT_VERBS = r"(?:did|done|killed|shot|stabbed|robbed|started|set|is guilty|was guilty|is the one|was the one)"


def _someone_else(case: CaseFile) -> re.Pattern[str] | None:
    """Another person the file names (not the accused, not a witness: "Merrick" in the DNA evidence) said
    to be the culprit: "Merrick did it", "it was probably Merrick". The stance words hear them as
    "someone else did it", towards doubt, not as a guilt phrase said of the accused."""
    people = [d.name for d in case.defendants] + [w.name for w in case.witnesses]
    known = {part.lower() for name in people for part in re.findall(r"[A-Za-z'’-]+", name)}
    texts = [item.description for item in case.evidence] + [item.contest_reason or "" for item in case.evidence]
    texts += list(case.prosecution_arguments) + list(case.defense_arguments)
    found = {
        word
        for text in texts
        for word in re.findall(r"(?<=[a-z,;] )([A-Z][a-z]{2,})\b", text)
        if word.lower() not in known and word.lower() not in NOT_A_CULPRIT and word.lower() not in lex.STOPWORDS
    }
    if not found:
        return None
    names = "|".join(sorted((re.escape(n) for n in found), key=len, reverse=True))
    return re.compile(  # "it was Merrick." but not "it was Forester glass"
        rf"\b(?:(?<=it was )|(?<=its )|(?<=it's )|(?<=probably )|(?<=prob )|(?<=maybe ))({names})"
        r"(?=\s*(?:[.,;!?]|$|\s+(?:who|that|not|tbh|lol|honestly|and|all along)\b))"
        rf"|\b({names})(?=\s+{CULPRIT_VERBS}\b)",
        re.I,
    )


def _pronouns(case: CaseFile) -> tuple[re.Pattern[str], str, str] | None:
    """How to say the defendant's name as a pronoun ("Dorsey's height" -> "his height"), so that the
    stance words said of "him" ("places him there", "not him", "rules her out") hear the name too."""
    if len(case.defendants) != 1:  # with two accused, "him" says nothing about which
        return None
    defendant = case.defendants[0]
    parts = [p for p in re.findall(r"[A-Za-z][A-Za-z'’-]+", defendant.name) if p.lower().strip(".") not in HONORIFICS]
    if not parts:
        return None
    names = sorted({defendant.name.strip(), " ".join(parts), *parts}, key=len, reverse=True)
    honorific = r"(?:(?:mr|mrs|ms|miss|dr|mister)\.?\s+)?"
    pattern = re.compile(honorific + r"\b(?:" + "|".join(re.escape(n) for n in names) + r")\b(['’]s\b)?", re.I)
    female = defendant.gender.lower() in {"female", "f", "woman"}
    return pattern, ("her" if female else "him"), ("her" if female else "his")


def standing(case: CaseFile) -> dict[float, float]:
    """For each side (+1 guilt, -1 doubt), its strongest evidence that nobody contests."""
    best = {1.0: 0.0, -1.0: 0.0}
    for item in case.evidence:
        if item.contestable and item.contest_reason:
            continue
        ours, theirs = item.strength_prosecution, item.strength_defense
        side = 1.0 if ours >= theirs else -1.0
        best[side] = max(best[side], abs(ours - theirs))
    return best


def _facets(case: CaseFile) -> Iterable[Facet]:
    for facet in _raw_facets(case):
        if facet.attack and facet.lean:  # a doubt about one item leaves the uncontested evidence standing
            intact = standing(case)[-facet.lean]
            facet = replace(facet, force=facet.force * (1 - STANDING_WEIGHT * intact))
        yield facet


def _raw_facets(case: CaseFile) -> Iterable[Facet]:
    for item in case.evidence:
        ours, theirs = item.strength_prosecution, item.strength_defense
        lean = max(-1.0, min(1.0, (ours - theirs) * 2))
        strong, weak = max(ours, theirs), min(ours, theirs)
        human = item.type == "testimonial"
        name = evidence_name(item.label, case)
        words = frozenset(lex.content_words(f"{item.label} {item.description}"))
        said = f"{item.label}. {item.description}"
        yield Facet(item.id, "evidence", name, lean, max(0.1, strong - 0.5 * weak), human, False, words, said)
        if item.contest_reason:
            force = 0.2 + 0.5 * weak + 0.2 * (1 - strong)
            reason = frozenset(lex.content_words(item.contest_reason)) - words  # what only the objection says
            against = -1.0 if lean >= 0 else 1.0
            yield Facet(item.id, "contest", name, against, force, human, False, reason, item.contest_reason)
    for witness in case.witnesses:
        lean = {"prosecution": 1.0, "defense": -1.0}.get(witness.side, 0.0)
        issues = witness.credibility_issues
        own = frozenset(lex.content_words(f"{witness.name} {witness.role}"))
        words = frozenset(lex.content_words(witness.testimony)) | own
        account = f"{witness.name}, {witness.role}: {witness.testimony}"
        force = max(0.1, 0.5 - 0.1 * len(issues))
        yield Facet(witness.id, "witness", witness.name, lean, force, True, False, words, account)
        for issue in issues:
            raised = frozenset(lex.content_words(issue)) - words
            motive = bool({lex.stem(w) for w in lex.tokens(issue)} & {lex.stem(w) for w in lex.MOTIVE_WORDS})
            force = 0.25 + 0.05 * len(issues)
            issue_text = f"{witness.name}: {issue}"
            yield Facet(witness.id, "issue", witness.name, -lean, force, True, motive, raised | own, issue_text)


def _claims(case: CaseFile, named: list[Facet]) -> Iterable[Facet]:
    """Each side's arguments in the case file: a text that echoes one argues that side."""
    for prefix, lean, claims in (("P", 1.0, case.prosecution_arguments), ("D", -1.0, case.defense_arguments)):
        for number, claim in enumerate(claims, start=1):
            words = frozenset(lex.content_words(claim))
            closest = max(named, key=lambda facet: len(facet.words & words), default=None)
            name = closest.name if closest is not None else "that argument"
            human = bool(closest and closest.human)
            motive = bool(words & {lex.stem(w) for w in lex.MOTIVE_WORDS})
            yield Facet(f"{prefix}{number}", "claim", name, lean, CLAIM_FORCE, human, motive, words, claim)


BRACKETED_OR_WORD = re.compile(r"\([^()]*\)\S*|\S+")


def evidence_name(label: str, case: CaseFile | None = None) -> str:
    """ "Bait bills in the glovebox" -> "the bait bills in the glovebox" (five words at most). A name
    in brackets is never cut in half: "Property found or produced (Ann Plimpton)" keeps "(Ann
    Plimpton)", not "(Ann"."""
    words = BRACKETED_OR_WORD.findall(label)[:5]  # a bracketed name counts as one word
    while len(words) > 1 and words[-1].lower() in {"the", "a", "an", "in", "on", "of", "at", "from", "to", "by"}:
        words.pop()
    short = fit(" ".join(words).rstrip(",;:"), case)  # "CCTV footage" keeps its acronym, a name its capital
    first = words[0].lower() if words else ""
    if first in {"the", "a", "an"} or (first.endswith(("'s", "’s")) and not short[:1].islower()):
        return short
    return "the " + short  # "the defendant's statements to police": a common noun's takes "the"


def case_index(case: CaseFile) -> CaseIndex:
    return _case_index(case, reading_vectors.kind_in_use())


@lru_cache(maxsize=32)
def _case_index(case: CaseFile, kind: str) -> CaseIndex:
    return CaseIndex(case, kind)
