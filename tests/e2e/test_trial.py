"""A person holds the trial before the deliberation in Chromium: the courtroom shows counsel, witnesses,
objections and rulings; the debrief scores counsel. Screenshots go to test-artifacts/."""

from __future__ import annotations

import re

import pytest

from tests.e2e.moves import watched_page

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CASE = "The State v. Curtis Hale"


def _no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_a_person_defends_after_a_trial_and_reads_how_counsel_did(browser, live_daphne, artifacts):
    folder = artifacts
    page, errors = watched_page(browser)
    context = page.context
    try:
        page.goto(live_daphne.url + "/")
        card = page.locator("li", has=page.get_by_role("button", name=f"Start deliberating: {CASE}"))
        card.get_by_label("Hold the trial first").check()
        page.screenshot(path=str(folder / "01-home-trial-box.png"))
        card.get_by_role("button", name=f"Start deliberating: {CASE}").click()
        page.wait_for_url(re.compile(r"/court/[A-Za-z0-9_-]{16}/$"))
        court_url = page.url

        page.locator(".first-vote").get_by_label("Not guilty").check()
        page.get_by_label("AI counsel argue both sides; I listen").check()
        page.get_by_role("button", name=re.compile("DEFEND")).click()
        page.locator("#tally .tally-label").wait_for()
        trial = page.locator("#chat .msg-trial")
        trial.first.wait_for()
        assert trial.count() > 20
        assert page.locator("#chat .msg-trial", has_text="Counsel for the prosecution calls").count() >= 1
        assert page.locator("#chat .msg-trial .tag-trial", has_text="directions").count() == 1
        page.evaluate("document.querySelector('#chat .msg-trial:nth-child(12)').scrollIntoView()")
        page.screenshot(path=str(folder / "02-court-trial-1280.png"))
        assert _no_sideways_scroll(page)

        phone = browser.new_context(viewport={"width": 390, "height": 844})
        small = phone.new_page()
        small.goto(court_url.replace("/court/", "/deliberations/"))  # not the player's browser: no access
        assert small.get_by_role("heading", name="There is nothing here").is_visible()
        phone.close()
        page.set_viewport_size({"width": 390, "height": 844})
        page.reload()
        page.locator("#chat .msg-trial").first.wait_for()
        page.evaluate("document.querySelector('#chat .msg-trial:nth-child(12)').scrollIntoView()")
        page.screenshot(path=str(folder / "03-court-trial-390.png"))
        assert _no_sideways_scroll(page)
        page.set_viewport_size({"width": 1280, "height": 900})

        page.get_by_role("button", name="Call Final Vote").click()
        page.get_by_role("button", name="Yes, call the final vote").click()
        page.locator("#phase-banner.phase-verdict").wait_for(timeout=30_000)
        page.get_by_role("link", name="See the verdict").click()
        page.get_by_role("link", name="The debrief: how the jury got there").click()
        page.get_by_role("heading", name="Counsel at the trial").wait_for()
        assert page.locator("table.counsel-score caption", has_text="Counsel for the defence").is_visible()
        page.get_by_role("heading", name="Counsel at the trial").scroll_into_view_if_needed()
        page.screenshot(path=str(folder / "04-debrief-counsel-1280.png"))
        page.set_viewport_size({"width": 390, "height": 844})
        page.get_by_role("heading", name="Counsel at the trial").scroll_into_view_if_needed()
        page.screenshot(path=str(folder / "05-debrief-counsel-390.png"))
        assert _no_sideways_scroll(page)
        assert not errors, errors
    finally:
        context.close()
