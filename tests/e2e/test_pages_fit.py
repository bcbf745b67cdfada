"""What a class sees, in real Chromium: every page fits a 390 px phone without sideways scrolling
and logs no console error; the teacher's view updates by itself; a student's turn brings their
controls and countdown into view; the typing has a speed kept in the browser and a visible skip.

Screenshots of every page at 1280 and 390 px go to ``test-artifacts/<test>/`` (and to
``$ANGRY_SHOTS`` when set)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from tests.e2e.moves import speak

CASE_TITLE = "The State v. Curtis Hale"
WAIT_MS = 60_000
WIDTHS = {1280: 900, 390: 844}
OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


class Watch:
    """A page's console errors, uncaught exceptions and failed requests (a favicon 404 included)."""

    def __init__(self, page, who: str) -> None:  # type: ignore[no-untyped-def]
        self.who, self.problems = who, []
        page.on("console", lambda msg: msg.type == "error" and self.problems.append(f"console: {msg.text}"))
        page.on("pageerror", lambda exc: self.problems.append(f"pageerror: {exc}"))
        page.on(
            "response", lambda r: r.status >= 400 and self.problems.append(f"{r.status} {r.request.method} {r.url}")
        )


def _shoot(page, name: str, folders: list[Path], overflows: dict[str, int]) -> None:  # type: ignore[no-untyped-def]
    """The page at each width: its sideways overflow measured, a full-page screenshot taken."""
    url = page.url
    for width, height in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.goto(url)
        page.wait_for_load_state("networkidle")
        overflows[f"{name}@{width}"] = page.evaluate(OVERFLOW)
        for folder in folders:
            page.screenshot(path=str(folder / f"{name}-{width}.png"), full_page=True)


