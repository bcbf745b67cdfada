"""kill -9 mid-round, with real processes: the scenarios behind tests/deliberation/services/
test_recovery.py (which assert what happened) and bench/recovery.py (which prints how long it took).

Each scenario starts a live server (``tests.live``) whose jurors think through the real LiteLLM
client against a local server speaking the OpenAI protocol that answers each call after
``THINK_SECONDS``, so a round lasts long enough to be killed in the middle. It waits until a round
is running, kills the process running it with SIGKILL (the Celery worker in service mode, Daphne
in embedded mode), starts a fresh one at once as a supervisor would, and watches the database:

- a room (autostart, no participant, so the AI jurors take round after round): the killed round is
  stored once, and the room moves on to the next round;
- a single-player game (started, side chosen and passed over HTTP as a browser does): the killed
  round is stored once, and the player's controls are free again. In service mode the killed
  worker's message comes back from the broker (visibility timeout shortened to
  ``VISIBILITY_SECONDS``) and is counted: that late delivery must add no round.

A browser watches the deliberation's websocket all along (the player's own in a single-player
game, a curator's in a room), reconnecting as the page's script does when its web process goes:
"visible" is the first update pushed to it after the kill, what a class sees move again.
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import WebSocketException
from websockets.sync.client import connect

from tests.deliberation.minds.openai_server import Reply, ScriptedOpenAIServer
from tests.live import LiveServer, live_server

CASE = "kessler-market-robbery"
THINK_SECONDS = 0.7  # per model call: a round of 1-4 speakers and one batch reaction takes seconds
VISIBILITY_SECONDS = 8
WAIT_SECONDS = 240.0  # every wait is bounded; a scenario that does not recover fails, never hangs
POLL_SECONDS = 0.1
HTTP_TIMEOUT = 180.0  # the first game of a fresh web process imports LiteLLM, slow on a busy machine
ROUND_TASK = "deliberation.round_run["
WATCHER = ("watcher", "watch-the-room-2024")  # a curator account: staff may watch any room
AUTOSTART_SECONDS = 30  # the watching browser opens its socket before the room's first round (a loaded machine is slow)


@dataclass
class Outcome:
    """What a scenario saw after the kill (times from the kill, in seconds)."""

    killed_round: int
    visible_after: float = 0.0  # the first update pushed to the watching browser after the kill
    taken_over_after: float = 0.0  # a live process claimed the killed round again
    stored_after: float = 0.0  # the killed round is in the database
    moved_on_after: float = 0.0  # the room's next round is stored (or its verdict) / the player may act again
    finished: bool = False  # the room reached its verdict with the killed round: no next round to wait for
    rounds: list[int] = field(default_factory=list)  # round number of every RoundStats row, in order
    round_status: str = ""
    round_deliveries: int = 0  # round_run messages the fresh worker received (service, single-player)
    stand_ins: int = 0  # turns whose model call failed and the offline engine stood in


def _environment(model: ScriptedOpenAIServer, stale_seconds: float) -> dict[str, str]:
    return {
        "ANGRY_LLM_MODEL": "openai/juror",
        "ANGRY_LLM_API_BASE": model.api_base,
        "OPENAI_API_KEY": "local-test-key",
        "ANGRY_LLM_TIMEOUT": "30",
        "ANGRY_LLM_RETRIES": "0",
        "ANGRY_NARRATION": "text",
        "ANGRY_ROUND_STALE_SECONDS": str(stale_seconds),
        "ANGRY_ROOM_AUTOSTART_SECONDS": str(AUTOSTART_SECONDS),
        "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_SECONDS),
    }


def _wait(what: str, check: Any, timeout: float = WAIT_SECONDS) -> float:
    """Poll ``check`` until it is true; the monotonic time it became true."""
    deadline = time.monotonic() + timeout
    while True:
        if check():
            return time.monotonic()
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what} after {timeout:.0f} s")
        time.sleep(POLL_SECONDS)


def _game(server: LiveServer) -> tuple[int, int, str]:
    """The newest deliberation's id, round number and round status."""
    rows = server.query("SELECT id, round_number, round_status FROM deliberation_deliberation ORDER BY id DESC LIMIT 1")
    return rows[0] if rows else (0, -1, "")


