"""Witnesses right in every era: clean names, testimony from its start, counsel never a witness.

The trials are real ones from the 13 more sessions (1801-1912) where each fault was seen.
"""

from __future__ import annotations

from functools import cache

import pytest

from cases.importers.oldbailey import REASON_NO_EVIDENCE_OFFERED, TrialRecord, parse_file
from cases.importers.oldbailey_answer import REASON_PLEA_DURING_TRIAL
from cases.importers.oldbailey_xml import titlecase
from tests.cases.oldbailey_sample import DATA

MORE = DATA / "more-sessions"


@cache
def _session(name: str) -> dict[str, TrialRecord]:
    data = (MORE / f"{name}.xml").read_bytes()
    return {t.trial_id: t for t in parse_file(data, name=name, max_bytes=len(data)).trials}


def trial(trial_id: str) -> TrialRecord:
    return _session(trial_id[1:9])[trial_id]


def said_by(trial_id: str, name: str) -> str:
    return next(w.testimony for w in trial(trial_id).witnesses if w.name == name)


@pytest.mark.parametrize(
    ("printed", "clean"),
    [
        ("PATRICK HALPIN", "Patrick Halpin"),
        ("na BOLTON", "Bolton"),
        ("- Holland", "Holland"),
        ("Elizabeth, Deeks", "Elizabeth Deeks"),
        ("William Dickenson '", "William Dickenson"),
        ("Charles de Vere", "Charles de Vere"),
        ("JOHN MCCARTHY", "John McCarthy"),
        ("JOSIAH-WILLIAM WHITE", "Josiah-William White"),
        ("DANIEL O'BRIEN", "Daniel O'Brien"),
    ],
)
def test_witness_names_lose_the_printing_debris_around_them(printed, clean):
    assert titlecase(printed) == clean


def test_words_printed_inside_the_name_tag_open_the_testimony():
    # <persName ...>SAMUEL GOODWIN. I</persName> am servant to Thomas Davis (1837)
    assert said_by("t18370918-2035", "Samuel Goodwin").startswith("I am servant to Thomas Davis")


def test_a_bracketed_note_split_by_the_name_tag_does_not_open_the_testimony():
    # EMMA SPURGEON (Re-examined by MR. M + etcalfe). I had not known the prisoner (1862)
    assert said_by("t18620922-997", "Emma Spurgeon").startswith("I had not known the prisoner")


@pytest.mark.parametrize(
    ("trial_id", "name", "start"),
    [
        # ELIZABETH KING sworn. - Examined by Mr. Const. I am a widow (1801; was "onst. I am a widow")
        ("t18011028-8", "Elizabeth King", "I am a widow, and live at Tottenham"),
        # JOSIAH-WILLIAM WHITE sworn. - Examinedby Mr. Knowlys. I am an Excise-watchman (1801)
        ("t18011028-7", "Josiah-William White", "I am an Excise-watchman"),
        # JOHN FORSTER sworn. - Examined by Mr. Fielding. Q. You are, I believe, a pensioner (1801)
        ("t18011028-39", "John Forster", "Q. You are, I believe, a pensioner"),
        # JAMES BUNNELL sworn. - Examined by Mr.Gurney. I am a butcher (1801)
        ("t18011028-18", "James Bunnell", "I am a butcher"),
    ],
)
def test_counsels_whole_name_in_the_examination_note_is_not_the_start_of_the_testimony(trial_id, name, start):
    assert said_by(trial_id, name).startswith(start)


def test_counsel_tagged_as_a_name_is_not_a_witness_and_their_line_opens_the_defence():
    record = trial("t18710109-128")  # "MR. MONTAGU WILLIAMS called the following Witnesses for the Defence."
    assert "Montagu Williams" not in {w.name for w in record.witnesses}
    assert record.witnesses[-1].side == "defense"
    for trial_id in ("t18870912-918", "t18710109-140"):
        assert not any(w.testimony.startswith(("and MR.", "conducted the")) for w in trial(trial_id).witnesses)


def test_the_1801_sworn_form_opens_a_witness():
    record = trial("t18011028-61")  # "THOMAS HARRIS sworn. - I am a carpenter."
    assert record.playable
    assert record.witnesses[0].name == "Thomas Harris"
    assert record.witnesses[0].testimony.startswith("I am a carpenter")


def test_a_plea_during_the_trial_is_the_reason_even_when_it_left_no_testimony():
    record = trial("t18620922-980")  # "MR. ROBINSON ... stated that the prisoner would plead guilty"
    assert (record.playable, record.unplayable_reason) == (False, REASON_PLEA_DURING_TRIAL)


def test_a_trial_where_no_evidence_was_offered_says_so():
    record = trial("t18790526-521")
    assert (record.playable, record.unplayable_reason) == (False, REASON_NO_EVIDENCE_OFFERED)


def side_of(trial_id: str, name: str) -> str:
    return next(w.side for w in trial(trial_id).witnesses if w.name == name)


def test_an_officer_who_adds_that_the_prisoner_bore_a_good_character_is_still_the_prosecutions_witness():
    # "I am an officer. I apprehended the prisoner ... he has borne a good character" (1826)
    assert "good character" in said_by("t18261026-56", "John Harding")
    assert side_of("t18261026-56", "John Harding") == "prosecution"
    # an officer of a regiment who speaks to the prisoner's character is a witness for the prisoner (1871)
    assert side_of("t18710109-107", "James Franklin") == "defense"


def test_a_witness_counsel_is_said_to_call_is_the_prisoners():
    # "MR. PAYNE called MARY COOPER. I am single, and go out cleaning" (1846): the defence's evidence opens
    assert side_of("t18460105-441", "Mary Cooper") == "defense"
    # "MR. PLATT called the following witnesses." on a line of its own (1826)
    assert side_of("t18261026-2", "Charles Gibling") == "defense"
    # the prosecution's witnesses before it keep their side
    assert trial("t18460105-441").witnesses[0].side == "prosecution"
