"""Failed model calls in the record: the transcript, the courtroom and every export name the cause,
and never the provider's own words (its URL, host or key): those stay in the server log and the admin."""

from __future__ import annotations

import json
from html import unescape

import pytest
from django.urls import reverse

from deliberation.engine.failures import NOTE_REACTIONS_FAILED
from deliberation.models import RoundStats, Turn, TurnKind
from deliberation.review.failures import STAND_IN_LINE
from tests.deliberation.review.conftest import write_deliberation

# What the model client said, as it says it: the provider's URL, its host and a key.
REASON = (
    "the model call failed after 3 attempts: Client error '429 Too Many Requests' for url "
    "'http://10.8.0.3:8399/v1/chat/completions' (key sk-live-4f9a...)"
)
REACTION_DETAIL = "the model did not answer within 30 s (3 attempts) at llm.internal.school.example:11434"
INTERNALS = ("http", "10.8.0.3", "8399", "sk-live", "llm.internal", "11434", "Client error")


def _nothing_internal(text: str) -> None:
    assert not [word for word in INTERNALS if word in text], text


@pytest.fixture
def failed(db):
    """Round 2 of a written deliberation: a speech rate-limited, the reactions timed out."""
    deliberation = write_deliberation(rounds=3)
    speech = deliberation.turns.filter(round_number=2, kind=TurnKind.SPEECH).first()
    Turn.objects.filter(pk=speech.pk).update(is_fallback=True, fallback_cause="rate_limit", fallback_reason=REASON)
    last = deliberation.turns.order_by("-sequence").first()
    Turn.objects.create(
        deliberation=deliberation,
        round_number=2,
        sequence=last.sequence + 1,
        kind=TurnKind.NOTE,
        speaker_name="Note",
        content=NOTE_REACTIONS_FAILED.format(cause="timed out"),
    )
    RoundStats.objects.filter(deliberation=deliberation, round_number=2).update(
        failed_calls=2,
        failures=[
            {"kind": "speech", "cause": "rate_limit", "detail": REASON, "seat": speech.seat_number},
            {"kind": "reaction", "cause": "timeout", "detail": REACTION_DETAIL, "seat": None},
        ],
    )
    deliberation.speech = Turn.objects.get(pk=speech.pk)
    return deliberation


def _get(client, name: str, deliberation) -> str:
    response = client.get(reverse(name, args=[deliberation.public_id]))
    assert response.status_code == 200
    return unescape(response.content.decode())


def test_the_transcript_badges_a_stand_in_turn_with_its_cause_and_says_why(client, failed):
    html = _get(client, "review:transcript", failed)

    start = html.index(f'id="turn-{failed.speech.sequence}"')
    article = html[start : html.index("</article>", start)]
    assert "stand-in · rate limited" in article
    assert STAND_IN_LINE.format(cause="rate limited") in article
    assert "did not answer in time" not in html  # the old badge said so whatever the cause
    _nothing_internal(article)


def test_the_transcript_lists_a_rounds_failed_calls_and_counts_them(client, failed):
    html = _get(client, "review:transcript", failed)

    round_two = html[html.index('id="round-2"') : html.index('id="round-3"')]
    assert "2 model calls failed in this round" in round_two
    assert "jury's reactions" in round_two and "timed out" in round_two
    assert NOTE_REACTIONS_FAILED.format(cause="timed out") in round_two
    _nothing_internal(round_two)
    assert "<dt>Failed calls</dt><dd>2 (1 timed out, 1 rate limited)</dd>" in html


def test_the_courtroom_badges_a_stand_in_turn_with_its_cause(client, failed):
    html = _get(client, "court", failed)

    start = html.index(f'id="turn-{failed.speech.pk}"')
    message = html[start : html.index("</li>", start)]
    assert "stand-in · rate limited" in message
    assert STAND_IN_LINE.format(cause="rate limited") in message
    _nothing_internal(message)


def test_the_markdown_marks_the_stand_in_turn_and_the_failed_calls(client, failed):
    body = _get(client, "review:export_md", failed)

    speech = failed.speech
    assert f"### Juror Name {speech.seat_number} (seat {speech.seat_number}) to " in body
    assert "· evidence · stand-in (rate limited)\n" in body
    assert f"{speech.content}\n\n{STAND_IN_LINE.format(cause='rate limited')}\n" in body
    assert "Figures: 3 model calls (2 failed)" in body
    assert f"Failed calls: juror's speech by Juror Name {speech.seat_number} (seat {speech.seat_number})" in body
    assert "jury's reactions: timed out." in body
    assert "Totals: 9 model calls (2 failed (1 timed out, 1 rate limited))" in body
    _nothing_internal(body)


def test_the_json_carries_each_turns_cause_and_each_rounds_failures(client, failed):
    record = json.loads(_get(client, "review:export_json", failed))

    turns = {t["sequence"]: t for r in record["round_log"] for t in r["turns"]}
    stand_in = turns[failed.speech.sequence]
    assert (stand_in["is_fallback"], stand_in["fallback_cause"], stand_in["fallback_reason"]) == (
        True,
        "rate_limit",
        "rate limited",
    )
    assert all(t["fallback_cause"] == "" for s, t in turns.items() if s != failed.speech.sequence)
    figures = record["round_log"][2]["figures"]
    assert figures["failed_calls"] == 2
    assert [(f["kind"], f["cause"]) for f in figures["failures"]] == [("speech", "rate_limit"), ("reaction", "timeout")]
    assert [f["reason"] for f in figures["failures"]] == ["rate limited", "timed out"]
    assert record["totals"]["failures_by_kind"] == {"speech": 1, "reaction": 1}
    assert record["totals"]["failures_by_cause"] == {"timeout": 1, "rate_limit": 1}
    assert record["failed_calls"] == 2  # in the run record too (deliberate --json)
    _nothing_internal(json.dumps(record))


def test_the_summary_counts_the_failed_calls_and_marks_a_stand_in_last_word(client, failed):
    body = _get(client, "review:export_summary", failed)

    assert "Model calls: 9 (2 failed (1 timed out, 1 rate limited))" in body
    assert "Failed model calls by kind: 1 juror's speech, 1 jury's reactions." in body
    assert "Stand-in turns (the offline engine spoke): 1 (1 rate limited)." in body
    _nothing_internal(body)


def test_the_admin_keeps_the_full_detail_of_each_failed_call(admin_client, failed):
    page = admin_client.get(reverse("admin:deliberation_deliberation_change", args=[failed.pk]))
    html = unescape(page.content.decode())

    assert REASON in html and REACTION_DETAIL in html


def test_a_run_with_no_failure_says_none_failed(client, db):
    deliberation = write_deliberation(rounds=2)

    assert "Model calls: 6 (none failed)" in _get(client, "review:export_summary", deliberation)
    assert "stand-in" not in _get(client, "review:export_md", deliberation)
