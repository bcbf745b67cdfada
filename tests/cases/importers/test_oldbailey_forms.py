"""The record read the same way however the Proceedings print it, 1740s to 1910.

Each test is a sentence of a trial of the dev sessions (``bench/oldbailey_split.py``): the sample's
``trials/`` and ``sessions/`` and the more sessions the record's rules are tuned on, in the form
that era printed it.
"""

from __future__ import annotations

from functools import cache

from cases.importers.oldbailey import TrialRecord, parse_file
from cases.importers.oldbailey_patterns import DEFENCE_WITHIN
from cases.importers.oldbailey_points import COUNSEL, DEFENCE_WITNESSES, OWN_DENIAL, OWN_POSSESSION
from tests.cases.oldbailey_sample import DATA


@cache
def _file(path: str) -> dict[str, TrialRecord]:
    data = (DATA / path).read_bytes()
    return {t.trial_id: t for t in parse_file(data, name=path, max_bytes=len(data)).trials}


def trial(trial_id: str) -> TrialRecord:
    if (DATA / "trials" / f"{trial_id}.xml").exists():
        return _file(f"trials/{trial_id}.xml")[trial_id]
    session = trial_id[1:9]
    folder = "sessions" if (DATA / "sessions" / f"{session}.xml").exists() else "more-sessions"
    return _file(f"{folder}/{session}.xml")[trial_id]


def witness(trial_id: str, name: str):  # -> WitnessRecord
    return next(w for w in trial(trial_id).witnesses if w.name == name)


def points(trial_id: str, label: str) -> list[str]:
    return [e.label for e in trial(trial_id).evidence if e.label.startswith(label)]


# The prisoner's defence, in the words of the record or reported by the printer.


def test_the_prisoners_defence_reported_after_a_comma_is_the_prisoners_not_the_last_witnesss():
    # "The Prisoner, in his defence, on oath, said that the prosecutrix followed and abused him" (1900)
    record = trial("t19000312-222")
    assert any(d.startswith("The Prisoner, in his defence, on oath, said") for d in record.defense_arguments)
    assert "in his defence" not in witness("t19000312-222", "William Newton").testimony


def test_a_prisoner_named_in_the_report_of_their_defence_is_the_prisoner():
    # "Manyon in her defence stated that she had told many untruths when first charged" (1887)
    assert any(d.startswith("Manyon in her defence stated") for d in trial("t18870912-895").defense_arguments)
    # "Baldwin, in his statement before the Magistrate and in his defence, said that he heard cries" (1895)
    assert any(d.startswith("Baldwin, in his statement") for d in trial("t18950225-236").defense_arguments)
    # "Bennett's defence. I know nothing about the watch and chain." (1895)
    assert any(d.startswith("Bennett's defence.") for d in trial("t18950225-236").defense_arguments)


def test_a_prisoners_defence_reported_inside_a_paragraph_starts_where_it_is_reported():
    # "Brooks received a good character. Rudd in his defence stated that Brooks had given him the flour" (1887)
    record = trial("t18870912-973")
    assert any(d.startswith("Rudd in his defence stated") for d in record.defense_arguments)
    assert not any("Rudd in his defence" in w.testimony for w in record.witnesses)


def test_the_prisoners_statement_before_the_magistrate_printed_after_a_witness_is_the_prisoners():
    # "Webster's Statement before the Magistrate. 'I do not know the man, I never saw him before'" (1879)
    record = trial("t18790526-530")
    assert any(d.startswith("Webster's Statement before the Magistrate") for d in record.defense_arguments)
    assert not any("Statement before the Magistrate" in w.testimony for w in record.witnesses)
    # read in the prosecution's case: "Wilson in his statement before the Magistrate said that he had known
    # Adams seven years" (1887), and the prosecution's witness printed after it is still theirs
    later = trial("t18870912-921")
    assert any(d.startswith("Wilson in his statement before the Magistrate") for d in later.defense_arguments)
    assert witness("t18870912-921", "William Burdett").side == "prosecution"


def test_every_later_form_of_the_prisoners_statement_opens_the_defence_inside_a_paragraph():
    forms = (
        'She made no reply. Smith\'s Statement before the Magistrate. "I found it in the road."',
        'He was charged. The Prisoners Statement before the Magistrate. "I have nothing to say."',
        "I gave him in charge. The prisoner, in a written defence, complained of the police.",
        "I produce the books. Adams produced a written defence, stating that he had paid for the goods.",
        'he said, "I know nothing of it." Wilson in his statement before the Magistrate said he was at home.',
        "They were charged. The prisoners in their statements before the Magistrate said they were not there.",
    )
    for text in forms:
        assert DEFENCE_WITHIN.search(text) is not None, text
    # a witness's words about a gentleman's statement stay the witness's
    assert DEFENCE_WITHIN.search("I went to Mr. Brown's statement before the Magistrate was taken.") is None


