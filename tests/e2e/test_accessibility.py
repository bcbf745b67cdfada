"""A WCAG 2.1 AA audit (axe-core) of every page a student, teacher or curator uses, in Chromium.

Each page is audited in the state a person meets it in (the courtroom before the side is chosen,
at the trial, in the deliberation, with the final vote being called, at the verdict; a room while
a student has the floor; a class's page with its rooms running), at 1280 and 390 px wide, against
the tags wcag2a, wcag2aa, wcag21a and wcag21aa. No page may have a serious or critical violation.

The figures (pages audited, violations by impact) go to
``test-artifacts/<test>/audit.json``; the full list of what axe found (minor and moderate
included) sits beside them. axe-core comes from ``npm ci --prefix tests/e2e``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import IN_CI
from tests.e2e.axe import AXE, IMPACTS, INSTALL, audit, blocking, colour_alone, describe, need_axe
from tests.e2e.moves import choose_side, speak

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    # Skipped before any server starts; under CI the fixture below fails instead.
    pytest.mark.skipif(not AXE.exists() and not IN_CI, reason=f"axe-core is not installed: {INSTALL}"),
]

CASE = "The State v. Curtis Hale"
WIDTHS = {1280: 900, 390: 844}
WAIT_MS = 60_000
CURATOR = (
    "from django.contrib.auth.models import User; "
    "User.objects.filter(username='a11y-curator').exists() or "
    "User.objects.create_superuser('a11y-curator', 'c@example.com', 'a-long-password-1')"
)
TEACHER = (
    "from django.contrib.auth.models import User; "
    "User.objects.filter(username='a11y-teacher').exists() or "
    "User.objects.create_user('a11y-teacher', 't@example.com', 'a-long-password-2')"
)


@pytest.fixture(autouse=True)
def _axe_installed() -> None:
    """Skip (fail under CI) before a server starts when axe-core is not installed."""
    need_axe()


class Audit:
    """The violations axe finds on each page, at each width, and the figures over them all."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.found: dict[str, list[dict[str, Any]]] = {}
        self.colour_alone: dict[str, list[str]] = {}

    def check(self, page: Any, name: str) -> None:
        """Audit ``page`` as it is now at every width (the viewport it had is given back after)."""
        before = page.viewport_size
        for width, height in WIDTHS.items():
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(150)  # media queries and a resize's layout settle
            self.found[f"{name}@{width}"] = audit(page)
            if width == max(WIDTHS):  # the colours are the same at every width
                self.colour_alone[name] = colour_alone(page)
            page.screenshot(path=str(self.folder / f"{name}-{width}.png"), full_page=True)
        page.set_viewport_size(before)

    def visit(self, page: Any, url: str, name: str) -> None:
        page.goto(url)
        page.wait_for_load_state("networkidle")
        self.check(page, name)

    def figures(self) -> dict[str, Any]:
        impacts = Counter(v["impact"] for found in self.found.values() for v in found for _ in v["nodes"])
        return {
            "pages": sorted({key.rsplit("@", 1)[0] for key in self.found}),
            "audits": len(self.found),
            "violations_by_impact": {impact: impacts.get(impact, 0) for impact in IMPACTS},
            "votes_by_colour_alone": sum(len(found) for found in self.colour_alone.values()),
        }

    def finish(self) -> None:
        """Write the figures and the full list, then fail on any serious or critical violation."""
        (self.folder / "audit.json").write_text(json.dumps(self.figures(), indent=2))
        full = {key: describe(found) for key, found in self.found.items() if found}
        (self.folder / "violations.json").write_text(json.dumps(full, indent=2))
        serious = {key: describe(blocking(found)) for key, found in self.found.items() if blocking(found)}
        assert serious == {}, json.dumps(serious, indent=2)
        by_colour = {name: found for name, found in self.colour_alone.items() if found}
        assert by_colour == {}, f"votes shown by colour alone: {json.dumps(by_colour, indent=2)}"


