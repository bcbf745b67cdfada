"""What the whole trial's testimony says for each side: the points that separate convictions from acquittals.

Read from the testimony alone (the verdict, sentence and everything after them were cut before
these rules run), never from the outcome. Each rule that fires adds one evidence item, labelled
with the point and described by the sentence that showed it, rated for the side it helps. The
keyword items of ``oldbailey_rules`` say what was mentioned (property, a letter, a wound); these
say what the mention proves, which is what real juries weighed.

For the prosecution:

- Caught in the act: a witness saw the prisoner do it or took them on the spot. "I saw him take
  the handkerchief out of the gentleman's pocket, and collared him" (1837).
- A confession: "he said, 'I did it, and I am sorry for it'" (1846). The prisoner's words only:
  "I took it" or "it was me" counts inside a quotation after "said" or as reported speech ("she
  said she had taken them"), never in the witness's own account of what they did ("I took it to
  Mr. Brooks when I heard of this": 24 of 107 such sentences in the more sessions came from
  acquittals, and the point was no better than chance).
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
  witness also counts for the defence in the jury's weighing), whether the record prints their
  words or only the printer's summary ("The prisoner called three witnesses, who gave him a good
  character", 1814). A prisoner giving evidence is not one of them: their evidence is their own
  account (below).
- Counsel for the prisoner tested the prosecution's witnesses, counted once a trial: named at the
  cross-examination ("Cross-examined by MR. RIBTON", to the 1860s), or named in the heading ("MR.
  BURNIE Defended.", from the 1870s) with the cross-examination printed bare ("Cross-examined.").
  A prisoner defended by counsel had a case put for them; most were not. The later print shows
  nearly every witness cross-examined, so a point a witness would make the number of witnesses the
  printer set out, not the defence.
- A prosecution witness does not know: "I cannot say whether that was one of the notes that came
  from Mr. Drummond's, or not" (t18011028-37).
- It may have been an accident or a mistake: "A letter carrier may take out a letter that does not
  belong to his walk by mistake" (t18140420-40); not "she met with an accident in the hind off
  leg" (a mare's old injury, t18011028-18).
- The case was fought at length: the witnesses' evidence runs past ``CONTESTED_CHARS`` (about
  1,500 words), as in t18011028-8 (2,569 words: an infanticide, opened by counsel, six witnesses).
  The Proceedings print an uncontested theft in a few lines; a trial the defence fought, with
  cross-examination and witnesses on both sides, runs long.

How often each point comes with an acquittal (``bench/evidence_separation.py --rules``, on the dev
sessions of ``bench/oldbailey_split.py`` only; the verdict is used only to count): 25% of the 807
playable trials were acquittals. Caught in the act 15% of 162 trials; pawned 11% of 28; the
property on the prisoner 22% of 206; a confession 8% of 37; a witness who cannot swear 28% of 57;
drink 43% of 84; never found 20% of 50; lone prosecutor 44% of 68; defence witnesses 34% of 144;
counsel 33% of 218; cannot say whether 37% of 101; an accident 60% of 10; fought at length 35% of
79. No point separates strongly: each is one part of the case's lean, never its verdict.

The prisoner's own account (the "Prisoner's Defence", the statement before the magistrate read at
the trial, the defence the printer reported in the third person, or from 1898 the prisoner's own
evidence; what the court and jury asked of every prisoner who had no counsel) is read for three
points, once each per trial, whoever else spoke. A reported account is read in the first person
(``own_words``), so the same words make the same point however the account was printed:

- The prisoner's own account admits the deed (prosecution): pleading distress, drink, sorrow or
  mercy concedes the act and asks only for leniency; "I have nothing to say" answers nothing.
  "Distress caused me to infringe upon the laws of my country" (t18140420-2).
- The prisoner's account owns to having the property (prosecution): "I found it", "I bought it of
  a man", "a man asked me to carry it" concede the possession and offer a story the prosecution's
  witnesses rarely left room for. "I picked it up in the street when I went out" (t18011028-12).
- The prisoner denies the charge (defence): "I am innocent", "I know nothing of it", "I never saw
  the man in all my life till I saw him at the Justice's" (t18011028-47).

Counted the same way (dev): admits 11% acquitted of 66 trials; owns to the property 22% of 103;
denies 25% of 125, no more than any trial: a denial is what most prisoners said. These were chosen by
what the Proceedings' readers (and the period's judges, Langbein 2003) took the accused's words
to show, then counted, not searched for among many patterns; their weights are the existing
scale's (0.8 and 0.7 for the prosecution, ``DEFENCE_WEIGHT`` for the defence), not fitted.
A witness who "never lost sight" of the prisoner until taken caught them in the act as surely
as one who collared them ("I never lost sight of the prisoners till they were taken",
t18261026-129).

The same points however the Proceedings print them. The twentieth-century print reports what the
prisoner said on arrest in quotation marks ("He said, 'Quite right; I have been expecting this for
some time'", 1910; "she said, 'Yes, I am sorry; I had it in the w.c.'", 1903), which is a confession
as "he said he took it" was in 1830, unless the same sentence denies the charge ("I did not steal her
purse; I admit I hit her", 1900). A prisoner who owns the act but not the crime ("I admit signing the
receipt ... but not with any wrong intent", 1906; "I thought I had authority"; "an oversight") denies
the charge and admits nothing. A search is printed as "I searched him at the station, and found 13l."
(1862) as much as "I found it in his pocket", and "nothing was found on him" is never the property
found. A witness who "failed to identify" the prisoner or "picked out another man" at the police
station's parade cannot swear to him; one who "did not say so at the police court" contradicts their
own deposition. The later print reports what every witness saw of the prisoner, so a point reads what
the words prove, not what they mention: a witness "not drunk", or one who "never saw her the worse for
liquor", had not been drinking (1862-1887); a thing in the prisoner's hand is the property found only when
it was found, taken or seen there, not "he had a stick in his hand" or "he put his hand in his pocket"; a
search that found only the prisoner's "good money" found no property (the uttering's search, 1862-1895);
and a prisoner who says he "took it in change" or "from the till" tells how an innocent man came by a bad
coin, no confession. Who speaks for the prisoner is read in ``oldbailey_text``: from 1898 the prisoner's
own evidence ("(prisoner, on oath)") opens the defence, so the witnesses heard after it are theirs.
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
    unless: re.Pattern[str] | None = None  # a sentence that also says this does not make the point


CAUGHT = Point(
    "caught",
    "Caught in the act",
    "prosecution",
    0.85,
    re.compile(
        r"caught (him|her|them|(?:the )?prisoner)|in the (very )?act\b|laid hold of (him|her|(?:the )?prisoner)"
        r"|collared|I saw (him|her|(?:the )?(?:two )?prisoners?)"
        r" (take|put|snatch|pick|steal|strike|stab|break|throw|drop)"
        r"|stopped (him|her|(?:the )?prisoner) with|took (him|her) (with|in the act)"
        r"|never lost sight|did not lose sight",
        re.I,
    ),
)
CONFESSION = Point(
    "confession",
    "A confession",
    "prosecution",
    0.8,
    re.compile(
        r"\bconfess|forgive me|\bI am guilty\b"
        r"|admitt(?:ed|ing) (it|that|taking|stealing|having|the (charge|offence|theft))"
        r"|\b(said|says|replied|answered|cried)[,:]? [\"“][^\"”]{0,120}\b(I did it|it was me|I took (it|them)|I stole"
        r"|I have stolen|I had taken|I (?:done|have done|had done) it|I admit|I am sorry|quite right|fair cop"
        r"|I know I (?:did|have done) wrong|you have got me)\b"
        r"|\b(he|she|(?:the )?prisoner) (said|owned|acknowledged|told me|stated) (that )?(he|she) (had )?"
        r"(did it|done it|took (it|them)|taken (it|them)|stole|stolen)\b",
        re.I,
    ),
    # "I did not steal her purse; I admit I hit her" (1900): owning to part of it while denying the charge
    # or taking a coin in change, the uttering's stock answer ("I took it at Drakes and Jones ... in change of
    # half-a-sovereign", 1887; "she said she took it from the till before she left home", 1879)
    re.compile(
        r"\b(?:I|he|she) (?:did not|didn't|never) (?:steal|take|took|touch|do|rob)\b|\bnot guilty\b|\binnocent\b"
        r"|\b(?:took|taken) (?:it|them)\b[^.;]{0,60}\b(?:in change|from (?:the|my|our|a) till|of a man|from a man)\b",
        re.I,
    ),
)
FOUND_ON = Point(
    "found_on",
    "The property found on the prisoner",
    "prosecution",
    0.75,
    re.compile(
        r"found (it |them |the \w+ |a \w+ )?(on|upon|in) (him|her|his|(?:the )?prisoner)"
        r"|\bin (his|her) (pockets?|possession|apron|bosom)\b"
        r"|\bsearch(?:ed|ing) (?:him|her|(?:the )?prisoner)(?:,| and| at| on| in| I| we)[^.;—]{0,30}?\bfound\b"
        # a thing in the prisoner's hand is the property only when it was found or taken there, not "he had a
        # stick in his hand" or "he put his hand in his pocket" (1862-1895)
        r"|\b(?:found|took|taken|seized|snatched|saw|seen|with)\b[^.;—]{0,50}\bin (?:his|her) hands?\b",
        re.I,
    ),
    # a search that found nothing, or only the prisoner's own good money ("I searched him, and found on him
    # 6 1/2 d. bronze and 6d. silver, good money", "I searched him, and only found a penny": 1862-1895); the
    # prisoner's hand in his pocket ("he had his hands in his pockets all the time", 1879)
    re.compile(
        r"\bfound (?:nothing|none|no)\b|\bnothing (?:was )?found\b|\bdid not find\b"
        r"|\bgood,? (?:money|coins?|silver)\b|\bfound a good\b"
        r"|\b(?:money|coins?|half-crowns?|florins?|shillings?|sixpences?|pence|bronze|silver),? (?:all )?good\b"
        r"|\bonly (?:found|a |one |\d)|\bfound only\b|\bhands? in (?:his|her) pockets?\b",
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
        r"[^.—]{0,30}(prisoner|him|her|man|person|it was|to (him|her|the))|\bI am not (sure|certain|positive)\b"
        r"|\b(?:failed|unable|not able) to (?:identify|pick out|recognise)\b"
        r"|\bI did not pick (?:him|her|(?:the )?prisoner) out\b"
        r"|\bpicked out (?:another|a different|the wrong) (?:man|woman|person)\b",
        re.I,
    ),
)
DRINKING = Point(
    "drinking",
    "A witness had been drinking",
    "defense",
    DEFENCE_WEIGHT,
    re.compile(r"\b(drunk|tipsy|in liquor|intoxicated|the worse for (drink|liquor))\b", re.I),
    # said to be sober: "he was not drunk", "I never saw her the worse for liquor in my life" (1862-1887)
    re.compile(
        r"\bnot (?:\w+ )?(?:drunk|tipsy|intoxicated|in liquor|the worse for)"
        r"|\bnever (?:saw|seen|knew|known) (?:\w+ )?(?:\w+ )?(?:drunk|tipsy|intoxicated|the worse for)",
        re.I,
    ),
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
    re.compile(
        r"(witness|he|she) (is|was) (quite )?(mistaken|wrong)|that is not true|\bcontradict"
        r"|\bI did not say (?:so|that|this|anything about \w+) (?:at|before|to) the"
        r" (?:police[- ]court|magistrate|coroner|inquest)",
        re.I,
    ),
)
PAWNED = Point(
    "pawned",
    "The property traced to the prisoner through a pawnbroker",
    "prosecution",
    0.75,
    re.compile(
        r"\bpawn(?:ed|ing|s)?\b[^.—]{0,60}\b(?:by|for|in the name of)?\s*(?:(?:the )?prisoner|him|her)\b"
        r"|(?:(?:the )?prisoner|he|she) (?:pawned|offered it in pawn|came to pawn|brought it to pawn)",
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
OWN_DENIAL = Point(
    "own_denial",
    "The prisoner denies the charge",
    "defense",
    DEFENCE_WEIGHT,
    re.compile(
        r"\bI (?:am|was) (?:quite |perfectly |entirely )?innocent\b|\bI (?:know|knew|had known) nothing (?:of|about)\b"
        r"|\bI (?:had )?never (?:saw|seen|touched|had|took|taken|stole|stolen|was|been)\b"
        r"|\bit (?:is|was) (?:all )?(?:false|malice|spite|untrue)\b"
        r"|\bI (?:emphatically |solemnly )?deny\b|\bdenied (?:that|the charge|having|ever|all|any)\b"
        r"|\b(?:not|never) with (?:any|the) (?:wrong|criminal|fraudulent|dishonest|guilty) (?:intent|intention)\b"
        r"|\bno (?:wrong|criminal|fraudulent|dishonest|guilty) (?:intent|intention|motive)\b"
        r"|\bno intention (?:of|to) (?:defraud|steal|deceive|cheat|hurt|harm|injure|kill)\b"
        r"|\bI (?:thought|believed) I (?:had|was) (?:authority|authorised|entitled|a right|permission)\b"
        r"|\b(?:an|by) oversight\b|\bslipped my memory\b|\bI (?:honestly|bona fide|genuinely) believed\b"
        r"|\bI did it innocently\b|\bI am not guilty\b"
        r"|\bI (?:did not|didn't|never) (?:steal|rob|strike|stab|assault|touch) (?:it|them|him|her|the|any)\b",
        re.I,
    ),
)
# The prisoner's own account (the "Prisoner's Defence", or the statement before the magistrate read at
# the trial). Read from what the prisoner said, never from the verdict.
OWN_ADMISSION = Point(
    "own_admission",
    "The prisoner's own account admits the deed",
    "prosecution",
    0.8,
    re.compile(
        r"\b(?:I am|I was) (?:very |extremely |truly )?(?:sorry|ashamed)\b|\bmercy\b|\bfirst offence\b"
        r"|\b(?:I was|I had been|being) (?:very |quite |rather )?"
        r"(?:drunk|tipsy|in liquor|intoxicated|in distress|in want)\b"
        r"|\bdistress\b|\bstarving\b|\bI plead guilty\b|\bI did it\b|\bI took (?:it|them)\b"
        r"|\bI admit (?:taking|stealing|having|striking|it\b|the\b|that I\b|I\b)"
        r"|\bnothing to say\b",
        re.I,
    ),
    # "I admit signing the receipt ... but not with any wrong intent" (1906): the deed owned, the crime denied
    OWN_DENIAL.pattern,
)
# The prisoner's account read in the first person: a report of it ("stated that he had found it", "that
# Mrs. Emmett had given her the florin") is read as the prisoner would have said it (``own_words``), so the
# tenses of reported speech ("had found", "had given", "was innocent", "knew nothing") are the account's too.
OWN_POSSESSION = Point(
    "own_possession",
    "The prisoner's account owns to having the property",
    "prosecution",
    0.7,
    re.compile(
        r"\b(?:I|we) (?:had )?(?:found|picked (?:it|them|this|the \w+) up|picked up|bought)\b"
        r"|\b(?:gave|given|lent|sold) (?:it|them|this|the \w+) (?:to )?me\b"
        r"|\b(?:gave|given|lent|sold) me (?:it|them|this|the \w+)\b"
        r"|\basked me to (?:carry|pawn|sell|hold|take|mind)\b",
        re.I,
    ),
)
DEFENCE_POINTS = (OWN_ADMISSION, OWN_POSSESSION, OWN_DENIAL)
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
# every point, for measures
POINTS = (*SENTENCE_POINTS, *DEFENCE_POINTS, LONE_ACCUSER, DEFENCE_WITNESSES, COUNSEL, CONTESTED)
CONTESTED_CHARS = 8000  # about 1,500 words of testimony
# Counsel cross-examining, named at the cross-examination ("Cross-examined by MR. RIBTON", to the 1860s), or
# named once in the heading ("MR. BURNIE Defended.", from the 1870s) and the cross-examination printed bare
# ("Cross-examined.", "Cross-examination."). Never the prisoner's own questions ("Cross-examined by the
# prisoner", 1910).
DEFENCE_COUNSEL = re.compile(r"Cross-examined by (MR|MESSRS|SIR|SERJEANT)\b", re.I)
CROSS_EXAMINED = re.compile(r"\bCross-examin(?:ed|ation)\b(?!\s*by\s+(?:the\s+)?(?:prisoners?|defendants?)\b)", re.I)


@dataclass(frozen=True)
class Heard:
    """One witness as the points see them: who, for which side, and what they said."""

    name: str
    side: str
    testimony: str
    accused: bool = False  # the prisoner giving evidence: their own account, not a witness called for them


def trial_points(
    witnesses: list[Heard], defence: tuple[str, ...] = (), *, defended: bool = False
) -> list[EvidenceDraft]:
    """One evidence item per point the trial's testimony and the prisoner's own account (``defence``, and the
    evidence of a prisoner who gives it) make (see the module's rules). ``defended``: the record names
    counsel for the prisoner, whose cross-examinations may then be printed without a name."""
    accounts = (*defence, *(w.testimony for w in witnesses if w.accused))
    witnesses = [w for w in witnesses if not w.accused]
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
    for_prisoner = [w.name for w in witnesses if w.side == "defense"]
    if for_prisoner:
        items.append(_item(DEFENCE_WITNESSES, "Heard for the prisoner: " + ", ".join(for_prisoner) + "."))
    if sum(len(w.testimony) for w in witnesses) >= CONTESTED_CHARS:
        words = sum(len(w.testimony.split()) for w in witnesses)
        items.append(_item(CONTESTED, f"The witnesses' evidence runs to {words:,} words: the case was fought."))
    for point in DEFENCE_POINTS:  # once each, whatever the number of statements
        said = next((found for text in accounts if (found := _own_sentence_with(point, text)) is not None), None)
        if said is not None:
            items.append(_item(point, said, witness="the prisoner"))
    tested = [
        w.name
        for w in prosecution
        if DEFENCE_COUNSEL.search(w.testimony) or (defended and CROSS_EXAMINED.search(w.testimony))
    ]
    if tested:
        items.append(_item(COUNSEL, "Cross-examined by counsel for the prisoner: " + ", ".join(tested) + "."))
    return items


# Words of a reported account that stand for the prisoner, and what the prisoner would have said.
_PERSON = {
    "he": "I",
    "she": "I",
    "him": "me",
    "his": "my",
    "himself": "myself",
    "herself": "myself",
    "they": "we",
    "them": "us",
    "their": "our",
    "themselves": "ourselves",
}
_REPORTED_WORD = re.compile(r"\b(?:he|she|him|his|himself|herself|her|they|them|their|themselves)\b", re.I)
# "her" before an article, a preposition or a stop is the object ("had given her the florin"); else "my".
_HER_OBJECT = re.compile(r"\s*(?:[,.;:!?)—-]|$|(?:the|a|an|to|for|in|on|at|and|that|with|from|by|up|out|back)\b)", re.I)
_QUOTED = re.compile(r"([\"“][^\"”]*[\"”])")
_FIRST_PERSON = re.compile(r"\bI\b")


def own_words(account: str) -> str:
    """The prisoner's account as they would have said it. An account the printer reported in the third
    person ("The prisoner in his defence stated that his mate gave him the lens to carry but that he knew
    nothing about the robbery", 1887) is read in the first person ("... my mate gave me the lens to carry
    but that I knew nothing about the robbery"); an account in the prisoner's own words ("I" outside the
    quotations) and every quotation are left as printed."""
    pieces = _QUOTED.split(account)
    outside = pieces[::2]
    if any(_FIRST_PERSON.search(piece) for piece in outside):
        return account
    for index in range(0, len(pieces), 2):
        pieces[index] = _REPORTED_WORD.sub(_first_person, pieces[index])
    return "".join(pieces)


def _first_person(match: re.Match[str]) -> str:
    word = match.group(0)
    if word.lower() == "her":
        mine = "me" if _HER_OBJECT.match(match.string, match.end()) else "my"
    else:
        mine = _PERSON[word.lower()]
    return mine if mine == "I" or not word[0].isupper() else mine.capitalize()


def _own_sentence_with(point: Point, account: str) -> str | None:
    """The sentence of the prisoner's account that makes ``point``, quoted as printed."""
    read = own_words(account)
    said = _sentence_with(point, read)
    if said is None or read == account:
        return said
    printed = split_sentences(account)
    shifted = split_sentences(read)
    for original, sentence in zip(printed, shifted, strict=False):
        if sentence[:600] == said:
            return original[:600]
    return said


def _first_hit(point: Point, witness: Heard, folded: str | None) -> str | None:
    return _sentence_with(point, witness.testimony, folded)


def _sentence_with(point: Point, text: str, folded: str | None = None) -> str | None:
    """The first sentence of ``text`` (not a question) that makes ``point``; None when none does."""
    assert point.pattern is not None
    words = words_in(point.pattern, folded if folded is not None else fold(text))
    if words == () or not point.pattern.search(text):
        return None
    for sentence in split_sentences(text):
        if (
            holds_any(fold(sentence), words)
            and point.pattern.search(sentence)
            and not sentence.startswith("Q.")
            and not (point.unless is not None and point.unless.search(sentence))
        ):
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