def test_a_reported_defence_is_read_for_the_prisoners_points_as_their_own_words_are():
    # "his mate gave him the lens to carry but that he knew nothing about the robbery" (1887)
    assert points("t18870912-928", OWN_DENIAL.label) == [f"{OWN_DENIAL.label} (the prisoner)"]
    assert points("t18870912-928", OWN_POSSESSION.label) == [f"{OWN_POSSESSION.label} (the prisoner)"]
    # "that Mrs. Emmett had given her the florin, and that she did not know it was bad" (1887)
    assert points("t18870912-895", OWN_POSSESSION.label) == [f"{OWN_POSSESSION.label} (the prisoner)"]


# Witnesses however they are introduced.


def test_a_witness_the_printer_named_by_rank_and_did_not_tag_is_a_witness():
    # "Detective F. R. HEDGES, P Division. On November 2 I arrested prisoner at Swanley" (1906)
    hedges = witness("t19061119-55", "F. R. Hedges")
    assert hedges.side == "prosecution"
    assert hedges.role == "police officer"
    assert "I arrested prisoner at Swanley" in hedges.testimony
    assert "Swanley" not in witness("t19061119-55", "Thos Scott Bell").testimony
    # "Captain WILKINSON, secretary of the National Association ... I engaged prisoner" (1906): after "(Defence.)"
    assert witness("t19061119-55", "Wilkinson").side == "defense"
    # "Detective-sergeant ALFRED GROSSE, Y Division. On January 31 I arrested prisoner" (1910)
    grosse = witness("t19100308-49", "Alfred Grosse")
    assert grosse.testimony.startswith("Detective-sergeant, Y Division. On January 31")
    assert "Leadenhall" not in witness("t19100308-49", "Annie Jacobs").testimony


def test_the_prisoner_giving_evidence_is_the_accused_whatever_order_the_names_are_printed_in():
    # "HENRY WILLIAM CHIPPENDALE (prisoner, on oath)", indicted as "CHIPPENDALE, William Henry" (1906)
    chippendale = witness("t19061119-55", "Henry William Chippendale")
    assert chippendale.role == "the accused"
    assert chippendale.side == "defense"
    # the prisoner is not one of the witnesses called for the defence
    (called,) = [e for e in trial("t19061119-55").evidence if e.label.startswith(DEFENCE_WITNESSES.label)]
    assert called.description == "Heard for the prisoner: Wilkinson."


def test_the_prosecutions_evidence_in_reply_is_the_prosecutions():
    # "Evidence in reply." then SOPHIA AMELIA RUSKIN, after the defence's witnesses (1901)
    assert witness("t19011118-49", "Jane Moore").side == "defense"
    assert witness("t19011118-49", "Sophia Amelia Ruskin").side == "prosecution"


def test_counsels_submission_tagged_as_a_name_is_not_evidence():
    # "MR. SYDENHAM JONES submitted that there was no case to go to the Jury" (1905)
    record = trial("t19050306-274")
    assert "Sydenham Jones" not in {w.name for w in record.witnesses}
    assert not any("submitted that" in w.testimony for w in record.witnesses)


# Counsel for the prisoner, named at each cross-examination or only in the heading.


def test_counsel_named_only_in_the_heading_tested_the_witnesses_they_cross_examined():
    # "MR. CALTHROP Prosecuted, and MR. BURNIE Defended." then "Cross-examined." (1900)
    (item,) = [e for e in trial("t19000312-222").evidence if e.label.startswith(COUNSEL.label)]
    # one point a trial, whatever the number of witnesses the print shows cross-examined
    assert item.label == COUNSEL.label
    assert item.description == "Cross-examined by counsel for the prisoner: Leah Trott, John Foulston."
    assert item.strength_defense > item.strength_prosecution
    # "Mr. Symmons prosecuted; Mr. Turrell defended." (1906)
    assert points("t19061119-55", COUNSEL.label) == [COUNSEL.label]
    # named at the cross-examination: "Cross-examined by MR. PRENDERGAST" (1826)
    assert points("t18261026-63", COUNSEL.label) == [COUNSEL.label]


def test_a_prisoner_without_counsel_cross_examining_is_not_counsel():
    # "Mr. Tully-Christie prosecuted." and "Cross-examined by the prisoner." (1910)
    assert points("t19100308-49", COUNSEL.label) == []


