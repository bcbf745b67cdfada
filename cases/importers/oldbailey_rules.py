"""The documented keyword rules that turn testimony into roles, doubts, evidence and difficulty.

All rules read the witnesses' own words only (the verdict and punishment text has been
removed before these run), so nothing here can see the historical outcome.

Credibility issues: a witness's testimony is searched for the patterns in
``CREDIBILITY_RULES`` (admits drinking, did not see the face or could not see, uncertain or
will not swear, related to or long acquainted with the accused, a change of story or an
earlier different statement, gaps in memory, a reward or a quarrel with the accused). Each
rule that matches adds its label once.

Evidence items: each witness's testimony is split into sentences (``split_sentences``: never
after "Mr.", "Mrs.", "Dr.", "St.", "No. 4" or an initial, so no quote is cut short) and matched
against ``EVIDENCE_RULES`` (property found or produced, identification, a statement by the
accused, medical evidence, documents, an alibi, good character). Each rule gives at most one
item per witness, described by up to three matching sentences, and labelled with the witness
("Property found or produced (Mary Biggin)"). A statement by the accused is the defendant's,
only reported by the witness: "Statement by the accused (Eleanor Callen), as reported by
George Sherrard" (no name when several are tried together). A prosecution witness reporting the
prisoner's denial or innocent account ("he said he bought it of a man", ``REPORTED_DENIAL``) is not
reporting a statement against the prisoner: such sentences are left out of that item, and a witness
who reports nothing else gives none. Likewise a search that found nothing ("I searched her, but
found none of the money", ``NOTHING_FOUND``) is not property found or produced. A defendant who gives evidence
(allowed from 1898) is not reporting a statement by the accused, so that rule skips them.

Strength (the rule): every rule has a base weight for the side that called the witness; each
credibility issue of the witness takes 0.1 off it (never below 0.15), and cross-examination
that reaches this witness takes 0.05 off. The other side's strength is ``1 - weight`` scaled
to 0.8 so that no item is certain either way, plus ``GENERIC_OTHER`` (a mention helps either side; capped at 1).
The burden of proof makes the two sides unequal. A doubted prosecution witness helps the defence
(the case rests on them), but a doubted defence witness is only weak for the prisoner, not evidence
against them: a defence witness's item is never rated stronger for the prosecution than for the
defence. (Before this rule, a character witness who had known the prisoner for years and was
cross-examined gave "Good character" 0.89 for the prosecution and 0.45 for the defence.)
Items from a witness with credibility issues are contestable, the reason being those issues.

Difficulty (the rule): balance = sum over items of (strength_prosecution - strength_defense)
minus 0.5 per defence witness and 0.25 per credibility issue of a prosecution witness.
Balance >= 1.5 is clear_guilty, <= -0.25 is clear_innocent, anything between is ambiguous.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from cases.importers.prefilter import fold, holds_any, longest_match, may_match, words_in

# A full stop ends a sentence only before a capital, a digit, a quote or a bracket, and not after a
# title or abbreviation ("Mr.", "St.", "No. 4") or an initial ("J. Smith", but also the "Q."/"A." marks).
# A keyword item names what was mentioned (a watch found, a letter), not what it proves: the other side
# can use the mention nearly as well ("I bought it of a man"), so it is rated closer to even than a point
# of ``oldbailey_points`` (which says what the testimony proves).
GENERIC_OTHER = 0.45
SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'“‘(\[])|\s*—\s*|\s+-\s+")
ABBREVIATION = re.compile(
    r"(?:^|[\s(\"“‘])(?:Mr|Mrs|Messrs|Dr|St|Mt|Esq|Capt|Col|Gen|Lieut|Sergt|Serjt|Serjeant|Rev|Hon|Co|Ltd|Bros|Jun|"
    r"Sen|Jan|Feb|Aug|Sept|Oct|Nov|Dec|viz|vol|Mess|[A-Z])\.$"
)
NUMBER_ABBREVIATION = re.compile(r"(?:^|\s)No\.$")
# The longest text either abbreviation pattern can match (a search from further back finds nothing more).
ABBREVIATION_WIDTH = max(longest_match(ABBREVIATION), longest_match(NUMBER_ABBREVIATION))

OFFENCE_WORDS = {
    "theft": "Theft",
    "violentTheft": "Violent theft",
    "kill": "Killing",
    "deception": "Deception",
    "sexual": "Sexual offence",
    "breakingPeace": "Breaking the peace",
    "royalOffences": "Offence against the Crown",
    "damage": "Damage to property",
    "miscellaneous": "Miscellaneous offence",
}
SUBCATEGORY_WORDS = {
    "animalTheft": "animal theft",
    "coiningOffences": "coining offences",
    "grandLarceny": "grand larceny",
    "highwayRobbery": "highway robbery",
    "pettyLarceny": "petty larceny",
    "pocketpicking": "pickpocketing",
    "simpleLarceny": "simple larceny",
    "theftFromPlace": "theft from a specified place",
    "mail": "theft from the mail",
    "concealingABirth": "concealing a birth",
    "returnFromTransportation": "returning from transportation",
    "seditiousWords": "seditious words",
    "seditiousLibel": "seditious libel",
    "pettyTreason": "petty treason",
    "stolenGoods": "receiving stolen goods",
    "keepingABrothel": "keeping a brothel",
    "assaultWithIntent": "assault with intent",
    "indecentAssault": "indecent assault",
    "threateningBehaviour": "threatening behaviour",
    "vagabond": "vagabondage",
    "other": "",
}
CONTENT_NOTES_BY_CATEGORY = {
    "kill": ("violence", "death"),
    "violentTheft": ("violence",),
    "sexual": ("sexual_offence",),
    "breakingPeace": ("violence",),
}
CONTENT_NOTES_BY_SUBCATEGORY = {
    "infanticide": ("death_of_a_child", "death"),
    "concealingABirth": ("death_of_a_child",),
    "bigamy": (),  # a sexual-category offence with nothing sexual to warn about
    "animalTheft": (),
    "arson": ("violence",),
    "libel": (),
    "kidnapping": ("violence",),
    "wounding": ("violence", "weapons"),
    "rape": ("sexual_offence", "violence"),
}
PUNISHMENT_WORDS = {
    "death": "Death",
    "transport": "Transportation",
    "imprison": "Imprisonment",
    "corporal": "Corporal punishment",
    "miscPunish": "Other punishment",
    "noPunish": "No punishment",
}

CREDIBILITY_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "Admits having been drinking",
        re.compile(
            r"\bI (was|had been|am) (a little |rather |very |quite )?(drunk|tipsy|intoxicated|in liquor|"
            r"the worse for (drink|liquor)|drinking)|\bI had (some|a little|been) (drink|beer|gin)",
            re.I,
        ),
    ),
    (
        "Did not see clearly",
        re.compile(
            r"did( not|n't) see (his|her|their|the man's|(?:the )?prisoner's) face|could( not|n't) see|"
            r"it was (very |quite )?dark|had my back",
            re.I,
        ),
    ),
    (
        "Uncertain or will not swear",
        re.compile(
            r"I (can|could|will|would)( not|n't) (swear|be (sure|positive|certain))|I am not (sure|certain|"
            r"positive)|I (think|believe) (it was|he was|she was) (the|him|her)",
            re.I,
        ),
    ),
    (
        "Related to or close to the accused",
        re.compile(
            r"\b((?:the )?prisoner|he|she) is my (husband|wife|son|daughter|brother|sister|father|mother|"
            r"cousin|nephew|niece|lodger|sweetheart)|I am ((?:the )?prisoner's|his|her) (wife|husband|mother|"
            r"father|sister|brother|son|daughter)|I have known ((?:the )?prisoner|him|her) (for )?(many|\w+) years",
            re.I,
        ),
    ),
    (
        "Earlier statement differs",
        re.compile(
            r"I (did not|didn't) say (so|that) (before|at the police|to the magistrate)|before the "
            r"magistrate I (said|did not)|I may have said|I said (so )?before, but|my deposition",
            re.I,
        ),
    ),
    ("Gaps in memory", re.compile(r"I (do not|don't|cannot|can't) (recollect|remember)|I forget", re.I)),
    ("Interest in the outcome", re.compile(r"\breward\b|had a quarrel|bad terms|owed (me|him|her)", re.I)),
)


@dataclass(frozen=True)
class EvidenceRule:
    key: str
    label: str
    type: str  # physical | testimonial | documentary | forensic
    weight: float  # base strength for the side that called the witness
    pattern: re.Pattern[str]
    defence_only: bool = False


EVIDENCE_RULES: tuple[EvidenceRule, ...] = (
    EvidenceRule(
        "property",
        "Property found or produced",
        "physical",
        0.7,
        re.compile(r"\b(found|produce[sd]?|pawned|duplicate|in (his|her) (pocket|possession)|searched)\b", re.I),
    ),
    EvidenceRule(
        "identification",
        "Identification of the accused",
        "testimonial",
        0.6,
        re.compile(
            r"\b(I (am|was) (quite )?(sure|positive|certain) (he|she|(?:the )?prisoner) is"
            r"|I (know|knew|recognised|identified) ((?:the )?prisoner|him|her)|picked (him|her) out"
            r"|have no doubt (he|she|(?:the )?prisoner|of))\b",
            re.I,
        ),
    ),
    EvidenceRule(
        "statement",
        "Statement by the accused",
        "testimonial",
        0.75,
        re.compile(
            r"\b((?:the )?prisoner|he|she) (said|told me|confessed|admitted|replied|answered)\b|\bconfess", re.I
        ),
    ),
    EvidenceRule(
        "medical",
        "Medical evidence",
        "forensic",
        0.65,
        # A finding or a medical witness, not a doctor named in passing ("doctor's orders", "he was then
        # described as a surgeon", "I went out to the doctor to get some medicine": 1901-1910).
        re.compile(
            r"\b(post[- ]mortem|wound(s|ed)?|bruis(e|es|ed)|fractured?|cause of death|injur(y|ies|ed)|contusions?"
            r"|I am (a |the )?(surgeon|doctor|physician|medical|registered medical|divisional surgeon|house[- ]surgeon)"
            r"|M\.R\.C\.S|L\.R\.C\.P|I examined (him|her|the (body|deceased|child|prosecutor|prosecutrix|injured)))\b",
            re.I,
        ),
    ),
    EvidenceRule(
        "document",
        "Documents",
        "documentary",
        0.6,
        re.compile(
            r"\b(letter|cheque|check|bill of exchange|certificate|register|receipt|note|forged|signature|"
            r"handwriting)\b",
            re.I,
        ),
    ),
    EvidenceRule(
        "alibi",
        "Alibi",
        "testimonial",
        0.6,
        re.compile(
            r"\b(I was with (him|her|(?:the )?prisoner)|(he|she|(?:the )?prisoner) was (at home|with me)"
            r"|all the (time|evening))\b",
            re.I,
        ),
        defence_only=True,
    ),
    EvidenceRule(
        "character",
        "Good character",
        "testimonial",
        0.45,
        re.compile(r"good character|honest|sober|respectable|industrious", re.I),
        defence_only=True,
    ),
)


def split_sentences(text: str) -> list[str]:
    """Sentences of testimony, not broken after "Mr.", "St.", "No. 4" or initials; dashes break too."""
    return list(_sentences(text))


@functools.lru_cache(maxsize=64)  # a testimony is split by every rule that reads it sentence by sentence
def _sentences(text: str) -> tuple[str, ...]:
    pieces: list[str] = []
    at = 0
    for match in SENTENCE_BREAK.finditer(text):
        before = text[at : match.start()]
        dash = match.group(0).strip() in {"—", "-"}
        # Both patterns end at the end of ``before``: only its last few characters are searched.
        tail = max(0, len(before) - ABBREVIATION_WIDTH)
        number = NUMBER_ABBREVIATION.search(before, tail) and text[match.end() : match.end() + 1].isdigit()
        if not dash and (ABBREVIATION.search(before, tail) or number):
            continue  # not a sentence end: the next break is looked for from the same start
        pieces.append(before)
        at = match.end()
    pieces.append(text[at:])
    return tuple(piece.strip() for piece in pieces if piece.strip())


def charge_words(category: str, subcategory: str) -> str:
    """'theft', 'grandLarceny' -> 'Theft: grand larceny'."""
    head = OFFENCE_WORDS.get(category, _split_camel(category).capitalize() or "Offence")
    tail = SUBCATEGORY_WORDS.get(subcategory, _split_camel(subcategory))
    return f"{head}: {tail}" if tail else head


def punishment_words(category: str, subcategory: str) -> str:
    head = PUNISHMENT_WORDS.get(category, _split_camel(category).capitalize())
    tail = _split_camel(subcategory) if subcategory and subcategory != "no_subcategory" else ""
    return f"{head} ({tail})" if head and tail else head


def content_notes(categories: list[tuple[str, str]]) -> list[str]:
    """Content notes for every (category, subcategory) charged; subcategory rules win."""
    notes: list[str] = []
    for category, subcategory in categories:
        picked = CONTENT_NOTES_BY_SUBCATEGORY.get(subcategory, CONTENT_NOTES_BY_CATEGORY.get(category, ()))
        notes.extend(note for note in picked if note not in notes)
    return notes


def credibility_issues(testimony: str) -> list[str]:
    folded = fold(testimony)
    return [label for label, pattern in CREDIBILITY_RULES if may_match(pattern, folded) and pattern.search(testimony)]


def witness_role(*, testimony: str, is_victim: bool, defence: bool) -> str:
    opening = testimony[:200].lower()
    if is_victim:
        return "victim"
    if re.search(r"\b(surgeon|physician|doctor|medical|m\.r\.c\.s|l\.r\.c\.p)\b", opening):
        return "medical expert"
    if re.search(r"\b(police|constable|officer|detective|inspector|sergeant|watchman|beadle)\b", opening):
        return "police officer"
    if defence and GOOD_CHARACTER_WORDS.search(testimony):
        return "character"
    return "eyewitness"


# Questions put to the witness ("Q." in the question-and-answer print, to the 1860s) or their
# cross-examination printed as answers only ("Cross-examined. I am an unfortunate", from the 1870s).
CROSS_EXAMINATION = re.compile(r"\bCross-examin(?:ed|ation)\b", re.I)
NOTHING_FOUND = re.compile(
    r"(found|find) nothing|nothing (was )?found|did not find|none of the|not found|could not find|never found", re.I
)
REPORTED_DENIAL = re.compile(
    r"\b(said|told me|replied|answered|stated)[,:]? (that )?[\"“]?(he|she|I) (had )?(bought|found|picked|knew nothing"
    r"|know nothing|was innocent|am innocent|did not|didn't|never|had it given|was given|had it of|had them of)",
    re.I,
)
GOOD_CHARACTER_WORDS = re.compile(r"good character|honest|respectable", re.I)


@dataclass(frozen=True)
class EvidenceDraft:
    label: str
    type: str
    description: str
    strength_prosecution: float
    strength_defense: float
    contestable: bool
    contest_reason: str


def evidence_label(rule: EvidenceRule, *, witness: str, accused: str) -> str:
    """The item's label names its witness; a statement is the accused's, only reported by the witness."""
    if rule.key != "statement":
        return f"{rule.label} ({witness})"[:200]
    who = f"Statement by the accused ({accused})" if accused else "Statement by the accused"
    return f"{who}, as reported by {witness}"[:200]


def evidence_from(
    *, witness: str, testimony: str, defence: bool, issues: list[str], accused: str = "", own_words: bool = False
) -> list[EvidenceDraft]:
    """Evidence items from one witness's testimony.

    ``accused`` names the defendant a reported statement is attributed to (empty when there are
    several). ``own_words`` is set when the witness is the accused giving evidence: what they
    report others saying is not a statement by the accused, so that rule is skipped for them.
    """
    sentences = [s for s in split_sentences(testimony) if len(s) > 12]
    folded = fold(testimony)
    folded_sentences: list[str | None] = []
    cross_examined = "Q." in testimony or bool(CROSS_EXAMINATION.search(testimony))
    items: list[EvidenceDraft] = []
    for rule in EVIDENCE_RULES:
        if (rule.defence_only and not defence) or (own_words and rule.key == "statement"):
            continue
        words = words_in(rule.pattern, folded)
        if words == ():
            continue  # no sentence can match: they are all parts of the testimony
        folded_sentences = folded_sentences or [fold(s) for s in sentences]
        hits = [
            s
            for s, folded_s in zip(sentences, folded_sentences, strict=True)
            if holds_any(folded_s, words) and rule.pattern.search(s) and not s.startswith("Q.")
        ]
        if rule.key == "statement" and not defence:
            hits = [s for s in hits if not REPORTED_DENIAL.search(s)]
        if rule.key == "property":
            hits = [s for s in hits if not NOTHING_FOUND.search(s)]
        if not hits:
            continue
        weight = max(0.15, rule.weight - 0.1 * len(issues) - (0.05 if cross_examined else 0.0))
        mine = round(weight, 2)
        other = round(min(1.0, (1.0 - weight) * 0.8 + GENERIC_OTHER), 2)
        if defence:  # a doubted defence witness is weak for the prisoner, never evidence against them
            other = min(other, mine)
        prosecution, defense = (other, mine) if defence else (mine, other)
        items.append(
            EvidenceDraft(
                label=evidence_label(rule, witness=witness, accused=accused),
                type=rule.type,
                description=" … ".join(hits[:3])[:1500],
                strength_prosecution=prosecution,
                strength_defense=defense,
                contestable=bool(issues),
                contest_reason="; ".join(issues),
            )
        )
    return items


def difficulty(*, evidence: list[EvidenceDraft], defence_witnesses: int, prosecution_issues: int) -> str:
    balance = sum(e.strength_prosecution - e.strength_defense for e in evidence)
    balance -= 0.5 * defence_witnesses + 0.25 * prosecution_issues
    if balance >= 1.5:
        return "clear_guilty"
    if balance <= -0.25:
        return "clear_innocent"
    return "ambiguous"


def _split_camel(value: str) -> str:
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", value).lower()
