"""Words the trial's templates fill in, built so a sentence agrees whatever fills it.

One defendant or several ("Curtis Hale stands charged", "James Kelly, Mary Roach and Ann Cann stand
charged"), one answer or several, names with titles kept whole, and the offence as a phrase a
court would say: an Old Bailey charge is printed by the importer as its category and subcategory
("Violent theft: robbery"), which ``offence_phrase`` turns into "robbery with violence" through
``OFFENCE_PHRASES``, a table over the Old Bailey's whole offence vocabulary. A curated charge is
already a phrase ("Aggravated robbery (first-degree felony), with a deadly weapon") and only loses
its capital inside a sentence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# (category, subcategory) -> what a judge would call the offence. "" is the category with no
# subcategory (or "other", which the Proceedings use for the same thing).
OFFENCE_PHRASES: dict[tuple[str, str], str] = {
    ("theft", ""): "theft",
    ("theft", "animalTheft"): "stealing animals",
    ("theft", "burglary"): "burglary",
    ("theft", "embezzlement"): "embezzlement",
    ("theft", "extortion"): "extortion",
    ("theft", "grandLarceny"): "grand larceny",
    ("theft", "housebreaking"): "housebreaking",
    ("theft", "mail"): "stealing from the mail",
    ("theft", "pettyLarceny"): "petty larceny",
    ("theft", "pocketpicking"): "picking pockets",
    ("theft", "receiving"): "receiving stolen goods",
    ("theft", "shoplifting"): "shoplifting",
    ("theft", "simpleLarceny"): "simple larceny",
    ("theft", "stealingFromMaster"): "stealing from a master",
    ("theft", "theftFromPlace"): "stealing from a dwelling or other place",
    ("violentTheft", ""): "robbery with violence",
    ("violentTheft", "highwayRobbery"): "highway robbery",
    ("violentTheft", "robbery"): "robbery with violence",
    ("kill", ""): "unlawful killing",
    ("kill", "infanticide"): "infanticide",
    ("kill", "manslaughter"): "manslaughter",
    ("kill", "murder"): "murder",
    ("kill", "pettyTreason"): "petty treason",
    ("deception", ""): "deception",
    ("deception", "bankrupcy"): "fraud in bankruptcy",
    ("deception", "forgery"): "forgery",
    ("deception", "fraud"): "fraud",
    ("deception", "perjury"): "perjury",
    ("sexual", ""): "a sexual offence",
    ("sexual", "assaultWithIntent"): "assault with intent",
    ("sexual", "assaultWithSodomiticalIntent"): "assault with sodomitical intent",
    ("sexual", "bigamy"): "bigamy",
    ("sexual", "indecentAssault"): "indecent assault",
    ("sexual", "keepingABrothel"): "keeping a brothel",
    ("sexual", "rape"): "rape",
    ("sexual", "sodomy"): "sodomy",
    ("breakingPeace", ""): "a breach of the peace",
    ("breakingPeace", "assault"): "assault",
    ("breakingPeace", "barratry"): "barratry",
    ("breakingPeace", "libel"): "libel",
    ("breakingPeace", "riot"): "riot",
    ("breakingPeace", "threateningBehaviour"): "threatening behaviour",
    ("breakingPeace", "vagabond"): "vagrancy",
    ("breakingPeace", "wounding"): "wounding",
    ("damage", ""): "damage to property",
    ("damage", "arson"): "arson",
    ("royalOffences", ""): "an offence against the Crown",
    ("royalOffences", "coiningOffences"): "coining",
    ("royalOffences", "religiousOffences"): "an offence against religion",
    ("royalOffences", "seditiousLibel"): "seditious libel",
    ("royalOffences", "seditiousWords"): "speaking seditious words",
    ("royalOffences", "taxOffences"): "an offence against the revenue",
    ("royalOffences", "treason"): "treason",
    ("miscellaneous", ""): "a miscellaneous offence",
    ("miscellaneous", "concealingABirth"): "concealing a birth",
    ("miscellaneous", "conspiracy"): "conspiracy",
    ("miscellaneous", "gameLawOffence"): "an offence against the game laws",
    ("miscellaneous", "habitualCriminal"): "being a habitual criminal",
    ("miscellaneous", "illegalAbortion"): "procuring an abortion",
    ("miscellaneous", "kidnapping"): "kidnapping",
    ("miscellaneous", "pervertingJustice"): "perverting the course of justice",
    ("miscellaneous", "piracy"): "piracy",
    ("miscellaneous", "returnFromTransportation"): "returning from transportation",
}
# How the importer prints each category ahead of the colon (cases.importers.oldbailey_rules), and
# the subcategories it prints in words other than their own (a test keeps both in step with it).
CATEGORY_LABELS = {
    "theft": "theft",
    "violent theft": "violentTheft",
    "killing": "kill",
    "deception": "deception",
    "sexual offence": "sexual",
    "breaking the peace": "breakingPeace",
    "offence against the crown": "royalOffences",
    "damage to property": "damage",
    "miscellaneous offence": "miscellaneous",
}
SUBCATEGORY_LABELS = {
    "pickpocketing": "pocketpicking",
    "theft from a specified place": "theftFromPlace",
    "theft from the mail": "mail",
    "receiving stolen goods": "receiving",
    "vagabondage": "vagabond",
    "returning from transportation": "returnFromTransportation",
}
LESSER = re.compile(r"\blesser(?: included)? offen[cs]e\b", re.I)
CODE = re.compile(r"[^a-z]")


def read_charge(charge: str) -> tuple[str, str] | None:
    """The Old Bailey (category, subcategory) an imported charge was printed from, or None for a
    charge in a curator's own words."""
    head, _, tail = charge.partition(":")
    category = CATEGORY_LABELS.get(head.strip().lower())
    if category is None:
        return None
    tail = tail.strip().lower()
    if not tail:
        return category, ""
    code = SUBCATEGORY_LABELS.get(tail)
    if code is None:
        code = next(
            (
                sub
                for cat, sub in OFFENCE_PHRASES
                if cat == category and CODE.sub("", sub.lower()) == CODE.sub("", tail)
            ),
            "",
        )
        if not code:
            return None  # a subcategory the table does not know: the charge is spoken as printed
    return category, code


