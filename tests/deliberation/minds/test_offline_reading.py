"""The offline reading of an argument: what in the case it is about, which way it pushes, how hard."""

from __future__ import annotations

import pytest

from deliberation.minds.offline.facets import evidence_name
from deliberation.minds.offline.reading import heard_counts, read
from tests.deliberation.minds.curated import curated_case
from tests.deliberation.minds.jury import CASE as PAWNSHOP

ROBBERY = curated_case("kessler-market-robbery")
MASK = curated_case("route-nine-fuel-stop-murder")


def test_evidence_cited_in_a_student_s_own_words_pushes_the_way_the_evidence_points() -> None:
    reading = read(ROBBERY, "The marked twenties from the till were in his glove compartment, every serial number.")
    assert reading.push > 0.3
    assert reading.named == "the bait bills in the glovebox"


def test_an_objection_to_strong_evidence_pushes_towards_doubt() -> None:
    reading = read(ROBBERY, "He bought cigarettes at that counter two days before, and nobody can date a print.")
    assert reading.push < -0.1
    assert reading.named == "the thumbprint on the counter"


def test_a_negation_turns_a_verdict_word_round() -> None:
    rules_out = read(MASK, "The DNA under his fingernails does not rule Dorsey out.")
    places = read(MASK, "The DNA under his fingernails does not place Dorsey there.")
    assert rules_out.push > 0 > places.push


def test_keyword_salad_moves_a_listener_far_less_than_an_argument_about_the_case() -> None:
    salad = read(ROBBERY, "Guilty. Obviously guilty. Proof, justice, convict, clearly, he did this, guilty.")
    argument = read(
        ROBBERY, "The car had the broken right tail light the clerk described, and the hoodie was on the back seat."
    )
    assert salad.touches == ()
    assert abs(salad.push) * 3 < abs(argument.push)


def test_text_about_nothing_in_the_case_touches_nothing() -> None:
    assert read(ROBBERY, "Can someone open a window? It's really stuffy in here.").touches == ()


def test_a_point_the_room_has_already_heard_persuades_less() -> None:
    reading = read(ROBBERY, "The phone tower covers hundreds of homes and two bars, not the inside of the shop.")
    fresh = reading.impact_for("everyman")
    again = reading.impact_for("everyman", heard_counts([reading, reading]))
    assert fresh < again < 0


def test_the_rationalist_weighs_evidence_and_the_empath_the_human_account() -> None:
    thing = read(PAWNSHOP, "The pawnbroker's silver watch turned up in Hale's own coat.")
    person = read(PAWNSHOP, "Mary Dunn, the neighbour, watched a young man in a grey coat leave the shop.")
    assert thing.impact_for("rationalist") > thing.impact_for("empath") > 0
    assert person.impact_for("empath") > person.impact_for("rationalist") > 0


def test_the_cynic_listens_for_motives() -> None:
    motive = read(ROBBERY, "Tasha Hale is his cousin and visits him in jail every week; of course she covers for him.")
    assert motive.impact_for("cynic") > motive.impact_for("everyman") > 0


def test_a_vague_mention_weighs_less_than_a_specific_one() -> None:
    vague = read(ROBBERY, "The money in the car proves it.")
    specific = read(ROBBERY, "All six bait bills, serials logged on March 1, were in his glovebox at 10:04.")
    assert specific.specificity > vague.specificity
    assert specific.push > vague.push > 0


@pytest.mark.parametrize(
    ("label", "name"),
    [
        ("Property found or produced (Ann Plimpton)", "the property found or produced (Ann Plimpton)"),
        ("Statement by the accused (Robert Chandler), as reported by Sabrina Jane Archer",
         "the statement by the accused (Robert Chandler)"),
        ("Bait bills in the glovebox", "the bait bills in the glovebox"),
    ],
)  # fmt: skip
def test_a_listener_names_an_item_without_cutting_a_bracketed_name_in_half(label, name):
    assert evidence_name(label) == name


PRUITT = curated_case("pruitt-basement-killing")


def test_the_defendant_s_name_is_heard_where_the_stance_words_say_him() -> None:
    # "not him", "his height" are stance words; said with the defendant's name they mean the same.
    not_him = read(MASK, "It's not Dorsey, it's Merrick: the same man's DNA is on the mask and under her nails.")
    his_height = read(MASK, "The attendant's description fits Dorsey's height and build.")
    assert not_him.push < 0 < his_height.push


def test_what_a_sentence_only_supposes_is_not_what_it_says() -> None:
    # "did it" sits in the supposition; the question it asks points the other way.
    reading = read(PRUITT, "If Castellano did it, why did he call 911 himself and count the compressions out loud?")
    assert reading.push < 0


def test_an_objection_restated_in_other_words_reads_as_the_objection() -> None:
    # Nearest in meaning to the file's objection to the photo array (two seconds, a gun pointed at her),
    # though it shares more words with the clerk's own account.
    reading = read(ROBBERY, "The clerk only saw his chin for a couple of seconds while a gun was pointed at her.")
    assert reading.push < -0.1
