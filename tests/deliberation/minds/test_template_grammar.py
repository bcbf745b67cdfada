"""Every template of the jury room renders as English whatever fills it.

Each line of the offline jurors' phrasebooks (frames, phrases, voices, the player's crafted
arguments, the archetypes' and the reflection's lines) and of the foreperson is rendered with one
evidence label and with several ("the money order receipt", "the cell-site records"), with titled
names ("Dr. James Wright") and an imported offence; the judge's opening is rendered with one
defendant and with three. A rendering fails when a verb after the label does not agree with it
("the cell-site records still stands"), a placeholder or an agreement marker is left over, an
article is doubled ("the the", "the a"), or a line starts in lower case. (The trial's own templates
have their test in ``tests/deliberation/engine/test_trial_grammar.py``.)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from types import ModuleType

import pytest

from deliberation.engine import foreperson, judge
from deliberation.minds.offline import archetypes, craft, frames, phrases, reflection, voices
from deliberation.minds.offline.naming import agree, item_name_of, label_plural, old_bailey_name, tidy

ONE = "the money order receipt"
SEVERAL = "the cell-site records"
# Verb forms that agree with one thing only, and with several only.
SINGULAR_VERBS = frozenset(
    "is isn't was wasn't has hasn't does doesn't stands proves says stays matters points fits counts comes cuts "
    "gets leaves asks carries holds looks tells shows remains seems bothers changes decides settles worries "
    "hurts".split()
)
PLURAL_VERBS = frozenset(
    "are aren't were weren't have haven't do don't stand prove say stay matter point fit count come cut get leave "
    "ask carry hold look tell show remain seem bother change decide settle worry hurt".split()
)
ADVERBS = frozenset("still only mostly really never just also simply".split())
# A label after one of these is not the verb's subject: "the doubts about {ref} haven't", "does {ref} tell".
NOT_SUBJECT = frozenset(
    "about to in of on at from with for into over does do did can could would should will may might must".split()
)
SUBJECT_KEYS = {"label", "ref", "their", "short"}
LEFTOVER = re.compile(r"[{}\[\]|]")
DOUBLED = re.compile(r"\b(the|a|an) (the|a|an)\b", re.I)


class Fillers(dict[str, str]):
    """What each placeholder is filled with: the subject under test, titled names, a quote, a clause."""

    def __init__(self, subject: str) -> None:
        super().__init__()
        self.subject = subject

    def __missing__(self, key: str) -> str:
        low = key.lower()
        if low in SUBJECT_KEYS:
            return self.subject if key.islower() else self.subject[:1].upper() + self.subject[1:]
        words = {
            "name": "Dr. James Wright",
            "who": "Dr. James Wright",
            "witness": "Mr. Justice Hawkins",
            "defendant": "Curtis Hale",
            "names": "Ann Cann and Mary Roach",
            "detail": "“I saw him at the counter.”",
            "testimony": "“I saw him at the counter.”",
            "quote": "“I saw him at the counter.”",
            "detail_low": "the lock showed no damage.",
            "fact": "the lock showed no damage",
            "reason": "the lock showed no damage",
            "issue": "the witness had been drinking",
            "other": "the pawn ticket",
            "opponents": "the defense",
            "text": "the knife was found",
            "majority": "guilty",
            "side": "guilty",
            "verdict": "guilty",
            "before": "guilty",
            "after": "not guilty",
        }.get(low, "7")
        return words[:1].upper() + words[1:] if key[:1].isupper() and not key.isupper() else words


def templates(module: ModuleType) -> Iterator[tuple[str, str]]:
    """(name, template) for every module-level line with a placeholder or a marker, in tables too."""
    for name, value in vars(module).items():
        if not name.isupper():
            continue
        found = value.values() if isinstance(value, dict) else [value]
        for entry in found:
            lines = entry if isinstance(entry, tuple) else (entry,)
            for line in lines:
                if isinstance(line, str) and " " in line and ("{" in line or "[" in line):
                    yield name, line


SOURCES = (frames, phrases, voices, craft, archetypes, reflection, foreperson)
ALL = [(f"{m.__name__.rsplit('.', 1)[-1]}.{n}", t) for m in SOURCES for n, t in templates(m)]


def agreement_errors(text: str, subject: str, plural: bool) -> list[str]:
    """The verbs after ``subject`` in ``text`` that do not agree with it."""
    errors = []
    for match in re.finditer(re.escape(subject), text, re.I):
        before = re.findall(r"[A-Za-z']+", text[: match.start()])
        asked = before[-1].lower() if before else ""  # "how much is {ref} worth?": the verb comes first
        question = (
            text[match.end() :].split(".")[0].split("!")[0].rstrip().endswith("?")
            or "?" in text[match.end() : match.end() + 60].split(".")[0]
        )
        if question and asked in (SINGULAR_VERBS if plural else PLURAL_VERBS) and asked not in {"do", "does", "did"}:
            errors.append(f"{asked} {subject}")
        if asked in NOT_SUBJECT or asked in SINGULAR_VERBS | PLURAL_VERBS:
            continue
        following = re.findall(r"[A-Za-z']+", text[match.end() :])
        while following and following[0].lower() in ADVERBS:
            following.pop(0)
        verb = following[0].lower() if following else ""
        if verb in (SINGULAR_VERBS if plural else PLURAL_VERBS):
            errors.append(f"{subject} {verb}")
    return errors


def problems(text: str, subject: str, plural: bool) -> list[str]:
    found = agreement_errors(text, subject, plural)
    if LEFTOVER.search(text):
        found.append("a placeholder or marker is left over")
    if DOUBLED.search(text):
        found.append(f"doubled article: {DOUBLED.search(text).group(0)}")  # type: ignore[union-attr]
    if "  " in text or " ." in text or " ," in text:
        found.append("stray space")
    if text[:1].islower():
        found.append("starts in lower case")
    return found


def render(template: str, subject: str, plural: bool) -> str:
    return agree(template, plural).format_map(Fillers(subject))


def test_the_fillers_are_one_thing_and_several() -> None:
    assert not label_plural("Money order receipt") and label_plural("Cell-site records")
    assert item_name_of("Money order receipt").text == ONE and item_name_of("Cell-site records").text == SEVERAL


@pytest.mark.parametrize(("source", "template"), ALL, ids=[f"{s}:{n}" for n, (s, _) in enumerate(ALL)])
def test_every_template_agrees_with_one_thing_and_with_several(source: str, template: str) -> None:
    for subject, plural in ((ONE, False), (SEVERAL, True)):
        text = render(template, subject, plural)
        assert problems(text, subject, plural) == [], (source, template, text)


def test_the_check_catches_a_verb_that_does_not_agree() -> None:
    """The test can fail: a template written without its agreement marker is caught with several things."""
    planted = "{Ref} still stands, and {ref} is where I keep landing."
    text = render(planted, SEVERAL, True)
    assert agreement_errors(text, SEVERAL, True) == [f"{SEVERAL} stands", f"{SEVERAL} is"]
    assert problems(render("the {ref} is here.", ONE, False), ONE, False) == [
        "doubled article: the the",
        "starts in lower case",
    ]


@pytest.mark.parametrize(
    "label",
    [
        "A witness had been drinking (Elizabeth Diggle)",
        "It may have been an accident (Mr. Kidney)",
        "The prosecutor is the only witness",
        "Statement by the accused (Thomas Lodge), as reported by Mrs. Newman",
        "Witnesses contradict each other (Richard Foot)",
        "Documents (John Smith)",
        "Caught in the act (Elizabeth Doo)",
    ],
)
def test_an_imported_label_is_named_as_a_noun_phrase_that_agrees(label: str) -> None:
    name = old_bailey_name(label)
    assert name is not None
    for template in [t for _, t in ALL if "{Ref}" in t or "{Label}" in t][:40]:
        text = render(template, name.text, name.plural)
        assert agreement_errors(text, name.text, name.plural) == [], text
        assert not re.search(r"\bthe (a|an|it|the)\b", text, re.I), text


@pytest.mark.parametrize(
    ("defendants", "verb"), [(["Curtis Hale"], "stands"), (["James Kelly", "Mary Roach", "Ann Cann"], "stand")]
)
def test_the_judge_opens_in_agreement_with_one_defendant_or_several(defendants: list[str], verb: str) -> None:
    text = judge.case_presentation(defendants=defendants, charges=["Violent theft: robbery"], summary="A purse.")
    assert f"who {verb} accused of robbery with violence." in text


def test_a_frame_for_a_sides_own_item_never_says_the_item_is_unanswered() -> None:
    """ "The photo array identification has not been answered, not really. ... I'm at guilty": said of
    an item the speaker argues, "not answered" reads as the other side's open objection."""
    unanswered = re.compile(r"\{Ref\}(?: \[has\|have\]| has| have) not been answered")
    for angle in ("support", "witness_support", "own_account"):
        assert not [t for t in frames.BARE[angle] if unanswered.search(t)], angle


SAID = "what Eli Collins said to the constable"  # an imported item that is itself someone's words


def test_an_item_that_is_what_someone_said_reads_as_english_in_every_template() -> None:
    # "We heard what what William Rodman said to Eli Collins says." came out of an imported trial.
    framed = 0
    for source, template in ALL:
        text = tidy(render(template, SAID, False))
        assert "what what" not in text.lower(), (source, template, text)
        assert not re.search(r"said to the constable (?:says|say)\b", text), (source, template, text)
        framed += "what {" in template
    assert framed  # some templates do say "what {label} says"


def test_a_quotation_that_ends_its_own_sentence_leaves_no_stop_over() -> None:
    assert tidy("He said 'you'll regret it.'. Whatever the objections, it stands.") == (
        "He said 'you'll regret it.' Whatever the objections, it stands."
    )
