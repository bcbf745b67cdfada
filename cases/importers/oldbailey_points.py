"""What the whole trial's testimony says for each side: the points that separate convictions from acquittals.

Read from the testimony alone (the verdict, sentence and everything after them were cut before
these rules run), never from the outcome. Each rule that fires adds one evidence item, labelled
with the point and described by the sentence that showed it, rated for the side it helps. The
keyword items of ``oldbailey_rules`` say what was mentioned (property, a letter, a wound); these
say what the mention proves, which is what real juries weighed.

For the prosecution:

- Caught in the act: a witness saw the prisoner do it or took them on the spot. "I saw him take
  the handkerchief out of the gentleman's pocket, and collared him" (1837).
- A confession: "he said, 'I did it, and I am sorry for it'" (1846).
- The property found on the prisoner: "I found the watch in his pocket" (1826).
- The property traced to the prisoner through a pawnbroker: "I produce a piece of cambric; the
  prisoner pawned it on the 28th of February; I lent her ten shillings on it" (t18140420-101).

For the defence:

- A witness cannot swear to the prisoner: "I cannot swear to the prisoner, I never saw him"
  (1871); "I will not swear he is the man" (1814).
- A witness had been drinking: "I was rather tipsy" (1801).
- The prosecutor is the only witness to the facts (no one else heard): one prosecution witness
  in all, with nothing to support their word (1744, 1801 sessions).
- The property was never found on the prisoner: "I searched her, but found none of the money"
  (1801).
- Witnesses contradict each other or themselves: "the last witness is mistaken", "that is not
  true" (1862).
- Witnesses for the defence or to character were heard (counted once, as an item; each such
  witness also counts for the defence in the jury's weighing).
- Counsel for the prisoner tested the prosecution's witnesses: "Cross-examined by MR. RIBTON"
  (1871). A prisoner defended by counsel had a case put for them; most were not.
- A prosecution witness does not know: "I cannot say whether that was one of the notes that came
  from Mr. Drummond's, or not" (t18011028-37).
- It may have been an accident or a mistake: "A letter carrier may take out a letter that does not
  belong to his walk by mistake" (t18140420-40); not "she met with an accident in the hind off
  leg" (a mare's old injury, t18011028-18).
- The case was fought at length: the witnesses' evidence runs past ``CONTESTED_CHARS`` (about
  1,500 words), as in t18011028-8 (2,569 words: an infanticide, opened by counsel, six witnesses).
  The Proceedings print an uncontested theft in a few lines; a trial the defence fought, with
  cross-examination and witnesses on both sides, runs long.

How often each point comes with an acquittal (``bench/evidence_separation.py --rules``; the
verdict is used only to count): in the 13 more sessions 21% of the 1,079 playable trials with a
known verdict were acquittals, in the sample 37% of 110. Caught in the act 14% / 36%; pawned 9% /
40% (5 trials); the property on the prisoner 20% / 26%; a confession 21% / 29%; a witness who
cannot swear 27% / 40%; drink 34% / 58%; never found 27% / 33%; lone prosecutor 36% / 40%;
defence witnesses 26% / 41%; counsel 27% / 45%; cannot say whether 32% / 38%; an accident 35% /
67% (3 trials); fought at length 31% / 50%. No point separates strongly: each is one part of
the case's lean, never its verdict.

The prisoner's own account ("I bought it of a man in the street") is already the defence
statements the jury reads; it is not rated here, since an unsworn account weighs little with
any jury.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cases.importers.oldbailey_rules import EvidenceDraft, split_sentences
from cases.importers.prefilter import fold, holds_any, words_in

DEFENCE_WEIGHT = 0.9


@dataclass(frozen=True)
class Point:
    key: str
    label: str
    side: str  # prosecution | defense
    weight: float  # strength for the side it helps
    pattern: re.Pattern[str] | None  # None: a rule on the witnesses, not on a sentence


CAUGHT = Point(
    "caught",
    "Caught in the act",
    "prosecution",
    0.85,
    re.compile(
        r"caught (him|her|them|the prisoner)|in the (very )?act\b|laid hold of (him|her|the prisoner)|collared"
        r"|I saw (him|her|the prisoner) (take|put|snatch|pick|steal|strike|stab|break|throw|drop)"
        r"|stopped (him|her|the prisoner) with|took (him|her) (with|in the act)",
        re.I,
    ),
)
CONFESSION = Point(
    "confession",
    "A confession",
    "prosecution",
    0.8,
    re.compile(
        r"\bconfess|\bI did it\b|forgive me|\bI am guilty\b|\bit was me\b|\bI took it\b|\bI stole\b"
        r"|admitted (it|that|taking|stealing|having)",
        re.I,
    ),
)
FOUND_ON = Point(
    "found_on",
    "The property found on the prisoner",
    "prosecution",
    0.75,
    re.compile(
        r"found (it |them |the \w+ |a \w+ )?(on|upon|in) (him|her|his|the prisoner)"
        r"|in (his|her) (pocket|possession|hand|apron|bosom)",
        re.I,
    ),
)
CANNOT_SWEAR = Point(
    "cannot_swear",
    "A witness cannot swear to the prisoner",
    "defense",
    DEFENCE_WEIGHT,
    re.compile(
        r"(can ?not|could not|will not|would not) (positively )?(swear|identify|be (sure|positive|certain))"
        r"[^.—]{0,30}(prisoner|him|her|man|person|it was|to (him|her|the))|\bI am not (sure|certain|positive)\b",
        re.I,
    ),
)
DRINKING = Point(
    "drinking",
    "A witness had been drinking",
    "defense",
    DEFENCE_WEIGHT,
    re.compile(r"\b(drunk|tipsy|in liquor|intoxicated|the worse for (drink|liquor))\b", re.I),
)
NOT_FOUND = Point(
    "not_found",
    "The property was never found on the prisoner",
    "defense",
    DEFENCE_WEIGHT,
    re.compile(
        r"(found|find) nothing|nothing (was )?found|did not find (anything|any|the)|none of the (money|property)"
        r"|not found (on|upon)",
        re.I,
    ),
)
CONTRADICTION = Point(
    "contradiction",
    "Witnesses contradict each other",
    "defense",
    DEFENCE_WEIGHT,
    re.compile(r"(witness|he|she) (is|was) (quite )?(mistaken|wrong)|that is not true|\bcontradict", re.I),
)
PAWNED = Point(
    "pawned",
    "The property traced to the prisoner through a pawnbroker",
    "prosecution",
    0.75,
    re.compile(
        r"\bpawn(?:ed|ing|s)?\b[^.—]{0,60}\b(?:by|for|in the name of)?\s*(?:the prisoner|him|her)\b"
        r"|(?:the prisoner|he|she) (?:pawned|offered it in pawn|came to pawn|brought it to pawn)",
        re.I,
    ),
)
UNSURE = Point(
    "unsure",
    "A witness for the prosecution does not know",
    "defense",
    DEFENCE_WEIGHT,
    re.compile(
        r"\bI do not know (?:whether|if)\b|\bI (?:can ?not|could not) say (?:whether|if|that|who|it was)\b", re.I
    ),
)
ACCIDENT = Point(
    "accident",
    "It may have been an accident",
    "defense",
    DEFENCE_WEIGHT,
    re.compile(
        r"\b(?:it|that|this) (?:was|may have been|might have been|must have been) (?:\w+ )?(?:an? )?accident"
        r"|\baccidental(?:ly)?\b|\bby (?:accident|mistake)\b",
        re.I,
    ),
)
CONTESTED = Point("contested", "The prosecution's case was fought at length", "defense", DEFENCE_WEIGHT, None)
LONE_ACCUSER = Point("lone_accuser", "The prosecutor is the only witness", "defense", DEFENCE_WEIGHT, None)
DEFENCE_WITNESSES = Point("defence_witnesses", "Witnesses for the defence", "defense", DEFENCE_WEIGHT, None)
COUNSEL = Point("counsel", "Counsel tested the prosecution's witnesses", "defense", DEFENCE_WEIGHT, None)
SENTENCE_POINTS = (
    CAUGHT,
    CONFESSION,
    FOUND_ON,
    CANNOT_SWEAR,
    DRINKING,
    NOT_FOUND,
    CONTRADICTION,
    PAWNED,
    UNSURE,
    ACCIDENT,
)
POINTS = (*SENTENCE_POINTS, LONE_ACCUSER, DEFENCE_WITNESSES, COUNSEL, CONTESTED)  # every point, for measures
CONTESTED_CHARS = 8000  # about 1,500 words of testimony
DEFENCE_COUNSEL = re.compile(r"Cross-examined by (MR|MESSRS|SIR|SERJEANT)\b", re.I)


@dataclass(frozen=True)
class Heard:
    """One witness as the points see them: who, for which side, and what they said."""

    name: str
    side: str
    testimony: str


def trial_points(witnesses: list[Heard]) -> list[EvidenceDraft]:
    """One evidence item per point the trial's testimony makes (see the module's rules)."""
    prosecution = [w for w in witnesses if w.side == "prosecution"]
    items: list[EvidenceDraft] = []
    for witness in prosecution:  # each witness's own points: a point two witnesses make is made twice
        folded = fold(witness.testimony)
        for point in SENTENCE_POINTS:
            sentence = _first_hit(point, witness, folded)
            if sentence is not None:
                items.append(_item(point, sentence, witness=witness.name))
    if len(prosecution) == 1:
        items.append(_item(LONE_ACCUSER, f"Only {prosecution[0].name} gave evidence for the prosecution."))
    defence = [w.name for w in witnesses if w.side == "defense"]
    if defence:
        items.append(_item(DEFENCE_WITNESSES, "Heard for the prisoner: " + ", ".join(defence) + "."))
    if sum(len(w.testimony) for w in witnesses) >= CONTESTED_CHARS:
        words = sum(len(w.testimony.split()) for w in witnesses)
        items.append(_item(CONTESTED, f"The witnesses' evidence runs to {words:,} words: the case was fought."))
    for witness in prosecution:
        if DEFENCE_COUNSEL.search(witness.testimony):
            items.append(_item(COUNSEL, "Cross-examined by counsel for the prisoner.", witness=witness.name))
    return items


def _first_hit(point: Point, witness: Heard, folded: str | None) -> str | None:
    assert point.pattern is not None
    words = words_in(point.pattern, folded)
    if words == () or not point.pattern.search(witness.testimony):
        return None
    for sentence in split_sentences(witness.testimony):
        if holds_any(fold(sentence), words) and point.pattern.search(sentence) and not sentence.startswith("Q."):
            return sentence[:600]
    return None


def _item(point: Point, description: str, *, witness: str = "") -> EvidenceDraft:
    mine, other = round(point.weight, 2), round((1.0 - point.weight) * 0.8, 2)
    prosecution, defense = (mine, other) if point.side == "prosecution" else (other, mine)
    return EvidenceDraft(
        label=(f"{point.label} ({witness})" if witness else point.label)[:200],
        type="testimonial",
        description=description[:1500],
        strength_prosecution=prosecution,
        strength_defense=defense,
        contestable=False,
        contest_reason="",
    )
