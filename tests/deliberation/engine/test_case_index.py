"""The case index in the speaking prompt is compact by rule, whatever the case's size: every item by
its id on a line of its own within a line budget, what all the items of a list share said once."""

import dataclasses

from deliberation.engine.prompt_words import (
    INDEX_CHARGES_CHARS,
    INDEX_DEFENDANT_CHARS,
    INDEX_LINE_CHARS,
    format_case_index,
)
from deliberation.engine.types import CaseFile, DefendantInfo, EvidenceItem, WitnessItem
from tests.deliberation.minds.curated import SLUGS, curated_case

MARK = " *"


def item_lines(index: str) -> dict[str, str]:
    return {line.split("]")[0][1:]: line for line in index.splitlines() if line.startswith("[")}


def test_every_curated_case_names_every_item_by_its_id_on_one_line_within_the_line_budget() -> None:
    for slug in SLUGS:
        case = curated_case(slug)
        lines = item_lines(format_case_index(case))
        assert set(lines) == {item.id for item in (*case.evidence, *case.witnesses)}, slug
        assert all(len(line.removesuffix(MARK)) <= INDEX_LINE_CHARS for line in lines.values()), slug


def test_a_mark_on_every_item_is_said_once_in_the_heading_instead() -> None:
    for slug in SLUGS:
        case = curated_case(slug)
        index = format_case_index(case)
        if all(item.contestable for item in case.evidence):
            assert "Evidence (all contested):" in index and "]" + MARK not in index.split("Witnesses")[0]
        if all(w.credibility_issues for w in case.witnesses):
            assert "Witnesses (all doubted):" in index


def test_only_some_items_contested_are_marked_one_by_one_and_none_contested_needs_no_mark() -> None:
    case = curated_case("kessler-market-robbery")
    lines = item_lines(format_case_index(case))
    assert "Evidence (* contested):" in format_case_index(case)
    assert {item.id for item in case.evidence if lines[item.id].endswith(MARK)} == {
        item.id for item in case.evidence if item.contestable
    }
    calm = dataclasses.replace(case, evidence=tuple(dataclasses.replace(e, contestable=False) for e in case.evidence))
    assert "Evidence:" in format_case_index(calm) and MARK not in format_case_index(calm).split("Witnesses")[0]


def test_a_witness_line_gives_the_side_and_the_role_in_two_words() -> None:
    index = format_case_index(curated_case("route-nine-fuel-stop-murder"))
    assert "[W1] Brenda Kowalczyk, prosecution eyewitness" in index
    assert "[W4] Dr. Helen Marsh-Obi, defence expert" in index


def test_long_charges_lose_their_glosses_but_keep_every_offence_name_whole() -> None:
    index = format_case_index(curated_case("alder-street-hit-and-run"))
    charges = next(line for line in index.splitlines() if line.startswith("Charges: "))
    assert charges == (
        "Charges: Failure to perform the duties of a driver when property is damaged or a person is injured;"
        " Assault in the third degree"
    )
    short = format_case_index(curated_case("route-nine-fuel-stop-murder"))
    assert "(felony murder in the perpetration of a robbery)" in short  # within the budget: kept whole
    assert len(
        "First-degree murder (felony murder in the perpetration of a robbery); Especially aggravated robbery"
    ) <= (INDEX_CHARGES_CHARS)


def test_the_defendant_is_described_in_a_phrase_and_the_detail_is_left_to_the_passages() -> None:
    case = CaseFile(
        slug="x",
        title="The State v. Ann Roe",
        summary="A shop was robbed.",
        charges=("Robbery",),
        defendants=(DefendantInfo(name="Ann Roe", gender="female", age=40, description="word " * 40),),
        evidence=(
            EvidenceItem(
                id="E1",
                label="A very long label " * 8,
                type="physical",
                description="x",
                strength_prosecution=0.5,
                strength_defense=0.5,
            ),
        ),
        witnesses=(WitnessItem(id="W1", name="Bo Lee", role="eyewitness", testimony="saw it", side="prosecution"),),
    )
    index = format_case_index(case)
    defendant = next(line for line in index.splitlines() if line.startswith("Defendant: "))
    assert len(defendant) <= len("Defendant: Ann Roe, female, 40: ") + INDEX_DEFENDANT_CHARS + len(" …")
    assert len(item_lines(index)["E1"]) <= INDEX_LINE_CHARS + len(" …")
    assert "Witnesses:" in index and "[W1] Bo Lee, prosecution eyewitness" in index
