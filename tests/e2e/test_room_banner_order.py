"""A student's move is answered with their new controls, and it pushes a new turn banner to the
whole room. The two travel different roads (the HTTP answer, the room's websocket) and either may
arrive first. When the answer comes first, the banner still on the page speaks of the room before
the move; the page must not fetch its controls again on that older banner, and it must not fetch
them when the newer banner arrives either: the answer already holds them.

Anna's websocket is routed through Playwright, which holds what the server pushes while she
speaks, so her answer always arrives before the banner her speech pushed."""

from __future__ import annotations

import pytest

from tests.e2e.moves import create_room, speak, take_seat

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CASE_TITLE = "The State v. Curtis Hale"
WAIT_MS = 30_000
WORDS = "Anna here: the eyewitness saw him for two seconds at night."


def test_a_speech_answered_before_the_banner_it_pushed_fetches_no_controls_again(browser, live_daphne, artifacts):
    from playwright.sync_api import expect

    url = live_daphne.url
    teacher, anna, ben = (browser.new_context(viewport={"width": 1280, "height": 800}).new_page() for _ in range(3))
    code = create_room(teacher, url, case_query="Curtis Hale", case_title=CASE_TITLE)

    holding: list[bool] = [False]
    held: list[str | bytes] = []
    sockets: list = []

    def hold_pushes_while_asked(socket) -> None:  # type: ignore[no-untyped-def]
        sockets.append(socket)
        server = socket.connect_to_server()

        def from_server(message: str | bytes) -> None:
            if holding[0]:
                held.append(message)
            else:
                socket.send(message)

        server.on_message(from_server)

    anna.route_web_socket("**/ws/**", hold_pushes_while_asked)
    asked: list[str] = []
    anna.on("request", lambda request: asked.append(request.url))
    take_seat(anna, url, code, "2", "Anna")
    take_seat(ben, url, code, "3", "Ben")
    expect(teacher.locator("#room-controls .room-people")).to_contain_text("Ben", timeout=WAIT_MS)

    teacher.click("button:has-text('Start the deliberation')")
    expect(anna.locator("#your-turn")).to_be_visible(timeout=WAIT_MS)
    expect(anna.locator("#room-turn")).to_contain_text("Anna")

    holding[0] = True
    before = len(asked)
    speak(anna, WORDS)  # the answer: her new controls, her turn over
    expect(anna.locator("#your-turn")).to_have_count(0)
    for _ in range(WAIT_MS // 100):  # the banner her speech pushed, held on its way to her page
        if held:
            break
        anna.wait_for_timeout(100)
    assert held, "the speech pushed nothing to the room"
    expect(anna.locator("#room-turn")).to_contain_text("Anna")  # the older banner still shows

    holding[0] = False
    for message in held:
        sockets[-1].send(message)
    expect(anna.locator("#room-turn")).to_contain_text("Ben", timeout=WAIT_MS)  # the newer banner is in
    anna.wait_for_timeout(500)  # time for a fetch, were one to be made
    fetched = [address for address in asked[before:] if address.endswith("/controls/")]
    assert fetched == [], fetched
    anna.screenshot(path=str(artifacts / "room-banner-after-answer-1280.png"))
