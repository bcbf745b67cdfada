"""A 45-minute class in Chromium, on a compressed clock (a lesson's minute lasts three seconds): a
teacher makes three groups with a set lesson length and sees the plan before the start; a student
on a 390 px phone joins the first group, one on a laptop the second, and nobody the third. The
teacher ticks the trial for the first group only (a reload keeps her choice) and starts the groups
with students: the third is not started. The class page shows the first group's trial stage by
stage (counsel being chosen, openings, a witness's examination, then the deliberation's rounds) and
the teacher steers it from its card: skip opens the trial at once and ends a counsel's move, pause
stops its clock and resume starts it. Every started group has its verdict before the bell; the
class debrief counts two juries and lists the empty group apart. No word is broken mid-word on the
class page or the teacher's view at 1280 and 390 px; screenshots go to test-artifacts/.

A second test: on a player's page, a verdict pushed with speeches still to type waits for them.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.words import broken_words
from tests.live import LiveServer, live_server

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CASE_TITLE = "The State v. Curtis Hale"
WAIT_MS = 60_000
MINUTE_SECONDS = "3"  # a lesson minute on the compressed clock: 45 minutes last 135 s
LESSON_SECONDS = 45 * 3
BELL_SLACK_SECONDS = 10  # the card's update on the teacher's page after the verdict, on a busy machine
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
        assert broken_words(page) == [], f"{name} breaks words mid-word at {width} px"
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


def _card_button(teacher, group: int, name: str):  # type: ignore[no-untyped-def]
    return teacher.locator(".class-room").nth(group - 1).locator(".class-room-host button", has_text=name)


def _stage(teacher, group: int) -> str:  # type: ignore[no-untyped-def]
    stage = teacher.locator(".class-room").nth(group - 1).locator(".class-room-stage strong")
    try:
        return stage.inner_text(timeout=500) if stage.count() else ""
    except PlaywrightError:  # swapped under the read
        return ""


@pytest.mark.timeout(600)
def test_a_45_minute_class_with_the_trial_in_one_group_ends_every_group_with_students_before_the_bell(
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
    teacher.fill("#id_groups", "3")
    teacher.fill("#id_seats", "1")
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
    laptop = _join(browser, url, codes[1], "Noah", 1280)
    expect(teacher.locator(".class-room").nth(1)).to_contain_text("Noah", timeout=WAIT_MS)
    expect(teacher.locator(".class-room").nth(2)).to_contain_text("nobody has joined yet")
    _shoot(teacher, artifacts, "class-before-start")

    # The trial for the first group only: the second deliberates at once.
    with teacher.expect_response(lambda r: r.url.endswith("/trial-choice/") and r.status == 204):
        teacher.uncheck("#class-start input[name='trial'][value='2']")
    teacher.reload()  # the choice is kept as she makes it: a reload shows it
    expect(teacher.locator("#class-start input[name='trial'][value='2']")).not_to_be_checked()
    expect(teacher.locator("#class-start input[name='trial'][value='1']")).to_be_checked()
    teacher.click("button:has-text('Start every group with students')")
    started = time.monotonic()
    expect(teacher.locator(".message").first).to_contain_text("2 rooms started")
    expect(teacher.locator(".class-room").nth(2)).to_contain_text("Waiting to start")
    first = teacher.locator(".class-room").nth(0)
    expect(first.locator(".class-room-stage")).to_contain_text("Counsel are being chosen", timeout=WAIT_MS)
    expect(teacher.locator(".class-room").nth(1).locator(".class-room-stage")).to_contain_text(
        "Deliberation, round", timeout=WAIT_MS
    )
    _claim(phone, "defence")
    expect(phone.locator("#room-controls")).to_contain_text("counsel for the defence", ignore_case=True)

    # Skip, while counsel are chosen, opens the trial at once; the student's opening is awaited.
    _card_button(teacher, 1, "Skip").click()
    expect(first.locator(".class-room-stage")).to_contain_text("Opening speeches", timeout=WAIT_MS)
    expect(first.locator(".class-room-turn")).to_contain_text("Counsel for the defence (seat 2)", timeout=WAIT_MS)
    expect(first.locator(".class-room-lesson .countdown")).to_be_visible()
    _shoot(teacher, artifacts, "class-during-trial")
    phone.screenshot(path=str(artifacts / "student-trial-390.png"), full_page=True)

    view = teacher.context.new_page()
    view.goto(f"{url}/rooms/{codes[0]}/teacher/")
    expect(view.locator("#teacher-stage")).to_contain_text("Opening speeches")
    expect(view.locator("#room-turn")).to_contain_text("Counsel for the defence (seat 2)")
    _shoot(view, artifacts, "teacher-view-during-trial")

    # Pause: the counsel's clock stands on the card and the student's page says so; resume.
    _card_button(teacher, 1, "Pause").click()
    expect(first.locator(".class-room-turn")).to_contain_text("Paused")
    expect(phone.locator("#room-turn")).to_contain_text("The host has paused the room", timeout=WAIT_MS)
    expect(view.locator("#host-resume")).to_be_visible(timeout=WAIT_MS)  # the teacher's view follows
    stood = first.locator(".class-room-turn .countdown").inner_text()
    teacher.wait_for_timeout(2_500)
    assert first.locator(".class-room-turn .countdown").inner_text() == stood  # the clock stands
    _card_button(teacher, 1, "Resume").click()
    expect(first.locator(".class-room-turn")).not_to_contain_text("Paused", timeout=WAIT_MS)

    # Skip the student's opening: AI counsel give it and the prosecution's case begins.
    _card_button(teacher, 1, "Skip").click()
    expect(first.locator(".class-room-turn")).not_to_contain_text("opening speech", timeout=WAIT_MS)
    stages: set[str] = {"Opening speeches"}
    for _ in range(600):
        stages.add(_stage(teacher, 1))
        if teacher.locator(".class-room.is-finished").count() == 2:
            break
        _move_on(phone)
        _move_on(laptop)
        teacher.wait_for_timeout(250)
    finished_after = time.monotonic() - started
    for group in (1, 2):
        expect(teacher.locator(".class-room").nth(group - 1).locator(".verdict-chip")).to_be_visible(timeout=WAIT_MS)
    assert finished_after < LESSON_SECONDS + BELL_SLACK_SECONDS, f"the verdicts came {finished_after:.0f} s in"
    assert any("witness" in s for s in stages), stages  # a witness under examination
    assert any(s.startswith("Deliberation, round") for s in stages), stages  # then the jury's rounds
    expect(teacher.locator(".class-room").nth(2)).to_contain_text("Waiting to start")  # never started
    _shoot(teacher, artifacts, "class-after-the-bell")

    teacher.goto(f"{class_url}debrief/")
    expect(teacher.locator(".lead")).to_contain_text("2 of 2 juries finished")
    expect(teacher.locator("#empty-groups")).to_contain_text("Group 3")
    expect(teacher.locator("#empty-groups")).to_contain_text("never started")
    assert not teacher.locator("#group-3").count()
    _shoot(teacher, artifacts, "class-debrief-lesson")

    late = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    late.goto(f"{url}/join/")
    late.fill("#id_code", codes[0])
    late.click("button:has-text('Find the room')")
    expect(late.locator("#room-finished")).to_contain_text("This group has finished")
    assert not late.locator("button:has-text('Take the seat')").count()
    assert not errors, errors


KEEP_SOCKET = """document.addEventListener("htmx:wsOpen", (evt) => { window.__socket = evt.detail.event.target; });"""
SPEECH = "I keep coming back to the timing of the call, and the witness who was not sure of the hour. " * 3
PUSH = (
    '<div hx-swap-oob="beforeend:#chat"><li id="turn-99999901" class="msg msg-juror" data-kinetic="new">'
    '<p class="kinetic">{speech}</p></li></div>'
    '<div id="phase-banner" class="phase-banner phase-verdict"><p class="verdict-line verdict-guilty" data-verdict>'
    "Verdict: <strong>GUILTY</strong></p></div>"
)
WATCH_VERDICT = """() => {
  window.__verdictWhileTyping = null;
  new MutationObserver(() => {
    if (window.__verdictWhileTyping === null && document.querySelector("#phase-banner [data-verdict]")) {
      window.__verdictWhileTyping = !!document.querySelector("#chat .kinetic.typing, #chat .msg.waiting");
    }
  }).observe(document.body, { childList: true, subtree: true });
}"""


@pytest.mark.timeout(180)
def test_a_verdict_pushed_with_speeches_still_to_type_waits_until_they_are_typed(browser, lesson_server):
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(KEEP_SOCKET)
    context.add_init_script("localStorage.setItem('angry.textSpeed', 'read');")
    page = context.new_page()
    page.goto(lesson_server.url + "/")
    page.get_by_role("button", name=f"Start deliberating: {CASE_TITLE}").click()
    page.wait_for_function("() => !!window.__socket && window.__socket.readyState === 1", timeout=WAIT_MS)
    page.evaluate(WATCH_VERDICT)
    # The last round's speech and the verdict arrive in one push, as they do when the jury decides.
    page.evaluate(
        "(html) => window.__socket.dispatchEvent(new MessageEvent('message', { data: html }))",
        PUSH.format(speech=SPEECH),
    )
    expect(page.locator("#chat .kinetic.typing")).to_have_count(1)
    assert not page.locator("#phase-banner [data-verdict]").count()  # not while the speech is typed
    expect(page.locator("#phase-banner [data-verdict]")).to_have_count(1, timeout=30_000)
    assert page.evaluate("window.__verdictWhileTyping") is False
    assert page.locator("#turn-99999901 .kinetic").inner_text().strip() == SPEECH.strip()
