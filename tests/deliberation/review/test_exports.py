"""Exports in seed 003's logging modes, by URL and by command, with turn content kept verbatim."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from deliberation.management.commands.export_deliberation import ERROR_NO_DELIBERATION
from deliberation.models import Deliberation, Turn, TurnKind
from deliberation.rooms import services
from deliberation.selectors import deliberations_with_record, run_record
from tests.conftest import browser_of
from tests.deliberation.review.conftest import SPECIAL, write_deliberation
from tests.factories import CaseFactory

URLS = {"md": "review:export_md", "json": "review:export_json", "summary": "review:export_summary"}


@pytest.fixture
def special(finished):
    """The finished deliberation with one speech (the last of all) carrying awkward content."""
    turn = finished.turns.filter(kind=TurnKind.SPEECH).order_by("-sequence").first()
    Turn.objects.filter(pk=turn.pk).update(content=SPECIAL)
    return finished


def _command(pk: int, fmt: str, *extra: str) -> str:
    out = io.StringIO()
    call_command("export_deliberation", str(pk), "--format", fmt, *extra, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_the_export_urls_are_stable():
    assert reverse(URLS["md"], args=[7]) == "/deliberations/7/export.md"
    assert reverse(URLS["json"], args=[7]) == "/deliberations/7/export.json"
    assert reverse(URLS["summary"], args=[7]) == "/deliberations/7/summary.txt"


@pytest.mark.parametrize("fmt", ["md", "json", "summary"])
def test_the_command_prints_what_the_url_serves(client, special, fmt):
    served = client.get(reverse(URLS[fmt], args=[special.public_id]))
    assert served.status_code == 200
    assert _command(special.pk, fmt) == served.content.decode()


@pytest.mark.parametrize("fmt", ["md", "summary"])
def test_turn_content_is_written_verbatim_in_text_exports(client, special, fmt):
    body = client.get(reverse(URLS[fmt], args=[special.public_id])).content.decode()
    assert SPECIAL in body
    assert "&lt;" not in body and "\\n" not in body


def test_the_markdown_has_a_header_the_jurors_each_round_and_the_verdict(client, special):
    body = client.get(reverse(URLS["md"], args=[special.public_id])).content.decode()
    assert body.startswith(f"# Deliberation {special.pk}: {special.case.title}\n")
    assert "- Engine: the offline engine" in body and "- Seed: 3" in body and "- Round limit: 20" in body
    for seat in special.seats.all():
        assert f"- Seat {seat.number}: {seat.emoji} {seat.display_name}" in body
    positions = [body.index(f"## Round {n}\n") for n in range(1, special.round_number + 1)]
    assert positions == sorted(positions) and body.index("## First ballot") < positions[0]
    verdict = body[body.index("## Verdict") :]
    assert f"**{special.get_verdict_display()}**" in verdict
    assert "Vote changes:" in body
    for turn in special.turns.all():
        assert turn.content in body


def test_the_json_holds_the_run_record_and_every_round_in_full(client, special):
    record = json.loads(client.get(reverse(URLS["json"], args=[special.public_id])).content)
    expected = run_record(deliberations_with_record().get(pk=special.pk))
    for key, value in expected.items():
        assert record[key] == value, key
    assert [r["round"] for r in record["round_log"]] == list(range(special.round_number + 1))
    last = record["round_log"][-1]
    stats = special.round_stats.get(round_number=special.round_number)
    assert last["figures"]["llm_calls"] == stats.llm_calls and last["figures"]["engine"] == "offline"
    turns = [t for r in record["round_log"] for t in r["turns"]]
    assert len(turns) == special.turns.count()
    assert [t["content"] for t in turns].count(SPECIAL) == 1  # the JSON string decodes to the exact content
    assert any(t["flips"] for t in turns) and all(t["reactions"] for t in turns if t["kind"] == "speech")
    assert len(last["snapshots"]) == 12
    assert {v["ballot"] for r in record["round_log"] for v in r["votes"]} >= {"initial", "flip"}
    assert len(record["final_votes"]) == 12
    narrated = [n["text"] for r in record["round_log"] for n in r["narrations"]] + [
        n["text"] for n in record["verdict_narrations"]
    ]
    assert sorted(narrated) == sorted(special.narrations.values_list("text", flat=True))
    assert record["engine_label"] == "the offline engine" and len(record["jurors"]) == 12


def test_the_summary_gives_the_outcome_the_tally_and_each_jurors_stand(client, special):
    body = client.get(reverse(URLS["summary"], args=[special.public_id])).content.decode()
    first = special.votes.filter(ballot="initial")
    guilty_first = first.filter(value="guilty").count()
    assert f"First ballot: {guilty_first} guilty, {12 - guilty_first} not guilty." in body
    assert f"Verdict: {special.get_verdict_display()}" in body
    assert body.count("\nSeat ") == 12
    process = special.turns.filter(kind="process").values_list("content", flat=True)
    assert process and not any(line in body for line in process)  # the summary leaves the process lines out


def test_the_command_writes_to_a_file_with_out(special, tmp_path):
    target = tmp_path / "run.md"
    assert _command(special.pk, "md", "--out", str(target)) == ""
    assert SPECIAL in target.read_text(encoding="utf-8")
    assert target.read_text(encoding="utf-8") == _command(special.pk, "md")


def test_the_command_refuses_an_unknown_id(db):
    with pytest.raises(CommandError) as caught:
        _command(424242, "md")
    assert str(caught.value) == ERROR_NO_DELIBERATION.format(pk=424242)


def test_exports_are_served_with_their_media_types(client, db):
    deliberation = write_deliberation(rounds=2)
    urls = {fmt: reverse(name, args=[deliberation.public_id]) for fmt, name in URLS.items()}
    types = {fmt: client.get(url)["Content-Type"] for fmt, url in urls.items()}
    assert types == {
        "md": "text/markdown; charset=utf-8",
        "json": "application/json; charset=utf-8",
        "summary": "text/plain; charset=utf-8",
    }


def test_a_unanimous_verdict_names_its_rule_once_and_a_fictional_case_has_no_historical_verdict(client, db):
    done = write_deliberation(rounds=2)
    Deliberation.objects.filter(pk=done.pk).update(end_reason="unanimous")
    summary = client.get(reverse(URLS["summary"], args=[done.public_id])).content.decode()
    assert "Verdict: Guilty, unanimously (rules: Unanimous). A fictional case: no real verdict." in summary
    markdown = client.get(reverse(URLS["md"], args=[done.public_id])).content.decode()
    assert "**Guilty**, unanimously (rules: Unanimous) after 2 rounds." in markdown
    transcript = client.get(reverse("review:transcript", args=[done.public_id])).content.decode()
    debrief = client.get(reverse("review:debrief", args=[done.public_id])).content.decode()
    for body in (summary, markdown, transcript, debrief):
        assert "(Unanimous)" not in body and "Historical verdict" not in body and "unanimous," not in body
    assert "A fictional case: no real verdict" in transcript and "none: a fictional case" in client.get(
        reverse("review:list")
    ).content.decode().replace("</span>", "")
    Deliberation.objects.filter(pk=done.pk).update(end_reason="round_limit")  # an ending the verdict does not say
    assert (
        "Guilty, unanimously (rules: Unanimous) (Round limit)."
        in client.get(reverse(URLS["summary"], args=[done.public_id])).content.decode()
    )


def test_a_real_trial_without_a_recorded_verdict_says_nothing_of_it_and_one_with_a_verdict_gives_it(client, db):
    unrecorded = write_deliberation(rounds=1, case=CaseFactory(source="oldbailey"))
    summary = client.get(reverse(URLS["summary"], args=[unrecorded.public_id])).content.decode()
    assert "Historical verdict" not in summary and "fictional" not in summary
    known = write_deliberation(rounds=1, case=CaseFactory(source="oldbailey", historical_verdict="not_guilty"))
    assert (
        "Historical verdict: Not guilty."
        in client.get(reverse(URLS["summary"], args=[known.public_id])).content.decode()
    )


def test_a_room_is_started_when_its_host_starts_it_not_when_it_was_made(client, robbery):
    host = browser_of(client)
    room = services.room_create(case=robbery, host_session_key=host, host_plays=False, open_seats=(2,))
    room.refresh_from_db()
    assert room.started_at is None
    markdown = client.get(reverse(URLS["md"], args=[room.public_id])).content.decode()
    assert f"- Created: {room.created_at.isoformat()} (not started)" in markdown and "- Started:" not in markdown
    assert ", not started</p>" in client.get(reverse("review:transcript", args=[room.public_id])).content.decode()
    services.room_start(deliberation_id=room.pk, session_key=host)
    room.refresh_from_db()
    assert room.started_at is not None and room.started_at != room.created_at
    markdown = client.get(reverse(URLS["md"], args=[room.public_id])).content.decode()
    assert f"- Started: {room.started_at.isoformat()}" in markdown
    page = client.get(reverse("review:transcript", args=[room.public_id])).content.decode()
    assert f'started <time datetime="{room.started_at:%Y-%m-%dT%H:%M:%S}' in page
