"""A room's controls in Chromium when two answers cross: a vote cast while a fetch of the controls
is on its way still shows, although the fetch's older answer comes back after the vote was sent."""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CASE = "The State v. Curtis Hale"
WAIT_MS = 60_000
# Answers to GET /rooms/<code>/controls/ are held in the page until a vote has been sent: the network
# of a busy classroom, where the answer to a fetch sent before a vote comes back after it.
HOLD_FETCH_UNTIL_VOTE = """
(() => {
  const open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
  const held = [];
  window.heldFetches = 0;
  XMLHttpRequest.prototype.open = function (method, url) {
    this.seen = method.toUpperCase() + " " + url;
    return open.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    const xhr = this;
    if (window.holding && /^GET .*\\/controls\\/$/.test(xhr.seen)) {
      const onload = xhr.onload;
      xhr.onload = function () { window.heldFetches += 1; held.push(() => onload.apply(xhr, arguments)); };
    }
    if (/^POST .*\\/vote\\/$/.test(xhr.seen)) {
      window.holding = false;
      setTimeout(() => held.splice(0).forEach((release) => release()), 0);
    }
    return send.apply(this, arguments);
  };
})();
"""


def test_a_vote_sent_while_the_controls_are_being_fetched_stays_on_screen(browser, live_daphne) -> None:
    from playwright.sync_api import expect

    ((slug,),) = live_daphne.query("SELECT slug FROM cases_case WHERE title = ?", (CASE,))
    code = live_daphne.room("--case", slug, "--open-seats", "2", "--autostart", "--turn-seconds", "240")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(WAIT_MS)
    context.add_init_script("localStorage.setItem('angry.textSpeed', 'instant')")
    context.add_init_script(HOLD_FETCH_UNTIL_VOTE)
    page = context.new_page()
    page.goto(f"{live_daphne.url}/join/{code}/")
    page.fill("#id_name", "Ada")
    page.click("button:has-text('Take the seat')")
    expect(page.locator("#your-turn")).to_be_visible(timeout=2 * WAIT_MS)
    page.fill("#id_content", "Two seconds of lamplight is not an identification.")
    # From her speech on, an answer to a fetch of the controls waits for a vote. The speech's own
    # answer (not her turn) comes in; after the AI jurors' round, her next turn makes the page fetch
    # its controls (the round can be over before the speech's answer is in, or after).
    page.evaluate("window.holding = true")
    page.click("#room-controls button:has-text('Speak')")
    expect(page.locator("#your-turn")).to_have_count(0)
    page.wait_for_function("window.heldFetches > 0", timeout=2 * WAIT_MS)
    page.click("#room-controls button:has-text('Vote guilty')")
    # In service mode a vote cast while the AI jurors' round runs on a worker shows once the round
    # is stored; the old page never showed it at all.
    expect(page.locator("#your-vote")).to_have_text(re.compile("^guilty$"), timeout=WAIT_MS)
    ((vote,),) = live_daphne.query(
        "SELECT s.vote FROM deliberation_seat s JOIN deliberation_deliberation d ON d.id = s.deliberation_id"
        " WHERE d.room_code = ? AND s.number = 2",
        (code,),
    )
    assert vote == "guilty"
