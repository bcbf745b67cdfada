"""A live Daphne in a subprocess on a free loopback port, for tests that talk to a real server
(the browser tests in tests/e2e and the MCP tests in tests/deliberation/rooms).

Embedded mode (the default): a fresh SQLite file, migrated and loaded with the shipped cases, and
background work on the server's own thread. Service mode, when both ``DATABASE_URL`` and
``REDIS_URL`` are set (CI): a dedicated PostgreSQL database ``angry_<name>`` created and dropped
around the server's life, the Redis channel layer and Celery broker on a Redis database of its
own (flushed before and after), and a real Celery worker running the background work.

Each fixture passes its own ``name`` and ``redis_db``: two servers alive at the same time never
share a database or a Redis database (``live_server`` refuses to start one that would), and
neither shares the Redis database the tests themselves use through ``REDIS_URL``.

``start_celery_worker`` and ``stop`` are also what the Celery worker fixture uses.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
START_TIMEOUT = 180.0  # a busy machine (several suites at once) starts Daphne slowly
MANAGE_TIMEOUT = 180

# Names and Redis database numbers of the servers alive in this test process.
_claimed_names: set[str] = set()
_claimed_redis: set[int] = set()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class LiveServer:
    url: str
    env: dict[str, str]
    log: Path
    service_mode: bool
    processes: list[subprocess.Popen] = field(default_factory=list)

    def manage(self, *args: str) -> str:
        """Run a management command against the server's database; its standard output."""
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=MANAGE_TIMEOUT,
        )
        if done.returncode != 0:
            raise AssertionError(f"manage.py {' '.join(args)} failed: {done.stderr[-2000:]}")
        return done.stdout

    def room(self, *args: str) -> str:
        """A new room's code (the last line ``room_create`` prints)."""
        return self.manage("room_create", *args).strip().splitlines()[-1]

    def ws_url(self, path: str) -> str:
        return self.url.replace("http://", "ws://", 1) + path

    @property
    def port(self) -> int:
        return int(urlsplit(self.url).port or 0)

    def start_web(self, port: int | None = None) -> subprocess.Popen:
        """Start a Daphne on the server's port (again, after ``kill``), or another web process on
        ``port`` sharing its database and Redis, and wait until it answers."""
        process = _daphne(self, port or self.port)
        _wait_healthy(self, process, f"http://127.0.0.1:{port or self.port}")
        return process

    def start_worker(self, name: str) -> subprocess.Popen:
        """Start another Celery worker (service mode) with its log in ``worker-<name>.log``."""
        with open(self.log.parent / f"worker-{name}.log", "w") as log:  # the child keeps its own copy
            process = start_celery_worker(self.env, log, name=name, level="INFO")
        self.processes.append(process)
        return process

    def kill(self, process: subprocess.Popen) -> None:
        """``kill -9``: the process gets no chance to clean up, as when a machine or the OOM killer
        takes it."""
        process.kill()
        process.wait(timeout=10)

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        """Rows from the server's own database (PostgreSQL in service mode, SQLite otherwise)."""
        if self.service_mode:
            import psycopg

            with psycopg.connect(self.env["DATABASE_URL"], autocommit=True) as connection:
                cursor = connection.execute(sql.replace("?", "%s"), params)
                return cursor.fetchall() if cursor.description else []  # an UPDATE returns no rows
        import sqlite3

        with sqlite3.connect(self.env["SQLITE_PATH"], timeout=20) as connection:
            return connection.execute(sql, params).fetchall()


def _with_path(url: str, path: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, parts.fragment))


def _redis_db(url: str) -> int:
    path = urlsplit(url).path.strip("/")
    return int(path) if path else 0


def live_database_name(name: str) -> str:
    """``angry_<name>``, suffixed with the database ``DATABASE_URL`` names when it is not CI's ``test``,
    so two checkouts running their suites against one PostgreSQL never share a live database."""
    base = urlsplit(os.environ.get("DATABASE_URL", "")).path.strip("/")
    suffix = f"_{base}" if base and base != "test" else ""
    return f"angry_{name}{suffix}"


def _postgres(url: str, statements: list[str]) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        for statement in statements:
            connection.execute(statement)


