"""The judge's scripts, written from plain values."""

from __future__ import annotations

import pytest

from deliberation.engine import judge


def test_case_presentation_names_the_defendant_the_charges_and_the_summary() -> None:
    text = judge.case_presentation(
        defendants=["Mary Hobbs"], charges=["theft of a silver watch", "receiving"], summary="A watch went missing"
    )
    assert "determine the fate of Mary Hobbs, who stands accused of theft of a silver watch and receiving." in text
    assert "A watch went missing." in text
    assert "beyond a reasonable doubt" in text
    assert text.endswith(judge.LET_US_BEGIN)


def test_case_presentation_joins_several_defendants_as_spoken() -> None:
    text = judge.case_presentation(defendants=["Ann", "Bob", "Cal"], charges=["burglary"], summary="A house.")
    assert "Ann, Bob and Cal, who stand accused of burglary." in text


@pytest.mark.parametrize(
    ("defendants", "charges", "error"),
    [([], ["theft"], judge.ERROR_NO_DEFENDANT), (["Ann"], [" "], judge.ERROR_NO_CHARGE)],
)
def test_case_presentation_refuses_a_case_without_defendant_or_charge(
    defendants: list[str], charges: list[str], error: str
) -> None:
    with pytest.raises(ValueError, match=error):
        judge.case_presentation(defendants=defendants, charges=charges, summary="Facts.")


def test_vote_announcement_of_a_divided_jury() -> None:
    text = judge.vote_announcement(guilty=7, not_guilty=5)
    assert text == "The current vote stands at 7 for guilty, 5 for not guilty. The jury remains divided."


@pytest.mark.parametrize(("guilty", "not_guilty"), [(12, 0), (0, 12)])
def test_vote_announcement_of_a_unanimous_jury(guilty: int, not_guilty: int) -> None:
    text = judge.vote_announcement(guilty=guilty, not_guilty=not_guilty, ended=True)
    assert text.endswith(judge.JURY_UNANIMOUS)
    assert judge.JURY_DIVIDED not in text


@pytest.mark.parametrize(("guilty", "not_guilty"), [(12, 0), (0, 12)])
def test_a_unanimous_jury_that_deliberates_on_is_not_told_a_verdict_was_reached(guilty: int, not_guilty: int) -> None:
    text = judge.vote_announcement(guilty=guilty, not_guilty=not_guilty)
    assert text.endswith(judge.JURY_AGREED_FOR_NOW)
    assert judge.JURY_UNANIMOUS not in text and judge.JURY_DIVIDED not in text


def test_a_jury_with_a_juror_yet_to_vote_is_not_called_unanimous() -> None:
    text = judge.vote_announcement(guilty=11, not_guilty=0, waiting=1)
    assert text == (
        "The current vote stands at 11 for guilty, 0 for not guilty, with 1 juror yet to vote. "
        "The jury remains divided."
    )
    assert "2 jurors yet to vote" in judge.vote_announcement(guilty=10, not_guilty=0, waiting=2)


def test_vote_announcement_refuses_a_negative_count() -> None:
    with pytest.raises(ValueError, match="not negative"):
        judge.vote_announcement(guilty=-1, not_guilty=13)


def test_tally_counts_vote_values_and_ignores_blanks() -> None:
    assert judge.tally(["guilty", "not_guilty", "guilty", "", "abstain"]) == (2, 1)


def test_guilty_verdict_names_the_defendant_the_count_and_the_reason() -> None:
    text = judge.verdict_announcement(
        verdict="guilty", guilty=12, not_guilty=0, end_reason="unanimous", defendants=["Mary Hobbs"]
    )
    assert "finds Mary Hobbs guilty." in text
    assert "12 for guilty, 0 for not guilty" in text
    assert judge.END_REASON_PHRASES["unanimous"] in text


def test_not_guilty_verdict_is_not_read_as_guilty() -> None:
    text = judge.verdict_announcement(verdict="not_guilty", guilty=0, not_guilty=12, defendants=["Ann"])
    assert "finds Ann not guilty." in text
    assert "finds Ann guilty" not in text


def test_hung_jury_declares_no_verdict_and_says_why() -> None:
    text = judge.verdict_announcement(verdict="hung", guilty=8, not_guilty=4, end_reason="round_limit")
    assert "hung jury" in text
    assert "8 for guilty, 4 for not guilty" in text
    assert judge.END_REASON_PHRASES["round_limit"] in text
    assert "the defendant" in text


def test_a_hung_jury_is_told_the_verdict_its_rules_required() -> None:
    text = judge.verdict_announcement(
        verdict="hung", guilty=9, not_guilty=3, end_reason="round_limit", required="a verdict of at least 10 to 2"
    )
    assert "The jury could not reach a verdict of at least 10 to 2." in text and "unanimous" not in text


def test_a_majority_verdict_is_read_as_one() -> None:
    text = judge.verdict_announcement(verdict="guilty", guilty=10, not_guilty=2, end_reason="majority")
    assert "finds the defendant guilty, by a majority of 10 to 2." in text


def test_unknown_verdict_is_refused() -> None:
    with pytest.raises(ValueError, match="Unknown verdict"):
        judge.verdict_announcement(verdict="maybe", guilty=6, not_guilty=6)


def test_every_end_reason_has_a_phrase_for_the_judge() -> None:
    from deliberation.models import EndReason

    assert set(judge.END_REASON_PHRASES) == set(EndReason.values)


def test_case_presentation_says_an_imported_charge_as_an_offence() -> None:
    text = judge.case_presentation(
        defendants=["James Kelly", "Mary Roach", "Ann Cann"], charges=["Violent theft: robbery"], summary="A purse."
    )
    assert "James Kelly, Mary Roach and Ann Cann, who stand accused of robbery with violence." in text
    assert "Violent theft" not in text
