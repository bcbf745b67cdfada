"""The class page keeps up with its rooms in real Chromium, whatever its socket goes through.

A class page held off its socket while the students sit down and the rooms start misses every
card pushed meanwhile; once the socket joins, the server sees the page was rendered before those
cards (``?seen=``, rooms/class_live.py) and says so, and the page reads its rooms again in place,
with no reload. Each card's countdown then ticks in the page between pushes. A class page whose
socket a proxy keeps closing says it is reconnecting and asks for its rooms every few seconds
instead. Screenshots go to test-artifacts/."""

from __future__ import annotations

import re
import time

import pytest

from tests.e2e.moves import watched_page
from tests.e2e.test_missed_update import HeldSockets

CASE_TITLE = "The State v. Curtis Hale"
WAIT_MS = 60_000
SOCKET = re.compile(r"/ws/class/")
COUNTDOWN = ".class-room-turn .countdown"


def _make_class(page, url: str, *, groups: int, turn_seconds: int) -> list[str]:  # type: ignore[no-untyped-def]
    """The teacher makes a class of ``groups`` rooms of one seat each; returns the rooms' codes."""
    from playwright.sync_api import expect

    page.goto(f"{url}/classes/new/")
    page.fill("#picker-q", "Curtis Hale")
    expect(page.locator("#picker-results li.picker-case")).to_have_count(1, timeout=WAIT_MS)
    page.locator("#picker-results label", has_text=CASE_TITLE).click()
    page.fill("#id_groups", str(groups))
    page.fill("#id_seats", "1")
    page.click("summary:has-text('More settings')")
    page.fill("#id_settings_turn_seconds", str(turn_seconds))  # the students' turns outlast the test
    page.fill("#id_pace_seconds", "0.5")
    page.click("button:has-text('Make the class')")
    expect(page.locator(".class-room")).to_have_count(groups)
    return [code.strip() for code in page.locator(".class-room .room-code").all_inner_texts()]


def _sit_down(browser, url: str, code: str, name: str):  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{url}/join/{code}/")
    page.fill("#id_name", name)
    page.click("button:has-text('Take the seat')")
    expect(page.locator("#room-controls")).to_contain_text(name)
    return page


def _every_floor_given(request, url: str, codes: list[str]) -> bool:  # type: ignore[no-untyped-def]
    """Asked of the server directly, not through any page: has each room's student the floor?"""
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        views = [request.get(f"{url}/rooms/{code}/teacher/", headers={"HX-Request": "true"}).text() for code in codes]
        if all('id="teacher-seat-2" class="is-speaking"' in view for view in views):
            return True
        time.sleep(0.5)
    return False


@pytest.mark.timeout(600)
def test_a_class_page_held_off_its_socket_catches_up_in_place_and_its_countdowns_tick(browser, live_daphne, artifacts):
    from playwright.sync_api import expect

    url = live_daphne.url
    teacher, errors = watched_page(browser, console=True)
    desk = teacher.context
    codes = _make_class(teacher, url, groups=2, turn_seconds=300)
    expect(teacher.locator("#class-updates")).to_contain_text("Live", timeout=WAIT_MS)

    # From here the class page's socket is held: it hears nothing the rooms do.
    held = HeldSockets()
    teacher.route_web_socket(SOCKET, held)
    teacher.reload()
    students = [_sit_down(browser, url, code, f"Student {n}") for n, code in enumerate(codes, start=1)]
    # The rooms are started from a second tab, so the held page, rendered before the start (both
    # rooms waiting), is not rendered again after it: a room's first round can give the floor
    # before a redirected page would render.
    starter = desk.new_page()
    starter.goto(teacher.url)
    starter.click("button:has-text('Start every group with students')")
    expect(starter.locator(".message")).to_contain_text("2 rooms started")
    starter.close()
    for student in students:
        expect(student.locator(".vote-form")).to_be_visible(timeout=WAIT_MS)
        student.click(".vote-button-not-guilty")
    assert _every_floor_given(desk.request, url, codes), "the floor never reached every student"
    teacher.wait_for_timeout(1_500)  # time a socket would have had to hear it
    expect(teacher.locator(".class-room-turn", has_text="has the floor")).to_have_count(0)  # missed

    loads: list[str] = []
    teacher.on("request", lambda r: loads.append(r.url) if r.resource_type == "document" else None)
    held.release()
    for n in (1, 2):
        card = teacher.locator(".class-room", has_text=f"Group {n}")
        expect(card.locator(".class-room-turn")).to_contain_text(f"Student {n}", timeout=WAIT_MS)
        expect(card.locator(".class-room-turn")).to_contain_text("has the floor")
    assert loads == [], loads  # caught up in place, not by reloading

    # Between pushes (nobody acts: the turns are long) each card's countdown ticks in the page.
    first = [int(t) for t in teacher.locator(COUNTDOWN).all_inner_texts()]
    teacher.wait_for_timeout(2_500)
    later = [int(t) for t in teacher.locator(COUNTDOWN).all_inner_texts()]
    assert len(first) == len(later) == 2 and all(b < a for a, b in zip(first, later, strict=True)), (first, later)
    teacher.screenshot(path=str(artifacts / "class-page-caught-up-1280.png"), full_page=True)

    # The socket is the page's own again: the teacher pauses the first room, and its card says so.
    host = desk.new_page()
    host.goto(f"{url}/rooms/{codes[0]}/teacher/")
    host.click("#host-pause")
    expect(teacher.locator(".class-room", has_text="Group 1")).to_contain_text("Paused", timeout=WAIT_MS)
    paused = teacher.locator(".class-room", has_text="Group 1").locator(COUNTDOWN).inner_text()
    teacher.wait_for_timeout(1_500)
    assert teacher.locator(".class-room", has_text="Group 1").locator(COUNTDOWN).inner_text() == paused
    assert loads == [], loads
    assert not errors, errors
    for student in students:
        student.context.close()
    desk.close()


