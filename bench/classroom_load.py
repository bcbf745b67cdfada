"""A whole class at once: N rooms x 12 browsers (a teacher in seat 7, ten students, a projector),
with votes and speeches in every room, over real HTTP and websockets on loopback.

Run:
    .venv/bin/python bench/classroom_load.py --mode embedded            # SQLite, one Daphne
    DATABASE_URL=... REDIS_URL=... .venv/bin/python bench/classroom_load.py --mode service
    DATABASE_URL=... REDIS_URL=... .venv/bin/python bench/classroom_load.py --mode two
    DATABASE_URL=... REDIS_URL=... .venv/bin/python bench/classroom_load.py --mode serve
options: --rooms 30 --seconds 40 --db pool|direct (service modes: DATABASE_POOL_SIZE 8 or 0)
         --redis-db N (service modes: the Redis database the servers use, flushed before and after; 15)
         --profile DIR (each Daphne's event loop, cProfile on its CPU clock, while measured)
         --turn-seconds N (the rooms' turn length, 15-600; else the server's)
         --first-turns-run-out (every student lets their first turn run out, as in the rooms of a
         cold start, whose first turns pass while the workers warm up: their seats stand empty and
         their AI jurors play them until they vote)

``service`` is one Daphne and two Celery workers (as ``make worker``'s two processes) on PostgreSQL
and the Redis channel layer; ``two``
adds a second Daphne on the same database and Redis, and splits every room's browsers between the
two (even browsers on one, odd on the other), so each update must cross processes; ``serve`` is
the product's way, ``manage.py serve --processes 2``: two Daphnes accepting on one port, the
kernel spreading the connections. The servers come from tests/live.py (a scratch database,
dropped after). The run stops on its own (set-up, the first rounds within ``WARM_UP_LIMIT``, then
``--seconds``, then at most ``MISS_AFTER`` for the last votes).

Every browser does what a browser does: it loads pages and posts forms over HTTP with its own
cookies, holds the room's websocket, and, like static/js/room.js, fetches its own controls when a
pushed turn banner says its controls changed (not while its own move is on its way: the move's
answer is its new controls). Teachers create the rooms, students join with a form,
the teacher starts (prosecuting, so a room cannot end unanimous while students disagree with
her); once every room's first AI round is over (the first round of a fresh server
builds the case's index), in every room, for ``--seconds``, a student changes their
vote about every ``VOTE_EVERY`` seconds, and whoever has the floor speaks after ``THINK`` seconds.

Printed: HTTP errors (any status >= 400 or a failed request), dropped sockets (closed before the
end), missed updates (a vote's new jury box not seen by one of the room's 12 sockets within
``MISS_AFTER`` s), p50/p95 from posting a vote to its update on all 12 sockets of its room, how
many controls the browsers fetched, and the peak number of PostgreSQL connections held by the
bench's database (sampled every 0.25 s). Then the figures a loaded machine does not spoil: the
websocket messages received (streamed pieces among them) and their size, the web processes' CPU
time while measured per delivered socket message and per vote, the longest channel-layer inbox in
Redis (sampled every 0.25 s) and the channel-layer messages dropped for capacity (as channels-redis
logs them).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import html
import json
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import httpx  # noqa: E402
import websockets  # noqa: E402

from tests.live import LiveServer, free_port, live_server  # noqa: E402

CLIENTS = 12  # a teacher (seat 7), ten students (2-6, 8-12) and a projector that only watches
STUDENTS = 10
VOTE_EVERY = 3.0  # seconds between votes in a room, on average: a class changing its mind often
THINK = (3.0, 8.0)  # seconds a student takes to type an argument once they have the floor
MISS_AFTER = 10.0
SETUP_AT_ONCE = 8  # rooms set up concurrently
WARM_UP_LIMIT = 180.0
TURN_SECONDS: int | None = None  # --turn-seconds
FIRST_TURNS_RUN_OUT = False  # --first-turns-run-out
# The people's first ballot follows the teacher's side; with these seeds the jury's one AI juror
# does not join them in the first round, so no room ends unanimous before it is measured.
SEEDS = (5, 7, 9, 10, 11, 12, 13, 16, 17, 19, 24, 25, 27, 29)
SEAT_VOTE = re.compile(r'class="seat vote-(\w+)[^"]*" id="seat-(\d+)"')
FLOOR = re.compile(r'<span class="turn-seat">Seat (\d+)</span>')
DEADLINE = re.compile(r'data-deadline="([^"]*)"')
KEYS = re.compile(r'data-keys="([^"]*)"')
CONTROLS_URL = re.compile(r'data-controls="([^"]*)"')
KEY = re.compile(r'id="room-controls"[^>]*data-key="([^"]*)" data-role="([^"]*)"')
WS_PATH = re.compile(r'ws-connect="([^"]+)"')
FIRST_ID = re.compile(r'id="([a-z-]+)')  # a message's first element, for the count by kind
CASE_OPTION = re.compile(r'<input type="radio" name="case" value="([^"]+)"')  # the case picker's first case


@dataclass
class Figures:
    http_requests: int = 0
    http_errors: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    votes: int = 0
    refused: int = 0  # the room had ended: nothing to wait for
    deferred: int = 0  # cast while the room's round ran: applied (and pushed) after the round
    missed: int = 0
    missed_votes: list[str] = field(default_factory=list)  # which votes went unseen, and by how many sockets
    latencies: list[float] = field(default_factory=list)
    speeches: int = 0
    controls_fetched: int = 0
    pg_peak: int = 0
    messages: int = 0  # websocket messages received, all sockets
    message_bytes: int = 0
    chunks: int = 0  # of which streamed pieces of speeches
    backlog_peak: int = 0  # most messages waiting in one process's channel-layer inbox (Redis)
    over_capacity: int = 0  # channel-layer sends dropped for capacity (channels-redis logs them)
    measured_messages: int = 0  # websocket messages received while votes and speeches went on
    measured_seconds: float = 0.0
    cpu_measured: dict[str, float] = field(default_factory=dict)  # server process -> CPU-seconds while measured
    kinds: collections.Counter[str] = field(default_factory=collections.Counter)  # measured messages by first id


FIGURES = Figures()
FETCHES: list[asyncio.Task[None]] = []
PROCESSES: list[tuple[str, int]] = []  # (name, pid) of the server processes, for their CPU time
MEASURING = threading.Event()
PROFILE_DIR: Path | None = None
SERVED: list[tuple[str, int]] = []  # the Daphnes ``manage.py serve`` started (mode "serve")


@dataclass
class Browser:
    base: str
    http: httpx.AsyncClient
    seat: int | None = None
    role: str = ""
    key: str = ""
    ws_path: str = ""
    moving: bool = False  # a move of this browser's is on its way (its answer is the new controls)
    held: tuple[str, str] | None = None  # (key, controls url) of a banner that came meanwhile

    async def request(self, method: str, url: str, **kwargs: object) -> httpx.Response | None:
        FIGURES.http_requests += 1
        try:
            response = await self.http.request(method, url, **kwargs)
        except httpx.HTTPError as exc:
            FIGURES.http_errors.append(f"{method} {url}: {type(exc).__name__} {exc}")
            return None
        if response.status_code >= 400:
            FIGURES.http_errors.append(f"{method} {url}: {response.status_code}")
        return response

    async def post(self, url: str, data: dict[str, object], htmx: bool = True) -> httpx.Response | None:
        headers = {"X-CSRFToken": self.http.cookies.get("csrftoken", "")}
        if htmx:
            headers["HX-Request"] = "true"
        return await self.request("POST", url, data=data, headers=headers)

    async def move(self, url: str, data: dict[str, object]) -> httpx.Response | None:
        """A move posted from the controls, as room.js makes it: a banner pushed meanwhile waits for
        the answer (the new controls), and is fetched after only if the answer shows otherwise."""
        self.moving = True
        try:
            response = await self.post(url, data)
            if response is not None:
                self.learn(response.text)
        finally:
            self.moving = False
        held, self.held = self.held, None
        if held and held[0] != self.key:
            self.key = held[0]
            FETCHES.append(asyncio.get_running_loop().create_task(_fetch_controls(self, held[1])))
        return response

    def learn(self, page: str) -> None:
        found = KEY.search(page)
        if found:
            self.key, self.role = found.group(1), found.group(2)
        path = WS_PATH.search(page)
        if path:
            self.ws_path = path.group(1)


@dataclass
class Expected:
    """A vote posted and not yet seen everywhere: seat, new value, and when each socket showed it."""

    seat: int
    vote: str
    done: asyncio.Future[None]
    seen: dict[int, float] = field(default_factory=dict)  # browser index -> arrival (monotonic)


@dataclass
class Room:
    code: str
    browsers: list[Browser]
    votes: dict[int, str] = field(default_factory=dict)  # seat -> vote, as the jury box last showed
    floor: tuple[int, str] | None = None  # (seat, deadline) of the turn being taken
    waiting: list[Expected] = field(default_factory=list)
    spoken: set[tuple[int, str]] = field(default_factory=set)
    ran_out: set[int] = field(default_factory=set)  # seats that let their first turn run out


async def _setup_room(bases: list[str], index: int) -> Room:
    teacher = Browser(bases[0], httpx.AsyncClient(base_url=bases[0], follow_redirects=True, timeout=60))
    page = await teacher.request("GET", "/rooms/new/")
    assert page is not None and page.status_code == 200, f"the new-room page did not load: {FIGURES.http_errors[-3:]}"
    case = CASE_OPTION.search(page.text)
    assert case, "no case to play"
    data = {
        "case": case.group(1),
        "host_plays": "on",
        "open_seats": [2, 3, 4, 5, 6, 8, 9, 10, 11, 12],
        "seed": SEEDS[index % len(SEEDS)],
        **({"turn_seconds": TURN_SECONDS} if TURN_SECONDS else {}),
    }
    made = await teacher.post(
        "/rooms/new/", {**data, "csrfmiddlewaretoken": teacher.http.cookies.get("csrftoken")}, False
    )
    assert made is not None and "/rooms/" in str(made.url), f"room {index} was not created"
    code = urlsplit(str(made.url)).path.rstrip("/").split("/")[-1]
    teacher.learn(made.text)
    teacher.seat = 7
    browsers = [teacher]
    for number in range(STUDENTS + 1):
        base = bases[(number + 1) % len(bases)]
        # the projector is the teacher's second screen (a room is private to its host and its students)
        cookies = teacher.http.cookies if number == STUDENTS else None
        browser = Browser(base, httpx.AsyncClient(base_url=base, follow_redirects=True, timeout=60, cookies=cookies))
        if number < STUDENTS:  # a student takes any free seat
            form = await browser.request("GET", f"/join/{code}/")
            token = browser.http.cookies.get("csrftoken", "")
            joined = await browser.post(
                f"/join/{code}/", {"seat": "", "name": f"S{index}-{number}", "csrfmiddlewaretoken": token}, False
            )
            if joined is not None and form is not None:
                browser.learn(joined.text)
                seat = re.search(r'<meta name="angry-seat" content="(\d*)"', joined.text)
                browser.seat = int(seat.group(1)) if seat and seat.group(1) else None
        else:  # the projector watches, in the teacher's session
            shown = await browser.request("GET", f"/rooms/{code}/")
            if shown is not None:
                browser.learn(shown.text)
        browsers.append(browser)
    room = Room(code=code, browsers=browsers)
    for vote, seat in SEAT_VOTE.findall(made.text):
        room.votes[int(seat)] = vote
    return room


async def _socket(room: Room, browser: Browser, ready: asyncio.Event, stop: asyncio.Event) -> None:
    url = browser.base.replace("http://", "ws://") + browser.ws_path
    cookie = "; ".join(f"{k}={v}" for k, v in browser.http.cookies.items())
    try:
        async with websockets.connect(
            url, origin=browser.base, additional_headers={"Cookie": cookie}, max_size=None, open_timeout=60
        ) as socket:
            ready.set()
            while not stop.is_set():
                try:
                    message = await asyncio.wait_for(socket.recv(), timeout=0.5)
                except TimeoutError:
                    continue
                _seen(room, browser, str(message))
    except websockets.ConnectionClosed as exc:
        if not stop.is_set():
            FIGURES.dropped.append(f"{room.code} seat {browser.seat}: closed {exc.rcvd.code if exc.rcvd else '?'}")
    except Exception as exc:  # the upgrade failed: counted with the HTTP errors
        FIGURES.http_errors.append(f"websocket {room.code}: {type(exc).__name__} {exc}")
    finally:
        ready.set()


def _seen(room: Room, browser: Browser, message: str) -> None:
    now = time.monotonic()
    FIGURES.messages += 1
    FIGURES.message_bytes += len(message)
    FIGURES.chunks += message.startswith('<span hx-swap-oob="beforeend:#stream-')
    if MEASURING.is_set():
        FIGURES.measured_messages += 1
        first = FIRST_ID.search(message)
        FIGURES.kinds[first.group(1) if first else "?"] += 1
    shown = {int(seat): vote for vote, seat in SEAT_VOTE.findall(message)}
    index = room.browsers.index(browser)
    for expected in room.waiting:
        if index not in expected.seen and shown.get(expected.seat) == expected.vote:
            expected.seen[index] = now
            if len(expected.seen) == len(room.browsers) and not expected.done.done():
                expected.done.set_result(None)
    if browser is room.browsers[-1]:  # the projector keeps the room's picture
        room.votes.update(shown)
        floor, deadline = FLOOR.search(message), DEADLINE.search(message)
        if 'id="room-turn"' in message:
            room.floor = (int(floor.group(1)), deadline.group(1) if deadline else "") if floor else None
    keys, url = KEYS.search(message), CONTROLS_URL.search(message)
    if keys and url:
        wanted = json.loads(html.unescape(keys.group(1))).get(browser.role)
        if wanted and browser.moving:  # room.js: the move's answer brings the controls
            browser.held = (wanted, url.group(1))
        elif wanted and wanted != browser.key:
            browser.key = wanted  # one fetch per change, as room.js does
            FETCHES.append(asyncio.get_running_loop().create_task(_fetch_controls(browser, url.group(1))))


async def _fetch_controls(browser: Browser, url: str) -> None:
    FIGURES.controls_fetched += 1
    response = await browser.request("GET", url, headers={"HX-Request": "true"})
    if response is not None:
        browser.learn(response.text)


async def _voter(room: Room, stop: asyncio.Event) -> None:
    voters = [b for b in room.browsers if b.seat and b.seat != 7]  # the students
    while not stop.is_set():
        await asyncio.sleep(random.uniform(0.5, 1.5) * VOTE_EVERY)
        if stop.is_set():
            break
        browser = random.choice(voters)
        assert browser.seat is not None
        value = "not_guilty" if room.votes.get(browser.seat) == "guilty" else "guilty"
        expected = Expected(browser.seat, value, asyncio.get_running_loop().create_future())
        room.waiting.append(expected)
        started = time.monotonic()
        response = await browser.move(f"/rooms/{room.code}/vote/", {"seat": browser.seat, "vote": value})
        FIGURES.votes += 1
        if response is not None:
            if 'class="form-error"' in response.text:
                FIGURES.refused += 1
                room.waiting.remove(expected)
                continue
            FIGURES.deferred += "as soon as this round ends" in response.text
        try:
            await asyncio.wait_for(asyncio.shield(expected.done), timeout=MISS_AFTER)
            FIGURES.latencies.append((max(expected.seen.values()) - started) * 1000)
        except TimeoutError:
            FIGURES.missed += len(room.browsers) - len(expected.seen)
            answer = response.text if response is not None else "no answer"
            shown = dict((int(seat), vote) for vote, seat in SEAT_VOTE.findall(answer)).get(browser.seat, "-")
            FIGURES.missed_votes.append(
                f"{room.code} seat {browser.seat} -> {value} (the answer showed {shown}; "
                f"seen by {len(expected.seen)} of {len(room.browsers)})"
            )
        room.waiting.remove(expected)
        room.votes[browser.seat] = value


async def _speaker(room: Room, stop: asyncio.Event) -> None:
    by_seat = {b.seat: b for b in room.browsers if b.seat}
    while not stop.is_set():
        await asyncio.sleep(0.2)
        turn = room.floor
        if turn is None or turn in room.spoken or turn[0] not in by_seat:
            continue
        room.spoken.add(turn)
        if FIRST_TURNS_RUN_OUT and turn[0] != 7 and turn[0] not in room.ran_out:
            room.ran_out.add(turn[0])  # away from the seat: the turn runs out
            continue
        await asyncio.sleep(random.uniform(*THINK))
        if stop.is_set():
            break
        browser = by_seat[turn[0]]
        data = {"seat": turn[0], "strategy": "", "argument_type": "logical", "content": "He was seen for two seconds."}
        await browser.move(f"/rooms/{room.code}/speak/", data)
        FIGURES.speeches += 1


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _watch_backlog(redis_url: str, stop: threading.Event) -> None:
    """The longest inbox of any process on the Redis channel layer (messages sent, not yet taken)."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        while not stop.is_set():
            for key in client.scan_iter(match="asgi*", count=1000):
                if b":group:" not in key and client.type(key) == b"zset":
                    FIGURES.backlog_peak = max(FIGURES.backlog_peak, client.zcard(key))
            stop.wait(0.25)
    finally:
        client.close()


