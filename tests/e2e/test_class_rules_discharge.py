"""A class under chosen jury rules, and a juror discharged from a running room, in real Chromium: the
teacher makes a class under the England and Wales rules with round-robin turns, the class page names
the rules, the teacher starts the rooms, opens the first and has the judge discharge an AI juror;
the jury box marks the seat, the judge's direction is in the chat, the juror is gone from the
choice, and the teacher's view offers the same control.

Screenshots of the class form, the class page and the host's controls (1280 and 390 px) go to
``test-artifacts/``."""

from __future__ import annotations

import re

import pytest

from tests.e2e.moves import watched_page

CASE_TITLE = "The State v. Curtis Hale"
WAIT_MS = 60_000
ATTEMPTS = 30  # a discharge asked for while a round runs is refused; the host asks again


def _no_sideways_scroll(page) -> None:  # type: ignore[no-untyped-def]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url} scrolls sideways ({width} px)"


def _discharge(page, seat: str) -> str:  # type: ignore[no-untyped-def]
    """Between two AI rounds (the banner says the jurors speak next), choose the juror and press
    Discharge; a round that began meanwhile refuses it, and the host asks again. The host's answer."""
    from playwright.sync_api import expect

    answer = ""
    for _attempt in range(ATTEMPTS):
        expect(page.locator("#room-turn")).to_contain_text("The AI jurors speak next.", timeout=WAIT_MS)
        page.select_option("#discharge-seat", seat)
        with page.expect_response(lambda r: r.url.endswith("/discharge/")) as answered:
            page.click("#host-discharge")
        answer = answered.value.text()
        if "discharged" in answer:
            return answer
        assert "round is under way" in answer, answer
    return answer


@pytest.mark.timeout(600)
def test_a_class_under_majority_rules_and_a_juror_discharged_from_its_running_room(browser, live_daphne, artifacts):
    from playwright.sync_api import expect

    url = live_daphne.url
    teacher, errors = watched_page(browser, console=True)
    context = teacher.context

    teacher.goto(f"{url}/classes/new/")
    teacher.fill("#picker-q", CASE_TITLE.split(" v. ")[1])
    expect(teacher.locator("#picker-results li.picker-case")).to_have_count(1, timeout=WAIT_MS)
    teacher.locator("#picker-results label", has_text=CASE_TITLE).click()
    teacher.fill("#id_groups", "2")
    teacher.fill("#id_seats", "1")
    teacher.select_option("#id_rules", "england-wales")
    teacher.click("summary:has-text('More settings')")
    teacher.select_option("#id_settings_turn_mode", "round-robin")
    teacher.fill("#id_pace_seconds", "90")  # long pauses between AI rounds: the jury stays out
    teacher.fill("#id_seed", "5")
    teacher.screenshot(path=str(artifacts / "class-new-rules.png"), full_page=True)
    teacher.click("button:has-text('Make the class')")
    expect(teacher.locator(".message")).to_contain_text("Your class is ready: 2 rooms")
    expect(teacher.locator("#class-rules")).to_contain_text("Jury rules: England and Wales (majority direction)")
    teacher.click("button:has-text('Also start the empty groups, as AI-only juries')")
    teacher.screenshot(path=str(artifacts / "class-page-rules.png"), full_page=True)

    teacher.locator(".class-room").first.locator("a:has-text('Open the room')").click()
    expect(teacher.locator("#host-discharge")).to_be_visible(timeout=WAIT_MS)
    expect(teacher.locator("#host-controls")).to_contain_text("Under England and Wales (majority direction)")
    name = teacher.locator("#discharge-seat option[value='5']").inner_text().split(". ", 1)[1]
    answer = _discharge(teacher, "5")
    assert f"The judge discharged {name} (seat 5); the jury goes on with 11." in answer, answer
    expect(teacher.locator("#discharge-seat option[value='5']")).to_have_count(0)
    expect(teacher.locator("#seat-5")).to_have_class(re.compile(r"\bseat-discharged\b"), timeout=WAIT_MS)
    expect(teacher.locator("#seat-5 .seat-vote")).to_have_text("Discharged")
    expect(teacher.locator("#chat")).to_contain_text(f"{name} has been taken ill", timeout=WAIT_MS)
    teacher.locator("#host-controls").scroll_into_view_if_needed()
    teacher.screenshot(path=str(artifacts / "room-host-discharge-1280.png"))

    code = teacher.locator("strong.room-code").first.inner_text().strip()
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    teacher_phone = phone.new_page()
    for cookie in context.cookies():  # the same teacher on a phone: the host's browser key
        phone.add_cookies([cookie])
    teacher_phone.goto(f"{url}/rooms/{code}/teacher/")
    expect(teacher_phone.locator("#host-discharge")).to_be_visible(timeout=WAIT_MS)
    expect(teacher_phone.locator("#discharge-seat option[value='5']")).to_have_count(0)
    _no_sideways_scroll(teacher_phone)
    teacher_phone.locator("#host-controls").scroll_into_view_if_needed()
    teacher_phone.screenshot(path=str(artifacts / "teacher-view-discharge-390.png"))

    transcript = teacher.context.new_page()
    public_id = teacher.locator("a:has-text('Transcript')").first.get_attribute("href")
    transcript.goto(f"{url}{public_id}")
    expect(transcript.locator("body")).to_contain_text(f"{name} has been taken ill")
    expect(transcript.locator("body")).to_contain_text("England and Wales (majority direction)")
    assert not [e for e in errors if "htmx" in e or "Uncaught" in e], errors
    for browsing in (context, phone):
        browsing.close()


