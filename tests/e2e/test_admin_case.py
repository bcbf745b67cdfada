"""A curator edits a case's charges one a line in the admin, in a real browser."""

from __future__ import annotations

import json

SLUG = "kessler-market-robbery"
CREATE_CURATOR = (
    "from django.contrib.auth.models import User; "
    "User.objects.filter(username='e2e-curator').exists() or "
    "User.objects.create_superuser('e2e-curator', 'c@example.com', 'a-long-password-1')"
)


def test_a_curator_adds_a_charge_as_a_new_line_and_ticks_content_notes(browser, live_daphne, artifacts):
    live_daphne.manage("shell", "-c", CREATE_CURATOR)
    (case_id, charges), *_ = live_daphne.query("SELECT id, charges FROM cases_case WHERE slug = ?", (SLUG,))
    before = json.loads(charges) if isinstance(charges, str) else charges
    page = browser.new_page(viewport={"width": 1280, "height": 1400})
    try:
        page.goto(live_daphne.url + "/admin/login/")
        page.fill("#id_username", "e2e-curator")
        page.fill("#id_password", "a-long-password-1")
        page.click("input[type=submit]")
        page.goto(f"{live_daphne.url}/admin/cases/case/{case_id}/change/")
        box = page.locator("textarea#id_charges")
        assert box.input_value() == "\n".join(before)
        assert page.locator("input[type=checkbox][name=content_notes]").count() >= 5
        page.screenshot(path=str(artifacts / "admin-case.png"), full_page=False)
        box.fill(box.input_value() + "\nHandling stolen goods\n")
        page.click("input[name=_continue]")
        page.wait_for_selector(".messagelist")
    finally:
        page.close()
    (after,), *_ = live_daphne.query("SELECT charges FROM cases_case WHERE slug = ?", (SLUG,))
    assert (json.loads(after) if isinstance(after, str) else after) == [*before, "Handling stolen goods"]
