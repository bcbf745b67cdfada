"""How a juror names an item of the case file inside a sentence, and whether the name is plural.

A curated label is a noun phrase ("Cell-site records", "Arc bead on the neon-sign circuit"): it is
named with "the" and its number is read from its head noun ("records" is plural, "bead" singular,
"X and Y" plural), so a template says "the cell-site records still stand". An imported Old Bailey
label is one of the importer's fixed forms, several of them clauses ("A witness had been drinking
(Mary Dunn)", "It may have been an accident", "The prosecutor is the only witness"): each form has
a noun phrase of its own here ("Mary Dunn's drinking", "the chance that it was an accident", "the
prosecutor's word alone"), so no template ever reads "the a witness had been drinking" and no
summary cuts a clause in half. Agreement in a template is written ``[stands|stand]``: the first
form for one thing, the second for several (``agree``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from deliberation.engine.types import CaseFile
from deliberation.minds.offline.text import fit

# The importer's labels (cases.importers.oldbailey_rules / oldbailey_points), as noun phrases.
# {who} is the witness the label names; plural marks a name that takes a plural verb.
OLD_BAILEY_FORMS: dict[str, tuple[str, bool]] = {
    "property found or produced": ("the property {who} produced", False),
    "identification of the accused": ("{who}'s identification of the prisoner", False),
    "medical evidence": ("{who}'s medical evidence", False),
    "documents": ("the documents {who} produced", True),
    "alibi": ("the alibi {who} gave", False),
    "good character": ("{who}'s word for the prisoner's character", False),
    "caught in the act": ("{who}'s account of catching the prisoner in the act", False),
    "a confession": ("the confession {who} heard", False),
    "the property found on the prisoner": ("the property {who} saw found on the prisoner", False),
    "a witness cannot swear to the prisoner": ("{who}'s refusal to swear to the prisoner", False),
    "a witness had been drinking": ("{who}'s drinking", False),
    "the property was never found on the prisoner": ("{who}'s evidence that nothing was found on the prisoner", False),
    "witnesses contradict each other": ("the contradictions between the witnesses", True),
    "the property traced to the prisoner through a pawnbroker": ("the pawned property {who} traced", False),
    "a witness for the prosecution does not know": ("what {who} could not say", False),
    "it may have been an accident": ("the chance that it was an accident", False),
    "the prisoner's own account admits the deed": ("the prisoner's own admission", False),
    "the prisoner's account owns to having the property": ("the prisoner's own word that he had the property", False),
    "the prisoner denies the charge": ("the prisoner's denial", False),
    "the prosecution's case was fought at length": ("the long fight over the prosecution's case", False),
    "the prosecutor is the only witness": ("the prosecutor's word alone", False),
    "witnesses for the defence": ("the witnesses for the defence", True),
    "counsel tested the prosecution's witnesses": ("counsel's cross-examination", False),
}
STATEMENT = re.compile(
    r"^Statement by the accused(?: \((?P<accused>[^()]+)\))?(?:, as reported by (?P<who>.+))?$", re.I
)
WITNESSED = re.compile(r"^(?P<form>.+?) \((?P<who>[^()]+)\)$")
AGREEMENT = re.compile(r"\[([^\[\]|]*)\|([^\[\]|]*)\]")
PREPOSITIONS = frozenset("at on from by in under to of for with near inside outside behind after before during".split())
SINGULAR_ENDINGS = ("ss", "us", "is", "ics", "news", "series")
PLURAL_WORDS = frozenset("police people cattle clothes goods".split())


@dataclass(frozen=True)
class Name:
    """An item as said mid-sentence, and whether a verb after it is plural."""

    text: str
    plural: bool = False

    @property
    def capital(self) -> str:
        return self.text[:1].upper() + self.text[1:]


def plural_head(phrase: str) -> bool:
    """Whether a noun phrase is plural: "X and Y" before any preposition, or a plural head noun
    ("fragments at the scene", "cell-site records"), read from the last word before a preposition."""
    words = re.sub(r"\([^()]*\)", " ", phrase).replace(",", " ").split()
    head: list[str] = []
    for word in words:
        if word.lower() in PREPOSITIONS and head:
            break
        head.append(word)
    low = [w.lower().strip("'\"’") for w in head]
    if "and" in low[1:]:
        return True
    last = low[-1] if low else ""
    if last in PLURAL_WORDS:
        return True
    if last.endswith(("'s", "’s")) or not last.isalpha():
        return False
    return last.endswith("s") and not last.endswith(SINGULAR_ENDINGS) and len(last) > 3


def old_bailey_name(label: str) -> Name | None:
    """The noun phrase for an importer's label, or None for a label in a curator's own words."""
    statement = STATEMENT.match(label.strip())
    if statement:
        accused = statement.group("accused") or "the prisoner"
        who = statement.group("who")
        text = f"what {accused} said to {who}" if who else f"what {accused} said"
        return Name(text)
    witnessed = WITNESSED.match(label.strip())
    form, who = (witnessed.group("form"), witnessed.group("who")) if witnessed else (label.strip(), "")
    known = OLD_BAILEY_FORMS.get(form.strip().rstrip(".").lower())
    if known is None:
        return None
    text, plural = known
    if "{who}" in text:
        if not who:
            text = text.replace("{who}'s", "the witness's").replace("{who}", "the witness")
        text = text.format(who=who)
    return Name(text, plural)


# A filler that ends its own sentence (a quotation "... regret it.'") leaves the template's full stop
# over: "regret it.'." reads as a slip.
DOUBLE_STOP = re.compile(r"(?<![.])([.!?])(['’”\"]?)\.(?=\s|$)")
# A quotation's own full stop, left mid-sentence: "If 'I was just driving around.', then ...".
INNER_STOP = re.compile(r"(?<![.])\.(['’”\"])(?=[,;:]| [a-z])")
# A label that is itself what someone said ("what Rodman said to Collins") in a frame that says
# "what {label} says": "We heard what what Rodman said to Collins says" is "We heard what Rodman said".
WHAT_SAYS = re.compile(
    r"\bwhat (what [^.?!;:]+?) (?:actually |really )?(?:says|say|shows|show|means|mean|proves|prove|tells us|tell us)\b"
)
WHAT_WHAT = re.compile(r"\b([Ww]hat) what\b")


def tidy(text: str) -> str:
    """A filled template as a person would write it: no stop doubled or left inside a sentence,
    no "what what ... says"."""
    text = INNER_STOP.sub(r"\1", DOUBLE_STOP.sub(r"\1\2", text))
    return WHAT_WHAT.sub(r"\1", WHAT_SAYS.sub(r"\1", text))


def agree(template: str, plural: bool) -> str:
    """``[stands|stand]`` -> "stands" for one thing, "stand" for several."""
    return AGREEMENT.sub(lambda m: m.group(2) if plural else m.group(1), template)


def item_name(label: str, case: CaseFile | None) -> str:
    """An evidence label as it sits mid-sentence: "the money order receipt", but "Wade's alibi"."""
    fitted = fit(re.sub(r",\s*as reported by .*$", "", label), case)  # the reporter is named where it's quoted
    first = fitted.split(" ", 1)[0].lower()
    if first in {"the", "a", "an"} or first.endswith(("'s", "’s")):
        return fitted
    return f"the {fitted}"


def label_plural(label: str) -> bool:
    """Whether an evidence label, as a juror names it, takes a plural verb."""
    return item_name_of(label).plural


def item_name_of(label: str, case: CaseFile | None = None) -> Name:
    """An evidence label as a juror names it mid-sentence, with its number: an importer's form by
    its noun phrase, a curator's label with "the" ("the cell-site records", plural)."""
    known = old_bailey_name(label)
    if known is not None:
        return known
    bare = re.sub(r"\s*\((?![A-Z][a-z]+ [A-Z])[^()]*\)", "", label).strip() or label  # "(gasoline positive)"
    if re.match(r"^(?:[A-Z][\w.-]* ){1,3}[A-Z][\w-]*['’]s ", bare):
        return Name(bare, plural_head(bare))  # "Captain Deckard's report" names its owner: no article
    text = item_name(bare, case)
    if re.match(r"^[a-z][\w-]*['’]s ", text):  # "defendant's statements" is a common noun's: it takes "the"
        text = "the " + text
    return Name(text, plural_head(re.sub(r",\s*as reported by .*$", "", bare)))
