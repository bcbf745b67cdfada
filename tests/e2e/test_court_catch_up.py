"""A courtroom page that missed an update reads itself again into place and keeps what the person
was doing: the strategy ticked and the words typed stay, while the page shows the update it missed.

The player's game is open in two tabs of one browser. The second tab's socket is held away from the
server (Playwright holds the websocket) while the first tab changes the player's vote, so the
second tab misses that push; the player then ticks a strategy and types in the second tab. Once
its socket joins, the server says the page is behind (``?seen=``, consumers.py), and the page reads
the court again into place, with no reload, the vote shown and the player's choices kept."""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CASE = "The State v. Curtis Hale"
WAIT_MS = 60_000
SOCKET = re.compile(r"/ws/court/")
WORDS = "Two seconds of a face behind a bandana is not an identification."


def test_a_court_page_that_missed_a_vote_catches_up_and_keeps_the_strategy_ticked_and_the_words_typed(
    browser, live_daphne, artifacts
):
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    first = context.new_page()
    first.goto(live_daphne.url + "/")
    first.get_by_role("button", name=f"Start deliberating: {CASE}").click()
    first.wait_for_url(re.compile(r"/court/[A-Za-z0-9_-]{16}/$"))
    first.locator(".first-vote").get_by_label("Not guilty").check()
    first.get_by_role("button", name=re.compile("DEFEND")).click()
    expect(first.locator("#your-vote")).to_have_text("Not guilty", timeout=WAIT_MS)

    held = []  # the second tab's socket, held until released
    second = context.new_page()
    second.route_web_socket(SOCKET, lambda socket: held.append(socket))
    documents: list[str] = []
    second.on("request", lambda r: documents.append(r.url) if r.resource_type == "document" else None)
    second.goto(first.url)
    expect(second.locator("#your-vote")).to_have_text("Not guilty")
    documents.clear()

    first.locator(".vote-button-guilty").click()  # a push the second tab does not hear
    expect(first.locator("#your-vote")).to_have_text("Guilty", timeout=WAIT_MS)
    second.get_by_label("Present Alternative Theory").check()
    second.fill("#move-text", WORDS)
    expect(second.locator("#your-vote")).to_have_text("Not guilty")  # still behind

    for socket in held:
        socket.connect_to_server()
    expect(second.locator("#your-vote")).to_have_text("Guilty", timeout=WAIT_MS)  # caught up in place
    expect(second.get_by_label("Present Alternative Theory")).to_be_checked()
    expect(second.locator("#move-text")).to_have_value(WORDS)
    assert documents == [], documents  # read again into place, not reloaded
    second.screenshot(path=str(artifacts / "court-caught-up-1280.png"))
    context.close()
