"""The leak check reads every form of the historical answer and passes ordinary testimony."""

from __future__ import annotations

import pytest

from cases.leaks import suspicious


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
