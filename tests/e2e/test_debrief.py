"""A person plays a short seeded game to its verdict in Chromium, then opens the debrief at desktop and
phone widths and in print; a stranger's browser gets 404 for the same address."""

from __future__ import annotations

import json
import re

import pytest

from tests.e2e.moves import watched_page

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CASE = "The People v. Owen Castellano"
SLUG = "pruitt-basement-killing"
SEED = 3  # set before the side is chosen: the engine starts from the deliberation's seed then
ROUND_TIMEOUT_MS = 90_000
SPEECH = "Someone else had the basement key: the side door was never locked."
NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"


def _wait_round_stored(page) -> None:
    """The first round is stored (the floor opens again) or the jury reached its verdict."""
    page.wait_for_function(
        """() => {
            const banner = document.querySelector('#phase-banner');
            if (banner && banner.classList.contains('phase-verdict')) return true;
            const round = banner && banner.querySelector('.round');
            const fieldset = document.querySelector('#controls .move-fieldset');
            return round && round.textContent.includes('Round 1 ') && fieldset && !fieldset.disabled;
        }""",
        timeout=ROUND_TIMEOUT_MS,
    )


def test_a_person_reaches_a_verdict_and_reads_the_debrief_which_a_stranger_cannot_open(browser, live_daphne, artifacts):
    page, errors = watched_page(browser)
    context = page.context
    try:
        page.goto(live_daphne.url + "/")
        page.get_by_role("button", name=f"Start deliberating: {CASE}").click()
        page.wait_for_url(re.compile(r"/court/[A-Za-z0-9_-]{16}/$"))
        public_id = re.search(r"/court/([A-Za-z0-9_-]{16})/$", page.url).group(1)
        live_daphne.query("UPDATE deliberation_deliberation SET seed = ? WHERE public_id = ?", (SEED, public_id))

        page.locator(".first-vote").get_by_label("Not guilty").check()  # the first ballot: the person's own vote
        page.get_by_role("button", name=re.compile("DEFEND")).click()
        page.locator("#tally .tally-label").wait_for()
        page.get_by_label("Present Alternative Theory").check()
        page.get_by_label("Add details (optional)").fill(SPEECH)
        page.get_by_role("button", name="Speak", exact=True).click()
        page.locator("#chat .msg-you").first.wait_for(timeout=ROUND_TIMEOUT_MS)
        _wait_round_stored(page)
        if page.locator("#phase-banner.phase-verdict").count() == 0:
            page.get_by_role("button", name="Call Final Vote").click()
            page.get_by_role("button", name="Yes, call the final vote").click()  # it asks first
        page.locator("#phase-banner.phase-verdict").wait_for(timeout=30_000)

        page.get_by_role("link", name="See the verdict").click()
        page.get_by_role("link", name="The debrief: how the jury got there").click()
        page.wait_for_url(re.compile(rf"/deliberations/{public_id}/debrief/$"))
        debrief_url = page.url
        for heading in ("Key moments", "Changes of vote and what caused them", "Who moved whom"):
            assert page.get_by_role("heading", name=heading).is_visible()
        assert page.locator("svg.influence circle").count() == 12
        assert page.locator("ol.moments > li").count() >= 1
        assert page.get_by_role("button", name="Print the debrief").is_visible()  # its script ran
        person = page.locator("article.seat-debrief.participant").first
        assert SPEECH in person.inner_text()  # the person's own contribution, first in the list
        assert page.locator("article.seat-debrief").first.get_attribute("class") == person.get_attribute("class")
        assert page.evaluate(NO_SIDEWAYS_SCROLL)
        page.screenshot(path=str(artifacts / "debrief-1280.png"), full_page=True)

        page.set_viewport_size({"width": 390, "height": 844})
        assert page.evaluate(NO_SIDEWAYS_SCROLL)
        page.screenshot(path=str(artifacts / "debrief-390.png"), full_page=True)

        page.set_viewport_size({"width": 1280, "height": 900})
        page.emulate_media(media="print")
        assert not page.locator(".site-header").is_visible()
        assert not page.locator(".debrief-actions").is_visible()
        assert page.locator(".rv-reactions li").first.is_visible()  # every reaction is on paper
        page.screenshot(path=str(artifacts / "debrief-print.png"), full_page=True)
        page.emulate_media(media="screen")

        csv = page.request.get(debrief_url.replace("/debrief/", "/debrief.csv"))
        assert csv.status == 200 and csv.headers["content-type"].startswith("text/csv")
        assert SPEECH in csv.text() and csv.text().startswith("deliberation,seat,name,role,round")

        stranger = browser.new_context()
        try:
            answer = stranger.new_page().goto(debrief_url)
            assert answer is not None and answer.status == 404
        finally:
            stranger.close()
        assert not errors, errors
    finally:
        context.close()


def test_a_longer_seeded_run_has_a_debrief_that_fits_a_phone_and_a_desktop(browser, live_daphne, artifacts):
    """An AI-only run from the command line (public, like every run without people), many speakers."""
    record = json.loads(
        live_daphne.manage(
            "deliberate", "--case", SLUG, "--seed", str(SEED), "--max-rounds", "6", "--side", "none", "--json"
        )
        .strip()
        .splitlines()[-1]
    )
    public_id = record["public_id"]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        answer = page.goto(f"{live_daphne.url}/deliberations/{public_id}/debrief/")
        assert answer is not None and answer.status == 200
        assert page.locator("svg.influence path.arrow").count() >= 1
        assert page.locator("article.seat-debrief").count() >= 2
        assert page.evaluate(NO_SIDEWAYS_SCROLL)
        page.screenshot(path=str(artifacts / "run-1280.png"), full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        assert page.evaluate(NO_SIDEWAYS_SCROLL)
        page.screenshot(path=str(artifacts / "run-390.png"), full_page=True)
    finally:
        context.close()