def test_a_player_chooses_a_secret_ballot_and_has_the_judge_discharge_a_juror_in_the_courtroom(
    browser, live_daphne, artifacts
):
    from playwright.sync_api import expect

    page, errors = watched_page(browser)
    context = page.context
    try:
        page.goto(live_daphne.url + "/")
        page.click(".settings-panel summary")  # the game settings: a secret ballot, summed up every round
        page.select_option("#id_settings_poll", "secret")
        page.fill("#id_settings_summary_every", "1")
        page.locator("#game-settings").screenshot(path=str(artifacts / "game-settings-foreperson.png"))
        page.get_by_role("button", name=f"Start deliberating: {CASE_TITLE}").click()
        page.wait_for_url(re.compile(r"/court/[A-Za-z0-9_-]{16}/$"))
        page.wait_for_function("() => window.htmx !== undefined")  # htmx in place before the side is chosen
        page.locator("input[name=vote][value=not_guilty]").check()
        page.click("button.side-button-defend")
        expect(page.locator("#controls-heading")).to_contain_text("Your turn", timeout=WAIT_MS)
        page.click("#bench-controls summary")
        expect(page.locator("#discharge-seat")).to_be_enabled(timeout=WAIT_MS)
        name = page.locator("#discharge-seat option[value='4']").inner_text().split(". ", 1)[1]
        page.select_option("#discharge-seat", "4")
        page.screenshot(path=str(artifacts / "court-discharge-choice.png"))
        page.click("#court-discharge")
        expect(page.locator("#seat-4")).to_have_class(re.compile(r"\bseat-discharged\b"), timeout=WAIT_MS)
        expect(page.locator("#chat")).to_contain_text(f"{name} has been taken ill", timeout=WAIT_MS)
        expect(page.locator("#discharge-seat option[value='4']")).to_have_count(0)
        page.locator("#seat-4").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "court-discharged-1280.png"))
        page.click("button:has-text('Pass Turn')")  # a round runs; the foreperson sums up after it
        expect(page.locator("#chat")).to_contain_text("Let me sum up where we are after round 1.", timeout=WAIT_MS)
        expect(page.locator("#chat")).to_contain_text("On a secret ballot:", timeout=WAIT_MS)
        assert "On a show of hands" not in page.locator("#chat").inner_text()
        assert errors == []
    finally:
        context.close()
