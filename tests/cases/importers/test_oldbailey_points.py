"""The points a trial's testimony makes for each side, read from the witnesses' words alone."""

from __future__ import annotations

from cases.importers.oldbailey_points import (
    CANNOT_SWEAR,
    CAUGHT,
    CONFESSION,
    COUNSEL,
    DEFENCE_WITNESSES,
    DRINKING,
    FOUND_ON,
    LONE_ACCUSER,
    NOT_FOUND,
    Heard,
    trial_points,
)


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
