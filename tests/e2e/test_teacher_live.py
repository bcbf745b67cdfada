"""The teacher's side of a room in real browsers: a teacher logs in on a laptop and makes a room;
on a second device (another browser, the same account) "My rooms" lists it and its teacher's view
opens with the host's controls. That view follows the room live over the room's websocket: when
the student votes and speaks, the table changes with no reload. The turn's countdown ticks between
pushes, and stands while the teacher has paused the room.

Screenshots at 1280 and 390 px go to test-artifacts/ (and to the folder ``ANGRY_SHOTS`` names, if
it exists)."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from tests.e2e.words import broken_words

CASE_TITLE = "The State v. Curtis Hale"
WAIT_MS = 60_000
TEACHER, PASSWORD = "e2e-teacher", "a-long-password-2"
CREATE_TEACHER = (
    "from django.contrib.auth.models import User; "
    f"User.objects.filter(username='{TEACHER}').exists() or "
    f"User.objects.create_user('{TEACHER}', password='{PASSWORD}')"
)
SAID = (  # long enough to fill its column: the other columns then keep only what they must
    "Two seconds of lamplight is not an identification. The witness stood across the street, in the"
    " rain, behind a parked van, and she told the police the man wore a grey hood; the defendant's coat"
    " that night was brown, and nobody found a grey hood in his flat, his car or his locker at work."
)
SHOTS = Path(os.environ.get("ANGRY_SHOTS", "")) if os.environ.get("ANGRY_SHOTS") else None
COUNTDOWN = "#teacher-live #room-turn .countdown"


def _shoot(page, artifacts: Path, name: str) -> None:  # type: ignore[no-untyped-def]
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900 if width == 1280 else 844})
        sideways = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert sideways <= 0, f"{name} scrolls sideways by {sideways} px at {width} px"
        path = artifacts / f"{name}-{width}.png"
        page.screenshot(path=str(path), full_page=True)
        assert broken_words(page) == [], f"{name} breaks words mid-word at {width} px"
        if SHOTS is not None and SHOTS.is_dir():
            shutil.copy(path, SHOTS / path.name)
    page.set_viewport_size({"width": 1280, "height": 900})


def _log_in(page, url: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{url}/teacher/login/")
    page.fill("#id_username", TEACHER)
    page.fill("#id_password", PASSWORD)
    page.click("button:has-text('Log in')")
    page.wait_for_url(f"{url}/my-rooms/")


def _countdown(page) -> int:  # type: ignore[no-untyped-def]
    return int(page.locator(COUNTDOWN).inner_text())


def test_a_logged_in_teacher_follows_a_room_live_from_a_second_device_and_pauses_it(browser, live_daphne, artifacts):
    from playwright.sync_api import expect

    url = live_daphne.url
    live_daphne.manage("shell", "-c", CREATE_TEACHER)
    errors: list[str] = []

    # On the laptop the teacher logs in and makes a room she does not play in.
    laptop = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    _log_in(laptop, url)
    laptop.goto(f"{url}/rooms/new/")
    laptop.fill("#picker-q", "Curtis Hale")
    expect(laptop.locator("#picker-results li.picker-case")).to_have_count(1, timeout=WAIT_MS)
    laptop.locator("#picker-results label", has_text=CASE_TITLE).click()
    laptop.uncheck("#id_host_plays")
    laptop.click("button:has-text('Create the room')")
    code = laptop.locator("strong.room-code").first.inner_text().strip()
    laptop.context.close()

    anna = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    anna.goto(f"{url}/join/{code}/")
    anna.select_option("#id_seat", "2")
    anna.fill("#id_name", "Anna")
    anna.click("button:has-text('Take the seat')")
    expect(anna.locator("#room-controls")).to_contain_text("Seat 2: Anna")

    # A second device: another browser, the same account. "My rooms" has the room.
    tablet = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    tablet.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    _log_in(tablet, url)
    expect(tablet.locator(".mine", has_text=code)).to_have_count(1)
    _shoot(tablet, artifacts, "my-rooms-second-device")
    tablet.goto(f"{url}/rooms/{code}/teacher/")
    expect(tablet.locator("#teacher-seat-2")).to_contain_text("Anna")
    _shoot(tablet, artifacts, "teacher-view-waiting")
    tablet.click("button:has-text('Start the deliberation')")  # the host's controls, from this browser
    expect(anna.locator("#your-turn")).to_be_visible(timeout=WAIT_MS)

    # From here the view only listens: no reload, no polling while the socket is open.
    loads: list[str] = []
    tablet.on("request", lambda r: loads.append(r.url) if r.resource_type == "document" else None)
    expect(tablet.locator("#teacher-seat-2")).to_contain_text("has the floor", timeout=WAIT_MS)

    # The turn's countdown ticks in the page between pushes.
    first = _countdown(tablet)
    tablet.wait_for_timeout(2_500)
    second = _countdown(tablet)
    assert second < first, (first, second)

    # Anna votes and speaks on her phone; the teacher's table follows, live.
    anna.click(".vote-button-not-guilty")
    expect(tablet.locator("#teacher-seat-2 td[data-label='Votes cast']")).to_contain_text("Not guilty", timeout=WAIT_MS)
    anna.fill("#id_content", SAID)
    anna.click("#speak-form button.primary")
    expect(tablet.locator("#teacher-seat-2 td[data-label='Arguments']")).to_contain_text(SAID, timeout=WAIT_MS)
    assert loads == [], loads
    _shoot(tablet, artifacts, "teacher-view-live")

    # The teacher pauses from the second device: every screen says so, and the clock stands.
    expect(tablet.locator("#teacher-seat-2")).to_contain_text("has the floor", timeout=WAIT_MS)
    tablet.click("#host-pause")
    expect(tablet.locator("#host-resume")).to_be_visible()
    expect(anna.locator("#room-turn")).to_contain_text("The host has paused the room.", timeout=WAIT_MS)
    expect(tablet.locator("#teacher-live #room-turn")).to_contain_text(
        re.compile(r"with \d+ s left when the room goes on")
    )
    stood = anna.locator("#your-turn .countdown, #room-turn").first.inner_text()
    anna.wait_for_timeout(2_000)
    assert anna.locator("#your-turn .countdown, #room-turn").first.inner_text() == stood
    _shoot(tablet, artifacts, "teacher-view-paused")
    tablet.click("#host-resume")
    expect(anna.locator("#room-turn")).not_to_contain_text("paused", timeout=WAIT_MS)
    assert not errors, errors
    anna.context.close()
    tablet.context.close()


def test_the_teachers_view_falls_back_to_asking_every_few_seconds_while_its_socket_fails(
    browser, live_daphne, artifacts
):
    """Without an account the teacher hosts from this browser (its key); if the socket cannot be
    opened (a proxy that drops websockets, say), the view says so and refreshes itself instead."""
    from playwright.sync_api import expect

    url = live_daphne.url
    teacher = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors: list[str] = []
    teacher.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    teacher.route_web_socket(re.compile(r"/ws/court/"), lambda socket: socket.close(code=4000, reason="dropped"))
    teacher.goto(f"{url}/rooms/new/")
    teacher.fill("#picker-q", "Curtis Hale")
    expect(teacher.locator("#picker-results li.picker-case")).to_have_count(1, timeout=WAIT_MS)
    teacher.locator("#picker-results label", has_text=CASE_TITLE).click()
    teacher.uncheck("#id_host_plays")
    teacher.click("button:has-text('Create the room')")
    code = teacher.locator("strong.room-code").first.inner_text().strip()
    teacher.goto(f"{url}/rooms/{code}/teacher/")
    expect(teacher.locator("#teacher-updates")).to_contain_text("Reconnecting", timeout=WAIT_MS)
    loads: list[str] = []
    teacher.on("request", lambda r: loads.append(r.url) if r.resource_type == "document" else None)

    anna = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    anna.goto(f"{url}/join/{code}/")
    anna.select_option("#id_seat", "2")
    anna.fill("#id_name", "Anna")
    anna.click("button:has-text('Take the seat')")
    expect(teacher.locator("#teacher-seat-2")).to_contain_text("Anna", timeout=WAIT_MS)  # fetched, not pushed
    assert loads == [], loads
    _shoot(teacher, artifacts, "teacher-view-reconnecting")
    assert not [e for e in errors if "htmx" in e.lower()], errors
    anna.context.close()
    teacher.context.close()
