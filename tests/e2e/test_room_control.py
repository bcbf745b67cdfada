"""The host's hand on a running room and a student's way back, in real Chromium: the teacher pauses,
hides a student's message (it leaves every screen at once), resumes; a student returns to her seat
from a second browser with the seat code shown on her screen, and the first browser loses it.

Screenshots of the host's controls and the student's seat code at 1280 and 390 px go to
``test-artifacts/`` and, when ``ANGRY_SHOTS`` names a folder, there too."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from tests.e2e.moves import create_room, take_seat

CASE_TITLE = "The State v. Curtis Hale"
WAIT_MS = 30_000
RUDE = "Anna here: something the teacher will not want on the projector."


def _no_sideways_scroll(page) -> None:  # type: ignore[no-untyped-def]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url} scrolls sideways ({width} px)"


def _shot(page, artifacts: Path, name: str) -> None:  # type: ignore[no-untyped-def]
    path = artifacts / name
    page.screenshot(path=str(path))
    extra = os.environ.get("ANGRY_SHOTS")
    if extra:
        Path(extra).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(extra) / name)


def test_the_host_pauses_hides_a_message_and_resumes_and_a_student_rejoins_with_her_seat_code(
    browser, live_daphne, artifacts
):
    from playwright.sync_api import expect

    url = live_daphne.url
    wide = {"viewport": {"width": 1280, "height": 900}}
    teacher_ctx, anna_ctx = browser.new_context(**wide), browser.new_context(**wide)
    ben_ctx = browser.new_context(viewport={"width": 390, "height": 844})  # Ben is on his phone
    teacher, anna, ben = teacher_ctx.new_page(), anna_ctx.new_page(), ben_ctx.new_page()
    errors: list[str] = []
    for page in (teacher, anna, ben):
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "htmx" in m.text else None)

    code = create_room(teacher, url, case_query=CASE_TITLE.split(" v. ")[1], case_title=CASE_TITLE, seed="5")
    for page, seat, name in ((anna, "2", "Anna"), (ben, "3", "Ben")):
        take_seat(page, url, code, seat, name)
        expect(page.locator("#seat-code .seat-code-value")).to_have_text(re.compile(r"^[A-Z2-9]{5}-[A-Z2-9]{5}$"))

    expect(teacher.locator("#room-controls .room-people")).to_contain_text("Ben", timeout=WAIT_MS)
    teacher.click("button:has-text('Start the deliberation')")
    expect(anna.locator("#your-turn")).to_be_visible(timeout=WAIT_MS)
    anna.fill("#id_content", RUDE)
    anna.click("#speak-form button.primary")
    for page in (teacher, anna, ben):
        expect(page.locator("#chat")).to_contain_text(RUDE, timeout=WAIT_MS)
    expect(ben.locator("#your-turn")).to_be_visible(timeout=WAIT_MS)

    # The teacher pauses: Ben's countdown stops, and the banner says so on every screen.
    teacher.click("#host-pause")
    expect(teacher.locator("#host-resume")).to_be_visible()
    for page in (anna, ben):
        expect(page.locator("#room-turn")).to_contain_text("The host has paused the room.", timeout=WAIT_MS)
    assert not anna.locator(".hide-msg").first.is_visible()  # only the host sees "Hide"

    # The teacher hides Anna's message: it leaves every screen at once, no reload.
    message = teacher.locator("#chat li.msg", has_text=RUDE)
    message.locator(".hide-msg button").click()
    expect(teacher.locator("#room-controls")).to_contain_text("The message is hidden")
    for page in (teacher, anna, ben):
        expect(page.locator("#chat")).not_to_contain_text(RUDE, timeout=WAIT_MS)
    teacher.evaluate("document.querySelector('#host-controls').scrollIntoView({block: 'center'})")
    _shot(teacher, artifacts, "host-controls-paused-1280.png")
    teacher.set_viewport_size({"width": 390, "height": 844})
    teacher.evaluate("document.querySelector('#host-controls').scrollIntoView({block: 'center'})")
    _no_sideways_scroll(teacher)
    _shot(teacher, artifacts, "host-controls-paused-390.png")
    teacher.set_viewport_size({"width": 1280, "height": 900})
    anna.reload()  # and on reload
    expect(anna.locator("#chat")).not_to_contain_text(RUDE)

    teacher.click("#host-resume")
    expect(teacher.locator("#host-pause")).to_be_visible()
    expect(ben.locator("#room-turn")).not_to_contain_text("paused", timeout=WAIT_MS)

    # Seat codes, on each student's own screen.
    for page, width in ((anna, 1280), (ben, 390)):
        page.evaluate("document.querySelector('#seat-code').scrollIntoView({block: 'center'})")
        _no_sideways_scroll(page)
        _shot(page, artifacts, f"student-seat-code-{width}.png")

    # Anna comes back on another device with her seat code; her first browser loses the seat.
    seat_code = anna.locator("#seat-code .seat-code-value").inner_text().strip()
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(f"{url}/join/")
    phone.fill("#id_code", seat_code.lower())
    phone.click("button:has-text('Find the room')")
    expect(phone.locator(".room-you")).to_contain_text("you sit in seat 2")
    expect(phone.locator("#seat-code .seat-code-value")).not_to_have_text(seat_code)  # a fresh code
    expect(anna.locator("#room-controls")).to_contain_text("no longer holds a seat", timeout=WAIT_MS)
    expect(anna.locator("#speak-form")).to_have_count(0)
    _no_sideways_scroll(phone)
    _shot(phone, artifacts, "student-back-on-phone-390.png")
    # Errors of this feature's swaps (a hidden message's "#turn-N"); #chat-empty and #watch-note are
    # tolerated here (fragments the room page does not always hold).
    assert [e for e in errors if "#chat-empty" not in e and "#watch-note" not in e] == [], errors
