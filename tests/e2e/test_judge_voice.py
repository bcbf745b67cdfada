"""The judge speaks as it renders: in Chromium, the courtroom starts the judge's voice while the
rest of the case presentation is still being voiced by (a local server speaking) ElevenLabs, and
carries on piece after piece without starting the line again."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.deliberation.elevenlabs_server import ElevenLabsServer
from tests.live import LiveServer, live_server

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CASE = "The People v. Owen Castellano"
# Slow enough that the whole presentation takes several seconds to voice, as a real service would.
FIRST_BYTE_SECONDS = 0.2
SECONDS_PER_WORD = 0.06

# Every <audio> that starts, in order, with whether the line was still being voiced at that moment.
LISTEN = """
window.__voice = [];
document.addEventListener('playing', (evt) => {
  const line = evt.target.closest('.judge-line');
  window.__voice.push({
    index: evt.target.getAttribute('data-index'),
    speaking: !!(line && line.hasAttribute('data-speaking')),
    at: Date.now(),
  });
}, true);
"""


@pytest.fixture
def voiced_server(tmp_path: Path) -> Iterator[tuple[LiveServer, ElevenLabsServer]]:
    with ElevenLabsServer(first_byte_seconds=FIRST_BYTE_SECONDS, seconds_per_word=SECONDS_PER_WORD) as voice:
        env = {
            "ELEVENLABS_API_KEY": "local-test-key",
            "ELEVENLABS_BASE_URL": voice.base_url,
            "ANGRY_NARRATION": "elevenlabs",
        }
        with live_server(tmp_path, name="voice", redis_db=12, env=env) as server:
            yield server, voice


def test_the_judge_starts_speaking_before_the_presentation_is_fully_voiced(
    voiced_server: tuple[LiveServer, ElevenLabsServer], browser, artifacts: Path
) -> None:
    server, voice = voiced_server
    context = browser.new_context(  # the suite's Chromium plays audio without a gesture (conftest)
        viewport={"width": 1280, "height": 800}
    )
    context.add_init_script(LISTEN)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.url + "/")
    page.get_by_role("button", name=f"Start deliberating: {CASE}").click()
    page.wait_for_url(re.compile(r"/court/[A-Za-z0-9_-]{16}/$"))

    # The first piece plays while the line is still being voiced...
    page.wait_for_function("window.__voice.length >= 1", timeout=60_000)
    first = page.evaluate("window.__voice[0]")
    assert first["index"] == "0"
    assert first["speaking"] is True
    page.screenshot(path=str(artifacts / "judge-speaking.png"))

    # ...and the voice carries on into the next pieces, in order, never starting the line again.
    page.wait_for_function("window.__voice.length >= 3", timeout=60_000)
    played = [entry["index"] for entry in page.evaluate("window.__voice")]
    assert played[:3] == ["0", "1", "2"]
    page.locator("#judge .judge-line:not([data-speaking])").wait_for(timeout=60_000)
    assert page.locator("#judge .judge-audio").count() >= 3
    assert len({request.body["text"] for request in voice.requests}) == len(voice.requests) >= 3
    assert errors == []
    context.close()