def _flush_redis(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()


def environment(
    tmp: Path, *, database: str, redis_db: int, extra: Mapping[str, str], embedded: bool = False
) -> tuple[dict[str, str], bool]:
    """The server's environment and whether it runs in service mode (never when ``embedded``)."""
    database_url, redis_url = os.environ.get("DATABASE_URL"), os.environ.get("REDIS_URL")
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "ANGRY_TASKS"}}
    env.update(
        ANGRY_VAR_DIR=str(tmp / "var"),
        ANGRY_INDEX_DIR=str(tmp / "index"),
        MEDIA_ROOT=str(tmp / "media"),
        ANGRY_LLM_MODEL="offline",
        DJANGO_SETTINGS_MODULE="angryagents.settings",
        LITELLM_LOCAL_MODEL_COST_MAP="True",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    service_mode = bool(database_url and redis_url) and not embedded
    if service_mode:
        assert database_url is not None and redis_url is not None
        env.update(
            DATABASE_URL=_with_path(database_url, f"/{database}"),
            REDIS_URL=_with_path(redis_url, f"/{redis_db}"),
            ANGRY_TASKS="celery",
        )
    else:
        env.update(SQLITE_PATH=str(tmp / "db.sqlite3"), ANGRY_TASKS="inprocess")
    return env, service_mode


def start_celery_worker(env: Mapping[str, str], log: IO[str], *, name: str, level: str = "WARNING") -> subprocess.Popen:
    """A Celery worker (solo pool, so one task at a time) with its output in ``log``."""
    command = [sys.executable, "-m", "celery", "-A", "angryagents", "worker", "--pool=solo", "-l", level]
    return subprocess.Popen(
        [*command, "-n", f"{name}@%h"], cwd=ROOT, env=dict(env), stdout=log, stderr=subprocess.STDOUT
    )


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)


def _wait_healthy(server: LiveServer, process: subprocess.Popen, url: str = "") -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            with urllib.request.urlopen(f"{url or server.url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"Daphne did not start: {server.log.read_text()[-3000:]}") from None
            time.sleep(0.2)


def _claim(name: str, redis_db: int) -> None:
    assert name not in _claimed_names, f"a live server named {name!r} is already running"
    assert redis_db not in _claimed_redis, f"Redis database {redis_db} is already used by another live server"
    redis_url = os.environ.get("REDIS_URL")
    if redis_url:
        assert redis_db != _redis_db(redis_url), f"Redis database {redis_db} is the one REDIS_URL gives the tests"
    _claimed_names.add(name)
    _claimed_redis.add(redis_db)


def _daphne(server: LiveServer, port: int) -> subprocess.Popen:
    command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "angryagents.asgi:application"]
    with open(server.log, "a") as log:  # the child keeps its own copy of the file
        process = subprocess.Popen(command, cwd=ROOT, env=server.env, stdout=log, stderr=subprocess.STDOUT)
    server.processes.append(process)
    return process


@contextmanager
def live_server(
    tmp: Path, *, name: str, redis_db: int, env: Mapping[str, str] | None = None, embedded: bool = False
) -> Iterator[LiveServer]:
    """Start a migrated, case-loaded Daphne (plus a Celery worker in service mode); stop it after.

    ``embedded`` keeps SQLite and the in-process background thread even where the environment
    names PostgreSQL and Redis (a scenario that is about the embedded mode)."""
    _claim(name, redis_db)
    database = live_database_name(name)
    server_env, service_mode = environment(
        tmp, database=database, redis_db=redis_db, extra=env or {}, embedded=embedded
    )
    port = free_port()
    server = LiveServer(
        url=f"http://127.0.0.1:{port}", env=server_env, log=tmp / "daphne.log", service_mode=service_mode
    )
    admin_url = os.environ.get("DATABASE_URL", "")
    drop = f"DROP DATABASE IF EXISTS {database} WITH (FORCE)"
    log: IO[str] | None = None
    try:
        if service_mode:
            _postgres(admin_url, [drop, f"CREATE DATABASE {database}"])
            _flush_redis(server_env["REDIS_URL"])
        server.manage("migrate", "--no-input")
        server.manage("load_cases")
        log = open(server.log, "w")
        process = _daphne(server, port)
        if service_mode:
            server.processes.append(start_celery_worker(server_env, log, name=name))
        _wait_healthy(server, process)
        yield server
    finally:
        for process in reversed(server.processes):
            if process.poll() is None:
                stop(process)
        if log is not None:
            log.close()
        if service_mode:
            _postgres(admin_url, [drop])
            _flush_redis(server_env["REDIS_URL"])
        _claimed_names.discard(name)
        _claimed_redis.discard(redis_db)
