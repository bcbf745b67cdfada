"""The points a trial's testimony makes for each side, read from the witnesses' words alone."""

from __future__ import annotations

from functools import cache

from cases.importers.oldbailey import EvidenceRecord, TrialRecord, parse_file
from cases.importers.oldbailey_points import (
    ACCIDENT,
    CANNOT_SWEAR,
    CAUGHT,
    CONFESSION,
    CONTESTED,
    CONTRADICTION,
    COUNSEL,
    DEFENCE_WITNESSES,
    DRINKING,
    FOUND_ON,
    LONE_ACCUSER,
    NOT_FOUND,
    OWN_ADMISSION,
    OWN_DENIAL,
    OWN_POSSESSION,
    PAWNED,
    UNSURE,
    Heard,
    Point,
    trial_points,
)
from tests.cases.oldbailey_sample import DATA


def labels(*heard: Heard) -> set[str]:
    return {item.label.split(" (")[0] for item in trial_points(list(heard))}


def for_prosecution(text: str, name: str = "Mary Biggin") -> Heard:
    return Heard(name=name, side="prosecution", testimony=text)


def test_a_witness_who_cannot_swear_to_the_prisoner_makes_a_point_for_the_defence():
    items = trial_points([for_prosecution("I ran after the men. I cannot swear to the prisoner, I never saw him.")])
    point = next(i for i in items if i.label.startswith(CANNOT_SWEAR.label))
    assert point.label == f"{CANNOT_SWEAR.label} (Mary Biggin)"
    assert point.strength_defense > point.strength_prosecution
    assert point.description == "I cannot swear to the prisoner, I never saw him."


def test_being_caught_in_the_act_a_confession_and_the_property_on_the_prisoner_help_the_prosecution():
    heard = for_prosecution(
        "I saw him take the handkerchief out of the gentleman's pocket, and collared him. "
        "I found the handkerchief in his pocket. He said, I did it, forgive me."
    )
    constable = for_prosecution("I am a constable; I took him.", name="John Hale")
    assert labels(heard, constable) == {CAUGHT.label, CONFESSION.label, FOUND_ON.label}
    for item in trial_points([heard, constable]):
        assert item.strength_prosecution > item.strength_defense


def test_a_lone_prosecutor_drink_and_property_never_found_are_points_for_the_defence():
    heard = for_prosecution("I was rather tipsy. I searched her, but found none of the money.")
    assert labels(heard) == {LONE_ACCUSER.label, DRINKING.label, NOT_FOUND.label}


def test_witnesses_for_the_prisoner_and_counsels_cross_examination_are_points_for_the_defence():
    found = labels(
        for_prosecution("I lost my watch. Cross-examined by MR. RIBTON. Q. Were you sober? A. Yes."),
        for_prosecution("I am a constable; I took him.", name="John Hale"),
        Heard(name="Ann Lee", side="defense", testimony="He bore a good character."),
    )
    assert found == {DEFENCE_WITNESSES.label, COUNSEL.label}


def test_a_question_put_to_a_witness_is_not_their_evidence():
    assert labels(for_prosecution("Q. Did you not confess it? A. No."), for_prosecution("I took him.", "B C")) == set()


# Rules for forms of print beyond the sample, each tested on the trial of the more sessions where its example was read.
MORE = DATA / "more-sessions"


@cache
def _session(name: str) -> dict[str, TrialRecord]:
    data = (MORE / f"{name}.xml").read_bytes()
    return {t.trial_id: t for t in parse_file(data, name=name, max_bytes=len(data)).trials}


def point_in(trial_id: str, point: Point) -> EvidenceRecord:
    trial = _session(trial_id[1:9])[trial_id]
    return next(item for item in trial.evidence if item.label.startswith(point.label))


def test_property_the_prisoner_pawned_is_a_point_for_the_prosecution():
    # a pawnbroker's evidence, 1814 (convicted in 91% of the more sessions' trials where it is read)
    item = point_in("t18140420-101", PAWNED)
    assert (
        item.description == "I produce a piece of cambric; the prisoner pawned it on the 28th of February; "
        "I lent her ten shillings on it."
    )
    assert item.strength_prosecution > item.strength_defense


