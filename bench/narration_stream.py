"""Time to the judge's first sound: from the moment a line is asked for to the moment Chromium
starts playing it, with the line voiced in pieces.

Run:
    .venv/bin/python bench/narration_stream.py [--games 3] [--first-byte 0.3] [--per-word 0.03]

For each voice, a live Daphne (tests/live.py, embedded mode) serves the game; a headless Chromium
starts a game on each curated case (a new line each time, never cached), and the case
presentation (the longest line the judge speaks) is measured:

- ``first sound``: from the narration's creation to the first ``playing`` event in the courtroom;
- ``whole line``: from its creation to the moment the whole line was voiced and stored, which is
  when the first sound could start if the line were voiced whole (the way before pieces);
- ``pieces``: how many pieces the line was voiced in.

Voices: ``elevenlabs``, through the real SDK against a local server speaking ElevenLabs' streaming
API (``--first-byte`` seconds before the first chunk, ``--per-word`` seconds of generation per
word, as a hosted service takes), and ``espeak`` (espeak-ng on this machine, when installed).
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.deliberation.elevenlabs_server import ElevenLabsServer  # noqa: E402
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.live import live_server  # noqa: E402

# One game per curated case: each presentation is a new line, never served from the audio cache.
CASES = [
    "The People v. Owen Castellano",
    "The State v. Leanne Cordell",
    "The State v. Calvin Dorsey",
    "The State v. Curtis Hale",
    "The State v. Gregory Lindahl",
]
LISTEN = """
window.__firstSound = null;
document.addEventListener('playing', () => {
  if (window.__firstSound === null) window.__firstSound = Date.now();
}, true);
"""


def _epoch_ms(stamp: str) -> float:
    return datetime.fromisoformat(stamp.replace(" ", "T")).timestamp() * 1000


def _game(browser, server, case: str) -> tuple[float, float, int]:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(LISTEN)
    page = context.new_page()
    page.goto(server.url + "/")
    page.get_by_role("button", name=f"Start deliberating: {case}").click()
    page.wait_for_url(re.compile(r"/court/[A-Za-z0-9_-]{16}/$"))
    page.wait_for_function("window.__firstSound !== null", timeout=120_000)
    heard = page.evaluate("window.__firstSound")
    public_id = page.url.rstrip("/").rsplit("/", 1)[-1]
    deadline = time.monotonic() + 120
    while True:
        rows = server.query(
            "SELECT n.created_at, n.rendered_at, n.pieces FROM deliberation_narration n "
            "JOIN deliberation_deliberation d ON d.id = n.deliberation_id "
            "WHERE d.public_id = ? AND n.kind = 'presentation'",
            (public_id,),
        )
        if (rows and rows[0][1] is not None) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    context.close()
    created, rendered, pieces = rows[0]
    count = len(pieces) if isinstance(pieces, list) else pieces.count('"audio"')
    return heard - _epoch_ms(str(created)), _epoch_ms(str(rendered)) - _epoch_ms(str(created)), count


def _measure(voice: str, env: dict[str, str], games: int, browser) -> None:  # type: ignore[no-untyped-def]
    scratch = Path(tempfile.mkdtemp(prefix=f"angry-voice-{voice}-"))
    first, whole, pieces = [], [], []
    with live_server(scratch, name=f"voice_{voice}", redis_db=12, env=env, embedded=True) as server:
        for case in CASES[:games]:
            heard, done, count = _game(browser, server, case)
            first.append(heard)
            whole.append(done)
            pieces.append(count)
    print(
        f"{voice:10} first sound p50 {statistics.median(first):6.0f} ms (max {max(first):6.0f}) | "
        f"whole line p50 {statistics.median(whole):6.0f} ms | pieces {statistics.median(pieces):.0f} | "
        f"games {games}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=len(CASES), choices=range(1, len(CASES) + 1))
    parser.add_argument("--first-byte", type=float, default=0.3, help="ElevenLabs: seconds to the first chunk")
    parser.add_argument("--per-word", type=float, default=0.03, help="ElevenLabs: seconds of generation per word")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    print(
        f"the case presentation of {args.games} curated cases; "
        f"ElevenLabs at {args.first_byte:g} s to first byte, {args.per_word:g} s/word"
    )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)  # autoplay allowed
        try:
            with ElevenLabsServer(first_byte_seconds=args.first_byte, seconds_per_word=args.per_word) as voice:
                env = {
                    "ELEVENLABS_API_KEY": "local-bench-key",
                    "ELEVENLABS_BASE_URL": voice.base_url,
                    "ANGRY_NARRATION": "elevenlabs",
                }
                _measure("elevenlabs", env, args.games, browser)
            if shutil.which("espeak-ng"):
                _measure("espeak", {"ANGRY_NARRATION": "espeak"}, args.games, browser)
            else:
                print("espeak     not installed (apt-get install espeak-ng): skipped")
        finally:
            browser.close()


if __name__ == "__main__":
    main()
