"""Classroom play in real browsers: two students join one room by code and both speak; an external
agent's argument, made through the official MCP client, appears live in the browser of the curator
who created the room; a stranger holding the code sees nothing of the room but its join page.

"Live" means pushed over the deliberation's websocket: each page's requests are recorded, and
none polls the room or reloads it."""

from __future__ import annotations

import asyncio
import re
import time
from concurrent.futures import ThreadPoolExecutor

from mcp import Client

from tests.e2e.moves import speak

CASE_TITLE = "The State v. Curtis Hale"
WAIT_MS = 30_000


class Traffic:
    """What a page asked the server for after it loaded: polling or a reload would show up here."""

    def __init__(self, page, code: str) -> None:  # type: ignore[no-untyped-def]
        self.code, self.requests, self.sockets = code, [], []
        page.on("request", lambda request: self.requests.append((request.resource_type, request.url)))
        page.on("websocket", lambda socket: self.sockets.append(socket.url))

    def start(self) -> None:
        self.requests.clear()

    @property
    def polls(self) -> list[str]:
        """Requests for the room's state that no push asked for (the old poll endpoint, or the page)."""
        return [
            url
            for kind, url in self.requests
            if "/live/" in url or kind == "document" or url.rstrip("/").endswith(f"/rooms/{self.code}")
        ]


LONG_WORD = "glovebox" * 9  # a student's unbroken string of letters
NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"


def test_two_students_join_one_room_by_code_and_both_speak_live_without_polling(browser, live_daphne, artifacts):
    from playwright.sync_api import expect

    url = live_daphne.url
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(2)]
    contexts.append(browser.new_context(viewport={"width": 390, "height": 844}))  # Ben is on his phone
    teacher, anna, ben = (context.new_page() for context in contexts)

    teacher.goto(f"{url}/rooms/new/")
    teacher.fill("#picker-q", "Curtis Hale")  # the case picker: search, then choose
    expect(teacher.locator("#picker-results li.picker-case")).to_have_count(1, timeout=WAIT_MS)
    teacher.locator("#picker-results label", has_text=CASE_TITLE).click()
    teacher.uncheck("#id_host_plays")
    teacher.click("summary:has-text('More settings')")  # the seed is folded away
    teacher.fill("#id_seed", "5")  # a jury that does not settle in the first round
    teacher.click("button:has-text('Create the room')")
    code = teacher.locator("strong.room-code").inner_text().strip()
    assert len(code) == 6
    traffic = {page: Traffic(page, code) for page in (teacher, anna, ben)}
    teacher.reload()  # now with the traffic recorded from the start

    anna.goto(f"{url}/join/")
    anna.fill("#id_code", code.lower())  # typed any old way
    anna.click("button:has-text('Find the room')")
    anna.select_option("#id_seat", "2")
    anna.fill("#id_name", "Anna")
    anna.click("button:has-text('Take the seat')")
    expect(anna.locator("#room-controls")).to_contain_text("Seat 2: Anna")
    expect(anna.locator("#seat-2 .you-badge")).to_be_visible()  # her own seat, marked by her page alone

    ben.goto(f"{url}/join/{code}/")  # the join link
    ben.select_option("#id_seat", "3")
    ben.fill("#id_name", "Ben")
    ben.click("button:has-text('Take the seat')")
    expect(ben.locator("#room-controls")).to_contain_text("Seat 3: Ben")
    for page in (teacher, anna, ben):
        traffic[page].start()  # every page has loaded: from now on, only pushes and what they ask for

    for page in (teacher, anna):  # Ben took his seat after they loaded: the websocket told them
        expect(page.locator("#jury-box")).to_contain_text("3. Ben", timeout=WAIT_MS)
    expect(teacher.locator("#room-controls .room-people")).to_contain_text("Ben")

    teacher.click("button:has-text('Start the deliberation')")
    expect(anna.locator("#your-turn")).to_be_visible(timeout=WAIT_MS)
    expect(ben.locator("#speak-form button.primary")).to_be_disabled()  # not his turn yet
    expect(teacher.locator("#speak-form")).to_have_count(0)  # the host does not play
    expect(teacher.locator("#room-turn")).to_contain_text("Anna")
    countdown = teacher.locator("#room-turn .countdown")
    first = int(countdown.inner_text())
    teacher.wait_for_function(  # counted down in the page, between pushes
        "(n) => parseInt(document.querySelector('#room-turn .countdown').textContent, 10) < n", arg=first
    )
    teacher.screenshot(path=str(artifacts / "room-teacher-1280.png"))
    anna.screenshot(path=str(artifacts / "room-anna-1280.png"))

    said = {
        anna: "Anna here: the eyewitness saw him for two seconds at night.",
        ben: "Ben here: the bait bills were in his glovebox, that is hard to explain away. " + LONG_WORD,
    }
    for page in (anna, ben):  # seat order: Anna (2), then Ben (3)
        expect(page.locator("#your-turn")).to_be_visible(timeout=WAIT_MS)
        asked = len(traffic[page].requests)
        speak(page, said[page])
        if page is anna:  # the floor passes to Ben, and the answer to her speech is her new controls:
            expect(ben.locator("#your-turn")).to_be_visible(timeout=WAIT_MS)  # the banner reached every page
            expect(anna.locator("#your-turn")).to_have_count(0)
            fetched = [url for _, url in traffic[anna].requests[asked:] if url.endswith("/controls/")]
            assert fetched == [], fetched  # her page did not fetch them a second time on the banner
    for page in (teacher, anna, ben):  # the round after their turns: everyone sees both, live
        for words in said.values():
            expect(page.locator("#chat")).to_contain_text(words, timeout=WAIT_MS)
    expect(anna.locator("#chat .msg-you")).to_contain_text(said[anna])  # her own words, marked on her page
    ben.screenshot(path=str(artifacts / "room-ben-phone.png"), full_page=True)
    anna.keyboard.press("Escape")  # skip the typing, for a still picture of the room
    expect(anna.locator("#your-turn")).to_be_visible(timeout=WAIT_MS)  # the next cycle: Anna again
    anna.evaluate("document.querySelector('#room-turn').scrollIntoView({block: 'center'})")
    anna.screenshot(path=str(artifacts / "room-anna-round-2-1280.png"))

    # Anna changes her vote: the push carries her seat alone, and every page shows it in place,
    # the other seats untouched and her own seat still marked as hers.
    anna.locator("#room-controls button", has_text=re.compile(r"^Vote guilty$")).click()
    expect(anna.locator("#your-vote")).to_have_text("guilty", timeout=WAIT_MS)
    for page in (teacher, anna, ben):
        expect(page.locator("#seat-2.vote-guilty")).to_be_visible(timeout=WAIT_MS)
        expect(page.locator("#jury-box > li.seat")).to_have_count(12)
        expect(page.locator("#seat-3")).to_contain_text("3. Ben")
    expect(anna.locator("#seat-2 .you-badge")).to_be_visible()
    expect(ben.locator("#seat-2 .you-badge")).to_have_count(0)
    expect(ben.locator("#seat-3 .you-badge")).to_be_visible()

    teacher.click("button:has-text('Call the final vote')")
    for page in (teacher, anna, ben):
        expect(page.locator("#room-turn")).to_contain_text("The verdict is in", timeout=WAIT_MS)
        expect(page.locator("#speak-form")).to_have_count(0)

    for page in (teacher, anna, ben):
        assert traffic[page].polls == [], traffic[page].polls  # no polling, no reload: pushed, then fetched
        assert any("/ws/court/" in socket for socket in traffic[page].sockets)

    teacher.goto(f"{url}/rooms/{code}/teacher/")
    table = teacher.locator("table.teacher-seats")
    expect(table).to_contain_text("Anna")
    expect(table).to_contain_text(said[anna])
    expect(table).to_contain_text(said[ben])
    teacher.set_viewport_size({"width": 390, "height": 844})  # a long unbroken word still fits a phone
    assert teacher.evaluate(NO_SIDEWAYS_SCROLL)
    assert ben.evaluate(NO_SIDEWAYS_SCROLL)
    teacher.screenshot(path=str(artifacts / "room-teacher-view-390.png"), full_page=True)


