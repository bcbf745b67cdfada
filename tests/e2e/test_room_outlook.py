"""How close the jury is to a verdict, kept true on every student's page in real Chromium.

Each participant's controls carry the line "Close to a verdict: 11 of 12 vote guilty ...". Another
student's vote changes it without changing those controls (their key stays: nothing of theirs
changed), so the turn banner that vote pushes carries the line and each page puts it in place
(static/js/room.js, ``followOutlook``), leaving the form and the words being typed alone. Screenshots
go to test-artifacts/."""

from __future__ import annotations

import re

from tests.e2e.moves import take_seat, watched_page

CASE_QUERY, CASE_TITLE = "Curtis Hale", "The State v. Curtis Hale"
WAIT_MS = 60_000
TYPING = "Anna is still typing this"
EVERY_JUROR_GUILTY = (
    "UPDATE deliberation_seat SET vote = 'guilty' WHERE kind = 'ai' AND deliberation_id = "
    "(SELECT id FROM deliberation_deliberation WHERE room_code = ?)"
)


def test_another_students_vote_brings_every_page_close_to_a_verdict_up_to_date_in_place(
    browser, live_daphne, artifacts
):
    from playwright.sync_api import expect

    url = live_daphne.url
    teacher, _ = watched_page(browser)
    teacher.goto(f"{url}/rooms/new/")
    teacher.fill("#picker-q", CASE_QUERY)
    expect(teacher.locator("#picker-results li.picker-case")).to_have_count(1, timeout=WAIT_MS)
    teacher.locator("#picker-results label", has_text=CASE_TITLE).click()
    teacher.uncheck("#id_host_plays")
    teacher.click("summary:has-text('More settings')")
    teacher.fill("#id_settings_turn_seconds", "300")  # Anna's turn outlasts the test: no round runs meanwhile
    teacher.fill("#id_seed", "5")
    teacher.click("button:has-text('Create the room')")
    code = teacher.locator("strong.room-code").first.inner_text().strip()

    anna, errors = watched_page(browser)
    ben, _ = watched_page(browser, width=390, height=844)
    take_seat(anna, url, code, "2", "Anna")
    take_seat(ben, url, code, "3", "Ben")
    teacher.click("button:has-text('Start the deliberation')")
    expect(anna.locator("#your-turn")).to_be_visible(timeout=WAIT_MS)  # the AI jurors' round is over

    # Every AI juror now stands on guilty; Anna votes guilty too, Ben has not voted: one short.
    live_daphne.query(EVERY_JUROR_GUILTY, (code,))
    for page in (anna, ben):  # written behind the pages' backs: each reads the room again
        page.reload()
    expect(anna.locator("#your-turn")).to_be_visible(timeout=WAIT_MS)
    expect(ben.locator("#seat-5.vote-guilty")).to_be_visible(timeout=WAIT_MS)
    anna.locator("#room-controls button", has_text=re.compile(r"^Vote guilty$")).click()
    expect(anna.locator("#your-vote")).to_have_text("guilty", timeout=WAIT_MS)
    expect(anna.locator("#outlook")).to_contain_text("11 of 12 vote guilty", timeout=WAIT_MS)
    anna.fill("#id_content", TYPING)
    fetched: list[str] = []
    anna.on("request", lambda r: fetched.append(r.url) if r.url.endswith("/controls/") else None)

    ben.locator("#room-controls button", has_text=re.compile(r"^Vote guilty$")).click()
    expect(ben.locator("#your-vote")).to_have_text("guilty", timeout=WAIT_MS)
    expect(anna.locator("#seat-3.vote-guilty")).to_be_visible(timeout=WAIT_MS)  # Ben's vote reached her page
    expect(anna.locator("#outlook")).to_contain_text("The jury is unanimous: guilty", timeout=WAIT_MS)
    expect(anna.locator("#outlook")).not_to_contain_text("11 of 12")
    assert anna.input_value("#id_content") == TYPING  # the line changed in place; her words stand
    assert fetched == [], fetched  # her controls were not fetched again for it
    anna.locator("#outlook").scroll_into_view_if_needed()
    anna.screenshot(path=str(artifacts / "room-outlook-anna-1280.png"))
    expect(ben.locator("#outlook")).to_contain_text("The jury is unanimous: guilty", timeout=WAIT_MS)
    ben.screenshot(path=str(artifacts / "room-outlook-ben-390.png"), full_page=True)
    assert not errors, errors