def _context(browser: Any, width: int = 1280) -> Any:
    context = browser.new_context(viewport={"width": width, "height": WIDTHS[width]})
    context.set_default_timeout(WAIT_MS)  # a loaded machine answers slowly, never wrongly
    context.set_default_navigation_timeout(2 * WAIT_MS)
    return context


def _login(page: Any, url: str, path: str, username: str, password: str) -> None:
    page.goto(f"{url}{path}")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.locator("form").filter(has=page.locator("#id_password")).locator("[type=submit]").click()
    page.wait_for_load_state("networkidle")


def test_the_audit_fails_on_a_planted_violation(browser, live_daphne) -> None:
    """The audit can fail: the home page is clean, and the same page with a nameless button and
    pale text planted in it is not."""
    need_axe()
    page = _context(browser).new_page()
    page.goto(f"{live_daphne.url}/")
    assert blocking(audit(page)) == []
    page.evaluate(
        """() => {
          const main = document.getElementById("main");
          main.insertAdjacentHTML("afterbegin",
            '<button id="planted-button"><svg width="10" height="10"></svg></button>' +
            '<p id="planted-text" style="color:#c9c3b8">Pale words on the page</p>');
        }"""
    )
    found = {v["id"]: [node["target"] for node in v["nodes"]] for v in blocking(audit(page))}
    assert found.get("button-name") == ["#planted-button"], found
    assert found.get("color-contrast") == ["#planted-text"], found


def test_an_announcement_is_readable_at_every_moment_of_its_arrival(browser, live_daphne) -> None:
    """A notice that slides in is audited while it arrives (an audit, or a glance, can land at any
    moment of it): paused at points through its entrance, its words keep their contrast."""
    need_axe()
    page = _context(browser).new_page()
    page.goto(f"{live_daphne.url}/")
    audit(page)  # loads axe
    page.evaluate(
        """() => document.getElementById("main").insertAdjacentHTML("afterbegin",
             '<div class="announcements"><p class="announce" id="arriving">Juror 4 changed vote</p></div>')"""
    )
    for share in (0.05, 0.25, 0.5, 0.75):
        found = page.evaluate(
            """async (share) => {
              const [entrance] = document.getElementById("arriving").getAnimations();
              entrance.pause();
              entrance.currentTime = share * entrance.effect.getComputedTiming().duration;
              const results = await axe.run("#arriving", {runOnly: ["color-contrast"]});
              return results.violations.map((v) => v.nodes.map((n) => n.failureSummary)).flat();
            }""",
            share,
        )
        assert found == [], (share, found)


