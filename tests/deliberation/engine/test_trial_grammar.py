"""Every template of the trial agrees with what fills it: one defendant or several, one answer or
several, names with titles, plural evidence labels, and the offence said as a court would say it."""

from __future__ import annotations

import re

import pytest

from deliberation.engine.trial import counsel
from deliberation.engine.trial.course import TrialEvent
from deliberation.engine.trial.phrases import OFFENCE_PHRASES, charges_phrase, offence_phrase, read_charge
from deliberation.engine.trial.steps import EXAMINE, SPEECH, Waiting, describe
from deliberation.engine.types import DefendantInfo, EvidenceItem, WitnessItem
from tests.deliberation.engine.factories import build_case

ONE = (DefendantInfo(name="Curtis Hale"),)
THREE = (DefendantInfo(name="James Kelly"), DefendantInfo(name="Mary Roach"), DefendantInfo(name="Ann Cann"))
TITLED = WitnessItem(
    id="W1",
    name="Mr. Justice Hawkins",
    role="magistrate",
    testimony="I committed the prisoners on the 3rd of May.",
    side="prosecution",
)
DOCTOR = WitnessItem(id="W2", name="Dr. Nadia Hollis", role="expert", testimony="I examined the body.", side="defense")
PLURAL_EVIDENCE = (
    EvidenceItem(
        id="E1",
        label="Bait bills in the glovebox",
        type="physical",
        description="Six bills.",
        strength_prosecution=0.9,
        strength_defense=0.1,
    ),
    EvidenceItem(
        id="E2",
        label="Cell-site records",
        type="documentary",
        description="The phone's sectors.",
        strength_prosecution=0.6,
        strength_defense=0.2,
    ),
)
OLD_BAILEY = ("Violent theft: robbery",)
CURATED = ("Murder in the second degree", "Manslaughter in the first degree (lesser included offence)")
# A subject of several people (or things) followed by a singular verb, or one followed by a plural one.
PLURAL_SUBJECT_SINGULAR_VERB = re.compile(
    r"\b(?:[A-Z]\w+ and [A-Z][\w.]*(?: [A-Z]\w+)*|records) (?:stands|is|was|has)\b"
)
SINGULAR_SUBJECT_PLURAL_VERB = re.compile(r"\b1 \w+ (?:were|are|have)\b|\b1 \w+s\b")


def _case(defendants: tuple[DefendantInfo, ...], charges: tuple[str, ...]):
    return build_case(defendants=defendants, charges=charges, witnesses=(TITLED, DOCTOR), evidence=PLURAL_EVIDENCE)


def _rendered(defendants: tuple[DefendantInfo, ...], charges: tuple[str, ...]) -> list[str]:
    case = _case(defendants, charges)
    quotes = [("Mr. Justice Hawkins", "I committed the prisoners on the 3rd of May.")]
    texts = [
        counsel.opening(case, "prosecution", list(case.witnesses)),
        counsel.opening(case, "defense", list(case.witnesses)),
        counsel.closing("prosecution", quotes, []),
        counsel.closing("defense", [], quotes),
        *(counsel.directions(case, struck) for struck in (0, 1, 2)),
        counsel.call_words("prosecution", TITLED),
        describe(Waiting(side="defense", what=EXAMINE, witness_id="W1", part="cross"), {"W1": TITLED.name}),
        describe(Waiting(side="prosecution", what=SPEECH, kind="opening"), {}),
    ]
    return texts


@pytest.mark.parametrize(
    ("defendants", "charges"), [(ONE, OLD_BAILEY), (THREE, OLD_BAILEY), (ONE, CURATED), (THREE, CURATED)]
)
def test_no_template_of_the_trial_breaks_agreement(defendants, charges):
    for text in _rendered(defendants, charges):
        assert not PLURAL_SUBJECT_SINGULAR_VERB.search(text), text
        assert not SINGULAR_SUBJECT_PLURAL_VERB.search(text), text


def test_several_defendants_stand_charged_and_one_stands_charged():
    several = counsel.opening(_case(THREE, OLD_BAILEY), "prosecution", [])
    assert "James Kelly, Mary Roach and Ann Cann stand charged with robbery with violence." in several
    one = counsel.opening(_case(ONE, OLD_BAILEY), "prosecution", [])
    assert "Curtis Hale stands charged with robbery with violence." in one


def test_the_judge_asks_whether_each_defendant_is_guilty_in_agreement():
    assert "that James Kelly, Mary Roach and Ann Cann are guilty of robbery with violence" in counsel.directions(
        _case(THREE, OLD_BAILEY), 0
    )
    assert "that Curtis Hale is guilty of robbery with violence" in counsel.directions(_case(ONE, OLD_BAILEY), 0)


def test_the_defence_opening_says_charge_or_charges_as_there_are():
    assert "prove each of these charges" in counsel.opening(_case(ONE, CURATED), "defense", [])
    assert "prove this charge" in counsel.opening(_case(ONE, OLD_BAILEY), "defense", [])


def test_struck_answers_are_counted_in_agreement():
    case = _case(ONE, OLD_BAILEY)
    assert "1 answer was struck out" in counsel.directions(case, 1)
    assert "2 answers were struck out" in counsel.directions(case, 2)
    assert "struck" not in counsel.directions(case, 0)


