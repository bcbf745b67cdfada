"""Serve the game from several Daphne processes on one port (service mode): ``manage.py serve``.

One Daphne process is one Python interpreter, so one core at most: at 30 rooms x 12 browsers it
was the limit (BENCHMARKS.md). This command opens the listening socket itself and starts
``--processes`` Daphnes (``WEB_PROCESSES``, default 1) that all accept on it (``daphne --fd``): the
kernel hands each new connection to one of them. A browser's page loads, posts and websocket may
land on different processes; they share PostgreSQL, the cache and the Redis channel layer, so an
update sent by any process reaches every socket of the room. The in-memory channel layer of the
embedded mode lives inside one process, so more than one process needs ``REDIS_URL``.

The command stays in the foreground and stops its Daphnes on SIGTERM or Ctrl-C; if one of them
dies, it stops the others and exits with that process's status (a supervisor restarts the lot).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from types import FrameType
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from angryagents.env import env_int

ERROR_PROCESSES_NEED_REDIS = (
    "More than one web process needs the Redis channel layer (set REDIS_URL): the embedded in-memory "
    "layer lives inside one process, so its rooms' updates would not reach the other processes' sockets."
)
APPLICATION = "angryagents.asgi:application"
STOP_SECONDS = 20.0


def daphne_command(fd: int, extra: list[str]) -> list[str]:
    """The command line of one Daphne accepting on the inherited socket ``fd``."""
    return [sys.executable, "-m", "daphne", "--fd", str(fd), *extra, APPLICATION]


def listening_socket(host: str, port: int) -> socket.socket:
    """A bound, listening TCP socket the child processes inherit."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(1024)
    sock.set_inheritable(True)
    return sock


class Command(BaseCommand):
    help = "Serve the game from several Daphne processes sharing one port (service mode)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=env_int("PORT", 8000, minimum=1))
        parser.add_argument("--processes", type=int, default=env_int("WEB_PROCESSES", 1, minimum=1))
        parser.add_argument("--proxy-headers", action="store_true", help="passed on to Daphne")

    def handle(self, *args: Any, **options: Any) -> None:
        processes: int = options["processes"]
        if processes < 1:
            raise CommandError("--processes must be at least 1.")
        in_memory = settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("InMemoryChannelLayer")
        if processes > 1 and in_memory:
            raise CommandError(ERROR_PROCESSES_NEED_REDIS)
        sock = listening_socket(options["host"], options["port"])
        extra = ["--proxy-headers"] if options["proxy_headers"] else []
        command = daphne_command(sock.fileno(), extra)
        children = [subprocess.Popen(command, pass_fds=(sock.fileno(),)) for _ in range(processes)]
        self.stdout.write(f"serving on http://{options['host']}:{options['port']}/ from {processes} Daphne process(es)")
        stopping = False

        def stop(signum: int, frame: FrameType | None) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        status = 0
        try:
            while not stopping:
                ended = [child for child in children if child.poll() is not None]
                if ended:
                    status = ended[0].returncode or 1
                    self.stderr.write(f"a web process (pid {ended[0].pid}) ended with {ended[0].returncode}")
                    break
                time.sleep(0.5)
        finally:
            sock.close()
            for child in children:
                if child.poll() is None:
                    child.terminate()
            deadline = time.monotonic() + STOP_SECONDS
            for child in children:
                try:
                    child.wait(timeout=max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    child.kill()
        if status:
            raise SystemExit(status)