def test_every_page_a_player_meets_has_no_serious_violation(browser, live_daphne, artifacts) -> None:
    need_axe()
    url = live_daphne.url
    check = Audit(artifacts)
    page = _context(browser).new_page()
    page.add_init_script("localStorage.setItem('angry.textSpeed', 'instant')")  # audit whole speeches

    check.visit(page, f"{url}/", "home")
    page.get_by_role("button", name=f"Start deliberating: {CASE}").click()
    page.wait_for_url(re.compile(r"/court/[A-Za-z0-9_-]{16}/$"))
    page.locator(".first-vote").wait_for()
    check.check(page, "court-choosing-side")
    choose_side(page, "Not guilty", re.compile("DEFEND"))
    page.get_by_role("button", name="Speak").wait_for()
    check.check(page, "court-deliberating")
    page.get_by_role("button", name="Pass Turn").click()
    page.locator("#chat .msg-speech").first.wait_for()
    page.locator("#controls .move-fieldset:not([disabled])").wait_for()
    page.locator("#chat details.reactions").first.locator("summary").click()
    check.check(page, "court-after-a-round")
    page.get_by_role("button", name="Call Final Vote").click()
    page.locator("#call-confirm").wait_for()
    check.check(page, "court-calling-the-vote")
    page.get_by_role("button", name="Yes, call the final vote").click()
    page.get_by_role("link", name="See the verdict").wait_for()
    check.check(page, "court-finished")
    court_id = re.search(r"/court/([^/]+)/", page.url).group(1)
    check.visit(page, f"{url}/court/{court_id}/verdict/", "verdict")
    check.visit(page, f"{url}/deliberations/", "review-list")
    check.visit(page, f"{url}/deliberations/{court_id}/", "transcript")
    check.visit(page, f"{url}/deliberations/{court_id}/debrief/", "debrief")

    # The trial, with the player as counsel: the choice, a witness on the stand, the controls.
    page.goto(f"{url}/")
    card = page.locator("li", has=page.get_by_role("button", name=f"Start deliberating: {CASE}"))
    card.get_by_label("Hold the trial first").check()
    card.get_by_role("button", name=f"Start deliberating: {CASE}").click()
    page.wait_for_url(re.compile(r"/court/[A-Za-z0-9_-]{16}/$"))
    page.locator(".counsel-choice").wait_for()
    check.check(page, "court-trial-choosing-side")
    page.locator(".first-vote").get_by_label("Guilty", exact=True).check()
    page.get_by_label("I am counsel for my side").check()
    page.get_by_role("button", name=re.compile("PROSECUTE")).click()
    page.locator("#on-stand:not([hidden])").wait_for()
    page.locator("#controls form").first.wait_for()
    check.check(page, "court-trial")

    # A command-line game in reply-chain mode has the reflection (argument map) on its transcript.
    out = live_daphne.manage(
        "deliberate", "--case", "pruitt-basement-killing", "--seed", "4", "--max-rounds", "6",
        "--turn-mode", "reply-chain", "--json",
    )  # fmt: skip
    record = json.loads(out.strip().splitlines()[-1])
    check.visit(page, f"{url}/deliberations/{record['public_id']}/", "transcript-reflection")
    live_daphne.manage("experiment", "--cases", "kessler-market-robbery", "--runs", "2", "--name", "a11y")
    check.visit(page, f"{url}/experiments/", "experiments")
    page.locator("main a[href*='/experiments/']").first.click()
    page.wait_for_load_state("networkidle")
    check.check(page, "experiment")
    check.visit(page, f"{url}/no-such-page/", "not-found")
    check.finish()


