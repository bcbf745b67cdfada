"""Live fan-out: from a round's commit to its partial arriving at 12 websocket clients; page queries.

Run: .venv/bin/python bench/live_fanout.py [--rounds 40] [--clients 12]

A real Daphne serves a scratch SQLite database on a free loopback port; this process runs the
rounds (offline engine) against the same database and both share the Redis channel layer
(``--redis``, default redis://127.0.0.1:6379/8, which the bench empties first), as in service
mode. Twelve ``websockets`` clients hold the deliberation's courtroom socket open. For every
round, t0 is taken when the broadcaster
starts publishing the "round" event, which ``announce`` runs right after the round's transaction
commits (so rendering the partial is inside the measured time); each client notes when the
fragment carrying the round's messages arrives. Reports p50/p95/max over all (round, client) pairs.

Then the courtroom page's database queries at round 1 and at round 20 of a deliberation held open
for 20 rounds (the stability rule lifted in its stored settings so the room keeps arguing).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROUND_MARK = 'hx-swap-oob="beforeend:#chat"'
RECEIVE_TIMEOUT = 30.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def environment(scratch: Path, redis_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(
        SQLITE_PATH=str(scratch / "bench.sqlite3"),
        ANGRY_VAR_DIR=str(scratch / "var"),
        ANGRY_INDEX_DIR=str(scratch / "index"),
        MEDIA_ROOT=str(scratch / "media"),
        REDIS_URL=redis_url,
        ANGRY_TASKS="sync",
        ANGRY_NARRATION="text",
        ANGRY_LLM_MODEL="offline",
        DJANGO_SETTINGS_MODULE="angryagents.settings",
        LITELLM_LOCAL_MODEL_COST_MAP="True",
        DEBUG="true",
    )
    return env


def start_daphne(env: dict[str, str], port: int, log: Path) -> subprocess.Popen:
    command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "angryagents.asgi:application"]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return process
        except OSError:
            if process.poll() is not None:
                break
            time.sleep(0.2)
    process.terminate()
    raise SystemExit(f"Daphne did not start: {log.read_text()[-2000:]}")


class Clients:
    """N websocket clients on one event loop in a thread; each records when round fragments arrive."""

    def __init__(self, url: str, count: int) -> None:
        self.url, self.count = url, count
        self.arrivals: list[asyncio.Queue[float]] = []
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.stop: asyncio.Event | None = None
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self._main(),), daemon=True)

    async def _client(self, arrivals: asyncio.Queue[float], connected: asyncio.Event) -> None:
        import websockets

        origin = self.url.replace("ws://", "http://").split("/ws/")[0]
        async with websockets.connect(self.url, origin=origin, max_size=None) as socket:
            connected.set()
            assert self.stop is not None
            while not self.stop.is_set():
                try:
                    message = await asyncio.wait_for(socket.recv(), timeout=0.5)
                except TimeoutError:
                    continue
                if ROUND_MARK in message:
                    arrivals.put_nowait(time.monotonic())

    async def _main(self) -> None:
        self.stop = asyncio.Event()
        events = [asyncio.Event() for _ in range(self.count)]
        self.arrivals = [asyncio.Queue() for _ in range(self.count)]
        tasks = [asyncio.create_task(self._client(q, e)) for q, e in zip(self.arrivals, events, strict=True)]
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in events)), timeout=20)
        self.ready.set()
        await asyncio.gather(*tasks)

    def __enter__(self) -> Clients:
        self.thread.start()
        if not self.ready.wait(timeout=25):
            raise SystemExit("websocket clients did not connect")
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.stop is not None
        self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(timeout=10)

    def next_arrivals(self) -> list[float]:
        async def collect() -> list[float]:
            return [await asyncio.wait_for(q.get(), timeout=RECEIVE_TIMEOUT) for q in self.arrivals]

        return asyncio.run_coroutine_threadsafe(collect(), self.loop).result(RECEIVE_TIMEOUT + 5)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


def new_deliberation(case: object, *, hold_open: bool) -> tuple[int, str]:
    """A game with no host session (public, as a command-line run): anonymous sockets may listen.
    Its primary key (for services) and public id (for URLs)."""
    from deliberation import services
    from deliberation.models import Deliberation

    deliberation = services.deliberation_start(case=case, player_side="defend")
    if hold_open:  # let the room argue for the whole 20 rounds: no end for stability
        state = dict(deliberation.engine_state)
        state["settings"] = {**state.get("settings", {}), "stability_rounds": 1000}
        Deliberation.objects.filter(pk=deliberation.pk).update(engine_state=state)
    return deliberation.pk, deliberation.public_id


def fanout(port: int, case: object, rounds: int, clients: int) -> tuple[list[float], list[float]]:
    """Latencies (ms) of every (round, client) pair, and of the cold first round kept apart."""
    from deliberation import services
    from deliberation.models import Deliberation, Phase
    from deliberation.services import broadcast

    commit_times: list[float] = []
    original = broadcast.publish

    def timed_publish(deliberation_id: int, event: str, data: dict | None = None) -> None:
        if event == "round":
            commit_times.append(time.monotonic())
        original(deliberation_id, event, data)

    broadcast.publish = timed_publish
    latencies: list[float] = []
    cold: list[float] = []
    try:
        while len(latencies) < rounds * clients:
            deliberation_id, public_id = new_deliberation(case, hold_open=True)
            url = f"ws://127.0.0.1:{port}/ws/court/{public_id}/"
            with Clients(url, clients) as sockets:
                for _ in range(20):
                    if len(latencies) >= rounds * clients:
                        break
                    if Deliberation.objects.get(pk=deliberation_id).phase != Phase.DELIBERATION:
                        break
                    commit_times.clear()
                    services.turn_pass(deliberation_id=deliberation_id, seat_number=7)
                    arrivals = sockets.next_arrivals()
                    measured = [(arrival - commit_times[0]) * 1000 for arrival in arrivals]
                    if not cold:  # the first render compiles the templates: reported on its own
                        cold = measured
                        continue
                    latencies += measured
    finally:
        broadcast.publish = original
    return latencies, cold


def page_queries(case: object, attempts: int = 5) -> tuple[int, int, int]:
    """Queries of the courtroom page at round 1 and round 20 (a jury may still agree unanimously
    before round 20; then another deliberation is played, at most ``attempts`` in all)."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from deliberation import services
    from deliberation.models import Deliberation, Phase

    client = Client()
    reached = 0
    for _ in range(attempts):
        deliberation_id, public_id = new_deliberation(case, hold_open=True)
        counts: dict[int, int] = {}
        for _ in range(20):
            services.turn_pass(deliberation_id=deliberation_id, seat_number=7)
            deliberation = Deliberation.objects.get(pk=deliberation_id)
            if deliberation.round_number in (1, 20):
                with CaptureQueriesContext(connection) as queries:
                    response = client.get(f"/court/{public_id}/", HTTP_HOST="127.0.0.1")
                assert response.status_code == 200
                counts[deliberation.round_number] = len(queries)
            if deliberation.phase != Phase.DELIBERATION:
                break
        reached = Deliberation.objects.get(pk=deliberation_id).round_number
        if 20 in counts:
            return counts[1], counts[20], reached
    return counts.get(1, -1), -1, reached


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--clients", type=int, default=12)
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/8"))
    args = parser.parse_args()

    import redis

    # The scratch database numbers deliberations from 1 again: groups left in Redis by an earlier
    # run would hold dead channels, so the bench's own Redis database starts empty.
    redis.Redis.from_url(args.redis).flushdb()
    scratch = Path(tempfile.mkdtemp(prefix="angry-fanout-"))
    env = environment(scratch, args.redis)
    for command in (["migrate", "--no-input"], ["load_cases"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True)
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from cases.models import Case

    case = Case.objects.get(slug="kessler-market-robbery")
    port = free_port()
    daphne = start_daphne(env, port, scratch / "daphne.log")
    try:
        latencies, cold = fanout(port, case, args.rounds, args.clients)
    finally:
        daphne.terminate()
        daphne.wait(timeout=10)
    round_one, round_twenty, reached = page_queries(case)
    print(f"rounds measured: {len(latencies) // args.clients} (after one warm-up round), clients: {args.clients}")
    print(
        f"commit -> partial at every client (ms): p50 {statistics.median(latencies):.1f}  "
        f"p95 {percentile(latencies, 0.95):.1f}  max {max(latencies):.1f}"
    )
    print(f"first round after start (templates compiled on the way), max over clients: {max(cold):.1f} ms")
    print(f"courtroom page queries: round 1 = {round_one}, round 20 = {round_twenty} (reached round {reached})")


if __name__ == "__main__":
    main()
