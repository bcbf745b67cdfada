"""Post-verdict words printed without tags are cut from what the jury reads, in every era.

Each trial below is built from words printed in the Proceedings (the trial named in the
comment); the tagged verdict that follows them in the record is left out or kept as noted.
"""

from __future__ import annotations

import pytest

from cases.importers.oldbailey import parse_file
from cases.importers.oldbailey_answer import REASON_PLEA_DURING_TRIAL

LIMIT = 1024 * 1024
TRIAL = """<div1 type="trialAccount" id="t{year}0101-1"><interp inst="t{year}0101-1" type="year" value="{year}"/>
<p>1. <persName id="d1" type="defendantName">JOHN POWER<interp inst="d1" type="surname" value="POWER"/>
<interp inst="d1" type="given" value="JOHN"/></persName> was indicted for <rs id="o1" type="offenceDescription">
<interp inst="o1" type="offenceCategory" value="theft"/>stealing a clock</rs>.</p>
<p>LEVY COHEN. I am a fruiterer. The prisoner asked me to buy this clock; I bought it for 4s. 6d.</p>
{paragraphs}
{verdict}
</div1>"""
TAGGED = """<p><rs id="v1" type="verdictDescription"><interp inst="v1" type="verdictCategory" value="guilty"/>
larceny only</rs>. <rs id="p1" type="punishmentDescription">Confined Three Months</rs>.</p>"""


def record(paragraphs: str, *, year: int = 1826, verdict: str = TAGGED):
    data = TRIAL.format(year=year, paragraphs=paragraphs, verdict=verdict).encode()
    (trial,) = parse_file(data, name="t.xml", max_bytes=LIMIT).trials
    return trial


def readable(trial) -> str:
    return " ".join([trial.summary, *trial.defense_arguments, *(w.testimony for w in trial.witnesses)])


@pytest.mark.parametrize(
    ("paragraphs", "kept", "cut"),
    [
        (  # t18261026-23: the verdict and the age line after the last words of testimony
            "<p>JOSEPH BUCK. I am an officer. I apprehended the prisoner.(Property produced and sworn to.)"
            " GUILTY. Aged 43.</p>",
            "(Property produced and sworn to.)",
            "GUILTY",
        ),
        (  # t18140420-23: a paragraph of its own, and the lesser finding after it
            "<p>JOHN ARMSTRONG. These are the halfpence.</p><p>GUILTY, aged 10,</p>"
            "<p>Of stealing, but not in the dwelling-house.</p>",
            "These are the halfpence.",
            "dwelling-house",
        ),
        (  # t18011028-68: no full stop before the verdict
            "<p>JOHN MAINE. I never said so, I should be ashamed of it GUILTY, aged 19.</p>",
            "I should be ashamed of it",
            "aged 19",
        ),
        (  # t18261026-134: each prisoner named before the verdict
            "<p>JOHN PROCTOR. I took them in charge. POWER - GUILTY. Aged 12. BLAKE - GUILTY. Aged 10.</p>",
            "I took them in charge.",
            "GUILTY",
        ),
        (  # t18261026-81: a recommendation to mercy
            "<p>WILLIAM HUGHES. I did not find a farthing on him. GUILTY. Aged 22.</p>"
            "<p>Recommended to Mercy by the Prosecutor and Jury.</p>",
            "I did not find a farthing on him.",
            "Mercy",
        ),
        (  # the 1909 form, inside the last witness's testimony
            "<p>JAMES HALL. I saw both prisoners leave the shop. Verdict, both prisoners Guilty, with a"
            " recommendation to mercy on account of their youth.</p>",
            "I saw both prisoners leave the shop.",
            "recommendation",
        ),
        (  # t18261026-255: the jury's deliberation told after the evidence
            "<p>HENRY BIGNOL. I saw him on Sunday morning.</p><p>The Jury retired at a quarter before five"
            " o'clock; they stated that eleven were determined upon a verdict of Not Guilty.</p>",
            "I saw him on Sunday morning.",
            "retired",
        ),
        (  # t18540508-661: the court's direction, the verdict itself being in the tag
            "<p>THOMAS HILL. I am the inspector. The COURT considered that the case did not come within the"
            " meaning of the Act of Parliament, and directed a verdict of</p>",
            "I am the inspector.",
            "directed",
        ),
        (  # t18620922-1023: a former conviction admitted after the verdict
            "<p>JOSEPH KEMP. I took Selby to the station.</p><p>The prisoners were further charged with having"
            " been before convicted. To this part of the charge they both PLEADED GUILTY.</p>",
            "I took Selby to the station.",
            "convicted",
        ),
    ],
)
def test_post_verdict_words_are_cut_wherever_they_are_printed(paragraphs, kept, cut):
    trial = record(paragraphs)
    assert kept in readable(trial)
    assert cut not in readable(trial)
    assert trial.playable and trial.historical_verdict == "guilty"


