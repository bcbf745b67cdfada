"""A page rendered before an update, whose socket joins the room only after it, catches up in place.

In Chromium, a student's room page and the teacher's view are held off their sockets (Playwright
holds the websocket) while the host starts the room and the floor passes to the student, so both
miss every update of that. Once the sockets join, the server sees the pages were rendered before
those updates (``?seen=``, consumers.py) and says so; the room page reads itself again into place
and the teacher's view fetches its live part, with no reload. Screenshots go to test-artifacts/."""

from __future__ import annotations

import re
import time

import pytest

from tests.e2e.moves import speak

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CASE_TITLE = "The State v. Curtis Hale"
WAIT_MS = 60_000
SOCKET = re.compile(r"/ws/court/")


class HeldSockets:
    """Websockets a page opens are held away from the server until ``release``."""

    def __init__(self) -> None:
        self.held: list = []  # type: ignore[type-arg]
        self.released = False

    def __call__(self, route) -> None:  # type: ignore[no-untyped-def]
        if self.released:
            route.connect_to_server()
        else:
            self.held.append(route)

    def release(self) -> None:
        self.released = True
        for route in self.held:
            route.connect_to_server()


def _floor_given(request, url: str, code: str) -> bool:  # type: ignore[no-untyped-def]
    """Asked of the server directly, not through any page: does seat 2 have the floor yet?"""
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        page = request.get(f"{url}/rooms/{code}/teacher/", headers={"HX-Request": "true"}).text()
        if 'id="teacher-seat-2" class="is-speaking"' in page:
            return True
        time.sleep(0.5)
    return False


def test_pages_held_off_their_socket_while_the_room_starts_catch_up_once_it_joins(browser, live_daphne, artifacts):
    from playwright.sync_api import expect

    url = live_daphne.url
    host = browser.new_context(viewport={"width": 1280, "height": 900})
    teacher = host.new_page()
    teacher.goto(f"{url}/rooms/new/")
    teacher.fill("#picker-q", "Curtis Hale")
    expect(teacher.locator("#picker-results li.picker-case")).to_have_count(1, timeout=WAIT_MS)
    teacher.locator("#picker-results label", has_text=CASE_TITLE).click()
    teacher.uncheck("#id_host_plays")
    teacher.select_option("#id_settings_speakers", "1")
    teacher.fill("#id_settings_turn_seconds", "300")  # the student's turn must outlast the test
    teacher.click("button:has-text('Create the room')")
    code = teacher.locator("strong.room-code").first.inner_text().strip()

    phone = browser.new_context(viewport={"width": 390, "height": 844})
    student = phone.new_page()
    student.goto(f"{url}/join/{code}/")
    student.select_option("#id_seat", "2")
    student.fill("#id_name", "Ada")
    student.click("button:has-text('Take the seat')")
    expect(student.locator("#room-controls")).to_contain_text("Seat 2: Ada")

    # From here both pages' sockets are held: the student's room page, already open, and the
    # teacher's view, opened now. Neither hears anything the room does.
    held = HeldSockets()
    student.route_web_socket(SOCKET, held)
    student.reload()
    expect(student.locator("#room-controls")).to_contain_text("Seat 2: Ada")
    teacher.route_web_socket(SOCKET, held)
    teacher.goto(f"{url}/rooms/{code}/teacher/")
    teacher.click("button:has-text('Start the deliberation')")
    expect(teacher.locator("#teacher-live")).not_to_contain_text("has the floor")
    assert _floor_given(host.request, url, code), "the floor never reached seat 2"
    teacher.wait_for_timeout(1_500)  # time a socket would have had to hear it
    expect(student.locator("#your-turn")).to_have_count(0)  # both pages missed it
    expect(teacher.locator("#teacher-seat-2")).not_to_contain_text("has the floor")

    loads: list[str] = []
    for page in (student, teacher):
        page.on("request", lambda r: loads.append(r.url) if r.resource_type == "document" else None)
    held.release()
    expect(student.locator("#your-turn")).to_be_visible(timeout=WAIT_MS)
    expect(teacher.locator("#teacher-seat-2")).to_contain_text("has the floor", timeout=WAIT_MS)
    assert loads == [], loads  # caught up in place, not by reloading
    student.screenshot(path=str(artifacts / "student-caught-up-390.png"), full_page=True)
    teacher.screenshot(path=str(artifacts / "teacher-caught-up-1280.png"), full_page=True)

    # The socket is the page's own again: the student's speech reaches the teacher's view live.
    words = "Ada here: the lamplight lasted two seconds."
    speak(student, words)
    expect(teacher.locator("#teacher-seat-2 .speech", has_text=words)).to_be_visible(timeout=WAIT_MS)
    assert loads == [], loads
    phone.close()
    host.close()
