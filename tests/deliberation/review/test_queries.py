"""The transcript page costs a fixed number of queries, however long the deliberation."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from deliberation.models import Deliberation
from deliberation.services.review import share_link_create
from tests.deliberation.review.conftest import write_deliberation

pytestmark = pytest.mark.django_db


def _queries(client, url: str) -> int:
    client.get(url)  # warm: sessions, content types and template caches are not what we measure
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured.captured_queries)


def test_the_transcript_takes_as_many_queries_at_40_rounds_as_at_2(client):
    short, long = write_deliberation(rounds=2), write_deliberation(rounds=40)
    assert Deliberation.objects.get(pk=long.pk).turns.count() == 120
    short_count = _queries(client, reverse("review:transcript", args=[short.public_id]))
    long_count = _queries(client, reverse("review:transcript", args=[long.public_id]))
    assert short_count == long_count
    assert "Round 40" in client.get(reverse("review:transcript", args=[long.public_id])).content.decode()


def test_a_replayed_round_and_the_shared_page_cost_the_same_too(client):
    short, long = write_deliberation(rounds=2), write_deliberation(rounds=40)
    replay = [_queries(client, reverse("review:transcript", args=[d.public_id]) + "?round=1") for d in (short, long)]
    shared = [_queries(client, f"/shared/{share_link_create(deliberation_id=d.pk)}/") for d in (short, long)]
    exported = [_queries(client, reverse("review:export_json", args=[d.public_id])) for d in (short, long)]
    assert replay[0] == replay[1] and shared[0] == shared[1] and exported[0] == exported[1]
