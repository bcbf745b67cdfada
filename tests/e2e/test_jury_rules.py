"""The jury rules in Chromium: a person picks the rules in the library and the courtroom names them;
a command-line run under the Allen charge shows the judge's instruction and the foreperson's summary
in the courtroom and the transcript, at desktop and phone widths without sideways scroll."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from deliberation.engine.rules import RULE_SETS
from tests.e2e.moves import watched_page

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CASE = "The People v. Owen Castellano"
SHOTS = [Path(os.environ["ANGRY_SHOTS"])] if os.environ.get("ANGRY_SHOTS") else []  # a copy, when asked for
NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"
ALLEN = RULE_SETS["us-allen"]
# A seed in which a juror withdraws and is never asked to speak again: the same seed as the withdrawal
# test of tests/deliberation/test_jury_rules.py, which fails first (and fast) when the jury's course
# changes with the reading; move both together.
WITHDRAWAL_SEED = "6"


def _shot(page, name: str, artifacts: Path) -> None:
    for folder in (artifacts, *SHOTS):
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"{name}.png"), full_page=False)


def test_the_courtroom_names_the_rules_chosen_in_the_library(browser, live_daphne, artifacts):
    page, errors = watched_page(browser)
    context = page.context
    try:
        page.goto(live_daphne.url + "/")
        page.get_by_label("Jury rules for the game you start").select_option("us-allen")
        page.wait_for_function(
            "() => [...document.querySelectorAll('input[name=rules]')].every(i => i.value === 'us-allen')"
        )
        _shot(page, "01-library-rules-select", artifacts)
        page.get_by_role("button", name=f"Start deliberating: {CASE}").click()
        page.wait_for_url(re.compile(r"/court/[A-Za-z0-9_-]{16}/$"))
        rules = page.locator("#jury-rules")
        assert ALLEN.label in rules.inner_text() and ALLEN.summary in rules.inner_text()
        _shot(page, "02-courtroom-rules-1280", artifacts)
        assert errors == []
    finally:
        context.close()


def test_the_courtroom_and_transcript_show_the_judges_direction_and_the_foreperson_summary(
    browser, live_daphne, artifacts
):
    out = live_daphne.manage(
        "deliberate",
        "--case",
        "copper-kettle-fire",
        "--rules",
        "us-allen",
        "--max-rounds",
        "2",
        "--seed",
        "2",
        "--json",
    )
    record = json.loads(out.strip().splitlines()[-1])
    assert record["rules"] == "us-allen" and record["verdict"] == "hung"
    errors: list[str] = []
    for width, height in ((1280, 900), (390, 844)):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        try:
            page.goto(f"{live_daphne.url}/court/{record['public_id']}/")
            assert ALLEN.label in page.locator("#jury-rules").inner_text()
            assert "Round 7 of 7" in page.locator("#phase-banner .round").inner_text()  # 2 + the Allen rounds
            direction = page.locator("#chat .msg-judge", has_text="No juror should give up an honest conviction")
            direction.first.scroll_into_view_if_needed()
            assert direction.count() == 1
            _shot(page, f"03-courtroom-allen-direction-{width}", artifacts)
            summary = page.locator("#chat li", has_text="Let me sum up where we are after round 5")
            summary.first.scroll_into_view_if_needed()
            assert summary.count() == 1
            _shot(page, f"04-courtroom-foreperson-summary-{width}", artifacts)
            assert page.evaluate(NO_SIDEWAYS_SCROLL)

            page.goto(f"{live_daphne.url}/deliberations/{record['public_id']}/")
            assert f"jury rules: {ALLEN.label}" in page.locator("p.meta").first.inner_text()
            assert page.get_by_text("No juror should give up an honest conviction").count() >= 1
            assert page.get_by_text("Let me sum up where we are after round 5").count() >= 1
            _shot(page, f"05-transcript-{width}", artifacts)
            assert page.evaluate(NO_SIDEWAYS_SCROLL)
            assert errors == []
        finally:
            context.close()


def test_the_experiment_page_compares_rule_sets_side_by_side(browser, live_daphne, artifacts):
    ids = []
    for rules in ("unanimous", "england-wales", "us-allen", "historical-old-bailey"):
        out = live_daphne.manage(
            "experiment",
            "--cases",
            "alder-street-hit-and-run",
            "--runs",
            "2",
            "--workers",
            "1",
            "--rules",
            rules,
            "--json",
        )
        ids.append(json.loads(out.strip().splitlines()[-1])["experiment_id"])
    for width, height in ((1280, 900), (390, 844)):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        try:
            page.goto(f"{live_daphne.url}/experiments/{ids[1]}/")
            table = page.locator("#rule-comparison")
            table.scroll_into_view_if_needed()
            assert table.locator("tbody tr").count() == 4
            assert "England and Wales (majority direction) (this page)" in table.inner_text()
            _shot(page, f"06-experiment-rule-sets-{width}", artifacts)
            assert page.evaluate(NO_SIDEWAYS_SCROLL)
        finally:
            context.close()


OLD_BAILEY = RULE_SETS["historical-old-bailey"]


def _deliberate(live_daphne, *args: str) -> dict:
    out = live_daphne.manage("deliberate", *args, "--json")
    return json.loads(out.strip().splitlines()[-1])


def test_an_old_bailey_jury_is_sent_out_pressed_and_agrees_and_the_verdict_names_the_rules(
    browser, live_daphne, artifacts
):
    record = _deliberate(live_daphne, "--case", "copper-kettle-fire", "--rules", "historical-old-bailey", "--seed", "2")
    assert record["verdict"] in ("guilty", "not_guilty") and record["rounds"] <= 10
    withdrawn = _deliberate(live_daphne, "--case", "copper-kettle-fire", "--seed", WITHDRAWAL_SEED)
    discharged = _deliberate(
        live_daphne, "--case", "copper-kettle-fire", "--rules", "england-wales", "--discharge", "5@2", "--seed", "2"
    )
    errors: list[str] = []
    for width, height in ((1280, 900), (390, 844)):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        try:
            page.goto(f"{live_daphne.url}/court/{record['public_id']}/")
            assert OLD_BAILEY.label in page.locator("#jury-rules").inner_text()
            sent_out = page.locator("#chat .msg-judge", has_text="without meat, drink, fire, or candle")
            sent_out.first.scroll_into_view_if_needed()
            assert sent_out.count() == 1
            _shot(page, f"07-courtroom-old-bailey-sent-out-{width}", artifacts)
            pressed = page.locator("#chat li", has_text="the court will not have us back until we are all agreed")
            assert pressed.count() >= 1
            verdict = page.locator(".verdict-line").first
            verdict.scroll_into_view_if_needed()
            assert "(rules: Old Bailey, 1674-1913)" in verdict.inner_text()
            _shot(page, f"08-courtroom-old-bailey-verdict-{width}", artifacts)
            assert page.evaluate(NO_SIDEWAYS_SCROLL)

            page.goto(f"{live_daphne.url}/deliberations/{record['public_id']}/")
            assert page.get_by_text("without meat, drink, fire, or candle").count() >= 1
            assert page.get_by_text("(rules: Old Bailey, 1674-1913)").count() >= 1
            _shot(page, f"09-transcript-old-bailey-{width}", artifacts)

            page.goto(f"{live_daphne.url}/court/{withdrawn['public_id']}/")
            badge = page.locator("#jury-box .withdrawn-badge")
            assert badge.count() == 1
            badge.scroll_into_view_if_needed()
            _shot(page, f"10-jury-box-withdrawn-{width}", artifacts)
            note = page.locator("#chat li", has_text="withdraws from the discussion")
            note.first.scroll_into_view_if_needed()
            assert note.count() == 1
            _shot(page, f"11-courtroom-withdrawal-note-{width}", artifacts)

            page.goto(f"{live_daphne.url}/court/{discharged['public_id']}/")
            assert page.locator("#jury-box .seat-discharged").count() == 1
            direction = page.locator("#chat .msg-judge", has_text="has been taken ill")
            direction.first.scroll_into_view_if_needed()
            assert direction.count() == 1
            _shot(page, f"12-courtroom-discharge-{width}", artifacts)
            assert page.evaluate(NO_SIDEWAYS_SCROLL)

            page.goto(f"{live_daphne.url}/")
            page.locator("summary", has_text="Game settings").click()
            settings = page.locator("#game-settings")
            settings.get_by_label("Who speaks next").scroll_into_view_if_needed()
            for label in ("Who speaks next", "What model jurors see", "A juror falls ill before round"):
                assert settings.get_by_label(label).count() == 1
            _shot(page, f"13-home-game-settings-{width}", artifacts)
            assert errors == []
        finally:
            context.close()