def test_a_class_page_whose_socket_a_proxy_closes_says_so_and_asks_every_few_seconds(browser, live_daphne, artifacts):
    from playwright.sync_api import expect

    url = live_daphne.url
    teacher = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    errors: list[str] = []
    teacher.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    teacher.route_web_socket(SOCKET, lambda socket: socket.close(code=4000, reason="dropped"))
    codes = _make_class(teacher, url, groups=1, turn_seconds=300)
    expect(teacher.locator("#class-updates")).to_contain_text("Reconnecting", timeout=WAIT_MS)
    loads: list[str] = []
    teacher.on("request", lambda r: loads.append(r.url) if r.resource_type == "document" else None)
    student = _sit_down(browser, url, codes[0], "Ada Lovelace")
    expect(teacher.locator(".class-room-seated")).to_contain_text("Ada Lovelace", timeout=WAIT_MS)  # asked for
    assert loads == [], loads
    teacher.screenshot(path=str(artifacts / "class-page-reconnecting-390.png"), full_page=True)
    assert not [e for e in errors if "htmx" in e.lower()], errors
    student.context.close()
    teacher.context.close()


LATE_CLOCKS = """() => {
  const now = Date.now(), deadline = now + 30000;
  const clock = (renderedAt) => {
    const el = document.createElement("span");
    el.className = "countdown";
    el.dataset.deadline = String(deadline);
    el.dataset.now = String(renderedAt);
    document.body.appendChild(el);
    window.angryCountdown.tick();
    return el;
  };
  const onTime = clock(now);  // rendered and seen at once
  const late = clock(now - 3000);  // the same turn's clock, rendered 3 s before it arrived
  return [onTime.textContent, late.textContent];
}"""


def test_a_clock_pushed_late_counts_from_the_pages_own_reading_of_the_servers_time(browser, live_daphne):
    """A busy server's push can arrive seconds after it was rendered: its clock shows what the turn
    has left, not those seconds more."""
    page = browser.new_context().new_page()
    _make_class(page, live_daphne.url, groups=1, turn_seconds=300)
    assert page.evaluate(LATE_CLOCKS) == ["30", "30"]
    page.context.close()


def test_a_logged_in_teacher_follows_her_class_and_runs_its_rooms_from_a_second_device(browser, live_daphne, artifacts):
    """A class made on the laptop while logged in: on a tablet logged in to the same account, "My
    rooms" lists it, the class page follows it live, and its rooms open there with the host's
    controls, though this browser made none of them."""
    from playwright.sync_api import expect

    from tests.e2e.test_teacher_live import CREATE_TEACHER, _log_in

    url = live_daphne.url
    live_daphne.manage("shell", "-c", CREATE_TEACHER)
    laptop = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    _log_in(laptop, url)
    codes = _make_class(laptop, url, groups=2, turn_seconds=300)
    class_url = laptop.url
    laptop.context.close()

    tablet = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    errors: list[str] = []
    tablet.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    _log_in(tablet, url)
    expect(tablet.locator(".mine", has_text=codes[0])).to_have_count(1)
    tablet.goto(class_url)
    expect(tablet.locator("#class-updates")).to_contain_text("Live", timeout=WAIT_MS)
    student = _sit_down(browser, url, codes[1], "Grace Hopper")
    expect(tablet.locator(".class-room", has_text="Group 2")).to_contain_text("Grace Hopper", timeout=WAIT_MS)
    tablet.screenshot(path=str(artifacts / "class-page-second-device-390.png"), full_page=True)

    tablet.locator(".class-room", has_text="Group 2").locator("a:has-text('Open the room')").click()
    expect(tablet.locator("body")).to_contain_text(codes[1])
    tablet.click("button:has-text('Start the deliberation')")  # the host's control, from this browser
    expect(student.locator(".vote-form")).to_be_visible(timeout=WAIT_MS)
    tablet.goto(class_url)
    expect(tablet.locator(".class-room", has_text="Group 2")).not_to_contain_text("Waiting to start")
    expect(tablet.locator(".class-room", has_text="Group 1")).to_contain_text("Waiting to start")
    assert not errors, errors
    student.context.close()
    tablet.context.close()