def test_a_prosecution_witness_who_cannot_say_whether_is_a_point_for_the_defence():
    item = point_in("t18011028-37", UNSURE)
    assert "I cannot say whether that was one of the notes that came from Mr. Drummond's" in item.description
    assert item.label == f"{UNSURE.label} (Joel Lovell)"
    assert item.strength_defense > item.strength_prosecution


def test_a_possible_accident_is_a_point_for_the_defence_but_a_mares_old_injury_is_not():
    item = point_in("t18140420-40", ACCIDENT)
    assert item.description.endswith("may take out a letter that does not belong to his walk by mistake.")
    assert item.strength_defense > item.strength_prosecution
    # "she met with an accident in the hind off leg when she was foaling" (1801): the horse's past, no defence
    assert not labels(for_prosecution("I know this mare, she met with an accident in the hind off leg.")) & {
        ACCIDENT.label
    }


def test_a_trial_fought_at_length_is_a_point_for_the_defence_and_a_short_one_is_not():
    item = point_in("t18011028-8", CONTESTED)
    assert item.description.startswith("The witnesses' evidence runs to 2,569 words")
    assert item.strength_defense > item.strength_prosecution
    short = _session("18011028")["t18011028-2"]
    assert not any(e.label.startswith(CONTESTED.label) for e in short.evidence)


# The prisoner's own account, each tested on the trial where its example was read.


def test_a_prisoner_who_pleads_distress_admits_the_deed_and_helps_the_prosecution():
    item = point_in("t18140420-2", OWN_ADMISSION)
    assert item.description == "Distress caused me to infringe upon the laws of my country."
    assert item.label == f"{OWN_ADMISSION.label} (the prisoner)"
    assert item.strength_prosecution > item.strength_defense


def test_a_prisoner_who_says_he_picked_the_property_up_owns_to_having_it():
    item = point_in("t18011028-12", OWN_POSSESSION)
    assert item.description == "I picked it up in the street when I went out."
    assert item.strength_prosecution > item.strength_defense


def test_a_prisoner_who_denies_the_charge_makes_a_point_for_the_defence():
    item = point_in("t18011028-47", OWN_DENIAL)
    assert item.description == "I never saw the man in all my life till I saw him at the Justice's."
    assert item.strength_defense > item.strength_prosecution


def test_the_prisoners_account_is_read_once_and_a_witness_saying_the_same_words_is_not_the_prisoner():
    said = ("Prisoner's Defence. I know nothing of it.", "The prisoner's statement: I know nothing of it.")
    items = trial_points([for_prosecution("I took him.")], said)
    assert [i.label for i in items if i.label.startswith(OWN_DENIAL.label)] == [f"{OWN_DENIAL.label} (the prisoner)"]
    assert not labels(for_prosecution("I know nothing of it."), for_prosecution("I took him.", "B C")) & {
        OWN_DENIAL.label
    }


def test_a_witness_who_never_lost_sight_of_the_prisoner_caught_them_in_the_act():
    item = point_in("t18261026-129", CAUGHT)
    assert item.description == "I never lost sight of the prisoners till they were taken."


CHARACTER = (
    "I have known him many years; he bore a good character, an honest, industrious "
    "man. Q. Did you ever lend him money? A. I did not."
)


def test_a_doubted_character_witness_is_weak_for_the_prisoner_and_never_evidence_against_him():
    from cases.importers.oldbailey_rules import credibility_issues, evidence_from

    issues = credibility_issues(CHARACTER)
    (item,) = evidence_from(witness="John Cole", testimony=CHARACTER, defence=True, issues=issues)

    assert issues, "the long acquaintance is a credibility issue"
    assert item.label == "Good character (John Cole)"
    assert item.strength_defense < 0.6  # weakened by the issue and the cross-examination
    assert item.strength_prosecution <= item.strength_defense


def test_a_doubted_prosecution_witness_still_helps_the_defence():
    from cases.importers.oldbailey_rules import evidence_from

    said = "I found the watch in his pocket. I was drunk at the time and it was dark."
    (item,) = evidence_from(witness="Mary Biggin", testimony=said, defence=False, issues=["admits drinking", "dark"])

    assert item.strength_defense > item.strength_prosecution


