"""What a screen reader hears and what a reader who asked for less motion sees, in Chromium.

A round of four speeches, typed out on screen letter by letter, is announced once per speech,
whole, and never word by word; a round delivered twice is announced once. Under
``prefers-reduced-motion: reduce`` no speech is ever shown half typed; without it, speeches are
(so the check can fail).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.moves import choose_side

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CASE = "The State v. Curtis Hale"
WAIT_MS = 60_000
ANNOUNCEMENTS = Path(__file__).resolve().parent / "announcements.js"
# Every time a typed copy of a speech (or the judge's words) shows only part of its words.
HALF_TYPED = """
(() => {
  window.__halfTyped = [];
  new MutationObserver((records) => {
    for (const record of records) {
      const el = record.target.nodeType === 1 ? record.target : record.target.parentElement;
      const typed = el && el.closest(".kinetic");
      const whole = typed && typed.parentElement.querySelector(".visually-hidden");
      if (!whole) continue;
      const shown = typed.textContent, all = whole.textContent;
      if (shown && shown.length < all.length && all.startsWith(shown)) window.__halfTyped.push(shown.length);
    }
  }).observe(document, {subtree: true, childList: true, characterData: true});
})();
"""
ROUND_DONE = (
    "() => document.querySelectorAll('#chat .msg-speech').length > 0"
    " && !document.querySelector('#chat .typing, #chat .waiting, #status.status-running')"
)
SPINNER = """() => { const s = document.createElement("span"); s.className = "spinner"; document.body.appendChild(s);
  const name = getComputedStyle(s).animationName; s.remove(); return name; }"""
NEW_MESSAGES = """(before) => Array.from(document.querySelectorAll('#chat > li.msg[id]'))
  .filter((li) => !before.includes(li.id) && li.id !== 'chat-empty')
  .map((li) => ({id: li.id, html: li.outerHTML, speech: li.classList.contains('msg-speech'),
                 text: (li.querySelector('.msg-text .visually-hidden') || {}).textContent || ''}))"""


def _game(browser: Any, url: str, **context: Any) -> Any:
    """A page with a single-player game of four AI speakers a round, side chosen, speeches typed."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, **context)
    ctx.set_default_timeout(WAIT_MS)
    ctx.add_init_script("localStorage.setItem('angry.textSpeed', 'fast')")
    ctx.add_init_script(path=str(ANNOUNCEMENTS))
    ctx.add_init_script(HALF_TYPED)
    page = ctx.new_page()
    page.goto(f"{url}/")
    page.click("summary:has-text('Game settings')")
    page.select_option("#id_settings_speakers", "4")
    page.get_by_role("button", name=f"Start deliberating: {CASE}").click()
    page.wait_for_url(re.compile(r"/court/[A-Za-z0-9_-]{16}/$"))
    choose_side(page, "Not guilty", re.compile("DEFEND"))
    page.get_by_role("button", name="Pass Turn").wait_for()
    return page


def _a_round(page: Any) -> list[dict[str, Any]]:
    """Pass the turn and wait until the jury's round is in and typed out; the new messages."""
    before = page.eval_on_selector_all("#chat > li[id]", "items => items.map((li) => li.id)")
    page.evaluate("window.__announced = []; window.__halfTyped = []")
    page.get_by_role("button", name="Pass Turn").click()
    page.wait_for_function(ROUND_DONE, timeout=2 * WAIT_MS)
    page.wait_for_timeout(500)  # a pushed fragment still on its way lands
    return page.evaluate(NEW_MESSAGES, before)


def test_each_speech_is_announced_once_and_whole(browser, live_daphne) -> None:
    page = _game(browser, live_daphne.url)
    messages = _a_round(page)
    speeches = [m for m in messages if m["speech"]]
    assert len(speeches) >= 2, messages
    announced = page.evaluate("window.__announced")
    chat = [a["text"] for a in announced if a["region"] == "chat"]
    for speech in speeches:
        assert speech["text"], speech["id"]
        heard = [text for text in chat if speech["text"] in text]
        assert len(heard) == 1, (speech["text"], chat)
    # Nothing else came from the chat: one announcement per new message, none of them a part of a speech.
    assert len(chat) == len(messages), chat
    # Meanwhile the screen showed the speeches being typed, a few letters at a time.
    assert len(page.evaluate("window.__halfTyped")) > len(speeches)

    # The same round delivered again (a push crossing a catch-up): no message shows twice, nothing is heard again.
    page.evaluate("window.__announced = []")
    again = "".join(m["html"] for m in messages)
    page.evaluate(
        """(items) => htmx.swap("#court", `<div hx-swap-oob="beforeend:#chat">${items}</div>`, {swapStyle: "none"})""",
        again,
    )
    page.wait_for_timeout(300)
    for message in messages:
        assert page.locator(f"#chat > li#{message['id']}").count() == 1, message["id"]
    assert [a for a in page.evaluate("window.__announced") if a["region"] == "chat"] == []


@pytest.mark.parametrize(("motion", "typed"), [("reduce", False), ("no-preference", True)])
def test_reduced_motion_shows_every_speech_whole(browser, live_daphne, motion: str, typed: bool) -> None:
    page = _game(browser, live_daphne.url, reduced_motion=motion)
    messages = _a_round(page)
    assert any(m["speech"] for m in messages)
    assert bool(page.evaluate("window.__halfTyped")) is typed
    spinning = page.evaluate(SPINNER)
    assert (spinning == "none") is (motion == "reduce"), spinning
