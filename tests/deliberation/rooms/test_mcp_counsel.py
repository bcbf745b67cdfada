"""An external agent as counsel at a room's trial, through the official MCP client against a live
Daphne: it takes the defence, opens, objects, cross-examines, and the jury then has the case."""

from __future__ import annotations

import asyncio

from mcp import Client

from tests.deliberation.rooms.test_mcp import call, refusal

MAX_CALLS = 300


def test_an_agent_is_defence_counsel_asks_objects_and_rests_until_the_jury_has_the_case(daphne_server):
    code = daphne_server.room(
        "--case", "kessler-market-robbery", "--open-seats", "3", "--autostart", "--trial", "--seed", "4"
    )

    async def play() -> dict:
        async with Client(f"{daphne_server.url}/mcp") as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            token = call(await client.call_tool("join_as_juror", {"room_code": code}))["token"]
            before = call(await client.call_tool("trial_state", {"token": token}))
            out: dict = {"names": names, "before": before, "refusals": {}, "rulings": [], "asked": None}
            out["refusals"]["side"] = refusal(await client.call_tool("take_counsel", {"token": token, "side": "judge"}))
            state = call(await client.call_tool("take_counsel", {"token": token, "side": "defense"}))
            out["claimed"] = state
            out["refusals"]["early"] = refusal(
                await client.call_tool("ask_witness", {"token": token, "question": "Where were you?"})
            )
            objected = asked = False
            for _ in range(MAX_CALLS):
                if not state["under_way"]:
                    break
                if not state["is_your_move"]:
                    await asyncio.sleep(0.2)
                    state = call(await client.call_tool("trial_state", {"token": token}))
                    continue
                move = state["waiting_for"]["move"]
                if move == "speech":
                    state = call(await client.call_tool("counsel_speech", {"token": token}))
                elif move == "review" and not objected:
                    objected = True
                    state = call(await client.call_tool("object", {"token": token, "ground": "speculation"}))
                    out["rulings"] = [e for e in state["recent"] if e["kind"] == "ruling"]
                elif move == "review":
                    state = call(await client.call_tool("no_objection", {"token": token}))
                elif move == "examine" and not asked:
                    asked = True
                    question = "Was it dark when you saw the man's face?"
                    state = call(await client.call_tool("ask_witness", {"token": token, "question": question}))
                    out["asked"] = [e for e in state["recent"] if e["text"] == question]
                    out["answer"] = state["recent"][-1]
                else:
                    state = call(await client.call_tool("rest_case", {"token": token}))
            out["after"] = state
            out["deliberation"] = call(await client.call_tool("get_deliberation_state", {"token": token}))
            return out

    out = asyncio.run(play())
    assert {"trial_state", "take_counsel", "ask_witness", "object", "no_objection", "rest_case"} <= out["names"]
    assert {"counsel_speech", "join_as_juror", "make_argument"} <= out["names"]
    assert out["before"]["under_way"] is True and out["before"]["opened"] is False
    assert "'prosecution' or the 'defense'" in out["refusals"]["side"]
    assert out["claimed"]["your_side"] == "defense" and out["claimed"]["counsel"]["defense"] == 3
    assert "not your turn" in out["refusals"]["early"]
    assert out["rulings"] and out["rulings"][-1]["text"].startswith(("Sustained", "Overruled"))
    assert out["asked"] and out["asked"][0]["side"] == "defense" and out["asked"][0]["kind"] == "question"
    assert out["answer"]["kind"] in ("answer", "ruling")
    assert out["after"]["under_way"] is False
    assert sum(out["deliberation"]["tally"].values()) >= 11  # the jury cast its first ballot after the trial
