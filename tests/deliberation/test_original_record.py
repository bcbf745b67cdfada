"""The original record of a trial (its full text and its page on Old Bailey Online) appears on the
verdict page, the transcript and the admin only after the deliberation's own verdict."""

from __future__ import annotations

import pytest
from django.test import Client

from cases.importers.oldbailey_record import CREDIT_NAME
from cases.models import Case
from cases.services import oldbailey_import_paths
from deliberation.models import Deliberation, Phase
from tests.cases.oldbailey_sample import TRIALS

HTMX = {"HTTP_HX_REQUEST": "true"}
LINK = "https://www.oldbaileyonline.org/record/t18600402-389"
# The real verdict as printed: in the record, never in the case file.
RECORD_ONLY = "NOT GUILTY."


@pytest.fixture
def halpin(library, settings) -> Case:
    settings.ANGRY_NARRATION = "text"
    oldbailey_import_paths(paths=[t for t in TRIALS if t.stem == "t18600402-389"])
    return Case.objects.get(source_id="t18600402-389")


@pytest.fixture
def deliberating(client: Client, halpin: Case, django_capture_on_commit_callbacks) -> tuple[Client, Deliberation]:
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/court/start/", {"case": halpin.slug})
        deliberation = Deliberation.objects.get()
        client.post(f"/court/{deliberation.public_id}/side/", {"side": "defend", "vote": "not_guilty"}, **HTMX)
    return client, deliberation


def _pages(client: Client, deliberation: Deliberation) -> list[str]:
    return [
        client.get(f"/court/{deliberation.public_id}/verdict/").content.decode(),
        client.get(f"/deliberations/{deliberation.public_id}/").content.decode(),
        client.get(f"/court/{deliberation.public_id}/").content.decode(),
    ]


def test_the_record_stays_out_of_every_page_until_the_jury_has_decided(deliberating):
    client, deliberation = deliberating
    for html in _pages(client, deliberation):
        assert LINK not in html
        assert RECORD_ONLY not in html
        assert "The original record" not in html


def test_after_the_verdict_the_verdict_page_and_transcript_show_the_record_link_text_and_credit(
    deliberating, django_capture_on_commit_callbacks
):
    client, deliberation = deliberating
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/court/{deliberation.public_id}/call/", {"confirm": "yes"}, **HTMX)
    deliberation.refresh_from_db()
    assert deliberation.phase == Phase.VERDICT
    verdict_page, transcript, _ = _pages(client, deliberation)
    for html in (verdict_page, transcript):
        assert f'href="{LINK}"' in html
        assert "<p>389. PATRICK HALPIN (26), Feloniously killing" in html
        assert RECORD_ONLY in html
        assert CREDIT_NAME in html


def test_the_case_admin_page_shows_the_record_to_curators(admin_client, halpin):
    html = admin_client.get(f"/admin/cases/case/{halpin.pk}/change/").content.decode()
    assert f'href="{LINK}"' in html
    assert RECORD_ONLY in html
    assert CREDIT_NAME in html
