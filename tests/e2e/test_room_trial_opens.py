"""When a room's trial opens, in Chromium: the student who claimed the prosecution is shown their
opening speech at once, without reloading, and the teacher's page leaves the claim window too."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CASE_TITLE = "The State v. Curtis Hale"
WAIT_MS = 30_000
SHOWN_MS = 10_000  # far less than a counsel's minute: the move the clock would give to AI counsel


def test_the_prosecution_student_is_shown_their_opening_speech_as_soon_as_the_trial_opens(
    browser, live_daphne, artifacts
):
    from playwright.sync_api import expect

    url = live_daphne.url
    teacher = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    student = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    teacher.goto(f"{url}/rooms/new/")
    teacher.fill("#picker-q", "Curtis Hale")
    expect(teacher.locator("#picker-results li.picker-case")).to_have_count(1, timeout=WAIT_MS)
    teacher.locator("#picker-results label", has_text=CASE_TITLE).click()
    teacher.uncheck("#id_host_plays")
    teacher.check("#id_trial")
    teacher.click("button:has-text('Create the room')")
    code = teacher.locator("strong.room-code").inner_text().strip()

    student.goto(f"{url}/join/{code}/")
    student.select_option("#id_seat", "3")
    student.fill("#id_name", "Mia")
    student.click("button:has-text('Take the seat')")
    expect(student.locator("#room-controls")).to_contain_text("Seat 3: Mia")
    teacher.click("button:has-text('Start the deliberation')")
    claim = student.locator("#room-controls button", has_text="Be counsel for the prosecution")
    try:
        claim.wait_for(timeout=10_000)
    except PlaywrightError:  # the start's push can lose the race with the page's own load
        student.reload()
        claim.wait_for(timeout=WAIT_MS)
    board = student.locator("#counsel-board")
    for _ in range(5):  # the start's pushes refresh the controls a few times: click once they settle
        if claim.count():
            try:
                claim.click(timeout=3_000)
            except PlaywrightError:
                pass
        try:
            board.filter(has_text="Counsel for the prosecution: you").wait_for(timeout=5_000)
            break
        except PlaywrightError:
            continue
    speech = student.locator("#room-controls").get_by_label("Your opening speech to the jury")
    assert not speech.count()  # the window still runs

    teacher.locator("#host-skip-trial").click()  # the host opens the trial now (as the window's end does)
    speech.wait_for(timeout=SHOWN_MS)
    expect(student.locator("#room-controls-heading")).to_contain_text("Your turn", timeout=SHOWN_MS)
    expect(teacher.locator("#room-turn")).not_to_contain_text("Students may claim counsel", timeout=SHOWN_MS)
    student.screenshot(path=str(artifacts / "room-trial-opens-390.png"))