def _over_capacity(folder: Path) -> int:
    """Channel-layer sends dropped because an inbox was full, as channels-redis logs them."""
    dropped = 0
    for log in folder.glob("*.log"):
        for line in log.read_text(errors="replace").splitlines():
            found = re.match(r"(\d+) of \d+ channels over capacity", line)
            dropped += int(found.group(1)) if found else 0
    return dropped


def _watch_postgres(database_url: str, stop: threading.Event) -> None:
    import psycopg

    name = urlsplit(database_url).path.strip("/")
    admin = database_url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as connection:
        while not stop.is_set():
            (held,) = connection.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (name,)).fetchone()
            FIGURES.pg_peak = max(FIGURES.pg_peak, held)
            stop.wait(0.25)


async def _run(bases: list[str], rooms: int, seconds: float) -> None:
    made: list[Room] = []
    gate = asyncio.Semaphore(SETUP_AT_ONCE)

    async def one(index: int) -> None:
        async with gate:
            made.append(await _setup_room(bases, index))

    started = time.monotonic()
    await asyncio.gather(*(one(i) for i in range(rooms)))
    print(f"set up {rooms} rooms x {CLIENTS} browsers in {time.monotonic() - started:.1f} s")
    stop, close = asyncio.Event(), asyncio.Event()  # stop acting; then, once every wait is over, close
    sockets = []
    for room in made:
        for browser in room.browsers:
            ready = asyncio.Event()
            sockets.append(asyncio.create_task(_socket(room, browser, ready, close)))
            await ready.wait()
    for room in made:
        teacher = room.browsers[0]
        # The teacher prosecutes and the students start out for the defence: until a room's
        # people agree, no round can end it unanimous while it is being measured.
        started_room = await teacher.post(f"/rooms/{room.code}/start/", {"side": "prosecute"})
        if started_room is not None:
            teacher.learn(started_room.text)
    # The first round of a fresh server builds each case's index and warms the engine: the
    # measured part starts once every room's participants have the floor.
    warm = time.monotonic()
    while any(room.floor is None for room in made) and time.monotonic() - warm < WARM_UP_LIMIT:
        await asyncio.sleep(0.2)
    print(f"first rounds done in {time.monotonic() - warm:.1f} s; measuring for {seconds:.0f} s")
    cpu_before = {f"{name} {pid}": _cpu_seconds(pid) for name, pid in PROCESSES}
    measured_from = time.monotonic()
    MEASURING.set()
    if PROFILE_DIR:  # the web processes profile their event loops while measured (bench/cpu_sampler)
        (PROFILE_DIR / "go").touch()
    actors = [asyncio.create_task(_voter(r, stop)) for r in made] + [
        asyncio.create_task(_speaker(r, stop)) for r in made
    ]
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(*actors, return_exceptions=True)  # the last votes still wait for their updates
    MEASURING.clear()
    if PROFILE_DIR:
        (PROFILE_DIR / "stop").touch()
    FIGURES.measured_seconds = time.monotonic() - measured_from
    FIGURES.cpu_measured = {key: _cpu_seconds(int(key.split()[-1])) - used for key, used in cpu_before.items()}
    close.set()
    await asyncio.gather(*sockets, *FETCHES, return_exceptions=True)
    for room in made:
        for browser in room.browsers:
            await browser.http.aclose()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mode", choices=["embedded", "service", "two", "serve"], default="embedded")
    parser.add_argument("--rooms", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--db", choices=["pool", "direct"], default="pool")
    parser.add_argument("--profile", metavar="DIR", help="profile the web event loops into DIR")
    parser.add_argument("--redis-db", type=int, default=15, help="the servers' Redis database (flushed)")
    parser.add_argument("--turn-seconds", type=int, help="the rooms' turn length (15-600 s)")
    parser.add_argument("--first-turns-run-out", action="store_true", help="students let their first turn run out")
    args = parser.parse_args()
    global TURN_SECONDS, FIRST_TURNS_RUN_OUT
    TURN_SECONDS, FIRST_TURNS_RUN_OUT = args.turn_seconds, args.first_turns_run_out
    embedded = args.mode == "embedded"
    if not embedded and not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
        raise SystemExit("service modes need DATABASE_URL and REDIS_URL")
    env = {"ANGRY_NARRATION": "text", "LOG_LEVEL": "WARNING", "DATABASE_POOL_SIZE": "8" if args.db == "pool" else "0"}
    if args.profile:
        global PROFILE_DIR
        PROFILE_DIR = Path(args.profile).resolve()
        PROFILE_DIR.mkdir(parents=True, exist_ok=True)
        for mark in ("go", "stop"):
            (PROFILE_DIR / mark).unlink(missing_ok=True)
        sampler = str(ROOT / "bench" / "cpu_sampler")
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [sampler, os.environ.get("PYTHONPATH", "")]))
        env["ANGRY_CPU_SAMPLE_DIR"] = str(Path(args.profile).resolve())
    scratch = Path(tempfile.mkdtemp(prefix="angry-classroom-"))
    with live_server(scratch, name="classroom", redis_db=args.redis_db, env=env, embedded=embedded) as server:
        bases = [server.url]
        if server.service_mode:
            server.start_worker("second")
        if args.mode == "two":
            bases.append(_second_daphne(server))
        if args.mode == "serve":
            bases = [_served(server, processes=2)]
        stop = threading.Event()
        if server.service_mode:
            watchers = ((_watch_postgres, server.env["DATABASE_URL"]), (_watch_backlog, server.env["REDIS_URL"]))
            for target, url in watchers:
                threading.Thread(target=target, args=(url, stop), daemon=True).start()
        processes = [(p.args[2] if len(p.args) > 2 else "?", p.pid) for p in server.processes if p.poll() is None]
        processes = [p for p in processes if p[0] != "serve"] + SERVED  # serve: count its Daphnes
        PROCESSES.extend(processes)
        before = {pid: _cpu_seconds(pid) for _, pid in processes}
        clock = time.monotonic()
        try:
            asyncio.run(_run(bases, args.rooms, args.seconds))
        finally:
            stop.set()
        wall = time.monotonic() - clock
        used = [f"{name} {_cpu_seconds(pid) - before[pid]:.0f}" for name, pid in processes]
        print(f"CPU seconds used by the server processes over {wall:.0f} s (setup included): {', '.join(used)}")
    FIGURES.over_capacity = _over_capacity(scratch)
    label = f"{args.mode} ({'SQLite' if embedded else 'PostgreSQL, ' + args.db})"
    lat = FIGURES.latencies
    turns = (f"; {TURN_SECONDS} s turns" if TURN_SECONDS else "") + (
        "; every student's first turn runs out" if FIRST_TURNS_RUN_OUT else ""
    )
    print(f"mode: {label}; {args.rooms} rooms x {CLIENTS} browsers; {args.seconds:.0f} s of votes and speeches{turns}")
    print(f"HTTP requests: {FIGURES.http_requests}, HTTP errors: {len(FIGURES.http_errors)} {FIGURES.http_errors[:5]}")
    print(f"dropped sockets: {len(FIGURES.dropped)} {FIGURES.dropped[:5]}")
    print(
        f"votes: {FIGURES.votes} ({FIGURES.refused} refused: room ended; {FIGURES.deferred} cast while a round ran), "
        f"missed updates (socket x vote): {FIGURES.missed}, speeches: {FIGURES.speeches}"
    )
    for missed in FIGURES.missed_votes[:5]:
        print(f"  unseen: {missed}")
    if lat:
        print(
            f"vote -> all {CLIENTS} sockets of its room (ms): p50 {statistics.median(lat):.0f}  "
            f"p95 {percentile(lat, 0.95):.0f}  max {max(lat):.0f}"
        )
    print(f"controls fetched by browsers: {FIGURES.controls_fetched}")
    print(f"PostgreSQL connections held (peak): {FIGURES.pg_peak if not embedded else 'n/a (SQLite)'}")
    _print_load_independent(embedded)