def test_a_witness_telling_what_they_did_themselves_is_not_a_confession():
    heard = for_prosecution(
        "I took it to Mr. Brooks when I heard of this. I did it to prevent losing my goods. "
        "It was me that sent for the constable."
    )
    assert CONFESSION.label not in labels(heard)


def test_the_prisoner_owning_to_the_deed_in_words_or_reported_speech_is_a_confession():
    quoted = for_prosecution('I charged him with it, and he said, "I took it, I was hungry."')
    reported = for_prosecution("I asked her about the sheets; she said she had taken them to pawn.", name="Ann Cole")
    assert CONFESSION.label in labels(quoted)
    assert CONFESSION.label in labels(reported)


def test_a_denial_reported_by_a_witness_is_not_a_statement_against_the_prisoner():
    from cases.importers.oldbailey_rules import evidence_from

    denial = "I asked him where he got the coat; he said he bought it of a man in Rosemary-lane."
    admission = "I asked him where he got the coat; he said he had it from the shop and was sorry."

    def statements(said: str) -> list[str]:
        items = evidence_from(witness="John Hale", testimony=said, defence=False, issues=[], accused="Thomas Hall")
        return [item.label for item in items if item.label.startswith("Statement by the accused")]

    assert statements(denial) == []
    assert statements(admission) == ["Statement by the accused (Thomas Hall), as reported by John Hale"]


def test_a_search_that_found_nothing_is_not_property_found_or_produced():
    from cases.importers.oldbailey_rules import evidence_from

    nothing = "I took him to the watch-house and searched him, but found nothing upon him."
    found = "I searched him at the watch-house and found the watch in his waistcoat."

    def property_items(said: str) -> list[str]:
        items = evidence_from(witness="John Hale", testimony=said, defence=False, issues=[])
        return [item.description for item in items if item.label.startswith("Property found or produced")]

    assert property_items(nothing) == []
    assert property_items(found) == [found]


# The twentieth century's print: reported speech in quotation marks, the prisoner's sworn evidence, the
# identification parade and the deposition taken at the police court.


def test_the_prisoner_owning_to_it_when_arrested_is_a_confession_however_the_words_run():
    # "He said, 'Quite right; I have been expecting this for some time.'" (1910)
    expecting = for_prosecution(
        'He said, "Quite right; I have been expecting this for some time."', name="Alfred Grosse"
    )
    # "she said, 'Yes, I am sorry; I had it in the w.c.'" (1903)
    sorry = for_prosecution('I said I should arrest her. She said, "Yes, I am sorry; I had it in the w.c."')
    assert CONFESSION.label in labels(expecting)
    assert CONFESSION.label in labels(sorry)


def test_owning_to_part_while_denying_the_charge_is_no_confession():
    # "he said, 'I did not steal her purse; I admit I hit her'" (1900, a robbery acquitted)
    heard = for_prosecution('I arrested him; he said, "I did not steal her purse; I admit I hit her."')
    assert CONFESSION.label not in labels(heard)


def test_a_prisoner_who_owns_to_the_act_but_not_the_intent_denies_the_charge():
    # 'Prisoner's statement before the magistrate: "I admit signing the receipt and I admit obtaining the
    # money, but not with any wrong intent."' (1906)
    account = (
        "Prisoner's statement before the magistrate: \"I admit signing the receipt and I admit obtaining the "
        'money, but not with any wrong intent."'
    )
    found = {item.label.split(" (")[0] for item in trial_points([for_prosecution("I paid him.")], (account,))}
    assert OWN_DENIAL.label in found
    assert OWN_ADMISSION.label not in found
    plain = {item.label.split(" (")[0] for item in trial_points([], ("I admit taking it; I was in want.",))}
    assert OWN_ADMISSION.label in plain


def test_a_search_of_the_prisoner_that_found_the_property_and_one_that_found_nothing():
    found = for_prosecution("I searched him at the station, and found 13l.")  # 1862
    nothing = for_prosecution("The prisoner was searched; nothing was found on him.")  # 1814
    box = for_prosecution("We searched her box, and found several of these things.")  # her box, not her
    assert FOUND_ON.label in labels(found)
    assert FOUND_ON.label not in labels(nothing)
    assert NOT_FOUND.label in labels(nothing)
    assert FOUND_ON.label not in labels(box)


