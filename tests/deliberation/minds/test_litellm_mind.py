"""The LiteLLM mind through the real LiteLLM client against a local OpenAI-protocol server."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Iterator

import litellm
import pytest

from deliberation.engine.ports import CraftRequest, JurorOutlook, Listener, ReactRequest, SummarizeRequest
from deliberation.engine.rounds import run_round
from deliberation.engine.session import begin
from deliberation.engine.types import Speech
from deliberation.minds.litellm.calls import NOTE_EMPTY, NOTE_MALFORMED, NOTE_TIMEOUT
from deliberation.minds.litellm.mind import NOTE_BUDGET, LiteLLMMind
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import build_case, build_jury
from tests.deliberation.minds.jury import CASE, JURY, speak_request, turn
from tests.deliberation.minds.jury_room import jury_room
from tests.deliberation.minds.openai_server import Reply, ScriptedOpenAIServer

MARGARET, TOM, ANN, WALTER = JURY
ANSWER = (
    "<SpeakingTo>Tom Reyes</SpeakingTo>\n<ArgumentType>evidence</ArgumentType>\n<Position>NOT GUILTY</Position>\n"
    "<Reasoning>The coat was shared.</Reasoning>\n<Cites>E1</Cites>\n"
    "<Content>Tom, that coat hung in a room five men shared. The watch proves where it was, not who put it there."
    "</Content>"
)
STATEMENT = "Tom, that coat hung in a room five men shared. The watch proves where it was, not who put it there."
HISTORY = (turn(1, 3, "The watch settles it for me."), turn(1, 1, "Not so fast, Tom.", target=3), turn(2, 5, "Mercy."))


@pytest.fixture
def server() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer() as running:
        yield running


def mind_for(server: ScriptedOpenAIServer, model: str = "openai/juror-model", **options: object) -> LiteLLMMind:
    settings: dict[str, object] = {"timeout": 5.0, "retries": 2, "backoff": 0.01, **options}
    return LiteLLMMind(model, api_base=server.api_base, api_key="sk-test", **settings)  # type: ignore[arg-type]


def test_a_plain_answer_becomes_a_parsed_speech_with_its_usage(server: ScriptedOpenAIServer) -> None:
    server.script(Reply(text=ANSWER, prompt_tokens=812, completion_tokens=64))

    speech = asyncio.run(mind_for(server).speak(speak_request(MARGARET, HISTORY)))

    assert speech.content == STATEMENT
    assert (speech.seat, speech.target_seat, speech.argument_type, speech.position) == (1, 3, "evidence", "not_guilty")
    assert speech.reasoning == "The coat was shared." and speech.cited == ("E1",)
    assert speech.strength < 0  # towards not guilty, rated from the cited evidence
    assert not speech.is_fallback and not speech.usage.fallback
    assert (speech.usage.calls, speech.usage.prompt_tokens, speech.usage.completion_tokens) == (1, 812, 64)
    assert server.requests[0]["model"] == "juror-model" and not server.requests[0].get("stream")


def test_the_request_carries_the_speakers_perspective(server: ScriptedOpenAIServer) -> None:
    server.script(Reply(text=ANSWER))

    asyncio.run(mind_for(server).speak(speak_request(MARGARET, HISTORY)))

    messages = server.requests[0]["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert "The watch settles it for me." in messages[1]["content"]
    assert "Not so fast, Tom." in messages[2]["content"]
    assert "Mercy." in messages[3]["content"] and "YOUR TURN, Margaret Chen." in messages[3]["content"]


def test_streaming_delivers_only_the_statement_in_order_in_grouped_pieces(server: ScriptedOpenAIServer) -> None:
    server.script(Reply(text=ANSWER, chunk_size=7, prompt_tokens=300, completion_tokens=90))
    received: list[tuple[int, str]] = []

    speech = asyncio.run(
        mind_for(server).speak(speak_request(MARGARET, HISTORY), on_text=lambda seat, c: received.append((seat, c)))
    )

    assert server.requests[0]["stream"] is True
    server_chunks = -(-len(ANSWER) // 7)
    assert 1 < len(received) <= server_chunks // 3 and {seat for seat, _ in received} == {1}  # grouped, not per chunk
    assert "".join(chunk for _, chunk in received) == speech.content == STATEMENT
    assert not any("<" in chunk for _, chunk in received)
    assert (speech.usage.prompt_tokens, speech.usage.completion_tokens) == (300, 90)


@pytest.mark.parametrize("streamed", [False, True])
def test_cached_prompt_tokens_are_recorded_where_the_provider_reports_them(
    server: ScriptedOpenAIServer, streamed: bool
) -> None:
    server.script(Reply(text=ANSWER, prompt_tokens=1400, cached_tokens=1024), Reply(text=ANSWER, prompt_tokens=900))
    mind = mind_for(server)
    sink = (lambda seat, chunk: None) if streamed else None

    cached = asyncio.run(mind.speak(speak_request(MARGARET, HISTORY), on_text=sink))
    plain = asyncio.run(mind.speak(speak_request(MARGARET, HISTORY), on_text=sink))

    assert (cached.usage.prompt_tokens, cached.usage.cached_tokens) == (1400, 1024)
    assert (plain.usage.prompt_tokens, plain.usage.cached_tokens) == (900, 0)


def test_a_streamed_answer_without_tags_still_reaches_the_sink_whole(server: ScriptedOpenAIServer) -> None:
    server.script(Reply(text="I keep coming back to the lamp-lighter, Ann.", chunk_size=4))
    received: list[str] = []

    speech = asyncio.run(mind_for(server).speak(speak_request(TOM, HISTORY), on_text=lambda s, c: received.append(c)))

    assert received == ["I keep coming back to the lamp-lighter, Ann."] == [speech.content]


def test_a_timeout_is_retried_then_recorded_as_a_fallback_turn(server: ScriptedOpenAIServer) -> None:
    server.default = Reply(text=ANSWER, delay=30)
    mind = mind_for(server, timeout=0.3, retries=2)
    received: list[str] = []

    speech = asyncio.run(mind.speak(speak_request(WALTER, HISTORY), on_text=lambda s, c: received.append(c)))

    assert len(server.requests) == 3  # one call and two retries, no more
    assert speech.is_fallback and speech.usage.fallback
    assert speech.usage.note == NOTE_TIMEOUT.format(timeout=0.3, attempts="3 attempts")
    assert speech.seat == 8 and speech.content.strip()
    assert received == [speech.content]  # the room still hears the stand-in statement


def test_a_server_error_is_retried_and_the_later_answer_is_used(server: ScriptedOpenAIServer) -> None:
    server.script(Reply(status=500), Reply(status=503), Reply(text=ANSWER))

    speech = asyncio.run(mind_for(server, retries=2).speak(speak_request(MARGARET, HISTORY)))

    assert len(server.requests) == 3
    assert not speech.is_fallback and speech.content == STATEMENT


def test_http_500_every_time_ends_in_a_fallback_after_bounded_retries(server: ScriptedOpenAIServer) -> None:
    server.default = Reply(status=500)

    speech = asyncio.run(mind_for(server, retries=1).speak(speak_request(MARGARET, HISTORY)))

    assert len(server.requests) == 2
    assert speech.is_fallback
    assert speech.usage.note.startswith("the model call failed after 2 attempts")


def test_a_refused_request_is_not_retried(server: ScriptedOpenAIServer) -> None:
    server.default = Reply(status=401)

    speech = asyncio.run(mind_for(server, retries=3).speak(speak_request(MARGARET, HISTORY)))

    assert len(server.requests) == 1
    assert speech.is_fallback and speech.usage.note.startswith("the model call was refused")


@pytest.mark.parametrize("text", ["%%$#@!&*^~~ }{ ][", '{"mood": "grim"}', "<Position>GUILTY</Position>"])
def test_a_garbage_answer_becomes_a_fallback_and_its_tokens_still_count(
    server: ScriptedOpenAIServer, text: str
) -> None:
    server.script(Reply(text=text, prompt_tokens=500, completion_tokens=12))

    speech = asyncio.run(mind_for(server).speak(speak_request(ANN, HISTORY)))

    assert len(server.requests) == 1  # a broken answer is not paid for twice
    assert speech.is_fallback and speech.usage.note == NOTE_MALFORMED
    assert (speech.usage.prompt_tokens, speech.usage.completion_tokens) == (500, 12)


def test_an_unreadable_response_body_is_retried_then_falls_back(server: ScriptedOpenAIServer) -> None:
    server.default = Reply(raw=b"<html>502 Bad Gateway</html>")

    speech = asyncio.run(mind_for(server, retries=1).speak(speak_request(ANN, HISTORY)))

    assert len(server.requests) == 2
    assert speech.is_fallback and speech.usage.fallback


def test_an_empty_answer_becomes_a_fallback_with_its_own_note(server: ScriptedOpenAIServer) -> None:
    server.script(Reply(text="   "))

    speech = asyncio.run(mind_for(server).speak(speak_request(ANN, HISTORY)))

    assert speech.is_fallback and speech.usage.note == NOTE_EMPTY


def test_the_fallback_statement_is_deterministic(server: ScriptedOpenAIServer) -> None:
    server.default = Reply(text="")
    mind = mind_for(server)

    first = asyncio.run(mind.speak(speak_request(ANN, HISTORY)))
    second = asyncio.run(mind.speak(speak_request(ANN, HISTORY)))

    assert first.is_fallback and second.is_fallback
    assert first.content == second.content


def test_a_personas_own_model_and_temperature_reach_the_server(server: ScriptedOpenAIServer) -> None:
    server.default = Reply(text=ANSWER)
    sharp = dataclasses.replace(MARGARET, model="openai/sharp-juror", temperature=0.2)
    mind = mind_for(server, temperature=0.7)

    asyncio.run(mind.speak(speak_request(sharp, HISTORY)))
    asyncio.run(mind.speak(speak_request(TOM, HISTORY)))

    assert (server.requests[0]["model"], server.requests[0]["temperature"]) == ("sharp-juror", 0.2)
    assert (server.requests[1]["model"], server.requests[1]["temperature"]) == ("juror-model", 0.7)


def test_cost_is_counted_from_litellms_price_list_when_the_model_is_known(server: ScriptedOpenAIServer) -> None:
    server.script(Reply(text=ANSWER, prompt_tokens=1000, completion_tokens=200))
    prices = litellm.model_cost["gpt-4o-mini"]

    speech = asyncio.run(mind_for(server, model="openai/gpt-4o-mini").speak(speak_request(MARGARET, HISTORY)))

    expected = 1000 * prices["input_cost_per_token"] + 200 * prices["output_cost_per_token"]
    assert speech.usage.cost_usd == pytest.approx(expected)
    assert speech.usage.cost_usd > 0


def test_an_unpriced_model_costs_nothing_but_its_tokens_count(server: ScriptedOpenAIServer) -> None:
    server.script(Reply(text=ANSWER, prompt_tokens=77, completion_tokens=7))
    mind = mind_for(server, model="openai/local-unpriced-model")

    speech = asyncio.run(mind.speak(speak_request(MARGARET, HISTORY)))

    assert speech.usage.cost_usd == 0.0
    assert mind.spent_tokens == 84


def listeners() -> tuple[Listener, ...]:
    outlook = JurorOutlook(conviction=0.5, vote="guilty", doubts=("the light",))
    return (Listener(MARGARET, outlook, True), Listener(ANN, outlook, True), Listener(WALTER, outlook, False))


def react_request() -> ReactRequest:
    speeches = (
        Speech(seat=3, speaker_name="Tom Reyes", content="The watch was in his coat.", argument_type="evidence"),
        Speech(seat=1, speaker_name="Margaret Chen", content="The coat was shared.", target_seat=3),
    )
    return ReactRequest(case=CASE, speeches=speeches, listeners=listeners(), round_number=3)


def test_one_call_gives_the_active_listeners_reactions_and_the_passive_ones_get_the_heuristic(
    server: ScriptedOpenAIServer,
) -> None:
    answer = {
        "juror_1": [{"speech": 1, "impact": 0.3, "thought": "Fair", "persuaded": False}, {"speech": 2, "impact": -0.1}],
        "Ann Ward": [{"speech": 1, "impact": -0.5}, {"speech": 2, "impact": -0.6, "persuaded": True}],
    }
    server.script(Reply(text="```json\n" + json.dumps(answer) + "\n```", prompt_tokens=900, completion_tokens=150))

    batch = asyncio.run(mind_for(server).react_batch(react_request()))

    assert len(server.requests) == 1
    asked = server.requests[0]["messages"][-1]["content"]
    assert "juror_1:" in asked and "juror_5:" in asked and "juror_8:" not in asked  # Walter is half listening
    rated = {(r.seat, r.speech_index): r.base_impact for r in batch.reactions if r.seat != 8}
    assert rated == {(1, 0): 0.3, (1, 1): -0.1, (5, 0): -0.5, (5, 1): -0.6}
    assert {r.speech_index for r in batch.reactions if r.seat == 8} == {0, 1}  # the offline heuristic's
    assert (batch.usage.calls, batch.usage.prompt_tokens, batch.usage.fallback) == (1, 900, False)


def test_a_listener_who_made_every_speech_of_the_round_is_not_asked_about_it(server: ScriptedOpenAIServer) -> None:
    server.script(Reply(text='{"juror_1": [{"speech": 1, "impact": 0.2}]}'))
    outlook = JurorOutlook(conviction=0.5, vote="guilty")
    speech = Speech(seat=3, speaker_name="Tom Reyes", content="The watch was in his coat.")
    request = ReactRequest(
        case=CASE, speeches=(speech,), listeners=(Listener(MARGARET, outlook, True), Listener(TOM, outlook, True)),
        round_number=3,
    )  # fmt: skip

    batch = asyncio.run(mind_for(server).react_batch(request))

    asked = server.requests[0]["messages"][-1]["content"]
    assert "juror_1:" in asked and "juror_3:" not in asked
    assert not batch.usage.note  # Tom is not missing from the answer: he was never asked
    assert {(r.seat, r.base_impact) for r in batch.reactions if r.seat == 1} == {(1, 0.2)}


def test_reactions_that_leave_jurors_out_are_noted_and_a_garbage_batch_falls_back(
    server: ScriptedOpenAIServer,
) -> None:
    server.script(Reply(text='{"juror_1": [{"speech": 1, "impact": 0.4}]}'), Reply(text="The jury murmurs."))
    mind = mind_for(server)

    partial = asyncio.run(mind.react_batch(react_request()))
    broken = asyncio.run(mind.react_batch(react_request()))

    assert "jurors 5;" in partial.usage.note and not partial.usage.fallback
    assert len(partial.reactions) == 6
    assert broken.usage.fallback and broken.usage.note == NOTE_MALFORMED
    assert {r.seat for r in broken.reactions} == {1, 5, 8}  # the stand-in still hears every listener
    assert {r.speech_index for r in broken.reactions} <= {0, 1}


def test_one_summary_call_writes_the_rooms_minutes_the_same_for_every_juror(server: ScriptedOpenAIServer) -> None:
    answer = {
        "summary": "• Tom leaned on the watch.\n• Margaret doubted the coat.",
        "jurors": {"juror_5": "Ann pities."},
    }
    server.script(Reply(text=json.dumps(answer)))
    request = SummarizeRequest(case=CASE, turns=HISTORY, previous_summary="", jurors=JURY, round_number=5)

    result = asyncio.run(mind_for(server).summarize(request))

    assert len(server.requests) == 1
    assert set(result.summaries) == {0, 1, 3, 5, 8}  # 0: the room's own minutes
    assert set(result.summaries.values()) == {"• Tom leaned on the watch.\n• Margaret doubted the coat."}


def test_the_players_argument_keeps_their_side_strategy_and_target(server: ScriptedOpenAIServer) -> None:
    server.script(Reply(text=ANSWER.replace("NOT GUILTY", "GUILTY").replace("Tom Reyes", "everyone")))
    player = dataclasses.replace(WALTER, seat=7, name="Juror 7")
    request = CraftRequest(
        player=player,
        side="defend",
        strategy="challenge_evidence",
        case=CASE,
        recent=HISTORY,
        passages=(),
        round_number=3,
        tally={"guilty": 8, "not_guilty": 4},
        jury=(*JURY, player),
        target_seat=3,
    )

    speech = asyncio.run(mind_for(server).craft_argument(request))

    assert (speech.seat, speech.position, speech.strategy, speech.target_seat) == (
        7,
        "not_guilty",
        "challenge_evidence",
        3,
    )
    assert speech.content == STATEMENT


def test_a_spent_token_budget_stops_asking_the_model(server: ScriptedOpenAIServer) -> None:
    server.default = Reply(text=ANSWER, prompt_tokens=150, completion_tokens=10)
    mind = mind_for(server, token_budget=100)

    first = asyncio.run(mind.speak(speak_request(MARGARET, HISTORY)))
    second = asyncio.run(mind.speak(speak_request(MARGARET, HISTORY)))

    assert not first.is_fallback and second.is_fallback
    assert second.usage.note == NOTE_BUDGET
    assert len(server.requests) == 1


def test_a_whole_engine_round_runs_through_litellm(server: ScriptedOpenAIServer) -> None:
    server.responder = jury_room
    case, jury = build_case(), build_jury()
    state = begin(case=case, jury=jury, seed=3)

    result = asyncio.run(
        run_round(state, case=case, jury=jury, mind=mind_for(server), fallback=OfflineMind(), reader=argued_points)
    )

    assert result.speeches and result.usage.fallback_calls == 0
    assert result.usage.calls == len(result.speeches) + 1 == len(server.requests)  # speakers + one batch reaction
    for speech in result.speeches:
        assert speech.content == f"{speech.speaker_name} asks who else could have worn that coat."
        assert (speech.argument_type, speech.position, speech.is_fallback) == ("question", "not_guilty", False)
    assert any(reaction.base_impact == -0.2 for reaction in result.reactions)


@pytest.mark.parametrize("streamed", [False, True])
@pytest.mark.parametrize("model", ["openai/juror-model", "hosted_vllm/juror-model"])
def test_an_openai_compatible_server_is_read_alike_directly_and_through_litellm(
    server: ScriptedOpenAIServer, model: str, streamed: bool
) -> None:
    server.script(Reply(text=ANSWER, chunk_size=5, prompt_tokens=640, completion_tokens=70))
    received: list[str] = []
    sink = (lambda seat, chunk: received.append(chunk)) if streamed else None

    mind = mind_for(server, model=model)
    speech = asyncio.run(mind.speak(speak_request(MARGARET, HISTORY), on_text=sink))

    assert mind.direct(model) == model.startswith("openai/")
    assert speech.content == STATEMENT and not speech.is_fallback
    assert (speech.usage.prompt_tokens, speech.usage.completion_tokens) == (640, 70)
    assert bool(server.requests[0].get("stream")) == streamed
    assert "".join(received) == (STATEMENT if streamed else "")
