"""A challenge or a question the player points at one item: the argument is about that item."""

from __future__ import annotations

import asyncio

import pytest

from deliberation.engine.ports import CraftRequest
from deliberation.engine.prompts import build_craft_messages
from deliberation.engine.strategies import ITEM_UNKNOWN, StrategyError, check_item
from deliberation.minds.offline.mind import OfflineMind
from tests.deliberation.engine.factories import build_case, build_jury

CASE = build_case()
JURY = build_jury()


def request(strategy: str, item_id: str, *, side: str = "defend", text: str = "", seed: int = 0) -> CraftRequest:
    return CraftRequest(
        player=JURY[6],
        side=side,
        strategy=strategy,
        case=CASE,
        recent=(),
        passages=(),
        round_number=2,
        tally={"guilty": 8, "not_guilty": 4},
        jury=JURY,
        free_text=text,
        seed=seed,
        item_id=item_id,
    )


def crafted(req: CraftRequest) -> str:
    return asyncio.run(OfflineMind().craft_argument(req)).content


@pytest.mark.parametrize("side", ["defend", "prosecute"])
@pytest.mark.parametrize("seed", range(4))
def test_a_challenge_is_about_the_evidence_the_player_picked(side: str, seed: int) -> None:
    for item in CASE.evidence:
        content = crafted(request("challenge_evidence", item.id, side=side, seed=seed)).lower()
        assert item.label.lower() in content, (item.label, content)
        named = sorted((content.find(e.label.lower()), e.id) for e in CASE.evidence if e.label.lower() in content)
        assert named[0][1] == item.id, content  # the picked item first (its own words may name another)


@pytest.mark.parametrize("side", ["defend", "prosecute"])
def test_a_question_is_about_the_witness_the_player_picked(side: str) -> None:
    for witness in CASE.witnesses:
        content = crafted(request("question_witness", witness.id, side=side))
        assert witness.name in content, (witness.name, content)


def test_the_players_words_are_argued_about_the_picked_item() -> None:
    item = CASE.evidence[2]
    content = crafted(request("challenge_evidence", item.id, text="Nobody checked the time on it."))
    assert item.label.lower() in content.lower() and "Nobody checked the time on it." in content


def test_the_model_is_told_which_item_to_argue_about() -> None:
    item = CASE.witnesses[1]
    task = build_craft_messages(request("question_witness", item.id))[-1]["content"]
    assert f"Argue about this item of the case file, and name it: {item.name}." in task


def test_an_item_of_the_wrong_kind_or_not_in_the_file_is_refused() -> None:
    check_item(CASE, strategy="challenge_evidence", item_id=CASE.evidence[0].id)
    for strategy, item_id in (("challenge_evidence", CASE.witnesses[0].id), ("question_witness", "W99")):
        with pytest.raises(StrategyError) as excinfo:
            check_item(CASE, strategy=strategy, item_id=item_id)
        assert str(excinfo.value) == ITEM_UNKNOWN.format(item=item_id)