def test_a_curated_lesser_included_offence_is_put_as_an_alternative_in_lower_case():
    assert (
        charges_phrase(CURATED)
        == "murder in the second degree or manslaughter in the first degree (lesser included offence)"
    )
    assert (
        charges_phrase(("Robbery", "Assault occasioning bodily harm")) == "robbery and assault occasioning bodily harm"
    )


def test_a_title_stays_with_its_name_when_a_witness_is_called():
    assert (
        counsel.call_words("prosecution", TITLED)
        == "Counsel for the prosecution calls Mr. Justice Hawkins (magistrate)."
    )


def test_no_category_label_reaches_a_speech():
    for text in _rendered(THREE, OLD_BAILEY):
        assert "Violent theft" not in text and "theft:" not in text.lower(), text


def _charge_words(category: str, subcategory: str) -> str:
    # Why here: the importer's own printing of a charge, so the engine's reading is checked against it.
    from cases.importers.oldbailey_rules import charge_words

    return charge_words(category, subcategory)


HELD_OUT = {"18011028", "18370918", "18710109", "18960113", "19040418", "19120910"}  # the team's untouched sessions


def _pairs_in_the_data() -> set[tuple[str, str]]:
    from tests.cases.oldbailey_sample import DATA

    pairs: set[tuple[str, str]] = set()
    pattern = re.compile(
        r'type="offenceCategory" value="([^"]+)"\s*/>\s*(?:<interp[^>]*type="offenceSubcategory" value="([^"]+)")?'
    )
    more = [p for p in (DATA / "more-sessions").glob("*.xml") if p.stem not in HELD_OUT]
    for path in [*(DATA / "trials").glob("*.xml"), *(DATA / "sessions").glob("*.xml"), *more]:
        pairs.update((cat, sub or "") for cat, sub in pattern.findall(path.read_text(encoding="utf-8")))
    return pairs


def test_every_offence_of_the_old_bailey_data_reads_as_a_phrase_of_the_table():
    pairs = _pairs_in_the_data()
    assert len(pairs) > 30  # the sample's categories and subcategories were all read
    for category, subcategory in pairs:
        sub = "" if subcategory == "other" else subcategory
        assert (category, sub) in OFFENCE_PHRASES, (category, subcategory)
        printed = _charge_words(category, subcategory)
        assert read_charge(printed) is not None, printed
        assert charges_phrase((printed,)) == offence_phrase(category, subcategory), printed


def test_every_pair_of_the_table_reads_back_from_the_importers_words():
    for category, subcategory in OFFENCE_PHRASES:
        printed = _charge_words(category, subcategory)
        assert offence_phrase(*read_charge(printed)) == OFFENCE_PHRASES[(category, subcategory)], printed


def test_robbery_and_pickpocketing_read_as_a_court_says_them():
    assert charges_phrase(("Violent theft: robbery",)) == "robbery with violence"
    assert charges_phrase(("Theft: pickpocketing",)) == "picking pockets"


def test_the_trial_summary_counts_in_agreement():
    # Why here: trial_record is a use of the trial, read by the debrief and the summary export.
    from deliberation.trial.record import trial_summary_lines

    events = [
        TrialEvent(0, "prosecution_case", "question", "Counsel for the prosecution", "prosecution", "Where?", "W1"),
        TrialEvent(1, "prosecution_case", "objection", "Counsel for the defence", "defense", "Objection.", "W1"),
        TrialEvent(2, "prosecution_case", "ruling", "The judge", "judge", "Sustained.", "W1", sustained=True),
        TrialEvent(3, "prosecution_case", "answer", "W", "witness", "Here.", "W1", struck=True, grounded=True),
    ]
    line = trial_summary_lines(events)
    assert "1 witness answer (" in line and "1 objection (1 sustained)" in line and "1 answer struck" in line


def test_at_the_directions_the_trial_says_the_judge_has_the_floor_not_ai_counsel():
    from deliberation.engine.trial.course import TrialState

    directions = TrialState(seed=1, plan=[{"stage": "directions", "kind": "directions", "side": "judge"}])
    assert describe(None, {}, directions) == "The judge is directing the jury."
    opening = TrialState(seed=1, plan=[{"stage": "openings", "kind": "opening", "side": "prosecution"}])
    assert describe(None, {}, opening) == "AI counsel is speaking."


def test_a_witness_non_answer_is_counted_apart_not_as_a_grounded_answer():
    from deliberation.engine.trial.course import groundedness, non_answers
    from deliberation.trial.record import trial_summary_lines

    def said(index: int, text: str, grounded: bool) -> TrialEvent:
        return TrialEvent(index, "prosecution_case", "answer", "W", "witness", text, "W1", grounded=grounded)

    events = [
        said(0, "I saw him at the gate.", True),
        said(1, "He came with Smithers.", False),  # a fact the record does not hold
        said(2, "I couldn't say.", True),
        said(3, "I didn't see that", True),
    ]
    assert groundedness(events) == 0.5  # of the two answers from the record, one grounded
    assert non_answers(events) == 2
    line = trial_summary_lines(events)
    assert line.startswith("Trial: 2 witness answers (50% found in the witness's record) and 2 non-answers")
    assert groundedness(events[2:]) == 1.0 and non_answers(events[:2]) == 0
