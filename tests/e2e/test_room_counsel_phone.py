"""Counsel on a phone, in real Chromium: when the claim window opens a notice pinned to the top says
"Claim counsel now" and the buttons are brought into view; a question typed when counsel's move runs
out (AI counsel makes it) is back in the box for the next question, and gone once the court takes it."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CASE_TITLE = "The State v. Curtis Hale"
WAIT_MS = 60_000
TYPED = "did u see his face"


def test_a_student_on_a_phone_is_pointed_to_the_claim_and_keeps_a_question_her_move_ran_out_on(browser, live_daphne):
    from playwright.sync_api import expect

    url = live_daphne.url
    teacher = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    maya = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    teacher.goto(f"{url}/rooms/new/")
    teacher.fill("#picker-q", "Curtis Hale")
    expect(teacher.locator("#picker-results li.picker-case")).to_have_count(1, timeout=30_000)
    teacher.locator("#picker-results label", has_text=CASE_TITLE).click()
    teacher.uncheck("#id_host_plays")
    teacher.check("#id_trial")
    teacher.fill("#id_settings_turn_seconds", "15")  # a short move: it runs out while she types
    teacher.click("button:has-text('Create the room')")
    code = teacher.locator("strong.room-code").first.inner_text().strip()
    maya.goto(f"{url}/join/{code}/")
    maya.select_option("#id_seat", "2")
    maya.fill("#id_name", "Maya")
    maya.click("button:has-text('Take the seat')")
    expect(maya.locator("#room-controls")).to_contain_text("Your group holds a trial first", timeout=WAIT_MS)
    teacher.click("button:has-text('Start the deliberation')")

    notice = maya.locator("#claim-now")
    expect(notice).to_be_visible(timeout=WAIT_MS)
    expect(notice).to_contain_text("Claim counsel now")
    expect(notice).to_be_in_viewport()
    claim = maya.locator("#counsel-claim button", has_text="Be counsel for the prosecution")
    expect(claim).to_be_in_viewport(timeout=5_000)  # brought into view, not left 2 screens down
    claim.click()
    expect(maya.locator("#counsel-board")).to_contain_text("Counsel for the prosecution: you", timeout=WAIT_MS)
    expect(notice).to_have_count(0)

    speak_for_me = maya.locator("#room-controls").get_by_role("button", name="Let the AI speak for me")
    speak_for_me.click(timeout=WAIT_MS + 60_000)  # the trial opens when the window ends: her opening
    question = maya.locator("#counsel-question")
    expect(question).to_be_visible(timeout=WAIT_MS + 60_000)
    question.press_sequentially(TYPED, delay=5)
    # Her move runs out: AI counsel asks in her place, and her next question's box has her words back.
    expect(maya.locator("#draft-back")).to_be_visible(timeout=WAIT_MS + 60_000)
    expect(maya.locator("#counsel-question")).to_have_value(TYPED)
    with maya.expect_response(lambda r: r.request.method == "POST" and "/trial/" in r.url) as answer:
        maya.locator("#room-controls").get_by_role("button", name="Ask the witness").click()
    assert 'id="trial-error"' not in answer.value.text()
    stored = maya.evaluate("Object.keys(sessionStorage).filter((k) => k.startsWith('angry-draft:')).length")
    assert stored == 0  # the court took the question: nothing kept to come back