# The printer's own lines: headings, counsel, a summary of the character evidence.


def test_a_days_heading_and_counsel_printed_like_names_are_not_witnesses():
    # "THIRD DAY. SATURDAY, OCTOBER 28." opens the trial's text (1826)
    record = trial("t18261026-31")
    assert "Third Day" not in {w.name for w in record.witnesses}
    assert "FREDERICK SEVILLE" in record.summary
    # "SEVILLE's Defence. There was a witness at the office, who could not swear to me" (1826)
    assert any(d.startswith("SEVILLE's Defence.") for d in record.defense_arguments)
    # "M R. CHARLES MATHEWS Prosecuted." (1895)
    assert "Charles Mathews" not in {w.name for w in trial("t18950225-242").witnesses}


def test_a_prisoners_defence_under_their_name_is_theirs_not_the_last_witnesss():
    # "Hinde's Defence. I never had the handkerchiefs; the gentleman collared me." (1814)
    record = trial("t18140420-11")
    assert any(d.startswith("Hinde's Defence. I never had the handkerchiefs") for d in record.defense_arguments)
    assert not any("collared me" in w.testimony for w in record.witnesses)


def test_the_printers_summary_of_character_evidence_is_heard_for_the_defence():
    # "The prisoners called six witnesses, who gave them a good character." after their defences (1814)
    character = witness("t18140420-154", "Witnesses to character")
    assert character.side == "defense"
    assert character.testimony == "The prisoners called six witnesses, who gave them a good character."
    assert witness("t18140420-154", "Thomas Moody").side == "prosecution"  # the officer stays the prosecution's
    assert points("t18140420-154", DEFENCE_WITNESSES.label) == [DEFENCE_WITNESSES.label]
    # "(The prisoner received a good character.)" (1854), and a witness's own "He bore a good character" is not one
    assert witness("t18540508-679", "Witnesses to character").side == "defense"


# The twentieth-century print drops the article: "Prisoner told me", "I arrested prisoner".


def test_the_prisoner_without_the_article_is_still_the_prisoner():
    # "Prisoner told me he was a single man." (1910)
    (statement,) = [
        e
        for e in trial("t19100308-49").evidence
        if e.label.startswith("Statement by the accused") and "Scheurer" in e.label
    ]
    assert "Prisoner told me he was a single man." in statement.description


def test_a_letter_in_the_prisoners_handwriting_is_not_property_found_in_her_hand():
    # "I received the letter of January 29 from prisoner; it is in her handwriting." (1908)
    assert points("t19080623-39", "The property found on the prisoner") == []


def test_the_prisoners_words_printed_under_their_name_are_theirs_not_the_witnesss():
    # "The Prisoner. I am very sorry for what I have done, and I beg for mercy" (1879)
    record = trial("t18790526-569")
    assert any(d.startswith("The Prisoner. I am very sorry") for d in record.defense_arguments)
    assert not any("beg for mercy" in w.testimony for w in record.witnesses)
    assert points("t18790526-569", "The prisoner's own account admits the deed")
    # "Selby. I know nothing about it; I was tipsy at the time. Witness. She was not tipsy." (1862)
    record = trial("t18620922-1023")
    assert "Selby. I know nothing about it; I was tipsy at the time." in record.defense_arguments
    kemp = witness("t18620922-1023", "Joseph Kemp")
    assert kemp.testimony.endswith("She was not tipsy.")
    assert "I was tipsy" not in kemp.testimony
    assert kemp.side == "prosecution"  # an interjection is not the defence's evidence


def test_a_written_defence_and_witnesses_for_a_named_prisoner_are_the_defence():
    # "The prisoner produced a written defence, stating that the child's father was in Canada" (1862)
    assert any(
        d.startswith("The prisoner produced a written defence") for d in trial("t18620922-982").defense_arguments
    )
    # "Witnesses for Stannard." (1879)
    assert trial("t18790526-553").witnesses[-1].side == "defense"


def test_the_courts_opinion_that_the_evidence_fails_is_the_answer_not_evidence():
    # "The RECORDER considered that this evidence failed to establish a case of manslaughter." (1887)
    for trial_id in ("t18870912-899", "t18870912-845"):
        record = trial(trial_id)
        assert record.playable
        assert not any("RECORDER" in w.testimony for w in record.witnesses), trial_id


