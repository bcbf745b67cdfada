"""Classroom play in real browsers: two students join one room by code and both speak; an external
agent's argument, made through the official MCP client, appears live in a watching browser."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

from mcp import Client

CASE_TITLE = "The State v. Curtis Hale"
WAIT_MS = 30_000


def room_code(server, *args: str) -> str:  # type: ignore[no-untyped-def]
    """A new room's code: the last line ``room_create`` prints."""
    return server.manage("room_create", *args).strip().splitlines()[-1]


def test_two_students_join_one_room_by_code_and_both_speak(browser, live_daphne):
    from playwright.sync_api import expect

    url = live_daphne.url
    teacher, anna, ben = (browser.new_context().new_page() for _ in range(3))

    teacher.goto(f"{url}/rooms/new/")
    teacher.select_option("#id_case", label=CASE_TITLE)
    teacher.uncheck("#id_host_plays")
    teacher.fill("#id_seed", "5")  # a jury that does not settle in the first round
    teacher.click("button:has-text('Create the room')")
    code = teacher.locator("strong.room-code").inner_text().strip()
    assert len(code) == 6

    anna.goto(f"{url}/join/")
    anna.fill("#id_code", code.lower())  # typed any old way
    anna.click("button:has-text('Find the room')")
    anna.select_option("#id_seat", "2")
    anna.fill("#id_name", "Anna")
    anna.click("button:has-text('Take the seat')")
    expect(anna.locator("#room-live")).to_contain_text("2. Anna")

    ben.goto(f"{url}/join/{code}/")  # the join link
    ben.select_option("#id_seat", "3")
    ben.fill("#id_name", "Ben")
    ben.click("button:has-text('Take the seat')")
    expect(ben.locator("#room-live")).to_contain_text("3. Ben")

    teacher.click("button:has-text('Start the deliberation')")
    said = {
        anna: "Anna here: the eyewitness saw him for two seconds at night.",
        ben: "Ben here: the bait bills were in his glovebox, that is hard to explain away.",
    }
    for page in (anna, ben):  # seat order: Anna (2), then Ben (3)
        expect(page.locator("#your-turn")).to_be_visible(timeout=WAIT_MS)
        page.fill("#id_content", said[page])
        page.click("#speak-form button[type=submit]")
        expect(page.locator(".messages")).to_contain_text("Your argument is in")
    for page in (teacher, anna, ben):  # the round after their turns: everyone sees both, live
        for words in said.values():
            expect(page.locator("#room-live .room-transcript")).to_contain_text(words, timeout=WAIT_MS)

    teacher.goto(f"{url}/rooms/{code}/teacher/")
    table = teacher.locator("table.teacher-seats")
    expect(table).to_contain_text("Anna")
    expect(table).to_contain_text(said[anna])
    expect(table).to_contain_text(said[ben])


def test_an_agents_argument_through_mcp_appears_live_in_a_browser(browser, live_daphne):
    from playwright.sync_api import expect

    code = room_code(live_daphne, "--case", "kessler-market-robbery", "--open-seats", "3", "--autostart", "--seed", "5")
    watcher = browser.new_context().new_page()
    watcher.goto(f"{live_daphne.url}/rooms/{code}/")
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
    expect(watcher.locator("#room-live .room-transcript")).to_contain_text(words, timeout=WAIT_MS)