def offence_phrase(category: str, subcategory: str = "") -> str:
    """violentTheft/robbery -> "robbery with violence"; an unknown pair falls back to the category's phrase."""
    sub = "" if subcategory in ("other", "no_subcategory") else subcategory
    return OFFENCE_PHRASES.get((category, sub)) or OFFENCE_PHRASES.get((category, ""), "the offence charged")


def _lower_first(text: str) -> str:
    """A phrase inside a sentence: "Aggravated robbery" -> "aggravated robbery", "DUI" stays."""
    first = text.split(" ", 1)[0]
    return text if first[1:2].isupper() else text[:1].lower() + text[1:]


def charge_phrase(charge: str) -> str:
    """One charge as it is said inside a sentence."""
    code = read_charge(charge)
    if code is not None:
        return offence_phrase(*code)
    text = charge.strip().rstrip(".")
    return _lower_first(text) if text else "the offence charged"


def charges_phrase(charges: Sequence[str]) -> str:
    """Every charge, joined as speech: "murder in the second degree or manslaughter ..." where the
    later charge is a lesser included offence (an alternative), "and" otherwise."""
    phrases = list(dict.fromkeys(charge_phrase(c) for c in charges if c.strip()))
    if not phrases:
        return "the offence charged"
    if len(phrases) == 1:
        return phrases[0]
    word = "or" if any(LESSER.search(p) for p in phrases[1:]) else "and"
    return ", ".join(phrases[:-1]) + f", {word} " + phrases[-1] if len(phrases) > 2 else f" {word} ".join(phrases)


def join_names(names: Sequence[str], *, none: str = "the accused") -> str:
    """ "Curtis Hale", "A and B", "A, B and C"; titles stay with their names ("Mr. Justice Hawkins")."""
    names = [n.strip() for n in names if n.strip()]
    if not names:
        return none
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def agree(count: int, singular: str, plural: str) -> str:
    """The verb (or noun) that agrees with ``count`` things."""
    return singular if count == 1 else plural


def counted(count: int, noun: str, plural: str = "") -> str:
    """ "1 answer", "3 answers", "no answers"."""
    many = plural or noun + "s"
    return f"no {many}" if count == 0 else f"{count} {agree(count, noun, many)}"
