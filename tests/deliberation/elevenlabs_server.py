"""A local server speaking ElevenLabs' text-to-speech API, for tests through the real SDK.

It answers what ``ElevenLabs().text_to_speech.convert`` (and ``.stream``) send:
``POST /v1/text-to-speech/{voice_id}[/stream]?output_format=pcm_22050`` with the key in the
``xi-api-key`` header and a JSON body (text, model_id, voice_settings). Each request takes the
next scripted behaviour (``ok`` by default):

- ``ok``: 16-bit mono PCM at the requested rate, a tone lasting 0.1 s per word of the text;
- ``401``: ElevenLabs' invalid-key error body;
- ``500``: a server error body;
- ``slow``: waits (up to ``slow_seconds``, or until the server stops) before answering ``ok``,
  so a client with a shorter timeout gives up.

The streaming path answers with chunked transfer encoding, as ElevenLabs does. To behave like a
real service in time, ``first_byte_seconds`` passes before the first chunk and
``seconds_per_word`` of generation time is spread over the chunks.

Every request is recorded (path, query, headers, body) for tests to inspect.
"""

from __future__ import annotations

import json
import math
import re
import struct
import threading
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any
from urllib.parse import parse_qs, urlsplit

OK = "ok"
UNAUTHORIZED = "401"
SERVER_ERROR = "500"
SLOW = "slow"

SECONDS_PER_WORD = 0.1
TONE_HZ = 220.0
CHUNK_BYTES = 4096
PATH = re.compile(r"^/v1/text-to-speech/(?P<voice>[^/]+)(?P<stream>/stream)?$")
PCM_FORMAT = re.compile(r"^pcm_(?P<rate>\d+)$")

INVALID_KEY_BODY = {"detail": {"status": "invalid_api_key", "message": "Invalid API key"}}
SERVER_ERROR_BODY = {"detail": {"status": "internal_error", "message": "An internal server error occurred."}}


@dataclass(frozen=True)
class Recorded:
    voice_id: str
    stream: bool
    query: dict[str, str]
    headers: dict[str, str]
    body: dict[str, Any]


def pcm_for(text: str, sample_rate: int) -> bytes:
    """A quiet tone whose length follows the text, so tests can check the duration."""
    samples = round(sample_rate * SECONDS_PER_WORD * max(1, len(text.split())))
    step = 2 * math.pi * TONE_HZ / sample_rate
    return b"".join(struct.pack("<h", int(8000 * math.sin(step * i))) for i in range(samples))


class ElevenLabsServer:
    def __init__(
        self, slow_seconds: float = 10.0, *, first_byte_seconds: float = 0.0, seconds_per_word: float = 0.0
    ) -> None:
        self.slow_seconds = slow_seconds
        self.first_byte_seconds = first_byte_seconds
        self.seconds_per_word = seconds_per_word
        self.requests: list[Recorded] = []
        self._script: deque[str] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, name="elevenlabs-server", daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def script(self, *behaviours: str) -> None:
        """Queue behaviours for the next requests; once used up, requests get ``ok``."""
        with self._lock:
            self._script.extend(behaviours)

    def _next_behaviour(self) -> str:
        with self._lock:
            return self._script.popleft() if self._script else OK

    def start(self) -> ElevenLabsServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # releases any request held by ``slow``
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> ElevenLabsServer:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
                return

            def _send(self, status: int, payload: bytes, content_type: str) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", content_type)
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout)
                    pass

            def _stream(self, payload: bytes, words: int) -> None:
                chunks = [payload[i : i + CHUNK_BYTES] for i in range(0, len(payload), CHUNK_BYTES)] or [b""]
                pause = server.seconds_per_word * words / len(chunks)
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "audio/pcm")
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    server._stopping.wait(server.first_byte_seconds)
                    for chunk in chunks:
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                        self.wfile.flush()
                        if pause:
                            server._stopping.wait(pause)
                    self.wfile.write(b"0\r\n\r\n")
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def _json(self, status: int, body: dict[str, Any]) -> None:
                self._send(status, json.dumps(body).encode(), "application/json")

            def do_POST(self) -> None:
                parts = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                match = PATH.match(parts.path)
                if match is None:
                    self._json(404, {"detail": {"status": "not_found", "message": "Not found"}})
                    return
                try:
                    body = json.loads(raw or b"{}")
                except json.JSONDecodeError:
                    self._json(400, {"detail": {"status": "invalid_json", "message": "Body is not JSON"}})
                    return
                query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
                server.requests.append(
                    Recorded(
                        voice_id=match["voice"],
                        stream=bool(match["stream"]),
                        query=query,
                        headers={key.lower(): value for key, value in self.headers.items()},
                        body=body,
                    )
                )
                behaviour = server._next_behaviour()
                if behaviour == UNAUTHORIZED or not self.headers.get("xi-api-key"):
                    self._json(401, INVALID_KEY_BODY)
                    return
                if behaviour == SERVER_ERROR:
                    self._json(500, SERVER_ERROR_BODY)
                    return
                if behaviour == SLOW:
                    server._stopping.wait(server.slow_seconds)
                fmt = PCM_FORMAT.match(query.get("output_format", "mp3_44100_128"))
                if fmt is None:
                    message = "This local server speaks PCM only."
                    self._json(422, {"detail": [{"loc": ["query", "output_format"], "msg": message}]})
                    return
                text = str(body.get("text", ""))
                if not text.strip():
                    self._json(422, {"detail": [{"loc": ["body", "text"], "msg": "Text is required."}]})
                    return
                pcm = pcm_for(text, int(fmt["rate"]))
                if match["stream"]:
                    self._stream(pcm, len(text.split()))
                else:
                    server._stopping.wait(server.first_byte_seconds + server.seconds_per_word * len(text.split()))
                    self._send(200, pcm, "audio/pcm")

        return Handler
