"""Nothing internal reaches a student: a game and a room played through a model that errs, refuses,
rate-limits, times out and answers garbage (summaries included) show the kind of each failure on
every page and export, and never the provider's URL, host, key or the client's own words; every
failed call is in the record with its cause, and its full detail in the server log and the admin.

The real LiteLLM SDK (``hosted_vllm/``, LiteLLM's OpenAI-compatible provider) and the direct
OpenAI-protocol client (``openai/`` with an ``api_base``) both talk to a local server speaking the
OpenAI protocol, whose error answers are worded as a provider's are (a URL, an organisation, a key).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
from collections import Counter
from collections.abc import Iterator
from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from angryagents.identity import SESSION_FIELD
from deliberation import services
from deliberation.engine.failures import NOTE_SUMMARY_FAILED, cause_label
from deliberation.engine.foreperson import IN_SHORT
from deliberation.minds.factory import mind_for
from deliberation.models import Deliberation, Phase, RoundStats, Turn, TurnKind
from deliberation.rooms import clock
from deliberation.rooms import services as rooms
from deliberation.rooms.services import Credential
from deliberation.rooms.state import room_of
from tests.deliberation.minds.jury import JURY, speak_request
from tests.deliberation.minds.jury_room import call_kind, jury_room
from tests.deliberation.minds.openai_server import Reply, ScriptedOpenAIServer

TIMEOUT = 2.0  # an honest local answer never takes this long; the timeout fault does
KEY = "sk-live-4f9a0c1d7e"
ORGANISATION = "org-k2x7QmN"
UPSTREAM = "10.8.0.3"
GARBAGE_SUMMARY = "{not json at all"
FAULTS: dict[str, tuple[Reply, str]] = {  # what the provider answers, and the cause the record must name
    "rate_limit": (
        Reply(
            status=429,
            message=f"Rate limit reached for juror-model in organization {ORGANISATION} on tokens per min. "
            "Visit https://platform.openai.com/account/rate-limits to learn more.",
        ),
        "rate_limit",
    ),
    "server_error": (
        Reply(status=500, message=f"upstream connect error: http://{UPSTREAM}:8000/v1 reset"),
        "server_error",
    ),
    "refused": (
        Reply(
            status=401,
            message=f"Incorrect API key provided: {KEY}. You can find your API key at "
            "https://platform.openai.com/account/api-keys.",
        ),
        "refused",
    ),
    "garbage": (Reply(raw=f"<html><body>502 Bad Gateway (nginx at {UPSTREAM})</body></html>".encode()), "unusable"),
    "timeout": (Reply(delay=TIMEOUT + 1.5), "timeout"),
}
EVERY = 3  # every third speech, argument or reaction call fails, the faults in turn
ENGINES = [
    pytest.param("hosted_vllm/juror-model", id="litellm-sdk"),
    pytest.param("openai/juror-model", id="direct-client"),
]
HOST = Credential(session_key="teacher-session")
ANNA = Credential(session_key="anna-session")
ROUNDS = 5  # round 5 folds the jurors' memories (a summary call) and the foreperson sums up


class FaultyProvider:
    """A cooperative jury (``jury_room``) that fails every third call in turn with each fault, and
    answers every summary with garbage; it records what it injected, by call kind."""

    def __init__(self) -> None:
        self.calls = 0
        self.injected: Counter[tuple[str, str]] = Counter()  # (call kind, expected cause)
        self._lock = threading.Lock()
        self._faults = list(FAULTS.values())

    def __call__(self, body: dict[str, Any]) -> Reply:
        kind = call_kind(body)
        with self._lock:
            if kind == "summary":
                self.injected[(kind, "unusable")] += 1
                return Reply(text=GARBAGE_SUMMARY)
            self.calls += 1
            if self.calls % EVERY:
                return jury_room(body)
            reply, cause = self._faults[(self.calls // EVERY - 1) % len(self._faults)]
            self.injected[(kind, cause)] += 1
            return reply


@pytest.fixture
def provider(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[ScriptedOpenAIServer, FaultyProvider]]:
    with ScriptedOpenAIServer() as server:
        settings.ANGRY_LLM_API_BASE = server.api_base
        settings.ANGRY_LLM_TIMEOUT = TIMEOUT
        settings.ANGRY_LLM_RETRIES = 0  # one request per call: requests failed = calls failed
        settings.ANGRY_NARRATION = "text"
        monkeypatch.setenv("OPENAI_API_KEY", KEY)
        monkeypatch.setenv("HOSTED_VLLM_API_KEY", KEY)
        server.responder = jury_room
        for engine in ("hosted_vllm/juror-model", "openai/juror-model"):  # LiteLLM sets itself up for seconds
            asyncio.run(mind_for(engine).speak(speak_request(JURY[0], ())))
        faulty = FaultyProvider()
        server.responder = faulty
        yield server, faulty


def _keep_arguing(deliberation: Deliberation) -> None:
    """No early end for stable votes: the game reaches its summary round."""
    state = deliberation.engine_state
    state["settings"] = {**state["settings"], "stability_rounds": 1000}
    Deliberation.objects.filter(pk=deliberation.pk).update(engine_state=state)


def _single_player(robbery: Any, engine: str) -> Deliberation:
    game = services.deliberation_start(
        case=robbery, engine=engine, seed=3, player_side="defend", host_session_key="player", max_rounds=ROUNDS
    )
    _keep_arguing(game)
    while game.phase == Phase.DELIBERATION:
        services.player_speak(deliberation_id=game.pk, seat_number=7, strategy="reasonable_doubt", start=False)
        assert services.round_run(deliberation_id=game.pk)
        game.refresh_from_db()
    return game


def _room(robbery: Any, engine: str) -> Deliberation:
    room = rooms.room_create(
        case=robbery, host_session_key=HOST.session_key, host_plays=False, open_seats=(2,), engine=engine,
        seed=5, max_rounds=ROUNDS,
    )  # fmt: skip
    rooms.room_join(code=room.room_code, credential=ANNA)
    rooms.room_start(deliberation_id=room.pk, session_key=HOST.session_key)
    room.refresh_from_db()
    _keep_arguing(room)
    for _ in range(4 * ROUNDS):  # bounded: each pass is a turn or a round
        if room.phase != Phase.DELIBERATION:
            break
        clock.room_tick(deliberation_id=room.pk)
        room.refresh_from_db()
        if room.phase == Phase.DELIBERATION and room_of(room).get("queue") == [2]:
            rooms.room_speak(
                deliberation_id=room.pk, credential=ANNA, content="the light was bad, nobody cud see that coat"
            )
            services.round_run(deliberation_id=room.pk)
            room.refresh_from_db()
    return room


def _browser(session_key: str) -> Client:
    client = Client()
    session = client.session
    session[SESSION_FIELD] = session_key
    session.save()
    client.cookies["sessionid"] = session.session_key
    return client


def _pages(game: Deliberation, client: Client) -> dict[str, str]:
    """Every page and export of a game its host sees."""
    names = {
        "transcript": "review:transcript",
        "markdown": "review:export_md",
        "json": "review:export_json",
        "summary": "review:export_summary",
    }
    pages = {label: client.get(reverse(name, args=[game.public_id])) for label, name in names.items()}
    if game.room_code:
        pages["room"] = client.get(reverse("room", args=[game.room_code]))
        pages["teacher"] = client.get(reverse("room_teacher", args=[game.room_code]))
    else:
        pages["courtroom"] = client.get(reverse("court", args=[game.public_id]))
    assert {label: page.status_code for label, page in pages.items()} == dict.fromkeys(pages, 200)
    return {label: unescape(page.content.decode()) for label, page in pages.items()}


def _internals(server: ScriptedOpenAIServer) -> tuple[str, ...]:
    host_and_port = server.api_base.split("//", 1)[1].split("/", 1)[0]
    return (host_and_port, "chat/completions", KEY[:10], ORGANISATION, UPSTREAM, "platform.openai.com",
            "nginx", "Traceback", "litellm", "Exception", "Client error", "Server error")  # fmt: skip


def _foreign_urls(text: str) -> set[str]:
    """Addresses in a page other than the site's own (links to the site are relative, or on testserver)."""
    return {url for url in re.findall(r"https?://[^\s\"'<>)]+", text) if not url.startswith("http://testserver/")}


