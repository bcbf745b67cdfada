"""Suite-wide fixtures and the rule for tests that need a real service.

A test that needs PostgreSQL, Redis or Chromium skips with a reason when the service is
absent, except under ``CI=true``, where such a skip is turned into a failure.
"""

from __future__ import annotations

import os
import random
import uuid
import zlib

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("ANGRY_TASKS", "sync")

import pytest

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def need(condition: bool, reason: str) -> None:
    """Skip (or, under CI, fail) when a real service this test needs is missing."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"required under CI: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def _test_settings(settings, tmp_path):
    # Background work runs right after commit in the caller's thread unless a test asks for
    # Celery or the in-process thread itself (pytest-django reads settings before this file).
    settings.ANGRY_TASKS = "sync"
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.ANGRY_INDEX_DIR = tmp_path / "index"
    # Each test counts its own throttled attempts (room codes, MCP joins): a cache of its own.
    settings.CACHES = {"default": {**settings.CACHES["default"], "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}}


@pytest.fixture(autouse=True)
def _games_drawn_the_same_way_each_run(request, monkeypatch):
    """A game started without a seed draws one at random (``lifecycle``); in a test the draw
    follows the test's own name, so every run of a test plays the same games: a test whose game
    could end before the moment it checks fails every time or never, not one run in forty."""
    from deliberation.services import lifecycle

    drawn = random.Random(zlib.crc32(request.node.nodeid.encode()))
    monkeypatch.setattr(lifecycle, "draw_seed", lambda: drawn.randrange(2**31))


@pytest.fixture
def readable_layer(settings):
    """A channel layer whose group messages a test can read after its own steps.

    Under channels-redis's pub/sub layer (service mode's default) a group message reaches only
    subscribers listening at that moment, and every ``async_to_sync`` step runs in a loop of its
    own, so a test that subscribes, acts and then reads would hear nothing. Such a test reads
    through the list-based layer on the same Redis instead: the broadcaster's messages are the same
    on either, and the pub/sub path is walked end to end by the live socket and browser tests."""
    layer = settings.CHANNEL_LAYERS["default"]
    if layer["BACKEND"].endswith("RedisPubSubChannelLayer"):
        hosts = layer["CONFIG"]["hosts"]
        settings.CHANNEL_LAYERS = {
            "default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": hosts}}
        }


def browser_of(client, **extra) -> str:  # type: ignore[no-untyped-def]
    """Give a test client a saved session with its browser key (``angryagents.identity``); the key."""
    import secrets

    from angryagents.identity import SESSION_FIELD

    session = client.session
    key = session.get(SESSION_FIELD) or secrets.token_urlsafe(24)
    session[SESSION_FIELD] = key
    for name, value in extra.items():
        session[name] = value
    session.save()
    client.cookies["sessionid"] = session.session_key
    return key


def socket_headers(browser_key: str = "", **session: object) -> list[tuple[bytes, bytes]]:
    """A websocket's headers from a browser whose saved session holds ``browser_key`` (and ``session``).

    Without a key or session data, the headers of a browser that has no cookie at all."""
    from django.contrib.sessions.backends.db import SessionStore

    from angryagents.identity import SESSION_FIELD

    origin = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
    if not browser_key and not session:
        return origin
    store = SessionStore()
    if browser_key:
        store[SESSION_FIELD] = browser_key
    for name, value in session.items():
        store[name] = value
    store.save()
    return [*origin, (b"cookie", f"sessionid={store.session_key}".encode())]
