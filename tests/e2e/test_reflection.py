"""A command-line deliberation in reply-chain mode, with a juror discharged, read in Chromium: the
transcript shows the argument map, contradictions and changes of mind at desktop and phone widths."""

from __future__ import annotations

import json

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"


def test_the_transcript_draws_the_argument_map_at_desktop_and_phone_widths(browser, live_daphne, artifacts):
    out = live_daphne.manage(
        "deliberate", "--case", "pruitt-basement-killing", "--seed", "4", "--max-rounds", "10",
        "--turn-mode", "reply-chain", "--discharge", "5@2", "--json",
    )  # fmt: skip
    record = json.loads(out.strip().splitlines()[-1])
    assert record["discharged"] == [5], record["rounds"]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{live_daphne.url}/deliberations/{record['public_id']}/")
        assert page.get_by_role("heading", name="Reflection: who answered whom").is_visible()
        assert page.locator("svg.argmap .seat").count() == 12
        assert page.locator("svg.argmap .seat.discharged").count() == 1
        assert page.locator("svg.argmap path.link").count() >= 1
        assert page.get_by_role("heading", name="Changes of mind").is_visible()
        assert page.get_by_text("I am discharging them from this jury").first.is_visible()
        assert page.evaluate(NO_SIDEWAYS_SCROLL)
        page.screenshot(path=str(artifacts / "transcript-1280.png"), full_page=False)
        page.locator("#reflection").screenshot(path=str(artifacts / "reflection-1280.png"))
        page.set_viewport_size({"width": 390, "height": 844})
        assert page.evaluate(NO_SIDEWAYS_SCROLL)
        page.locator("#reflection").screenshot(path=str(artifacts / "reflection-390.png"))
        assert errors == []
    finally:
        context.close()