def _check(game: Deliberation, server: ScriptedOpenAIServer, client: Client) -> None:
    pages = _pages(game, client)
    for label, text in pages.items():
        leaked = [word for word in _internals(server) if word in text]
        assert not leaked, f"{label} shows {leaked}"
        assert not _foreign_urls(text), f"{label} shows {_foreign_urls(text)}"

    stats = list(RoundStats.objects.filter(deliberation=game))
    failures = [f for s in stats for f in s.failures]
    assert failures and all(f["detail"] for f in failures)  # the full detail is kept, for the admin
    stand_ins = list(Turn.objects.filter(deliberation=game, is_fallback=True))
    assert all(t.fallback_cause and t.fallback_reason for t in stand_ins)
    for turn in stand_ins:  # the page names the cause where the stand-in spoke
        assert cause_label(turn.fallback_cause) in pages["transcript"]

    record = json.loads(pages["json"])
    exported = [f for r in record["round_log"] if r["figures"] for f in r["figures"]["failures"]]
    assert [(f["kind"], f["cause"]) for f in exported] == [(f["kind"], f["cause"]) for f in failures]
    assert all(f["reason"] == cause_label(f["cause"]) for f in exported)


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize("engine", ENGINES)
def test_a_fault_run_names_each_failure_and_shows_nothing_internal(provider, robbery, admin_client, caplog, engine):
    server, faulty = provider
    with caplog.at_level(logging.WARNING, logger="deliberation.minds"):
        game = _single_player(robbery, engine)
        room = _room(robbery, engine)
    assert room.round_number >= ROUNDS and game.round_number == ROUNDS

    # Every failed call is in the record with the cause the provider gave, summaries included.
    games = [game, room]
    recorded = Counter(
        (f["kind"], f["cause"]) for s in RoundStats.objects.filter(deliberation__in=games) for f in s.failures
    )
    assert recorded == faulty.injected
    assert {cause for _kind, cause in faulty.injected} == set(
        dict(FAULTS.values()).values()
    )  # every fault, once at least
    assert recorded[("summary", "unusable")] >= 2  # one summary round in each game

    # The foreperson's minutes fall back to the offline summary: never the garbage, and it says so.
    foreperson = Turn.objects.filter(deliberation__in=games, kind=TurnKind.PROCESS)
    assert not [t.content for t in foreperson if GARBAGE_SUMMARY in t.content or IN_SHORT.split("{")[0] in t.content]
    notes = [t.content for t in Turn.objects.filter(deliberation__in=games, kind=TurnKind.NOTE)]
    assert notes.count(NOTE_SUMMARY_FAILED.format(cause=cause_label("unusable"))) == recorded[("summary", "unusable")]

    _check(game, server, _browser("player"))
    _check(room, server, _browser(HOST.session_key))
    student = unescape(_browser(ANNA.session_key).get(reverse("room", args=[room.room_code])).content.decode())
    assert not [word for word in _internals(server) if word in student]

    # The full detail stays with the operator: the server log and the admin.
    logged = [r.getMessage() for r in caplog.records if "failed" in r.getMessage() or "could not" in r.getMessage()]
    assert any(KEY in line or ORGANISATION in line or UPSTREAM in line for line in logged)
    admin = unescape(
        admin_client.get(reverse("admin:deliberation_deliberation_change", args=[room.pk])).content.decode()
    )
    assert UPSTREAM in admin or ORGANISATION in admin or KEY in admin
