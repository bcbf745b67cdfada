"""Read-only share links: made and revoked by the deliberation's owner, unguessable, 404 once revoked."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from deliberation.models import Deliberation
from deliberation.services.review import share_link_create, share_link_revoke
from tests.conftest import browser_of
from tests.deliberation.review.conftest import write_deliberation

pytestmark = pytest.mark.django_db


def _host(client, deliberation: Deliberation) -> None:
    """Make this client's session the one that hosted the deliberation."""
    key = browser_of(client, hosting=deliberation.pk)
    Deliberation.objects.filter(pk=deliberation.pk).update(host_session_key=key)


def test_the_host_creates_a_link_that_shows_the_transcript_read_only(client):
    deliberation = write_deliberation(rounds=2)
    _host(client, deliberation)
    response = client.post(reverse("review:share_create", args=[deliberation.public_id]))
    assert response.status_code == 302
    token = Deliberation.objects.get(pk=deliberation.pk).share_token
    assert token
    page = client.get(reverse("review:transcript", args=[deliberation.public_id])).content.decode()
    assert f"/shared/{token}/" in page and "Revoke link" in page

    reader = client.__class__()
    shared = reader.get(f"/shared/{token}/")
    html = shared.content.decode()
    assert shared.status_code == 200 and "Speech in round 2 by seat 3." in html
    assert "Share read-only" not in html and "Delete" not in html and "<form" not in html
    assert shared["Referrer-Policy"] == "no-referrer"
    assert reader.get(f"/shared/{token}/export.md").status_code == 200


def test_a_revoked_link_is_not_found_anymore(client):
    deliberation = write_deliberation(rounds=2)
    _host(client, deliberation)
    client.post(reverse("review:share_create", args=[deliberation.public_id]))
    token = Deliberation.objects.get(pk=deliberation.pk).share_token
    client.post(reverse("review:share_revoke", args=[deliberation.public_id]))
    assert Deliberation.objects.get(pk=deliberation.pk).share_token is None
    assert client.get(f"/shared/{token}/").status_code == 404
    assert client.get(f"/shared/{token}/export.json").status_code == 404


def test_someone_else_can_neither_share_nor_revoke(client):
    deliberation = write_deliberation(rounds=1)
    Deliberation.objects.filter(pk=deliberation.pk).update(host_session_key="somebody-elses-session")
    share_link_create(deliberation_id=deliberation.pk)
    # A private game: to a stranger it does not exist (see test_access.py).
    assert client.post(reverse("review:share_create", args=[deliberation.public_id])).status_code == 404
    assert client.post(reverse("review:share_revoke", args=[deliberation.public_id])).status_code == 404
    assert Deliberation.objects.get(pk=deliberation.pk).share_token
    assert client.get(reverse("review:transcript", args=[deliberation.public_id])).status_code == 404


def test_a_public_run_shows_a_visitor_no_share_controls(client):
    deliberation = write_deliberation(rounds=1)
    page = client.get(reverse("review:transcript", args=[deliberation.public_id])).content.decode()
    assert "Share read-only" not in page


def test_a_deliberation_hosted_by_nobody_is_not_owned_by_a_visitor_without_a_session(client):
    deliberation = write_deliberation(rounds=1)  # host_session_key is blank, as from the command line
    assert client.post(reverse("review:share_create", args=[deliberation.public_id])).status_code == 403


def test_a_curator_may_share_any_deliberation(client):
    client.force_login(get_user_model().objects.create_user("curator", password="pw", is_staff=True))
    deliberation = write_deliberation(rounds=1)
    client.post(reverse("review:share_create", args=[deliberation.public_id]))
    assert Deliberation.objects.get(pk=deliberation.pk).share_token


def test_sharing_is_a_post_only_action(client):
    deliberation = write_deliberation(rounds=1)
    _host(client, deliberation)
    assert client.get(reverse("review:share_create", args=[deliberation.public_id])).status_code == 405


def test_tokens_are_long_random_and_stable_until_revoked():
    one, two = write_deliberation(rounds=1), write_deliberation(rounds=1)
    token = share_link_create(deliberation_id=one.pk)
    assert share_link_create(deliberation_id=one.pk) == token
    other = share_link_create(deliberation_id=two.pk)
    assert token != other and len(token) >= 32 and str(one.pk) != token
    assert share_link_revoke(deliberation_id=one.pk) is True
    assert share_link_revoke(deliberation_id=one.pk) is False
    assert share_link_create(deliberation_id=one.pk) != token


def test_an_unknown_token_is_not_found(client):
    write_deliberation(rounds=1)
    assert client.get("/shared/not-a-real-token/").status_code == 404