# The 1908 trial of Gertrude Alice Hunt, as printed, with her own evidence left untagged the way the printer
# left ranked witnesses untagged from 1906 ("Detective F. R. HEDGES, P Division.").
PRISONER_UNTAGGED = """<div1 type="trialAccount" id="t19080623-39">
<interp inst="t19080623-39" type="year" value="1908"/>
<p><persName id="d1" type="defendantName">HUNT, Gertrude Alice<interp inst="d1" type="surname" value="HUNT"/>
<interp inst="d1" type="given" value="Gertrude Alice"/></persName> (36, servant), <rs id="o1"
type="offenceDescription"><interp inst="o1" type="offenceCategory" value="breakingPeace"/>
<interp inst="o1" type="offenceSubcategory" value="libel"/>unlawfully publishing a defamatory libel</rs>.</p>
<p><persName id="w1" type="witnessName">EDWARD BARRETT</persName>. I served prisoner with a summons on June 5
charging her with libel. She replied, "I know nothing about it."</p>
<p>GERTRUDE ALICE HUNT (prisoner, on oath). I have references extending over eight years, mostly as
temporary parlourmaid.</p>
<p>Verdict, <rs id="v1" type="verdictDescription"><interp inst="v1" type="verdictCategory" value="guilty"/>
Guilty</rs>.</p>
</div1>"""


def test_the_prisoner_giving_evidence_untagged_is_the_accused_not_the_last_witness():
    (record,) = parse_file(PRISONER_UNTAGGED.encode(), name="hunt.xml", max_bytes=10_000).trials
    barrett, hunt = record.witnesses
    assert (hunt.name, hunt.role, hunt.side) == ("Gertrude Alice Hunt", "the accused", "defense")
    assert hunt.testimony.startswith("I have references extending over eight years")
    assert "references" not in barrett.testimony


# A trial printed the twentieth century's way (its lines in the forms of the 1906-1910 trials above): counsel
# named in the heading, the prisoner's sworn evidence opening the defence, a witness for the prisoner after it
# who says nothing of character, and the printer's summary of the character evidence.
DEFENDED_1910 = """<div1 type="trialAccount" id="t19100308-99">
<interp inst="t19100308-99" type="year" value="1910"/>
<p><persName id="d1" type="defendantName">BROWN, Albert<interp inst="d1" type="surname" value="BROWN"/>
<interp inst="d1" type="given" value="Albert"/></persName> (30, porter), <rs id="o1"
type="offenceDescription"><interp inst="o1" type="offenceCategory" value="theft"/>
<interp inst="o1" type="offenceSubcategory" value="simpleLarceny"/>stealing a bag</rs>.</p>
<p>Mr. Symmons prosecuted; Mr. Turrell defended.</p>
<p><persName id="w1" type="witnessName">JOHN HALE</persName>, porter. I missed the bag from the cloak-room
on May 2. Cross-examined. I did not say so at the police court.</p>
<p>ALBERT BROWN (prisoner, on oath). I was at home all that evening; I never touched the bag.</p>
<p><persName id="w2" type="witnessName">MARY BROWN</persName>. I am prisoner's mother. He came in at
seven and did not go out again.</p>
<p>Several witnesses spoke to prisoner's good character.</p>
<p>Verdict, <rs id="v1" type="verdictDescription"><interp inst="v1" type="verdictCategory" value="notGuilty"/>
Not guilty</rs>.</p>
</div1>"""


def test_witnesses_after_the_prisoners_own_evidence_speak_for_the_defence():
    (record,) = parse_file(DEFENDED_1910.encode(), name="brown.xml", max_bytes=10_000).trials
    sides = {w.name: (w.role, w.side) for w in record.witnesses}
    assert sides["John Hale"][1] == "prosecution"
    assert sides["Albert Brown"] == ("the accused", "defense")
    assert sides["Mary Brown"][1] == "defense"  # no word of character: heard after the prisoner
    assert sides["Witnesses to character"][1] == "defense"  # "spoke to prisoner's good character"
    found = {e.label.split(" (")[0] for e in record.evidence}
    assert {OWN_DENIAL.label, DEFENCE_WITNESSES.label, COUNSEL.label} <= found


def test_the_prisoners_unsworn_statement_from_the_dock_is_their_defence():
    unsworn = DEFENDED_1910.replace(
        "<p>ALBERT BROWN (prisoner, on oath). I was at home all that evening; I never touched the bag.</p>",
        "<p>Prisoner, not on oath, said that he found the bag in the street.</p>",
    )
    (record,) = parse_file(unsworn.encode(), name="brown.xml", max_bytes=10_000).trials
    assert record.defense_arguments == ("Prisoner, not on oath, said that he found the bag in the street.",)
    assert OWN_POSSESSION.label in {e.label.split(" (")[0] for e in record.evidence}