def _claimed_at(server: LiveServer, deliberation_id: int) -> object:
    rows = server.query("SELECT round_claimed_at FROM deliberation_deliberation WHERE id = ?", (deliberation_id,))
    return rows[0][0]


def _phase(server: LiveServer, deliberation_id: int) -> str:
    return server.query("SELECT phase FROM deliberation_deliberation WHERE id = ?", (deliberation_id,))[0][0]


def _rounds(server: LiveServer, deliberation_id: int) -> list[int]:
    rows = server.query(
        "SELECT round_number FROM deliberation_roundstats WHERE deliberation_id = ? ORDER BY id", (deliberation_id,)
    )
    return [number for (number,) in rows]


class Watcher(threading.Thread):
    """A browser's websocket on the deliberation, reconnecting every half second while it is down;
    the monotonic time of every update it receives."""

    def __init__(self, url: str, origin: str, cookie: str) -> None:
        super().__init__(name="recovery-watcher", daemon=True)
        self.url, self.origin, self.cookie = url, origin, cookie
        self.received: list[float] = []
        self.connected = threading.Event()
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                with connect(
                    self.url, origin=self.origin, additional_headers={"Cookie": self.cookie}, open_timeout=5
                ) as socket:  # type: ignore[arg-type]
                    self.connected.set()
                    while not self.stop.is_set():
                        try:
                            socket.recv(timeout=0.5)
                        except TimeoutError:
                            continue
                        self.received.append(time.monotonic())
            except (OSError, TimeoutError, WebSocketException):
                self.stop.wait(0.5)  # the web process is gone: try again, as the page does

    def first_after(self, moment: float) -> float | None:
        return next((at for at in self.received if at > moment), None)


def _watch(server: LiveServer, public_id: str, cookie: str) -> Watcher:
    watcher = Watcher(server.ws_url(f"/ws/court/{public_id}/"), server.url, cookie)
    watcher.start()
    assert watcher.connected.wait(HTTP_TIMEOUT), "the websocket never opened"
    return watcher


def _curator_cookie(server: LiveServer) -> str:
    """Make a curator account and log in through the admin's login page: its session cookie."""
    name, password = WATCHER
    server.manage(
        "shell", "-c",
        f"from django.contrib.auth import get_user_model; get_user_model().objects.create_superuser({name!r}, "
        f"'watcher@example.org', {password!r})",
    )  # fmt: skip
    with httpx.Client(base_url=server.url, timeout=HTTP_TIMEOUT) as browser:
        browser.get("/admin/login/")
        token = browser.cookies.get("csrftoken", "")
        form = {"username": name, "password": password, "csrfmiddlewaretoken": token, "next": "/admin/"}
        assert browser.post("/admin/login/", data=form).status_code == 302, "the curator could not log in"
        return "; ".join(f"{key}={value}" for key, value in browser.cookies.items())


def _public_id(server: LiveServer) -> str:
    return server.query("SELECT public_id FROM deliberation_deliberation ORDER BY id DESC LIMIT 1")[0][0]


def _play_over_http(server: LiveServer) -> str:
    """Start a game, choose a side and pass, as a browser does (forms read from the pages); the
    player's cookies."""
    with httpx.Client(base_url=server.url, follow_redirects=True, timeout=HTTP_TIMEOUT) as browser:
        browser.get("/")
        token = browser.cookies.get("csrftoken", "")
        court = browser.post("/court/start/", data={"case": CASE, "csrfmiddlewaretoken": token})
        side = re.search(r'class="side-choice" method="post" action="([^"]+)"', court.text)
        assert side, "the courtroom offers no side to choose"
        vote = {"side": "defend", "vote": "not_guilty", "csrfmiddlewaretoken": token}  # the first ballot asks
        page = browser.post(side.group(1), data=vote)
        passing = re.search(r'formaction="([^"]+)"[^>]*>Pass Turn', page.text)
        assert passing, "the courtroom offers no Pass Turn"
        browser.post(passing.group(1), data={"csrfmiddlewaretoken": token})
        return "; ".join(f"{key}={value}" for key, value in browser.cookies.items())


