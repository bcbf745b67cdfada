"""docker-compose.yml's stack, run without Docker: each service's exact command, with the compose
file's environment (and the image's), serves a game through the Celery worker.

No Docker engine runs here, so this is what ``docker compose up`` would do, done by hand: the
compose file is parsed and interpolated as Compose does (``${VAR:-default}``, ``${VAR:?message}``,
``$$``) with only ``SECRET_KEY`` set by the operator; each app service (web, worker, beat) is
started with its own command, in the order its ``depends_on`` asks, and waited for with its own
health check. What differs from the containers, and only that: the compose hostnames ``postgres``
and ``redis`` become CI's PostgreSQL (a database of this test's own) and Redis (a database number
of its own), the image's ``/app`` is this checkout (its ``var/`` a temporary folder), the
published port 8000 a free loopback port, and ``0.0.0.0`` loopback.

The game is played as a browser plays it: the home page, a case started, a side chosen, the turn
passed; the round runs in the worker (its log names the task) and the courtroom's websocket
receives the round's update.
"""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
import yaml

from tests.conftest import need
from tests.live import _flush_redis, _postgres, _with_path, free_port, live_database_name

ROOT = Path(__file__).resolve().parents[2]
APP_SERVICES = ("web", "worker", "beat")
OPERATOR_ENV = {"SECRET_KEY": "compose-test-secret-key-0123456789-abcdefghij"}  # `SECRET_KEY=... docker compose up`
DATABASE = "compose"  # angry_compose
REDIS_DB = 7
CASE = "kessler-market-robbery"
WAIT_SECONDS = 240.0  # bounded: a service that never becomes healthy fails the test
_VARIABLE = re.compile(r"\$(?:\$|\{(?P<braced>[^}]*)\}|(?P<named>[A-Za-z_][A-Za-z0-9_]*))")
_BRACED = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:?[-?+])(?P<arg>.*))?$", re.DOTALL)

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def interpolate(value: Any, env: dict[str, str]) -> Any:
    """Compose's variable substitution, in every string of the file (lists and maps walked)."""
    if isinstance(value, dict):
        return {key: interpolate(item, env) for key, item in value.items()}
    if isinstance(value, list):
        return [interpolate(item, env) for item in value]
    if not isinstance(value, str):
        return value

    def replace(match: re.Match[str]) -> str:
        if match.group(0) == "$$":
            return "$"
        if match.group("named"):
            return env.get(match.group("named"), "")
        braced = _BRACED.match(match.group("braced") or "")
        if braced is None:
            raise ValueError(f"invalid interpolation: {match.group(0)}")
        name, op, arg = braced.group("name"), braced.group("op"), braced.group("arg") or ""
        current = env.get(name)
        unset_or_empty = not current if op and op.startswith(":") else current is None
        if op in (":-", "-"):
            return arg if unset_or_empty else str(current)
        if op in (":?", "?"):
            if unset_or_empty:
                raise ValueError(f"required variable {name}: {arg}")
            return str(current)
        if op in (":+", "+"):
            return "" if unset_or_empty else arg
        return current or ""

    return _VARIABLE.sub(replace, value)