def test_a_witness_who_failed_to_pick_out_the_prisoner_cannot_swear_to_him():
    failed = for_prosecution("I went to the station and failed to identify anyone; I afterwards saw him in the dock.")
    other = for_prosecution("At the station I picked out another man from about twelve.")
    assert CANNOT_SWEAR.label in labels(failed)
    assert CANNOT_SWEAR.label in labels(other)
    assert CANNOT_SWEAR.label not in labels(for_prosecution("I picked out prisoner from about twelve men."))


def test_a_witness_who_told_the_police_court_otherwise_contradicts_themselves():
    heard = for_prosecution("Cross-examined. I did not say so at the police court; I did not think of it.")
    assert CONTRADICTION.label in labels(heard)


def test_a_doctor_named_in_passing_is_no_medical_evidence_but_a_finding_is():
    from cases.importers.oldbailey_rules import evidence_from

    def medical(said: str) -> bool:
        items = evidence_from(witness="Jessie Scheurer", testimony=said, defence=False, issues=[])
        return any(item.label.startswith("Medical evidence") for item in items)

    assert not medical("He told me we must separate owing to doctor's orders.")  # 1910
    assert not medical("He was then described as a surgeon, residing at Broad Street, Hereford.")  # 1905
    assert medical("I am a registered medical practitioner at Ilford.")  # 1903
    assert medical("She had two black eyes, and a large contusion on the inner side of her left thigh.")  # 1900
    assert medical("I made a post-mortem examination; the cause of death was a fracture of the skull.")


def test_a_witness_said_to_be_sober_is_no_point_for_drink():
    # "he was not drunk" (1887), "I never saw her the worse for liquor in my life" (1879): said to be sober
    sober = for_prosecution("Cross-examined by MR. GRAY. The prosecutor was not drunk; he had had one glass of ale.")
    never = for_prosecution("I have known her a year, and never saw her the worse for liquor.")
    drunk = for_prosecution("Cross-examined. I was a little the worse for drink that night.")
    assert DRINKING.label not in labels(sober)
    assert DRINKING.label not in labels(never)
    assert DRINKING.label in labels(drunk)


def test_a_thing_in_the_prisoners_hand_is_the_property_found_only_when_it_was_found_or_taken_there():
    # "he had a stick in his hand", "he put his hand in his pocket" (1876-1887): no property found
    stick = for_prosecution("I saw the prisoner in the court; he had a stick in his hand.")
    pocket = for_prosecution("Upon that the prisoner ran away; he put his hand in his pocket.")
    taken = for_prosecution("I took hold of her, and found the purse in her hand.")
    assert FOUND_ON.label not in labels(stick)
    assert FOUND_ON.label not in labels(pocket)
    assert FOUND_ON.label in labels(taken)


def test_a_search_that_found_only_the_prisoners_good_money_is_no_property_found():
    # the uttering's search: "I searched him, and found on him 6 1/2 d. bronze and 6d. silver, good money" (1887)
    good = for_prosecution(
        "I took him to the station, searched him, and found on him 1s. and 6d. in bronze, good money."
    )
    only = for_prosecution("I searched him at the station, and only found a penny.")
    bad = for_prosecution("I searched him, and found on him three counterfeit florins wrapped in paper.")
    assert FOUND_ON.label not in labels(good)
    assert FOUND_ON.label not in labels(only)
    assert FOUND_ON.label in labels(bad)


def test_a_coin_the_prisoner_says_he_took_in_change_is_no_confession():
    # the uttering's stock answer: 'the prisoner said "I knew nothing of it; I took it in change at a
    # public-house"' (1887), "she said she took it from the till" (1879)
    change = for_prosecution(
        'I took him back to the shop; he said, "I took it in change at a public-house last night."'
    )
    till = for_prosecution("I asked where she got the money; she said she had taken it from the till at home.")
    owned = for_prosecution('I told him the charge; he said, "I took it; I was hard up."')
    assert CONFESSION.label not in labels(change)
    assert CONFESSION.label not in labels(till)
    assert CONFESSION.label in labels(owned)