def _scenario(tmp: Path, *, name: str, redis_db: int, room: bool, embedded: bool, stale_seconds: float) -> Outcome:
    with ScriptedOpenAIServer() as model:
        model.default = Reply(delay=THINK_SECONDS)
        env = _environment(model, stale_seconds)
        with live_server(tmp, name=name, redis_db=redis_db, env=env, embedded=embedded) as server:
            if not embedded:
                assert server.service_mode, "a worker can be killed only in service mode"
            if room:
                cookie = _curator_cookie(server)
                server.room("--case", CASE, "--autostart", "--open-seats", "2", "--pace-seconds", "0.5", "--seed", "5")
            else:
                cookie = _play_over_http(server)
            watcher = _watch(server, _public_id(server), cookie)
            _wait("a round to start", lambda: _game(server)[2] == "running")
            deliberation_id, before, _status = _game(server)
            killed = before + 1
            claim = _claimed_at(server, deliberation_id)
            victim = server.processes[0] if embedded else server.processes[-1]
            server.kill(victim)
            killed_at = time.monotonic()
            if embedded:
                server.start_web()  # its first request starts the room driver, as a browser's would
            else:
                server.start_worker("fresh")
            outcome = Outcome(killed_round=killed)
            taken = _wait(
                "the round to be taken over",
                lambda: (
                    _claimed_at(server, deliberation_id) not in (claim, None)
                    or killed in _rounds(server, deliberation_id)
                ),
            )
            outcome.taken_over_after = taken - killed_at
            stored = _wait(f"round {killed} to be stored", lambda: killed in _rounds(server, deliberation_id))
            outcome.stored_after = stored - killed_at
            if room:
                moved = _wait(
                    "the room's next round",
                    lambda: (
                        killed + 1 in _rounds(server, deliberation_id) or _phase(server, deliberation_id) == "verdict"
                    ),
                )
                outcome.finished = killed + 1 not in _rounds(server, deliberation_id)
            else:
                moved = _wait("the controls to be free", lambda: _game(server)[2] == "idle")
            outcome.moved_on_after = moved - killed_at
            _wait("an update on the watching browser", lambda: watcher.first_after(killed_at) is not None)
            outcome.visible_after = (watcher.first_after(killed_at) or killed_at) - killed_at  # when it came
            if not room and not embedded:
                log = server.log.parent / "worker-fresh.log"
                _wait("the killed worker's message to come back", lambda: log.read_text().count(ROUND_TASK) >= 4)
                outcome.round_deliveries = log.read_text().count(ROUND_TASK) // 2  # "Received" and "succeeded"
            outcome.rounds = _rounds(server, deliberation_id)
            outcome.stand_ins = server.query(
                "SELECT count(*) FROM deliberation_turn WHERE deliberation_id = ? AND is_fallback", (deliberation_id,)
            )[0][0]
            outcome.round_status = _game(server)[2]
            watcher.stop.set()
            watcher.join(timeout=5)
            return outcome


def worker_killed_mid_round(tmp: Path, *, room: bool, stale_seconds: float, redis_db: int) -> Outcome:
    """Service mode: kill -9 the Celery worker while it runs a round, start a fresh worker."""
    name = "kill_worker_room" if room else "kill_worker_solo"
    return _scenario(tmp, name=name, redis_db=redis_db, room=room, embedded=False, stale_seconds=stale_seconds)


def web_killed_mid_round(tmp: Path, *, room: bool, stale_seconds: float, redis_db: int) -> Outcome:
    """Embedded mode: kill -9 Daphne while its background thread runs a round, start it again."""
    name = "kill_web_room" if room else "kill_web_solo"
    return _scenario(tmp, name=name, redis_db=redis_db, room=room, embedded=True, stale_seconds=stale_seconds)