def test_every_page_of_a_class_has_no_serious_violation(browser, live_daphne, artifacts) -> None:
    """A logged-in teacher's class of one room, a student in it from the phone, to the verdict."""
    from playwright.sync_api import expect

    need_axe()
    url = live_daphne.url
    live_daphne.manage("shell", "-c", TEACHER)
    check = Audit(artifacts)
    teacher = _context(browser).new_page()
    student = _context(browser, 390).new_page()
    for page in (teacher, student):
        page.add_init_script("localStorage.setItem('angry.textSpeed', 'instant')")

    check.visit(teacher, f"{url}/teacher/login/", "teacher-login")
    _login(teacher, url, "/teacher/login/", "a11y-teacher", "a-long-password-2")
    check.visit(teacher, f"{url}/rooms/new/", "room-new")
    check.visit(teacher, f"{url}/classes/new/", "class-new")
    teacher.fill("#picker-q", CASE.split(" v. ")[1])
    expect(teacher.locator("#picker-results li.picker-case")).to_have_count(1, timeout=WAIT_MS)
    teacher.locator("#picker-results label", has_text=CASE).click()
    teacher.fill("#id_groups", "1")
    teacher.fill("#id_seats", "1")
    teacher.fill("#id_name", "Year 9, Thursday")
    teacher.click("summary:has-text('More settings')")
    teacher.fill("#id_settings_max_rounds", "5")  # never over by itself while audited
    teacher.fill("#id_settings_turn_seconds", "120")
    teacher.fill("#id_pace_seconds", "0.5")
    teacher.click("button:has-text('Make the class')")
    code = teacher.locator(".class-room .room-code").first.inner_text().strip()
    class_url = teacher.url
    check.check(teacher, "class-page-waiting")
    check.visit(teacher, f"{class_url}codes/", "class-codes")

    check.visit(student, f"{url}/join/", "join")
    student.fill("#id_code", code)
    student.click("button:has-text('Find the room')")
    student.locator("#id_name").wait_for()
    check.check(student, "join-room")
    student.fill("#id_name", "Mia")
    student.click("button:has-text('Take the seat')")
    expect(student.locator("#room-controls")).to_contain_text("Mia", timeout=WAIT_MS)
    check.check(student, "room-student-waiting")
    check.visit(teacher, f"{url}/rooms/{code}/", "room-host-waiting")
    check.visit(teacher, f"{url}/rooms/{code}/teacher/", "room-teacher-waiting")

    teacher.goto(class_url)
    teacher.click("button:has-text('Start every group with students')")
    expect(student.locator("#your-turn")).to_be_visible(timeout=WAIT_MS)
    check.check(student, "room-student-turn")
    check.visit(teacher, class_url, "class-page-running")
    check.visit(teacher, f"{url}/rooms/{code}/", "room-host-running")
    check.visit(teacher, f"{url}/rooms/{code}/teacher/", "room-teacher-running")
    speak(student, "Two seconds under a lamp is not an identification, is it?")
    expect(student.locator("#chat")).to_contain_text("not an identification", timeout=WAIT_MS)
    check.check(student, "room-student-after-speaking")

    teacher.goto(f"{url}/rooms/{code}/")
    teacher.click("button:has-text('Call the final vote')")
    expect(student.locator("#phase-banner")).to_contain_text("Verdict", timeout=2 * WAIT_MS)
    check.check(student, "room-student-verdict")
    check.visit(teacher, class_url, "class-page-finished")
    check.visit(teacher, f"{class_url}debrief/", "class-debrief")
    check.visit(teacher, f"{url}/my-rooms/", "my-rooms")
    check.finish()


def test_every_page_a_curator_uses_has_no_serious_violation(browser, live_daphne, artifacts, tmp_path) -> None:
    need_axe()
    url = live_daphne.url
    live_daphne.manage("shell", "-c", CURATOR)
    check = Audit(artifacts)
    page = _context(browser).new_page()
    check.visit(page, f"{url}/admin/login/", "admin-login")
    _login(page, url, "/admin/login/", "a11y-curator", "a-long-password-1")
    check.visit(page, f"{url}/admin/", "admin-index")
    check.visit(page, f"{url}/admin/cases/case/", "admin-case-list")
    page.locator("#result_list tbody a").first.click()
    page.wait_for_load_state("networkidle")
    check.check(page, "admin-case-change")
    check.visit(page, f"{url}/admin/cases/case/add/", "admin-case-add")
    check.visit(page, f"{url}/admin/cases/case/import-yaml/", "admin-import-yaml")
    check.visit(page, f"{url}/admin/cases/case/import-oldbailey/", "admin-import-oldbailey")
    upload = tmp_path / "not-a-trial.xml"
    upload.write_text("<TEI.2><text><body><div0 type='sessionsPaper'></div0></body></text></TEI.2>")
    page.set_input_files("input[type=file]", str(upload))
    page.locator("#content form [type=submit]").click()
    page.wait_for_load_state("networkidle")  # the job's page, or the case list once it has finished
    page.goto(f"{url}/admin/cases/case/import-oldbailey/")
    page.get_by_role("link", name=re.compile(r"^Job \d+")).first.click()  # ?stay=1: its page, finished
    page.wait_for_load_state("networkidle")
    check.check(page, "admin-import-progress")
    check.visit(page, f"{url}/admin/deliberation/narration/", "admin-narrations")
    out = live_daphne.manage("deliberate", "--case", "kessler-market-robbery", "--seed", "2", "--json")
    public_id = json.loads(out.strip().splitlines()[-1])["public_id"]
    check.visit(page, f"{url}/deliberations/{public_id}/delete/", "review-delete")
    check.finish()
