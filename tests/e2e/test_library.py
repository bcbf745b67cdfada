"""The library's pages in real Chromium: "Next" and "Previous" carry a cursor, swap the list in
place, and the address bar keeps a link back to the page shown. Screenshots at 1280 and 390 px."""

from __future__ import annotations

import re

WAIT_MS = 60_000
CREATE_CASES = (
    "from cases.models import Case, Defendant\n"
    "for n in range(30):\n"
    "    case, made = Case.objects.get_or_create(slug=f'e2e-pagewalker-{n:02d}', defaults=dict(\n"
    "        title=f'The Crown v. Pagewalker {n:02d}', summary='A pagewalker took a silver spoon.',\n"
    "        charges=['Theft'], source='other', year=1850 + n))\n"
    "    made and Defendant.objects.create(case=case, name=f'Pagewalker {n:02d}')\n"
)


def test_a_reader_pages_forward_and_back_through_a_search(browser, live_daphne, artifacts):
    from playwright.sync_api import expect

    live_daphne.manage("shell", "-c", CREATE_CASES)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.context.set_default_timeout(WAIT_MS)
    try:
        page.goto(f"{live_daphne.url}/?q=pagewalker")
        results = page.locator("#case-results")
        expect(results.locator(".pagination")).to_contain_text("Page 1 of 3")
        expect(results.locator("li.case-card h3").first).to_have_text("The Crown v. Pagewalker 00")
        page.click("a[rel=next]")
        expect(results.locator(".pagination")).to_contain_text("Page 2 of 3")
        expect(results.locator("li.case-card h3").first).to_have_text("The Crown v. Pagewalker 12")
        assert re.search(r"[?&]cursor=[\w-]+", page.url) and "q=pagewalker" in page.url
        page.screenshot(path=str(artifacts / "library-page-2-1280.png"), full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        page.reload()  # the address bar's link opens the same page
        expect(results.locator("li.case-card h3").first).to_have_text("The Crown v. Pagewalker 12")
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        page.locator(".pagination").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "library-page-2-390.png"), full_page=True)
        assert overflow <= 0
        page.click("a[rel=prev]")
        expect(results.locator(".pagination")).to_contain_text("Page 1 of 3")
        expect(results.locator("li.case-card h3").first).to_have_text("The Crown v. Pagewalker 00")
        assert "cursor=" not in page.url
    finally:
        page.close()
