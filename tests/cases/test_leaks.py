"""The leak check reads every form of the historical answer and passes ordinary testimony."""

from __future__ import annotations

import pytest

from cases.leaks import age_only_after_verdict, flagged, suspicious


@pytest.mark.parametrize(
    "text",
    [
        "I saw them both. Verdict, both prisoners Guilty, with a recommendation to mercy on account of youth.",
        "(Property produced and sworn to.) GUILTY. Aged 18.",
        "She pawned it. Guilty of stealing, but not in the dwelling-house.",
        "Henry Creed guilty ; Margaret Goodman guilty.",
        "He ran off. Aged 19.",
        "Recommended to mercy by the Prosecutor and Jury.",
        "The JURY returned a verdict of manslaughter.",
        "Judgment respited.",
        "Transported for Seven Years.",
        "He was sentenced to twelve months' hard labour.",
        "Five years' penal servitude.",
        "Acquitted.",
        "The Jury found him guilty of the assault.",
    ],
)
def test_every_printed_form_of_the_answer_is_flagged(text):
    assert suspicious(text), text


@pytest.mark.parametrize(
    "text",
    [
        "The prisoner pleaded NOT GUILTY and the trial went on.",
        "The COURT ordered a plea of NOT GUILTY to be entered for him.",
        "I do not think she would be guilty of any such thing.",
        "The wound was the cause of death. I opened the body.",
        "I am a clerk of Mr. Smith, of No. 4, St. Paul's Churchyard.",
        "He was aged about forty, I think.",
        "I found the watch in his pocket; he said he bought it.",
    ],
)
def test_ordinary_testimony_is_not_flagged(text):
    assert suspicious(text) == []


# Each passage below was flagged in the 13 more sessions (1801-1912) and read: it is the record's
# own words about another outcome than the trial's, and the check says which.
EXPLAINED = [
    (
        "the indictment",
        "MARY WILLIAMS was indicted for that she, at the General Sessions of peace, holding for the County of "
        "Middlesex, on the 15th of February, in the 53rd year of his majesty's reign, was tried and convicted of "
        "being a common utterer of false money, and was sentenced to be imprisoned for one year in his Majesty's "
        "goal of Newgate.",
        "Mary Williams",
    ),
    (
        "an earlier trial",
        "I have known the girl at the bar nigh seven years. Q. Were you present at any time in September "
        "Sessions, 1810, when she was convicted - A. I was; she was convicted of uttering counterfeit money, she "
        "was ordered to be confined in the house of correction one year.",
        "Eliza Williams",
    ),
    (
        "an earlier trial",
        "I have made inquiries as to the prisoner's character, and have received this calendar from the "
        "Lancaster police, according to which he was convicted and sentenced to nine months'.",
        "Robert Hunter",
    ),
    (
        "serving a sentence",
        "I am an assistant warder in Her Majesty's Prison, Coldbath Fields—the prisoner was undergoing sentence "
        "of two years' imprisonment there for passing counterfeit coin;",
        "John Smith",
    ),
    (
        "a wish or a condition",
        'and I wish to be transported—I have lived a most miserable life some time."',
        "Jane Robins",
    ),
    (
        "a wish or a condition",
        "On an indictment Smith and Donaldson would be transported for life.",
        "Thomas Donaldson",
    ),
    (
        "another person",
        "The charge against Wainwright and Phillips was robbery with violence—Wainwright was sentenced to six "
        "months' imprisonment with hard labour, and Phillips to two years with hard labour.",
        "George Stannard",
    ),
    ("a question", "Q. And then the Jury acquitted Jones? - A. Yes.", "William Jones"),
]


@pytest.mark.parametrize(("reason", "text", "prisoner"), EXPLAINED, ids=[e[0] for e in EXPLAINED])
def test_the_record_speaking_of_another_outcome_is_flagged_and_explained(reason, text, prisoner):
    found = [(sentence, why) for sentence, why in flagged(text, [prisoner]) if why != ""]
    assert found, text
    assert {why for _, why in found} == {reason}
    assert not [sentence for sentence, why in flagged(text, [prisoner]) if why == ""]


@pytest.mark.parametrize(
    "text",
    [
        "(Property produced and sworn to.) GUILTY. Aged 18. Recommended to Mercy. Transported for Seven Years.",
        "He was tried in 1820. Guilty.",
        "Wainwright was sentenced to six months' imprisonment.",  # Wainwright on trial: this trial's sentence
        "Verdict, both prisoners Guilty, with a recommendation to mercy.",
        "Judgment respited.",
    ],
)
def test_this_trials_answer_is_never_explained_away(text):
    found = flagged(text, ["Henry Wainwright", "Ann Cole"])
    assert found and all(why == "" for _, why in found), found


@pytest.mark.parametrize(
    ("record", "age"),
    [
        ("She pawned it.\n\nBridget Joyce, GUILTY, aged 45.\n\nMary Joyce, GUILTY, aged 12.", 45),  # t18011028-77
        ("to get into the orchard.  GUILTY. - DEATH. Aged 23.", 23),  # t18261026-17
        ("he hurt it in lifting me up.\n\nGUILTY of an Assault. Aged 23.— Confined Six Months.", 23),  # t18460105-424
        ("ROBERTS - GUILTY - DEATH. Aged 32.", 32),
    ],
)
def test_an_age_the_record_prints_only_after_the_verdict_is_the_verdicts(record, age):
    assert age_only_after_verdict(age, record)


@pytest.mark.parametrize(
    ("record", "age"),
    [
        ("389. PATRICK HALPIN (26), Feloniously killing\n\nNOT GUILTY.", 26),  # the heading prints every age
        ("WILSON, George (40, postman), stealing a letter.\n\nVerdict, Guilty. Aged 40.", 40),
        ("Bridget Joyce, GUILTY, aged 45.", 12),  # another prisoner's age
        ("I am aged 45, a widow.", 45),  # a witness's own age, no verdict
    ],
)
def test_an_age_printed_beside_the_name_or_never_after_a_verdict_is_not_flagged(record, age):
    assert not age_only_after_verdict(age, record)
