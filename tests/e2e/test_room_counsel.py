"""A student is defence counsel at a room's trial in Chromium: the room offers the trial, the student
claims the defence from their controls, objects, cross-examines, and the room deliberates after.
Screenshots go to test-artifacts/."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CASE_TITLE = "The State v. Curtis Hale"
WAIT_MS = 30_000
PASSING = ("No further questions", "Let the AI speak for me", "No objections until my turn")


def _no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_a_student_is_defence_counsel_at_the_rooms_trial(browser, live_daphne, artifacts):
    from playwright.sync_api import expect

    folder = artifacts
    url = live_daphne.url
    teacher_context = browser.new_context(viewport={"width": 1280, "height": 900})
    student_context = browser.new_context(viewport={"width": 390, "height": 844})
    teacher, student = teacher_context.new_page(), student_context.new_page()
    errors: list[str] = []
    student.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
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
        student.fill("#id_name", "Cleo")
        student.click("button:has-text('Take the seat')")
        expect(student.locator("#room-controls")).to_contain_text("Seat 3: Cleo")
        teacher.click("button:has-text('Start the deliberation')")
        claim = student.locator("#room-controls button", has_text="Be counsel for the defence")
        try:
            claim.wait_for(timeout=10_000)
        except PlaywrightError:  # the start's push can lose the race with the page's own load: a reload resumes
            student.reload()
            claim.wait_for(timeout=WAIT_MS)
        student.screenshot(path=str(folder / "05-room-claim-390.png"))
        speak_for_me = student.locator("#room-controls").get_by_role("button", name="Let the AI speak for me")
        board = student.locator("#counsel-board")
        for _ in range(5):  # the start's pushes refresh the controls a few times: click once they settle
            if claim.count():
                try:
                    claim.click(timeout=3_000)
                except PlaywrightError:
                    pass
            try:  # claimed: the window shows who has which side until the trial opens
                board.filter(has_text="Counsel for the defence: you").wait_for(timeout=5_000)
                break
            except PlaywrightError:
                continue
        student.screenshot(path=str(folder / "05b-room-counsel-window-390.png"))
        speak_for_me.wait_for(timeout=WAIT_MS + 60_000)  # the trial opens when the window ends
        speak_for_me.click()
        student.locator("#room-controls").get_by_role("button", name="Objection!").wait_for(timeout=WAIT_MS)
        student.get_by_label("Ground").select_option("speculation")
        student.get_by_role("button", name="Objection!").click()
        student.locator("#on-stand .stand-objection", has_text="speculation").wait_for(timeout=WAIT_MS)
        student.wait_for_timeout(300)
        student.evaluate("document.getElementById('on-stand').scrollIntoView()")
        student.screenshot(path=str(folder / "06-room-objection-390.png"))
        assert _no_sideways_scroll(student)
        teacher.locator("#on-stand .stand-objection", has_text="speculation").wait_for(timeout=WAIT_MS)
        teacher.evaluate("document.getElementById('on-stand').scrollIntoView()")
        teacher.screenshot(path=str(folder / "07-room-teacher-watches-1280.png"))
        for _ in range(200):  # let AI counsel carry the rest of the trial
            if student.locator("#phase-banner.phase-deliberation").count():
                break
            for name in PASSING:
                button = student.locator("#room-controls").get_by_role("button", name=name)
                if button.count():
                    try:
                        button.first.click(timeout=3_000)
                    except PlaywrightError:  # swapped for the next step's controls under the pointer
                        pass
                    student.wait_for_timeout(150)
                    break
            else:
                student.wait_for_timeout(250)
        student.locator("#phase-banner.phase-deliberation").wait_for(timeout=WAIT_MS)
        assert re.search(r"\d+.\d+", student.locator("#tally").inner_text())
        assert not errors, errors
    finally:
        teacher_context.close()
        student_context.close()