CURATOR, CURATOR_PASSWORD = "curator", "a-curators-password"
MAKE_CURATOR = (
    "from django.contrib.auth import get_user_model; User = get_user_model(); "
    f"User.objects.filter(username='{CURATOR}').exists() or "
    f"User.objects.create_superuser('{CURATOR}', 'curator@example.org', '{CURATOR_PASSWORD}')"
)


def _curator(browser, server):  # type: ignore[no-untyped-def]
    """A browser logged in to the admin as a curator (staff see every room)."""
    server.manage("shell", "-c", MAKE_CURATOR)
    page = browser.new_context().new_page()
    page.goto(f"{server.url}/admin/login/")
    page.fill("#id_username", CURATOR)
    page.fill("#id_password", CURATOR_PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url(f"{server.url}/admin/")
    return page


def test_an_agents_argument_through_mcp_appears_live_in_a_curators_browser(browser, live_daphne):
    from playwright.sync_api import expect

    code = live_daphne.room("--case", "kessler-market-robbery", "--open-seats", "3", "--autostart", "--seed", "5")
    stranger = browser.new_context().new_page()
    assert stranger.goto(f"{live_daphne.url}/rooms/{code}/").status == 404  # the code opens the join page only
    assert stranger.goto(f"{live_daphne.url}/join/{code}/").status == 200
    stranger.context.close()
    watcher = _curator(browser, live_daphne)
    traffic = Traffic(watcher, code)
    watcher.goto(f"{live_daphne.url}/rooms/{code}/")
    expect(watcher.locator("#room-turn")).to_be_visible()
    traffic.start()
    words = "An external agent says: a glovebox is not a confession. (mcp-e2e)"

    async def agent() -> dict:
        async with Client(f"{live_daphne.url}/mcp") as client:
            token = (await client.call_tool("join_as_juror", {"room_code": code})).structured_content["token"]
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                state = (await client.call_tool("get_deliberation_state", {"token": token})).structured_content
                if state["is_your_turn"]:
                    break
                await asyncio.sleep(0.3)
            result = await client.call_tool(
                "make_argument", {"token": token, "argument_type": "logical", "content": words}
            )
            return result.structured_content

    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API holds this thread's event loop
        argued = pool.submit(asyncio.run, agent()).result(timeout=120)
    assert argued["accepted"] is True
    expect(watcher.locator("#chat")).to_contain_text(words, timeout=WAIT_MS)
    expect(watcher.locator("#jury-box #seat-3")).to_contain_text("External agent")
    assert traffic.polls == [], traffic.polls
