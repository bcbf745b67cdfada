"""A person is counsel at the trial in Chromium: they question a witness in their own words, object,
hear the judge rule, and take the jury to its deliberation. Once as prosecution, once as defence.
Screenshots go to test-artifacts/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CASE = "The State v. Curtis Hale"
PASSING = (
    "No further questions",
    "Let the AI speak for me",
    "No objections until my turn",
    "Let every answer stand until my next move",
)


def _no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def _start(page, url: str, *, side: str, vote: str) -> None:
    page.goto(url + "/")
    card = page.locator("li", has=page.get_by_role("button", name=f"Start deliberating: {CASE}"))
    card.get_by_label("Hold the trial first").check()
    card.get_by_role("button", name=f"Start deliberating: {CASE}").click()
    page.wait_for_url(re.compile(r"/court/[A-Za-z0-9_-]{16}/$"))
    page.locator(".first-vote").get_by_label(vote, exact=True).check()
    page.get_by_label("I am counsel for my side").check()
    page.get_by_role("button", name=re.compile(side)).click()
    page.locator("#on-stand:not([hidden])").wait_for()


def _instant_text(page) -> None:
    page.get_by_label("Instant").check()


def _wait_for_controls(page, name: str) -> None:
    page.locator("#controls").get_by_role("button", name=name).wait_for(timeout=20_000)


def _to_the_deliberation(page) -> None:
    """Let AI counsel carry the rest of the trial: pass on every move until the jury goes out."""
    for _ in range(200):
        if page.locator("#phase-banner.phase-deliberation").count():
            return
        for name in PASSING:
            button = page.locator("#controls").get_by_role("button", name=name)
            if button.count():
                try:
                    button.first.click(timeout=3_000)
                except PlaywrightError:  # the controls were swapped for the next step's under the pointer
                    pass
                page.wait_for_timeout(150)
                break
        else:
            page.wait_for_timeout(250)
    page.locator("#phase-banner.phase-deliberation").wait_for(timeout=20_000)


def _shots(page, folder: Path, name: str) -> None:
    page.wait_for_timeout(300)  # the step's pushed copy has settled
    page.evaluate("document.getElementById('on-stand').scrollIntoView()")
    page.screenshot(path=str(folder / f"{name}-1280.png"))
    assert _no_sideways_scroll(page)
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(300)  # the step's pushed copy has settled
    page.evaluate("document.getElementById('on-stand').scrollIntoView()")
    page.screenshot(path=str(folder / f"{name}-390.png"))
    assert _no_sideways_scroll(page)
    page.set_viewport_size({"width": 1280, "height": 900})


def test_prosecution_counsel_opens_questions_their_witness_and_objects_in_cross(browser, live_daphne, artifacts):
    folder = artifacts
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        _start(page, live_daphne.url, side="PROSECUTE", vote="Guilty")
        _instant_text(page)
        page.get_by_label("Your opening speech to the jury").fill(
            "Members of the jury, the evidence will show who did this."
        )
        page.get_by_role("button", name="Address the jury").click()
        _wait_for_controls(page, "Ask the witness")
        page.get_by_label("Your question").fill("What did you see that night?")
        page.get_by_role("button", name="Ask the witness").click()
        stand = page.locator("#on-stand")
        stand.locator(".stand-question", has_text="What did you see that night?").wait_for()
        stand.locator(".stand-answer").first.wait_for()
        page.get_by_label("Your question").fill("Isn't it true that you saw Curtis Hale do it?")
        page.get_by_role("button", name="Ask the witness").click()
        stand.locator(".stand-ruling", has_text="Sustained").wait_for()
        assert stand.locator(".stand-objection", has_text="Counsel for the defence").count() == 1
        _shots(page, folder, "01-prosecution-examines")
        page.get_by_role("button", name="No further questions").click()
        _wait_for_controls(page, "Objection!")
        page.get_by_label("Ground").select_option("argumentative")
        page.get_by_role("button", name="Objection!").click()
        page.locator("#chat .msg-trial", has_text="Objection: argumentative").wait_for()
        objection = stand.locator(".stand-objection", has_text="argumentative")
        objection.wait_for()
        ruling = stand.locator(".stand-objection:has-text('argumentative') + .stand-ruling .stand-text .kinetic")
        assert re.match(r"(Sustained|Overruled)", ruling.inner_text())
        _shots(page, folder, "02-prosecution-objects")
        _to_the_deliberation(page)
        assert page.locator("#on-stand").is_hidden()
        assert page.locator("#chat .msg-trial .tag-trial", has_text="directions").count() == 1
        page.locator("#tally .tally-label").wait_for()
        assert not errors, errors
    finally:
        context.close()


def test_defence_counsel_objects_to_the_prosecution_and_cross_examines(browser, live_daphne, artifacts):
    folder = artifacts
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        _start(page, live_daphne.url, side="DEFEND", vote="Not guilty")
        _instant_text(page)
        _shots(page, folder, "03-defence-opening")
        page.get_by_role("button", name="Let the AI speak for me").click()
        _wait_for_controls(page, "Objection!")
        page.get_by_label("Ground").select_option("hearsay")
        page.get_by_role("button", name="Objection!").click()
        stand = page.locator("#on-stand")
        stand.locator(".stand-objection", has_text="hearsay").wait_for()
        stand.locator(".stand-ruling").last.wait_for()
        page.reload()  # the trial resumes where it stood
        page.locator("#on-stand .stand-ruling").last.wait_for()
        controls = page.locator("#controls")
        ask, let_stand = (
            controls.get_by_role("button", name=name) for name in ("Ask the witness", re.compile("No objection$"))
        )
        for _ in range(60):  # the prosecution finishes with its witness; then the defence cross-examines
            ask.or_(let_stand).first.wait_for()  # whichever move the pushed controls offer next
            if ask.count():
                break
            let_stand.click()
            page.wait_for_timeout(150)
        page.get_by_label("Your question").fill("Was it dark when you saw him?")
        page.get_by_role("button", name="Ask the witness").click()
        stand.locator(".stand-question", has_text="Was it dark when you saw him?").wait_for()
        stand.locator(".stand-answer").last.wait_for()
        _shots(page, folder, "04-defence-cross-examines")
        _to_the_deliberation(page)
        page.locator("#tally .tally-label").wait_for()
        assert not errors, errors
    finally:
        context.close()


def test_counsel_s_buttons_wait_until_the_stand_has_shown_the_answer_and_esc_shows_it_at_once(
    browser, live_daphne, artifacts
):
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        _start(page, live_daphne.url, side="DEFEND", vote="Not guilty")
        page.get_by_label("Read-along").check()  # slow enough that the stand is still typing
        page.get_by_role("button", name="Let the AI speak for me").click()
        objection = page.locator("#controls").get_by_role("button", name="Objection!")
        objection.wait_for(timeout=20_000)
        expect(objection).to_be_disabled()
        expect(page.locator("#controls .counsel-wait")).to_be_visible()
        page.evaluate("document.getElementById('on-stand').scrollIntoView()")
        page.screenshot(path=str(artifacts / "05-defence-waits-for-the-stand-390.png"))
        page.keyboard.press("Escape")
        expect(objection).to_be_enabled()
        expect(page.locator("#controls .counsel-wait")).to_be_hidden()
        answer = page.locator("#on-stand .stand-answer .kinetic").last
        assert answer.inner_text() == page.locator("#on-stand .stand-answer .visually-hidden").last.inner_text()
        assert not errors, errors
    finally:
        context.close()
