"""A room's trial that nobody claims counsel for, in Chromium: AI counsel hold both sides step by
step at the pace a class reads it, the teacher sees where the trial stands, pauses it (nothing more
is said) and moves it on a step at once; the student sees the same trial."""

from __future__ import annotations

import time

import pytest

from tests.e2e.moves import create_room, take_seat

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CASE_TITLE = "The State v. Curtis Hale"
WAIT_MS = 60_000


def test_a_trial_ai_counsel_hold_unfolds_step_by_step_and_the_teacher_pauses_and_moves_it_on(
    browser, live_daphne, artifacts
):
    from playwright.sync_api import expect

    url = live_daphne.url
    teacher = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    student = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    code = create_room(teacher, url, case_query="Curtis Hale", case_title=CASE_TITLE, trial=True)
    take_seat(student, url, code, "2", "Mia")
    expect(teacher.locator("#room-controls .room-people")).to_contain_text("Mia", timeout=WAIT_MS)
    teacher.click("button:has-text('Start the deliberation')")

    step = teacher.locator("#host-skip-trial")
    expect(step).to_contain_text("Open the trial now", timeout=WAIT_MS)
    step.click()  # nobody claims counsel: the teacher opens the trial for AI counsel
    expect(step).to_have_text("Next step of the trial now", timeout=WAIT_MS)
    expect(teacher.locator("#host-controls")).to_contain_text("AI counsel have the floor.")
    said = teacher.locator("#chat .msg:not(#chat-empty)")
    expect(said.first).to_be_visible(timeout=WAIT_MS)
    expect(teacher.locator("#room-turn")).to_contain_text("The trial", timeout=WAIT_MS)
    teacher.screenshot(path=str(artifacts / "ai-trial-teacher-1280.png"))

    teacher.locator("#host-pause").click()
    expect(teacher.locator("#host-resume")).to_be_visible(timeout=WAIT_MS)
    time.sleep(2)  # a step on its way when the pause came is shown; after it nothing more is said
    paused_at = said.count()
    time.sleep(20)  # longer than a step takes (at most 12 s of reading a message, plus the pause)
    assert said.count() == paused_at
    assert teacher.locator("#room-controls").get_by_text("Paused.").count() == 1

    teacher.locator("#host-resume").click()
    expect(step).to_be_visible(timeout=WAIT_MS)
    before = said.count()
    step.click()  # the next step at once
    expect(teacher.locator("#room-controls")).to_contain_text("next step of the trial now", timeout=WAIT_MS)
    expect(said).not_to_have_count(before, timeout=WAIT_MS)
    heard = student.locator("#chat .msg:not(#chat-empty)")
    expect(heard.nth(before)).to_be_visible(timeout=WAIT_MS)  # the student sees it too
    student.screenshot(path=str(artifacts / "ai-trial-student-390.png"))
    ((phase,),) = live_daphne.query("SELECT phase FROM deliberation_deliberation WHERE room_code = ?", (code,))
    assert phase == "trial"  # AI counsel have not played the whole trial at once
