"""With DEBUG off (the default) errors get the product's own pages, never Django's debug pages;
static files and narration audio are still served."""

from __future__ import annotations

import logging

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from deliberation.services import review as review_services
from tests.deliberation.review.conftest import write_deliberation

DEBUG_MARKS = ("Using the URLconf", "Traceback", "django.core", "DEBUG = True", "sk-live-do-not-show")


def _styled(body: str) -> None:
    """The product's page: its header, stylesheet and error panel, and nothing Django's debug page shows."""
    assert 'class="site-header"' in body and "css/app.css" in body and 'class="error-page"' in body
    for mark in DEBUG_MARKS:
        assert mark not in body


def test_debug_is_off_under_the_tests_as_by_default(settings):
    assert settings.DEBUG is False


def test_an_unknown_address_gets_the_products_404(client, db):
    response = client.get("/no/such/page/")

    assert response.status_code == 404
    body = response.content.decode()
    _styled(body)
    assert "There is nothing here" in body


def test_a_revoked_share_link_is_a_plain_404(client, db):
    deliberation = write_deliberation(rounds=1)
    token = review_services.share_link_create(deliberation_id=deliberation.pk)
    assert client.get(reverse("review:shared", args=[token])).status_code == 200
    review_services.share_link_revoke(deliberation_id=deliberation.pk)

    response = client.get(reverse("review:shared", args=[token]))

    assert response.status_code == 404
    _styled(response.content.decode())


def test_a_refusal_gets_the_products_403_with_its_reason(client, db):
    deliberation = write_deliberation(rounds=1)

    response = client.get(reverse("review:delete", args=[deliberation.public_id]))

    assert response.status_code == 403
    body = response.content.decode()
    _styled(body)
    assert "Only a curator can delete a deliberation." in body


def test_an_expired_form_gets_the_products_csrf_page(db):
    response = Client(enforce_csrf_checks=True).post(reverse("room_join"), {"code": "QQQQQQ"})

    assert response.status_code == 403
    body = response.content.decode()
    _styled(body)
    assert "This form has expired" in body


@pytest.mark.urls("tests.angryagents.crash_urls")
def test_a_crash_gets_the_products_500_without_the_traceback(db):
    response = Client(raise_request_exception=False).get("/crash/")

    assert response.status_code == 500
    body = response.content.decode()
    _styled(body)
    assert "The court is in recess" in body


def test_static_files_are_served_without_debug(client):
    response = client.get("/static/css/app.css")

    assert response.status_code == 200 and response["Content-Type"].startswith("text/css")
    assert b".error-page" in b"".join(response.streaming_content)


def test_the_admins_static_files_are_served_too(client):
    assert client.get("/static/admin/css/base.css").status_code == 200


def test_collected_static_files_serve_as_well(client, settings, tmp_path):
    settings.STATIC_ROOT = tmp_path / "static"
    call_command("collectstatic", "--noinput", verbosity=0)
    assert (tmp_path / "static" / "css" / "app.css").exists()
    assert client.get("/static/css/app.css").status_code == 200


def test_a_refusal_is_one_line_in_the_servers_log_and_a_crash_keeps_its_traceback(client, db, caplog):
    deliberation = write_deliberation(rounds=1)
    with caplog.at_level(logging.WARNING, logger="django.request"):
        assert client.get(reverse("review:delete", args=[deliberation.public_id])).status_code == 403
    (refused,) = [r for r in caplog.records if r.name == "django.request"]
    assert refused.getMessage() == f"Forbidden (Permission denied): /deliberations/{deliberation.public_id}/delete/"
    assert refused.exc_info is None and "Traceback" not in caplog.text
    crashed = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "Internal Server Error", None, None)
    try:
        raise RuntimeError("a bug")
    except RuntimeError as exc:
        crashed.exc_info = (type(exc), exc, exc.__traceback__)
    for found in logging.getLogger("django.request").filters:
        found.filter(crashed)
    assert crashed.exc_info is not None  # a real error keeps its traceback