def _print_load_independent(embedded: bool) -> None:
    """Figures that hold on a loaded machine: work done per update, and updates lost for capacity."""
    f = FIGURES
    print(
        f"websocket messages received: {f.messages} ({f.chunks} streamed pieces), "
        f"{f.message_bytes / max(1, f.messages):.0f} bytes each on average; "
        f"{f.measured_messages} while measured ({f.measured_seconds:.0f} s)"
    )
    print(
        "messages while measured, by the id their first element starts with: "
        + ", ".join(f"{kind} {n}" for kind, n in f.kinds.most_common(8))
    )
    web = {k: v for k, v in f.cpu_measured.items() if "daphne" in k}
    if web:
        spent = sum(web.values())
        print(
            f"load-independent: web CPU while measured {spent:.1f} s "
            f"({', '.join(f'{k} {v:.1f}' for k, v in f.cpu_measured.items())}); "
            f"web CPU per delivered message {spent / max(1, f.measured_messages) * 1000:.2f} ms, "
            f"per vote {spent / max(1, f.votes) * 1000:.0f} ms"
        )
    if not embedded:
        print(
            f"load-independent: channel-layer messages dropped for capacity: {f.over_capacity}; "
            f"longest channel-layer inbox (peak, list-based layer only: pub/sub keeps none): {f.backlog_peak}"
        )


def _served(server: LiveServer, *, processes: int) -> str:
    """``manage.py serve``: ``processes`` Daphnes accepting on one port (the product's way)."""
    import subprocess
    import urllib.request

    port = free_port()
    command = [sys.executable, "manage.py", "serve", "--port", str(port), "--processes", str(processes)]
    with open(server.log.parent / "serve.log", "w") as log:
        served = subprocess.Popen(command, cwd=ROOT, env=server.env, stdout=log, stderr=subprocess.STDOUT)
    server.processes.append(served)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                break
        except OSError:
            time.sleep(0.3)
    time.sleep(5)  # every process of the lot up, not just the first to answer
    children = Path(f"/proc/{served.pid}/task/{served.pid}/children").read_text().split()
    SERVED.extend(("daphne", int(pid)) for pid in children)  # its Daphnes, counted for their CPU time
    return f"http://127.0.0.1:{port}"


def _second_daphne(server: LiveServer) -> str:
    port = free_port()
    server.start_web(port=port)
    return f"http://127.0.0.1:{port}"


if __name__ == "__main__":
    main()