def image_env() -> dict[str, str]:
    """The ``ENV`` of the Dockerfile: what every container starts with before compose's own."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    env: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("ENV "):
            env.update(dict(pair.split("=", 1) for pair in shlex.split(line[4:])))
    return env


def compose_services() -> dict[str, dict[str, Any]]:
    return interpolate(yaml.safe_load((ROOT / "docker-compose.yml").read_text()), OPERATOR_ENV)["services"]


class Stack:
    """The app services started from the compose file, on CI's PostgreSQL and Redis."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.port = free_port()
        self.database_url = _with_path(os.environ["DATABASE_URL"], f"/{live_database_name(DATABASE)}")
        self.redis_url = _with_path(os.environ["REDIS_URL"], f"/{REDIS_DB}")
        self.services = compose_services()
        self.processes: dict[str, subprocess.Popen] = {}

    def localize(self, text: str) -> str:
        """The container's world on this machine: only the hosts, paths and port change."""
        return (
            text.replace("/app/var", str(self.tmp / "var"))
            .replace("--host 0.0.0.0", "--host 127.0.0.1")
            .replace("--port 8000", f"--port {self.port}")
        )

    def env(self, name: str) -> dict[str, str]:
        service = self.services[name]
        environment = {key: "" if value is None else str(value) for key, value in service["environment"].items()}
        assert (
            environment["DATABASE_URL"].startswith("postgresql://") and "@postgres:5432/" in environment["DATABASE_URL"]
        )
        assert environment["REDIS_URL"].startswith("redis://redis:6379/")
        environment["DATABASE_URL"], environment["REDIS_URL"] = self.database_url, self.redis_url
        environment = {key: self.localize(value) for key, value in environment.items()}
        return {
            "PATH": f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.tmp),
            "HOSTNAME": socket.gethostname(),  # as in a container: the name Celery gives its node
            "HEALTHCHECK_PORT": str(self.port),
            "ANGRY_VAR_DIR": str(self.tmp / "var"),  # the image's /app/var
            **image_env(),
            **environment,
        }

    def command(self, name: str) -> list[str]:
        command = self.services[name]["command"]
        words = shlex.split(command) if isinstance(command, str) else list(command)  # as Compose splits it
        return [self.localize(word) for word in words]

    def start(self, name: str) -> None:
        log = open(self.tmp / f"{name}.log", "w")  # the child keeps its own copy
        self.processes[name] = subprocess.Popen(
            self.command(name), cwd=ROOT, env=self.env(name), stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: the web's Daphnes stop with it
        )  # fmt: skip
        log.close()

    def healthy(self, name: str) -> bool:
        test = self.services[name]["healthcheck"]["test"]
        argv = ["sh", "-c", test[1]] if test[0] == "CMD-SHELL" else test[1:]
        argv = [self.localize(word) for word in argv]
        done = subprocess.run(argv, cwd=ROOT, env=self.env(name), capture_output=True, timeout=60)
        return done.returncode == 0

    def wait_healthy(self, name: str) -> None:
        deadline = time.monotonic() + WAIT_SECONDS
        while not self.healthy(name):
            process = self.processes[name]
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"{name} never became healthy: {self.log(name)[-3000:]}")
            time.sleep(1.0)

    def log(self, name: str) -> str:
        return (self.tmp / f"{name}.log").read_text(errors="replace")

    def stop(self) -> None:
        for process in reversed(list(self.processes.values())):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes.values():
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)


