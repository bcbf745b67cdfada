"""Model mode in Chromium: a game against a LiteLLM model (a local OpenAI-protocol server that
generates its answers chunk by chunk) shows each juror's words as they stream in, then the whole
speech, and the judge's voice still speaks."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tests.deliberation.minds.jury_room import call_kind, jury_room
from tests.deliberation.minds.openai_server import Reply, ScriptedOpenAIServer
from tests.live import LiveServer, live_server

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CASE = "The People v. Owen Castellano"
ROUND_TIMEOUT_MS = 120_000
SAID = (
    "{name} asks who else could have worn that coat. The side door stood open that night, and nobody"
    " has told us who held the key to the basement."
)
SPEECH = "<SpeakingTo>everyone</SpeakingTo><ArgumentType>question</ArgumentType><Position>NOT GUILTY</Position>"

# Every non-empty text a juror's stream slot shows, in order, as the page receives it.
LISTEN = """
window.__streamed = [];
document.addEventListener('DOMContentLoaded', () => {
  new MutationObserver(() => {
    document.querySelectorAll('[id^="stream-"]').forEach((slot) => {
      const text = slot.textContent.trim();
      if (text && window.__streamed[window.__streamed.length - 1] !== text) window.__streamed.push(text);
    });
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
});
"""


def generating(body: dict[str, Any]) -> Reply:
    """The cooperative jury room, with speeches generated a few characters at a time."""
    reply = jury_room(body)
    if call_kind(body) != "speech":
        return reply
    name = re.search(r"YOUR TURN, (.+?)\.", str(body["messages"][-1]["content"]))
    said = SAID.format(name=name.group(1) if name else "A juror")
    return replace(reply, text=f"{SPEECH}<Content>{said}</Content>", chunk_size=6, chunk_delay=0.04)


@pytest.fixture
def model_server(tmp_path: Path) -> Iterator[LiveServer]:
    with ScriptedOpenAIServer() as model:
        model.responder = generating
        env = {
            "ANGRY_LLM_MODEL": "openai/juror-model",
            "ANGRY_LLM_API_BASE": model.api_base,
            "OPENAI_API_KEY": "sk-local-test",
            "ANGRY_NARRATION": "espeak",
        }
        with live_server(tmp_path, name="model", redis_db=13, env=env, embedded=True) as server:
            yield server


def test_a_model_game_streams_each_jurors_words_and_the_judge_still_speaks(
    model_server, browser, artifacts: Path
) -> None:
    errors: list[str] = []
    for width, height in ((1280, 800), (390, 844)):
        context = browser.new_context(viewport={"width": width, "height": height})
        context.add_init_script(LISTEN)
        page = context.new_page()
        page.set_default_timeout(ROUND_TIMEOUT_MS)  # a loaded machine starts a first game slowly (imports, index)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(model_server.url + "/")
        page.get_by_role("button", name=f"Start deliberating: {CASE}").click()
        page.wait_for_url(re.compile(r"/court/[A-Za-z0-9_-]{16}/$"))

        # The judge presents the case aloud (espeak-ng).
        page.locator("#judge .judge-audio").first.wait_for(state="attached", timeout=60_000)

        page.locator(".first-vote").get_by_label("Not guilty").check()
        page.get_by_role("button", name=re.compile("DEFEND")).click()
        page.get_by_label("Present Alternative Theory").check()
        page.get_by_role("button", name="Speak", exact=True).click()

        # A juror's words arrive in pieces while the model is still generating them...
        page.wait_for_function("window.__streamed.length >= 2", timeout=ROUND_TIMEOUT_MS)
        page.screenshot(path=str(artifacts / f"model-streaming-{width}.png"))
        assert not page.locator("#chat-empty").is_visible()  # "not begun" gives way to the streaming words
        # ...then the whole speech stands in the transcript.
        page.locator("#chat .msg-speech", has_text="held the key to the basement").first.wait_for(
            timeout=ROUND_TIMEOUT_MS
        )
        page.screenshot(path=str(artifacts / f"model-round-{width}.png"))
        streamed = page.evaluate("window.__streamed")
        whole = page.locator("#chat .msg-speech", has_text="held the key to the basement").first.inner_text()
        partial = [text for text in streamed if "held the key to the basement" not in text]
        assert partial, streamed  # some piece showed before the speech was complete
        assert any(text.split()[0] in whole for text in partial)
        assert errors == []
        context.close()
