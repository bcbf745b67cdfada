"""A whole game and a room turn with the keyboard alone, in Chromium.

Only keys: Tab and Shift+Tab to move, arrows within a group of choices, Enter and Space to press,
and typing; no mouse click, no ``element.click()``. Every control the focus stops on must show a
visible focus ring (an outline or a shadow from ``:focus-visible``) and have a size on screen.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CASE = "The State v. Curtis Hale"
WAIT_MS = 60_000
MAX_STOPS = 250  # a page's tab stops before a control is given up for missing
FOCUSED = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el), box = el.getBoundingClientRect();
  const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
  const shadow = style.boxShadow && style.boxShadow !== "none";
  const label = el.labels && el.labels.length ? el.labels[0].innerText : "";
  return {
    tag: el.tagName, id: el.id, name: el.getAttribute("name") || "", value: el.value || "",
    checked: !!el.checked, label: label.trim().replace(/\\s+/g, " "),
    text: (el.getAttribute("aria-label") || el.innerText || "").trim().replace(/\\s+/g, " ").slice(0, 120),
    ring: outline || !!shadow, focusVisible: el.matches(":focus-visible"), width: box.width, height: box.height,
  };
}"""

Stop = dict[str, Any]


class Keyboard:
    """Moves through a page with keys, checking the focus ring at every stop."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.stops = 0

    def focused(self) -> Stop | None:
        return self.page.evaluate(FOCUSED)

    def check_ring(self, stop: Stop | None) -> Stop:
        assert stop is not None, "the focus fell back to the page"
        where = f"{stop['tag']}#{stop['id']} {stop['text'] or stop['label']!r}"
        assert stop["focusVisible"] and stop["ring"], f"no visible focus on {where}"
        assert stop["width"] > 0 and stop["height"] > 0, f"focus on something not shown: {where}"
        return stop

    def to(self, wanted: Callable[[Stop], bool], what: str, *, back: bool = False) -> Stop:
        """Press Tab (Shift+Tab with ``back``) until the focus is on ``wanted``."""
        seen = []
        for _ in range(MAX_STOPS):
            self.page.keyboard.press("Shift+Tab" if back else "Tab")
            self.stops += 1
            stop = self.focused()
            if stop is None:  # past the last control, the focus leaves for the browser's own UI
                continue
            self.check_ring(stop)
            if wanted(stop):
                return stop
            seen.append(stop["text"] or stop["label"] or stop["tag"])
        raise AssertionError(f"never reached {what}; stops: {seen[-40:]}")

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)


def button(text: str) -> Callable[[Stop], bool]:
    return lambda stop: stop["tag"] in {"BUTTON", "A"} and stop["text"].startswith(text)


def field(name: str) -> Callable[[Stop], bool]:
    return lambda stop: stop["name"] == name


def _choose(keys: Keyboard, name: str, label: str) -> None:
    """In the radio group ``name`` (focused), arrow down until the choice labelled ``label`` is on."""
    for _ in range(12):
        stop = keys.check_ring(keys.focused())
        assert stop["name"] == name, stop
        if stop["checked"] and stop["label"].startswith(label):
            return
        keys.press("ArrowDown")
    raise AssertionError(f"no choice {label!r} in {name}")


def _page(browser: Any, width: int = 1280) -> Any:
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.set_default_timeout(WAIT_MS)
    context.add_init_script("localStorage.setItem('angry.textSpeed', 'instant')")
    return context.new_page()


def test_a_whole_game_with_the_keyboard_alone(browser, live_daphne) -> None:
    from playwright.sync_api import expect

    page = _page(browser)
    keys = Keyboard(page)
    page.goto(f"{live_daphne.url}/")

    # Find the case: the search box, typed into, sent with Enter.
    keys.to(field("q"), "the case search")
    page.keyboard.type("Curtis Hale")
    keys.press("Enter")
    page.wait_for_load_state("networkidle")
    keys.to(lambda stop: stop["text"] == f"Start deliberating: {CASE}", "the case's start button")
    keys.press("Enter")
    page.wait_for_url(re.compile(r"/court/[A-Za-z0-9_-]{16}/$"))

    # The first ballot with the arrows, then DEFEND.
    keys.to(field("vote"), "the first ballot")
    _choose(keys, "vote", "Not guilty")
    keys.to(button("DEFEND"), "DEFEND")
    keys.press("Enter")
    page.locator("#tally .tally-label").wait_for()

    # The focus stayed in the controls: a strategy, some words, Speak.
    keys.to(field("strategy"), "the strategies")
    _choose(keys, "strategy", "Challenge")
    keys.to(field("text"), "the argument's words")
    page.keyboard.type("The thumbprint was on a counter wiped at six, but the till was opened all evening.")
    keys.to(button("Speak"), "Speak")
    keys.press("Enter")
    expect(page.locator("#chat .msg-you")).to_have_count(1, timeout=WAIT_MS)
    page.locator("#controls .move-fieldset:not([disabled])").wait_for(timeout=2 * WAIT_MS)
    assert keys.check_ring(keys.focused())  # after the round the focus is still in the controls

    # A vote of one's own with Space.
    keys.to(button("Vote guilty"), "Vote guilty")
    keys.press("Space")
    expect(page.locator("#your-vote")).to_have_text("Guilty", timeout=WAIT_MS)

    # Call the final vote: the question takes the focus; past "Keep deliberating" and back to "Yes".
    keys.to(button("Call Final Vote"), "Call Final Vote")
    keys.press("Enter")
    expect(page.locator("#call-confirm")).to_be_focused()  # once the new controls have settled
    keys.to(button("Keep deliberating"), "Keep deliberating")
    keys.to(button("Yes, call the final vote"), "Yes", back=True)
    keys.press("Enter")
    keys.to(button("See the verdict"), "See the verdict")
    keys.press("Enter")
    page.wait_for_url(re.compile(r"/verdict/$"))
    expect(page.locator("main h1, main h2").first).to_be_visible()
    assert keys.stops > 10


def test_a_room_turn_with_the_keyboard_alone(browser, live_daphne) -> None:
    from playwright.sync_api import expect

    ((slug,),) = live_daphne.query("SELECT slug FROM cases_case WHERE title = ?", (CASE,))
    code = live_daphne.room("--case", slug, "--open-seats", "2", "--autostart", "--turn-seconds", "240")
    page = _page(browser, 390)
    keys = Keyboard(page)
    page.goto(f"{live_daphne.url}/join/")

    keys.to(field("code"), "the room code")
    page.keyboard.type(code)
    keys.press("Enter")
    page.wait_for_url(re.compile(rf"/join/{code}/$"))
    keys.to(field("name"), "the name to sit under")
    page.keyboard.type("Ada")
    keys.press("Enter")
    expect(page.locator("#room-controls")).to_contain_text("Seat 2: Ada", timeout=WAIT_MS)

    # Her turn brings the focus to the words she will say.
    expect(page.locator("#your-turn")).to_be_visible(timeout=2 * WAIT_MS)
    page.wait_for_function("document.activeElement && document.activeElement.id === 'id_content'")
    keys.check_ring(keys.focused())
    words = "Ada here: two seconds of lamplight is not an identification."
    page.keyboard.type(words)
    keys.to(button("Speak"), "Speak")
    keys.press("Enter")
    expect(page.locator("#chat")).to_contain_text(words, timeout=WAIT_MS)

    # Her own vote, from the keyboard.
    keys.to(lambda stop: stop["tag"] == "BUTTON" and "guilty" in stop["text"].lower(), "a vote button")
    keys.press("Space")
    expect(page.locator("#your-vote")).not_to_contain_text("none", timeout=WAIT_MS)