def _order(services: dict[str, dict[str, Any]]) -> list[str]:
    """The app services in the order their ``depends_on`` starts them."""
    ordered: list[str] = []
    while len(ordered) < len(APP_SERVICES):
        for name in APP_SERVICES:
            needs = [dep for dep in services[name].get("depends_on", {}) if dep in APP_SERVICES]
            if name not in ordered and all(dep in ordered for dep in needs):
                ordered.append(name)
    return ordered


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    need(
        bool(os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")),
        "DATABASE_URL and REDIS_URL are not both set: no PostgreSQL and Redis for the compose services",
    )
    running = Stack(tmp_path)
    drop = f"DROP DATABASE IF EXISTS {live_database_name(DATABASE)} WITH (FORCE)"
    _postgres(os.environ["DATABASE_URL"], [drop, f"CREATE DATABASE {live_database_name(DATABASE)}"])
    _flush_redis(running.redis_url)
    try:
        for name in _order(running.services):
            running.start(name)
            if name != "beat":  # beat's check reads the schedule file it writes every few minutes
                running.wait_healthy(name)
        yield running
    finally:
        running.stop()
        _postgres(os.environ["DATABASE_URL"], [drop])
        _flush_redis(running.redis_url)


@dataclass
class Game:
    browser: httpx.Client
    socket_path: str  # the courtroom's websocket
    pass_url: str
    token: str

    @property
    def cookie(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.browser.cookies.items())


def _start_game(base: str) -> Game:
    """As a browser does: the home page, a case started, a side chosen (the first ballot asked)."""
    browser = httpx.Client(base_url=base, follow_redirects=True, timeout=120)
    home = browser.get("/")
    assert home.status_code == 200 and "12 Angry Agents" in home.text
    token = browser.cookies.get("csrftoken", "")
    court = browser.post("/court/start/", data={"case": CASE, "csrfmiddlewaretoken": token})
    assert court.status_code == 200, court.text[-500:]
    side = re.search(r'class="side-choice" method="post" action="([^"]+)"', court.text)
    assert side, "the courtroom offers no side to choose"
    page = browser.post(side.group(1), data={"side": "defend", "vote": "not_guilty", "csrfmiddlewaretoken": token})
    passing = re.search(r'formaction="([^"]+)"[^>]*>Pass Turn', page.text)
    socket_path = re.search(r'ws-connect="([^"]+)"', page.text)
    assert passing and socket_path, "the courtroom offers no Pass Turn or no live updates"
    return Game(browser, socket_path.group(1), passing.group(1), token)


def _rounds_stored(database_url: str) -> int:
    import psycopg  # only this check reads the services' database directly

    with psycopg.connect(database_url, autocommit=True) as connection:
        return int(connection.execute("SELECT count(*) FROM deliberation_roundstats").fetchone()[0])


def test_the_compose_services_serve_a_game_through_the_worker(stack: Stack) -> None:
    base = f"http://127.0.0.1:{stack.port}"
    game = _start_game(base)

    async def pass_and_hear_the_round() -> str:
        url = f"ws://127.0.0.1:{stack.port}{game.socket_path}"
        async with websockets.connect(url, origin=base, additional_headers={"Cookie": game.cookie}) as ws:
            data = {"csrfmiddlewaretoken": game.token}
            passed = await asyncio.to_thread(game.browser.post, game.pass_url, data=data)
            assert passed.status_code == 200
            deadline = time.monotonic() + WAIT_SECONDS
            while time.monotonic() < deadline:
                message = str(await asyncio.wait_for(ws.recv(), timeout=WAIT_SECONDS))
                if 'id="jury-box"' in message and await asyncio.to_thread(_rounds_stored, stack.database_url):
                    return message
            raise AssertionError("the round's update never reached the courtroom's socket")

    assert 'id="jury-box"' in asyncio.run(pass_and_hear_the_round())
    ran = re.compile(r"Task deliberation\.round_run\[[^\]]+\] succeeded")  # the worker ran the round, not the web
    deadline = time.monotonic() + WAIT_SECONDS
    while not ran.search(stack.log("worker")) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert ran.search(stack.log("worker")), stack.log("worker")[-2000:]

    # beat runs and schedules the sweep: its own health check passes once its schedule file is written
    deadline = time.monotonic() + WAIT_SECONDS
    while not stack.healthy("beat") and time.monotonic() < deadline:
        assert stack.processes["beat"].poll() is None, stack.log("beat")[-2000:]
        time.sleep(1.0)
    assert stack.healthy("beat"), stack.log("beat")[-2000:]


def test_interpolation_follows_compose(monkeypatch: pytest.MonkeyPatch) -> None:
    env = {"SET": "x", "EMPTY": ""}
    assert interpolate("${SET:-d} ${UNSET:-d} ${EMPTY:-d} ${EMPTY-d} $$HOME $SET", env) == "x d d  $HOME x"
    with pytest.raises(ValueError, match="required variable SECRET_KEY"):
        interpolate("${SECRET_KEY:?set SECRET_KEY}", {})
    services = compose_services()
    assert services["web"]["environment"]["SECRET_KEY"] == OPERATOR_ENV["SECRET_KEY"]
    assert services["web"]["environment"]["WEB_PROCESSES"] == "2"
    assert "$WEB_PROCESSES" in services["web"]["command"]  # $$ left for the shell in the container
