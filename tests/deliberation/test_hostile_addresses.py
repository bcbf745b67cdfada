"""A NUL character (which PostgreSQL text cannot hold) in an address, a search or a form answers
with a page or a plain 404, never a server error, for a stranger as for anyone."""

from __future__ import annotations

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db

GETS = [
    "/?q=lin%00en",
    "/?offence=theft%00",
    "/?cursor=%00",
    "/cases/pick/?q=a%00b",
    "/join/?code=AB%00CD",
    "/join/AB%00CD/",
    "/rooms/AB%00CD/",
    "/rooms/AB%00CD/teacher/",
    "/court/abc%00def/",
    "/court/abc%00def/verdict/",
    "/court/abc%00def/search/?q=x",
    "/deliberations/ab%00/",
    "/deliberations/ab%00/export.md",
    "/deliberations/shared/ab%00/",
    "/classes/ab%00/",
]
POSTS = [
    ("/join/", {"code": "AB\x00CD"}),
    ("/court/abc%00def/vote/", {"vote": "guilty"}),
    ("/teacher/login/", {"username": "a\x00", "password": "x"}),
]


@pytest.fixture
def stranger(client):
    client.raise_request_exception = False  # a server error is an answer here, not an exception
    call_command("load_cases", stdout=open("/dev/null", "w"))
    return client


@pytest.mark.parametrize("url", GETS)
def test_a_nul_in_an_address_or_a_search_is_never_a_server_error(stranger, url):
    assert stranger.get(url).status_code in (200, 302, 400, 404)


@pytest.mark.parametrize(("url", "data"), POSTS)
def test_a_nul_in_a_form_is_never_a_server_error(stranger, url, data):
    assert stranger.post(url, data).status_code in (200, 302, 400, 403, 404)
