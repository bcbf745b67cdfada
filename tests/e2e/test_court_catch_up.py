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
SWAPS_COUNTED = """() => {
  window.courtSwaps = 0;
  document.addEventListener("htmx:afterSwap", (evt) => {
    if (evt.detail.target && evt.detail.target.id === "court") window.courtSwaps += 1;
  });
}"""
WORDS = "Two seconds of a face behind a bandana is not an identification."


def open_twice_with_the_second_socket_held(browser, url: str):
    """The player's game, side chosen and voted not guilty, open in two tabs of one browser; the
    second tab's socket is held away from the server until released."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    first = context.new_page()
    first.goto(url + "/")
    first.get_by_role("button", name=f"Start deliberating: {CASE}").click()
    first.wait_for_url(re.compile(r"/court/[A-Za-z0-9_-]{16}/$"))
    first.locator(".first-vote").get_by_label("Not guilty").check()
    first.get_by_role("button", name=re.compile("DEFEND")).click()
    expect(first.locator("#your-vote")).to_have_text("Not guilty", timeout=WAIT_MS)

    held: list = []
    second = context.new_page()
    second.route_web_socket(SOCKET, lambda socket: held.append(socket))
    return context, first, second, held


def release(sockets: list) -> None:
    for socket in sockets:
        socket.connect_to_server()


def test_a_court_page_that_missed_a_vote_catches_up_and_keeps_the_strategy_ticked_and_the_words_typed(
    browser, live_daphne, artifacts
):
    from playwright.sync_api import expect

    context, first, second, held = open_twice_with_the_second_socket_held(browser, live_daphne.url)
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

    release(held)
    expect(second.locator("#your-vote")).to_have_text("Guilty", timeout=WAIT_MS)  # caught up in place
    expect(second.get_by_label("Present Alternative Theory")).to_be_checked()
    expect(second.locator("#move-text")).to_have_value(WORDS)
    assert documents == [], documents  # read again into place, not reloaded
    second.screenshot(path=str(artifacts / "court-caught-up-1280.png"))
    context.close()


def test_a_tick_and_a_vote_made_while_the_page_reads_itself_again_are_both_kept(browser, live_daphne, artifacts):
    """The page reads itself again (it missed a push) and the server's answer is held on its way
    back, as a slow network would. Meanwhile the player ticks a strategy, types, and votes not
    guilty. The held page, read before that vote, then goes in: the tick and the words stay, and the
    vote is shown, because a catch-up that crossed a move reads the page once more."""
    from playwright.sync_api import expect

    context, first, second, held = open_twice_with_the_second_socket_held(browser, live_daphne.url)
    answers: list = []  # the catch-up's page, read by the server and held on its way back

    def hold_the_first_catch_up(route) -> None:
        if route.request.headers.get("hx-request") and not answers:
            answers.append((route, route.fetch()))
        else:
            route.continue_()

    second.goto(first.url)
    second.route(first.url, hold_the_first_catch_up)
    first.locator(".vote-button-guilty").click()  # a push the second tab does not hear
    expect(first.locator("#your-vote")).to_have_text("Guilty", timeout=WAIT_MS)

    release(held)
    deadline = WAIT_MS // 100
    while not answers and deadline:
        second.wait_for_timeout(100)
        deadline -= 1
    assert answers, "the page that missed a push never read itself again"
    assert '<strong id="your-vote">Guilty</strong>' in answers[0][1].text()  # read before the next vote

    second.get_by_label("Present Alternative Theory").check()
    second.fill("#move-text", WORDS)
    second.locator(".vote-button-not-guilty").click()
    expect(second.locator("#your-vote")).to_have_text("Not guilty", timeout=WAIT_MS)

    second.evaluate(SWAPS_COUNTED)
    route, answer = answers[0]
    route.fulfill(response=answer)  # the page read before the vote goes in
    second.wait_for_function("window.courtSwaps >= 1", timeout=WAIT_MS)
    expect(second.locator("#your-vote")).to_have_text("Not guilty", timeout=WAIT_MS)
    expect(second.get_by_label("Present Alternative Theory")).to_be_checked()
    expect(second.locator("#move-text")).to_have_value(WORDS)
    second.screenshot(path=str(artifacts / "court-move-during-catch-up-1280.png"))
    context.close()
