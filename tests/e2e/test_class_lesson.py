"""A 45-minute class with the trial, in Chromium, on a compressed clock (a lesson's minute lasts
three seconds): a teacher makes two groups with a set lesson length and sees the plan before the
start; two students (one on a 390 px phone, one on a laptop) join the first group and nobody joins
the second; "Start every group with students" starts only the first; the students are counsel at
the trial while the class page counts the group's time down; the group has its verdict before the
bell (the judge directs it if the jury has not reached one); the class debrief counts one jury and
lists the empty group apart. Screenshots of the class page during the trial go to test-artifacts/.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.live import LiveServer, live_server

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CASE_TITLE = "The State v. Curtis Hale"
WAIT_MS = 60_000
MINUTE_SECONDS = "3"  # a lesson minute on the compressed clock: 45 minutes last 135 s
PASSING = ("No further questions", "Let the AI speak for me", "No objections until my turn", "Let it stand")


@pytest.fixture(scope="module")
def lesson_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    env = {"ANGRY_NARRATION": "text", "ANGRY_LESSON_MINUTE_SECONDS": MINUTE_SECONDS}
    with live_server(tmp_path_factory.mktemp("lesson"), name="lesson", redis_db=12, env=env) as server:
        yield server


def _shoot(page, folder: Path, name: str) -> None:  # type: ignore[no-untyped-def]
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900 if width == 1280 else 844})
        sideways = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert sideways <= 0, f"{name} scrolls sideways by {sideways} px at {width} px"
        page.screenshot(path=str(folder / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def _join(browser, url: str, code: str, name: str, width: int):  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    page = browser.new_context(viewport={"width": width, "height": 844 if width < 500 else 900}).new_page()
    page.goto(f"{url}/join/")
    page.fill("#id_code", code)
    page.click("button:has-text('Find the room')")
    page.fill("#id_name", name)
    page.click("button:has-text('Take the seat')")
    expect(page.locator("#room-controls")).to_contain_text(name)
    return page


def _claim(page, side: str) -> None:  # type: ignore[no-untyped-def]
    claim = page.locator("#room-controls button", has_text=f"Be counsel for the {side}")
    for _ in range(6):  # the start's pushes refresh the controls a few times: click once they settle
        try:
            claim.first.click(timeout=3_000)
            return
        except PlaywrightError:
            page.wait_for_timeout(300)


def _move_on(page) -> None:  # type: ignore[no-untyped-def]
    """A student at the trial lets the AI carry their move; in deliberation they vote, then pass."""
    controls = page.locator("#room-controls")
    try:
        for name in PASSING:
            button = controls.get_by_role("button", name=name)
            if button.count():
                button.first.click(timeout=2_000)
                return
        vote = page.locator(".vote-button-not-guilty")
        if vote.count() and not page.locator(".vote-form .is-chosen, .vote-form [aria-pressed='true']").count():
            vote.first.click(timeout=2_000)
        passing = page.locator("#speak-form button:has-text('Pass Turn')")
        if page.locator("#your-turn").is_visible() and passing.count():
            passing.click(timeout=2_000)
    except PlaywrightError:  # the controls were swapped under the pointer: the next look acts
        return


@pytest.mark.timeout(600)
def test_a_45_minute_class_with_the_trial_ends_every_group_with_students_before_the_bell(
    browser, lesson_server, artifacts
):
    from playwright.sync_api import expect

    url = lesson_server.url
    teacher = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors: list[str] = []
    teacher.on("pageerror", lambda exc: errors.append(str(exc)))
    teacher.goto(f"{url}/classes/new/")
    teacher.fill("#picker-q", "Curtis Hale")
    expect(teacher.locator("#picker-results li.picker-case")).to_have_count(1, timeout=WAIT_MS)
    teacher.locator("#picker-results label", has_text=CASE_TITLE).click()
    teacher.fill("#id_groups", "2")
    teacher.fill("#id_seats", "2")
    teacher.check("#id_trial")
    teacher.fill("#id_lesson_minutes", "45")
    teacher.click("summary:has-text('More settings')")
    teacher.fill("#id_pace_seconds", "0.5")
    teacher.click("button:has-text('Make the class')")
    expect(teacher.locator("#class-lesson")).to_contain_text("45 minutes; the trial calls")
    expect(teacher.locator("#class-lesson")).to_contain_text("the judge directs the verdict")
    codes = [code.strip() for code in teacher.locator(".class-room .room-code").all_inner_texts()]
    class_url = teacher.url

    phone = _join(browser, url, codes[0], "Mia", 390)
    laptop = _join(browser, url, codes[0], "Noah", 1280)
    expect(teacher.locator(".class-room").nth(0)).to_contain_text("Noah", timeout=WAIT_MS)
    expect(teacher.locator(".class-room").nth(1)).to_contain_text("nobody has joined yet")
    _shoot(teacher, artifacts, "class-before-start")

    teacher.click("button:has-text('Start every group with students')")
    expect(teacher.locator(".message").first).to_contain_text("1 room started")
    expect(teacher.locator(".class-room").nth(1)).to_contain_text("Waiting to start")
    _claim(phone, "prosecution")
    _claim(laptop, "defence")

    first = teacher.locator(".class-room").nth(0)
    expect(first).to_contain_text("The trial", timeout=WAIT_MS)
    expect(first.locator(".class-room-lesson .countdown")).to_be_visible()
    _shoot(teacher, artifacts, "class-during-trial")
    phone.screenshot(path=str(artifacts / "student-trial-390.png"), full_page=True)

    for _ in range(600):
        if teacher.locator(".class-room.is-finished").count():
            break
        _move_on(phone)
        _move_on(laptop)
        teacher.wait_for_timeout(250)
    expect(teacher.locator(".class-room").nth(0).locator(".verdict-chip")).to_be_visible(timeout=WAIT_MS)
    expect(teacher.locator(".class-room").nth(1)).to_contain_text("Waiting to start")  # never started
    _shoot(teacher, artifacts, "class-after-the-bell")

    teacher.goto(f"{class_url}debrief/")
    expect(teacher.locator(".lead")).to_contain_text("1 of 1 jury reached a verdict")
    expect(teacher.locator("#empty-groups")).to_contain_text("Group 2")
    expect(teacher.locator("#empty-groups")).to_contain_text("never started")
    _shoot(teacher, artifacts, "class-debrief-lesson")

    late = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    late.goto(f"{url}/join/")
    late.fill("#id_code", codes[0])
    late.click("button:has-text('Find the room')")
    expect(late.locator("#room-finished")).to_contain_text("This group has finished")
    assert not late.locator("button:has-text('Take the seat')").count()
    assert not errors, errors
