"""The historical verdict stays sealed on every review page and export until the jury's own verdict."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.deliberation.review.conftest import write_deliberation
from tests.factories import CaseFactory

pytestmark = pytest.mark.django_db
PAGES = ("review:transcript", "review:export_md", "review:export_summary")


@pytest.fixture
def curator(client):
    client.force_login(get_user_model().objects.create_user("curator", password="pw", is_staff=True))
    return client


def _case():
    return CaseFactory(title="The Crown v. Sealed", historical_verdict="guilty", historical_punishment="Transported")


@pytest.mark.parametrize("name", PAGES)
def test_a_deliberation_still_running_shows_no_historical_verdict(client, name):
    running = write_deliberation(rounds=2, case=_case(), verdict="")
    body = client.get(reverse(name, args=[running.public_id])).content.decode()
    assert "Historical verdict" not in body and "Transported" not in body


def test_the_json_export_of_a_running_deliberation_holds_no_historical_verdict(client):
    running = write_deliberation(rounds=2, case=_case(), verdict="")
    record = json.loads(client.get(reverse("review:export_json", args=[running.public_id])).content)
    assert record["historical_verdict"] is None and record["case_detail"]["historical_verdict"] is None


def test_the_list_seals_the_historical_verdict_of_a_running_deliberation(curator):
    write_deliberation(rounds=2, case=_case(), verdict="")
    body = curator.get(reverse("review:list")).content.decode()
    body = body[body.index("<tbody>") :]
    row = body[body.index("The Crown v. Sealed") :].split("</tr>")[0]
    assert "sealed until the verdict" in row and "Guilty" not in row


@pytest.mark.parametrize("name", PAGES)
def test_after_the_verdict_the_historical_verdict_is_shown(client, name):
    done = write_deliberation(rounds=2, case=_case(), verdict="not_guilty")
    assert "Historical verdict: Guilty" in client.get(reverse(name, args=[done.public_id])).content.decode().replace(
        "<strong>", ""
    ).replace("</strong>", "")
