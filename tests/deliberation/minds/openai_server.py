"""A small, real HTTP server that speaks the OpenAI chat-completions protocol, for tests.

It listens on 127.0.0.1 on an ephemeral port in a background thread. Each test scripts its
answers in order (text, streamed or not, a delay to provoke a timeout, an HTTP error status,
raw garbage); once the script runs out, the default reply is repeated. Every request body is
recorded so a test can check what the client really sent.

Fault injection: ``server.faults = Faults(rate=0.3, seed=7)`` turns that share of the unscripted
requests, chosen by a seeded generator, into a timeout, a 429, a 500 or an unreadable body (in
turn or at random), and records each one in ``server.injected`` with the request it answered.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Reply:
    text: str = "<Content>I have nothing to add.</Content>"
    status: int = 200
    delay: float = 0.0  # seconds to wait before answering (a client timeout shorter than this fails)
    raw: bytes | None = None  # sent verbatim as the body instead of a well-formed answer
    chunk_size: int = 12  # characters per streamed chunk
    chunk_delay: float = 0.0  # seconds between streamed chunks, as a model generating them would take
    prompt_tokens: int = 120
    completion_tokens: int = 30
    cached_tokens: int = 0  # of the prompt tokens, those "served from the provider's cache"
    message: str = "scripted failure"  # an error answer's message, as a provider words it


FAULTS = ("timeout", "rate_limit", "server_error", "garbage")
GARBAGE = b"\x00\x9f<html><body>502 Bad Gateway</body></html> {{{"


@dataclass
class Faults:
    """Fail ``rate`` of the requests (seeded), with ``kinds`` drawn at random.

    ``delay`` is how long a timed-out request hangs: longer than the client's timeout.
    """

    rate: float
    kinds: tuple[str, ...] = FAULTS
    seed: int = 0
    delay: float = 5.0
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def draw(self) -> str | None:
        """The fault for the next request, or None to answer normally."""
        if self.rng.random() >= self.rate:
            return None
        return self.rng.choice(self.kinds)

    def reply(self, fault: str) -> Reply:
        if fault == "timeout":
            return Reply(delay=self.delay)
        if fault == "rate_limit":
            return Reply(status=429)
        if fault == "server_error":
            return Reply(status=500)
        return Reply(raw=GARBAGE)


@dataclass(frozen=True)
class Injected:
    fault: str
    body: dict[str, Any]


class ScriptedOpenAIServer:
    """Start with ``with ScriptedOpenAIServer() as server:``; ``server.api_base`` is the base URL."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.default = Reply()
        self.responder: Callable[[dict[str, Any]], Reply] | None = None  # answers by request, after the script
        self.faults: Faults | None = None  # injected into unscripted requests
        self.injected: list[Injected] = []
        self._script: list[Reply] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._serve, name="openai-test-server", daemon=True)

    @property
    def api_base(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self._script.extend(replies)

    def next_reply(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append(body)
            if self._script:
                return self._script.pop(0)
            fault = self.faults.draw() if self.faults else None
            if fault is not None and self.faults is not None:
                self.injected.append(Injected(fault, body))
                return self.faults.reply(fault)
        return self.responder(body) if self.responder else self.default

    def _serve(self) -> None:
        self._httpd.serve_forever(poll_interval=0.05)  # a short poll makes shutdown prompt

    def __enter__(self) -> ScriptedOpenAIServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    body = {}
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send_json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
                    return
                reply = server.next_reply(body)
                if reply.delay and server._stopping.wait(reply.delay):
                    return
                try:
                    if reply.status != 200:
                        error = {"message": reply.message, "type": "server_error", "code": reply.status}
                        self._send_json(reply.status, {"error": error})
                    elif reply.raw is not None:
                        self._send_bytes(200, reply.raw, "application/json")
                    elif body.get("stream"):
                        self._stream(body, reply)
                    else:
                        self._send_json(200, completion(body, reply))
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout under test): nothing left to say

            def _send_json(self, status: int, payload: dict[str, Any]) -> None:
                self._send_bytes(status, json.dumps(payload).encode(), "application/json")

            def _send_bytes(self, status: int, data: bytes, content_type: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _stream(self, body: dict[str, Any], reply: Reply) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                for event in stream_events(body, reply):
                    self.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
                    self.wfile.flush()
                    if reply.chunk_delay and server._stopping.wait(reply.chunk_delay):
                        return
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
                self.close_connection = True

        return Handler


def usage(reply: Reply) -> dict[str, Any]:
    total = reply.prompt_tokens + reply.completion_tokens
    counts: dict[str, Any] = {
        "prompt_tokens": reply.prompt_tokens,
        "completion_tokens": reply.completion_tokens,
        "total_tokens": total,
    }
    if reply.cached_tokens:
        counts["prompt_tokens_details"] = {"cached_tokens": reply.cached_tokens}
    return counts


def completion(body: dict[str, Any], reply: Reply) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", ""),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": reply.text}, "finish_reason": "stop"}],
        "usage": usage(reply),
    }


def stream_events(body: dict[str, Any], reply: Reply) -> list[dict[str, Any]]:
    def chunk(delta: dict[str, str], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": "chatcmpl-test",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": body.get("model", ""),
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    pieces = [reply.text[i : i + reply.chunk_size] for i in range(0, len(reply.text), reply.chunk_size)]
    events = [chunk({"role": "assistant", "content": ""})]
    events += [chunk({"content": piece}) for piece in pieces]
    events.append(chunk({}, "stop"))
    if (body.get("stream_options") or {}).get("include_usage"):
        events.append({**chunk({}), "choices": [], "usage": usage(reply)})
    return events
