"""Words being typed outlive a turn that runs out, in real Chromium: a student types, her turn runs
out under her fingers (her seat's AI juror plays it, and she is told so, in view), she presses
"I'm back", and her words are back in the box on her next turn; once she speaks them they are gone."""

from __future__ import annotations

from tests.e2e.moves import take_seat

CASE_TITLE = "The State v. Gregory Lindahl"  # an ambiguous case: the jury is still out at her next turn
WAIT_MS = 60_000
TYPED = "Anna here: the lamp over the door was out that night, so the witness"


def test_a_turn_that_runs_out_while_a_student_types_keeps_her_words_for_her_next_turn(browser, live_daphne):
    from playwright.sync_api import expect

    url = live_daphne.url
    teacher = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    anna = browser.new_context(viewport={"width": 390, "height": 844}).new_page()  # on her phone

    teacher.goto(f"{url}/rooms/new/")
    teacher.fill("#picker-q", CASE_TITLE.split(" v. ")[1])
    expect(teacher.locator("#picker-results li.picker-case")).to_have_count(1, timeout=30_000)
    teacher.locator("#picker-results label", has_text=CASE_TITLE).click()
    teacher.uncheck("#id_host_plays")
    teacher.fill("#id_settings_turn_seconds", "15")  # the shortest turn: it runs out while she types
    teacher.click("button:has-text('Create the room')")
    code = teacher.locator("strong.room-code").first.inner_text().strip()
    take_seat(anna, url, code, "2", "Anna")
    expect(teacher.locator("#room-controls .room-people")).to_contain_text("Anna", timeout=WAIT_MS)
    teacher.click("button:has-text('Start the deliberation')")
    expect(anna.locator("#your-turn")).to_be_visible(timeout=WAIT_MS)
    anna.locator("#id_content").press_sequentially(TYPED, delay=5)  # typing, not pasting: each key counts

    away = anna.locator("#room-controls .room-away")
    expect(away).to_be_visible(timeout=WAIT_MS + 90_000)  # the turn ran out while the words sat in the box
    expect(away).to_contain_text("Your turn ran out")
    expect(away).not_to_contain_text("stood empty")
    expect(away).to_be_in_viewport(timeout=5_000)  # brought into view, not left below the case file

    anna.click('button:has-text("I\'m back")')
    expect(away).to_be_hidden(timeout=WAIT_MS)  # her seat is hers again
    expect(anna.locator("#your-turn")).to_be_visible(timeout=WAIT_MS + 90_000)  # her next turn
    expect(anna.locator("#id_content")).to_have_value(TYPED)
    expect(anna.locator("#draft-back")).to_be_visible()

    # She finishes the sentence and speaks: the room has her words, and they are not offered again.
    anna.locator("#id_content").press_sequentially(" cant of seen his face", delay=5)
    anna.click("#room-controls button:has-text('Speak')")
    expect(anna.locator("#your-turn")).to_have_count(0, timeout=WAIT_MS)
    stored = anna.evaluate("Object.keys(sessionStorage).filter((k) => k.startsWith('angry-draft:')).length")
    assert stored == 0  # nothing kept to come back in the box
    anna.reload()
    expect(anna.locator("#room-controls")).to_be_visible(timeout=WAIT_MS)
    assert anna.locator("#draft-back").count() == 0