def test_from_1837_the_proof_of_a_former_conviction_after_the_evidence_is_cut():
    # t18460105-388: the certificate is proved after the verdict, though printed before it
    proof = (
        "<p>PHILIP DONOVAN (police-constable K 363.) I produce a certificate of the prisoner's former conviction"
        " at this Court—(read—Convicted 16th June, 1845, and confined six months)—he is the person.</p>"
    )
    trial = record(proof, year=1846)
    assert "certificate" not in readable(trial)
    assert [w.name for w in trial.witnesses] == ["Levy Cohen"]  # the constable said nothing else


def test_a_former_conviction_that_is_the_charge_itself_stays_as_evidence():
    # t18261026-3 (returning from transportation) proves it first; before 1837 it is never cut
    proof = "<p>JAMES HARRIS. I produce a certificate of the prisoner's former conviction, which I saw signed.</p>"
    followed = proof + "<p>JOHN WEST. I know the prisoner; I saw him at large in Whitechapel in March.</p>" * 2
    assert "certificate" in readable(record(proof, year=1826))
    assert "certificate" in readable(record(followed, year=1850))


@pytest.mark.parametrize(
    "words",
    [
        "Q. And then the Jury acquitted Jones? - A. Yes.",  # t18011028-70: counsel asks about another trial
        "He said, if he was guilty, I hoped he would suffer.",  # t18261026-24
        "I was tried here, and honourably acquitted; it was for a highway-robbery.",  # t18261026-46
        "The verdict of the Coroner's Jury was that it had died from asphyxia.",  # t19040418-379
    ],
)
def test_testimony_that_speaks_of_verdicts_is_kept(words):
    trial = record(f"<p>JOHN CLARK. {words} I went home.</p>")
    assert words in readable(trial)


def test_a_plea_of_not_guilty_in_the_opening_is_kept():
    # t18620922-954: "He pleaded NOT GUILTY, and also handed in a special plea."
    trial = record("<p>He pleaded NOT GUILTY, and also handed in a special plea.</p><p>JOHN CLARK. I saw him.</p>")
    assert "I saw him." in readable(trial)


def test_a_verdict_printed_only_as_words_becomes_the_historical_verdict():
    words = "<p>JAMES HALL. I saw both prisoners leave the shop. Verdict, both prisoners Guilty.</p>"
    trial = record(words, year=1909, verdict="")
    assert trial.historical_verdict == "guilty" and trial.playable


def test_a_guilty_plea_made_during_the_trial_keeps_the_trial_unplayable():
    # t18870912-949: "MR. FRITH here stated that his client would admit that he was guilty."
    words = "<p>JOHN CLARK. I saw him.</p><p>MR. FRITH here stated that his client would admit that he was guilty.</p>"
    trial = record(words, year=1887)
    assert (trial.playable, trial.unplayable_reason) == (False, REASON_PLEA_DURING_TRIAL)
    assert "admit" not in readable(trial)
