"""The original record of an imported Old Bailey trial in Chromium: nowhere while the jury
deliberates (the courtroom, the transcript), then on the verdict page and the transcript once the
jury has decided, with its link to Old Bailey Online and the full printed text, verdict included.
Screenshots go to test-artifacts/."""

from __future__ import annotations

import re

import pytest

from tests.cases.oldbailey_sample import TRIALS
from tests.e2e.moves import choose_side

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

TRIAL = "t18600402-389"
CASE = "The Crown v. Patrick Halpin"
LINK = f"https://www.oldbaileyonline.org/record/{TRIAL}"
# The record's last lines: the real verdict as printed and the judge, in the record, never in the case file.
RECORD_ONLY = "Before Mr. Common Serjeant."
VERDICT = "NOT GUILTY."
WAIT_MS = 60_000


def _record_absent(page) -> None:
    assert page.locator(".original-record").count() == 0
    assert page.locator(f'a[href="{LINK}"]').count() == 0
    assert RECORD_ONLY not in page.content()


def test_the_original_record_appears_only_after_the_jurys_verdict(browser, live_daphne, artifacts):
    from playwright.sync_api import expect

    live_daphne.manage("import_oldbailey", "--workers", "1", *[str(t) for t in TRIALS if t.stem == TRIAL])
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.context.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{live_daphne.url}/?q=Halpin")
        page.get_by_role("button", name=f"Start deliberating: {CASE}").click()
        page.wait_for_url(re.compile(r"/court/[A-Za-z0-9_-]{16}/$"))
        court_url = page.url
        choose_side(page, "Not guilty", re.compile("DEFEND"))
        _record_absent(page)  # the courtroom, while the jury deliberates

        transcript = context.new_page()
        transcript.goto(court_url.replace("/court/", "/deliberations/"))
        transcript.get_by_text("No verdict yet").wait_for()
        _record_absent(transcript)
        transcript.screenshot(path=str(artifacts / "01-transcript-before-the-verdict.png"), full_page=True)

        if page.locator("#phase-banner.phase-verdict").count() == 0:  # the jury may settle on its own first
            page.get_by_role("button", name="Call Final Vote").click()
            page.locator("#call-confirm").get_by_role("button", name="Yes, call the final vote").click()
        page.locator("#phase-banner.phase-verdict").wait_for()
        page.get_by_role("link", name="See the verdict").click()
        page.get_by_role("heading", name=re.compile("The jury (finds the defendant|could not agree)")).wait_for()

        record = page.locator(".original-record")
        expect(record.get_by_role("heading", name="The original record")).to_be_visible()
        expect(record.get_by_role("link", name=f"Read trial {TRIAL} on Old Bailey Online")).to_have_attribute(
            "href", LINK
        )
        text = record.locator(".original-text-body")
        expect(text).to_be_hidden()  # folded until the reader opens it
        record.locator("details.original-text summary").click()
        expect(text).to_be_visible()
        expect(text).to_contain_text("389. PATRICK HALPIN (26), Feloniously killing")
        expect(text).to_contain_text(VERDICT)
        expect(text).to_contain_text(RECORD_ONLY)
        record.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "02-verdict-page-original-record.png"), full_page=True)

        transcript.reload()
        expect(transcript.locator(f'.original-record a[href="{LINK}"]')).to_be_visible()
        transcript.screenshot(path=str(artifacts / "03-transcript-after-the-verdict.png"), full_page=True)
        assert not errors, errors
    finally:
        context.close()
