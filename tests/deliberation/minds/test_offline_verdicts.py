"""Verdicts follow clear evidence: AI-only runs of the offline jury, seeded."""

from __future__ import annotations

import asyncio
from collections import Counter

from deliberation.engine.session import begin, run_to_end
from deliberation.engine.types import CaseFile, EvidenceItem, WitnessItem
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.offline.reading import read
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import build_jury
from tests.deliberation.minds.curated import curated_case

CLEAR = {"kessler-market-robbery": "guilty", "route-nine-fuel-stop-murder": "not_guilty"}
SEEDS = range(20)
SHARE = 0.85


def verdicts(slug: str) -> Counter[str]:
    case, jury = curated_case(slug), build_jury()
    counted: Counter[str] = Counter()
    for seed in SEEDS:
        state = begin(case=case, jury=jury, seed=seed)
        asyncio.run(
            run_to_end(state, case=case, jury=jury, mind=OfflineMind(), fallback=OfflineMind(), reader=argued_points)
        )
        counted[state.verdict] += 1
    return counted


def test_the_curated_cases_rated_clear_end_their_way_in_at_least_85_percent_of_ai_only_runs() -> None:
    for slug, side in CLEAR.items():
        counted = verdicts(slug)
        assert counted[side] >= SHARE * len(SEEDS), (slug, counted)


THEFT = CaseFile(
    slug="ob-watch",
    title="The Crown v. John Hale",
    summary="John Hale was indicted for stealing a silver watch from the person of Thomas Buckmaster.",
    charges=("theft from the person",),
    defendants=(),
    evidence=(
        EvidenceItem("E1", "Property found or produced", "physical", "The watch was produced in court.", 0.7, 0.6),
    ),
    witnesses=(
        WitnessItem(
            "W1",
            "Thomas Buckmaster",
            "victim",
            "I was in the tap-room when my watch went. I did not see any thing in the Prisoner's hand.",
            (),
            "prosecution",
        ),
        WitnessItem(
            "W2", "Richard Foot", "eyewitness", "I saw the prisoner snatch the watch and run.", (), "prosecution"
        ),
    ),
    prosecution_arguments=(),
    defense_arguments=(),
)


def test_a_defence_argument_quoting_a_prosecution_witness_who_did_not_see_reads_towards_doubt() -> None:
    said = (
        "The prosecution's own witness, Thomas Buckmaster, said it in so many words:"
        " “I did not see any thing in the Prisoner's hand.”"
    )
    assert read(THEFT, said).push < 0


def test_a_prosecution_witness_who_saw_it_done_still_reads_towards_guilt() -> None:
    said = "Richard Foot told us plainly: “I saw the prisoner snatch the watch and run.”"
    assert read(THEFT, said).push > 0