def test_every_page_fits_a_phone_and_the_teachers_view_follows_the_room(browser, live_daphne, artifacts):
    from playwright.sync_api import expect

    url = live_daphne.url
    folders = [artifacts] + ([Path(os.environ["ANGRY_SHOTS"])] if os.environ.get("ANGRY_SHOTS") else [])
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
    teacher = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    student = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    player = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    for page in (teacher, student, player):
        page.context.set_default_timeout(WAIT_MS)  # a loaded machine answers slowly, never wrongly
        page.context.set_default_navigation_timeout(2 * WAIT_MS)
    watches = [Watch(teacher, "teacher"), Watch(student, "student"), Watch(player, "player")]
    overflows: dict[str, int] = {}

    # The teacher finds the case by searching the picker, and sets the room's game.
    teacher.goto(f"{url}/rooms/new/")
    teacher.fill("#picker-q", "Curtis Hale")
    chosen = teacher.locator("#picker-results label", has_text=CASE_TITLE)
    expect(teacher.locator("#picker-results li.picker-case")).to_have_count(1, timeout=WAIT_MS)
    chosen.click()
    teacher.uncheck("#id_host_plays")
    teacher.select_option("#id_settings_speakers", "1")
    teacher.fill("#id_settings_turn_seconds", "90")  # room for a loaded machine: the student must not time out
    _shoot(teacher, "room-new", folders, overflows)
    teacher.fill("#picker-q", "Curtis Hale")  # the shot reloaded the form
    teacher.locator("#picker-results label", has_text=CASE_TITLE).click()
    teacher.uncheck("#id_host_plays")
    teacher.select_option("#id_settings_speakers", "1")
    teacher.fill("#id_settings_turn_seconds", "90")  # room for a loaded machine: the student must not time out
    teacher.click("button:has-text('Create the room')")
    code = teacher.locator("strong.room-code").inner_text().strip()
    assert len(code) == 6

    # A student on a phone joins.
    student.goto(f"{url}/join/")
    _shoot(student, "join", folders, overflows)
    student.fill("#id_code", code)
    student.click("button:has-text('Find the room')")
    student.select_option("#id_seat", "2")
    student.fill("#id_name", "Ada")
    student.click("button:has-text('Take the seat')")
    expect(student.locator("#room-controls")).to_contain_text("Seat 2: Ada", timeout=WAIT_MS)

    # The teacher's view, open before anything happens, follows the room by itself.
    view = teacher.context.new_page()
    watches.append(Watch(view, "teacher's view"))
    view.goto(f"{url}/rooms/{code}/teacher/")
    expect(view.locator("#teacher-live")).to_contain_text("Ada", timeout=WAIT_MS)
    teacher.click("button:has-text('Start the deliberation')")

    # On the phone, the turn brings the controls and the countdown into view.
    expect(student.locator("#your-turn")).to_be_visible(timeout=WAIT_MS)
    expect(student.locator("#your-turn .countdown")).to_be_in_viewport(timeout=WAIT_MS)
    spoke_in = re.search(r"Round (\d+) of", student.locator("#phase-banner .round").inner_text()).group(1)
    words = "Ada here: two seconds of lamplight is not an identification."
    speak(student, words)

    speech = view.locator("#teacher-seat-2 .speech", has_text=words)
    expect(speech).to_be_visible(timeout=WAIT_MS)  # no reload: the view asked again by itself
    # Labelled with the round in which the jury hears it (the next), as the transcript labels it.
    heard = int(spoke_in) + 1
    assert re.fullmatch(rf"Round {heard}( \(the jury hears it next\))?", speech.locator(".round-label").inner_text())
    _shoot(view, "teacher", folders, overflows)

    expect(student.locator("#chat")).to_contain_text(words, timeout=WAIT_MS)
    _shoot(student, "room", folders, overflows)

    # A single game started from the home page, with its settings; the typing at read-along pace
    # shows a skip button, and the speed is kept in the browser.
    player.goto(f"{url}/")
    _shoot(player, "home", folders, overflows)
    player.click("summary:has-text('Game settings')")
    player.select_option("#id_settings_speakers", "4")
    player.get_by_role("button", name=f"Start deliberating: {CASE_TITLE}").click()
    player.wait_for_url(re.compile(r"/court/[A-Za-z0-9_-]{16}/$"))
    player.locator(".first-vote").get_by_label("Not guilty").check()
    player.get_by_role("button", name=re.compile("DEFEND")).click()
    player.locator("#tally .tally-label").wait_for(timeout=WAIT_MS)
    player.check("input[name=text-speed][value=read]")
    player.get_by_role("button", name="Pass Turn").click()
    skip = player.locator("#skip-typing")
    expect(skip).to_be_visible(timeout=WAIT_MS)
    skip.click()
    expect(skip).to_be_hidden()
    expect(player.locator("#chat .typing")).to_have_count(0)
    player.check("input[name=text-speed][value=instant]")
    player.reload()
    expect(player.locator("input[name=text-speed][value=instant]")).to_be_checked()
    _shoot(player, "court", folders, overflows)

    player.get_by_role("button", name="Call Final Vote").click()
    player.get_by_role("button", name="Yes, call the final vote").click()
    player.get_by_role("link", name="See the verdict").click()
    _shoot(player, "verdict", folders, overflows)
    court_id = re.search(r"/court/([^/]+)/", player.url).group(1)
    player.goto(f"{url}/deliberations/{court_id}/")
    expect(player.locator(".game-settings-list")).to_contain_text("AI speakers per round")
    _shoot(player, "transcript", folders, overflows)
    player.goto(f"{url}/deliberations/{court_id}/debrief/")
    _shoot(player, "debrief", folders, overflows)
    player.goto(f"{url}/experiments/")
    _shoot(player, "experiments", folders, overflows)

    wide = {page: width for page, width in overflows.items() if width > 0}
    assert wide == {}, f"pages wider than the screen (px): {wide}"
    problems = {watch.who: watch.problems for watch in watches if watch.problems}
    assert problems == {}, problems
