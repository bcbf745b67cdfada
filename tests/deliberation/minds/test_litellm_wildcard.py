"""With a model, the wildcard's change of mind reaches its vote, as it does offline."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from deliberation.engine import params
from deliberation.engine.rounds import run_round
from deliberation.engine.session import begin
from deliberation.minds.litellm.mind import LiteLLMMind
from deliberation.minds.offline.archetypes import WILDCARD_TARGET
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import build_case, build_jury
from tests.deliberation.minds.jury import JURY, juror, speak_request
from tests.deliberation.minds.jury_room import call_kind
from tests.deliberation.minds.openai_server import Reply, ScriptedOpenAIServer

WILDCARD = juror(12, "Robert Kim", "wildcard")
TURNED = (
    "<SpeakingTo>everyone</SpeakingTo><ArgumentType>evidence</ArgumentType><Position>NOT GUILTY</Position>"
    "<Reasoning>The lamps changed my mind.</Reasoning><Cites>E2</Cites>"
    "<Content>I've changed my mind. Nobody has talked about the lamps, and they turn me around.</Content>"
)
WILDCARD_SEAT = 12


@pytest.fixture
def server() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer() as running:
        yield running


def mind_for(server: ScriptedOpenAIServer) -> LiteLLMMind:
    return LiteLLMMind("openai/juror-model", api_base=server.api_base, api_key="sk-test", timeout=5.0, retries=1)


def test_a_wildcard_whose_answer_takes_the_other_side_moves_its_conviction_past_the_turning_point(
    server: ScriptedOpenAIServer,
) -> None:
    server.script(Reply(text=TURNED))

    speech = asyncio.run(mind_for(server).speak(speak_request(WILDCARD, ())))  # it votes guilty at 0.55

    assert speech.position == "not_guilty"
    assert speech.own_shift == pytest.approx(0.5 - WILDCARD_TARGET - 0.55)
    assert 0.55 + speech.own_shift < params.FLIP_TO_NOT_GUILTY_BELOW


def test_another_juror_arguing_the_other_side_keeps_its_conviction(server: ScriptedOpenAIServer) -> None:
    server.script(Reply(text=TURNED), Reply(text=TURNED))
    contrarian = juror(5, "Ann Ward", "contrarian")

    speeches = [asyncio.run(mind_for(server).speak(speak_request(j, ()))) for j in (JURY[0], contrarian)]

    assert [s.position for s in speeches] == ["not_guilty", "not_guilty"]
    assert [s.own_shift for s in speeches] == [0.0, 0.0]


def test_a_wildcard_answer_that_keeps_its_vote_moves_nothing(server: ScriptedOpenAIServer) -> None:
    server.script(Reply(text=TURNED.replace("NOT GUILTY", "GUILTY")))

    speech = asyncio.run(mind_for(server).speak(speak_request(WILDCARD, ())))

    assert speech.position == "guilty" and speech.own_shift == 0.0


def turning_room(body: dict[str, Any]) -> Reply:
    """Every juror argues its own vote, leaving listeners unmoved; the wildcard turns against its own."""
    last = str(body["messages"][-1]["content"])
    kind = call_kind(body)
    if kind == "reaction":
        seats = re.findall(r"^juror_(\d+):", last, re.MULTILINE)
        count = len(re.findall(r"^\d+\. ", last, re.MULTILINE))
        return Reply(
            text=json.dumps({f"juror_{s}": [{"speech": n + 1, "impact": 0.0} for n in range(count)] for s in seats})
        )
    if kind == "summary":
        return Reply(text=json.dumps({"summary": "• Nothing new."}))
    system = str(body["messages"][0]["content"])
    wildcard = "Archetype: wildcard" in system
    return Reply(text=TURNED if wildcard else TURNED.replace("NOT GUILTY", "GUILTY"))


def test_in_a_round_through_the_model_the_wildcards_vote_turns_with_what_it_said(server: ScriptedOpenAIServer) -> None:
    server.responder = turning_room
    case, jury = build_case(), build_jury()
    for seed in range(40):  # the first seeded room where the wildcard opens guilty and speaks in round 1
        state = begin(case=case, jury=jury, seed=seed)
        if state.votes[WILDCARD_SEAT] != "guilty":
            continue
        result = asyncio.run(
            run_round(state, case=case, jury=jury, mind=mind_for(server), fallback=OfflineMind(), reader=argued_points)
        )
        if any(s.seat == WILDCARD_SEAT for s in result.speeches):
            break
    else:
        pytest.fail("no seed in 40 let the wildcard speak while voting guilty")

    assert state.votes[WILDCARD_SEAT] == "not_guilty"
    assert any(flip.seat == WILDCARD_SEAT and flip.after == "not_guilty" for flip in result.flips)
