"""A person's own words and a strategy's crafted part, stored apart and shown apart on every page
and export that shows a person's turn; a free argument stored byte-for-byte as typed."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from deliberation import services
from deliberation.models import Phase, TurnKind

# The court and room forms trim the blank space at a text's ends (as every form does); everything
# between is the person's, byte for byte.
TYPED = "honestly the clerk saw him for like 2 secs  &  the lineup was rigged <b>lol</b>"
FREE = "Nobody checked the neon sign's wiring?!  \n\nThat's a real doubt,   wiring  fires happen"


def played(robbery, strategy: str, text: str, django_capture_on_commit_callbacks):
    deliberation = services.deliberation_start(case=robbery, seed=3, player_side="defend")
    with django_capture_on_commit_callbacks(execute=True):
        services.player_speak(deliberation_id=deliberation.pk, seat_number=7, strategy=strategy, text=text)
    deliberation.refresh_from_db()
    return deliberation, deliberation.turns.filter(kind=TurnKind.SPEECH, seat_number=7).first()


@pytest.fixture
def staff(client):
    user = get_user_model().objects.create_user("teacher", password="x", is_staff=True)
    client.force_login(user)
    return client


def test_a_free_argument_is_stored_byte_for_byte_with_nothing_crafted(robbery, django_capture_on_commit_callbacks):
    _, turn = played(robbery, "free_argument", FREE, django_capture_on_commit_callbacks)
    assert turn.content == FREE
    assert turn.crafted == "" and turn.own_words == FREE


def test_a_strategy_stores_its_crafted_part_apart_from_the_persons_words(robbery, django_capture_on_commit_callbacks):
    _, turn = played(robbery, "challenge_evidence", TYPED, django_capture_on_commit_callbacks)
    assert turn.crafted and TYPED not in turn.crafted
    assert turn.own_words == TYPED
    assert turn.content == f"{turn.crafted} {TYPED}"


def test_the_transcript_and_exports_show_the_crafted_part_and_the_persons_words_apart(
    robbery, staff, django_capture_on_commit_callbacks
):
    deliberation, turn = played(robbery, "challenge_evidence", TYPED, django_capture_on_commit_callbacks)
    page = staff.get(reverse("review:transcript", args=[deliberation.public_id])).content.decode()
    assert "Crafted by the strategy" in page and "In their own words" in page
    assert "&lt;b&gt;lol&lt;/b&gt;" in page  # a person's words are shown as text, never as markup

    body = staff.get(reverse("review:export_md", args=[deliberation.public_id])).content.decode()
    assert f"*Crafted by the strategy:* {turn.crafted}" in body
    assert f"*In their own words:* {TYPED}" in body

    record = json.loads(staff.get(reverse("review:export_json", args=[deliberation.public_id])).content)
    logged = [t for r in record["round_log"] for t in r["turns"] if t["kind"] == "speech"]
    for turns in (logged, record["turns"]):  # the full log, and the command line's short record
        stored = next(t for t in turns if t["seat"] == 7)
        assert (stored["content"], stored["crafted"], stored["own_words"]) == (turn.content, turn.crafted, TYPED)
        juror = next(t for t in turns if t["seat"] != 7)
        assert juror["crafted"] == juror["own_words"] == ""  # an AI juror's speech has no person's words


def test_the_debrief_and_its_csv_keep_the_crafted_part_and_own_words_apart(
    robbery, staff, django_capture_on_commit_callbacks
):
    deliberation, turn = played(robbery, "challenge_evidence", TYPED, django_capture_on_commit_callbacks)
    while deliberation.phase == Phase.DELIBERATION:
        services.round_run(deliberation_id=deliberation.pk)
        deliberation.refresh_from_db()
    page = staff.get(reverse("review:debrief", args=[deliberation.public_id])).content.decode()
    assert "Crafted by the strategy" in page
    rows = list(
        csv.DictReader(
            io.StringIO(staff.get(reverse("review:debrief_csv", args=[deliberation.public_id])).content.decode())
        )
    )
    mine = next(row for row in rows if row["seat"] == "7" and row["crafted"])
    assert (mine["crafted"], mine["own_words"]) == (turn.crafted, TYPED)
