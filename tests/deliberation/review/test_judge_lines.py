"""The judge's lines in a room's transcript: a ruling at the trial, the directions that close it and a
direction in the deliberation are stored in the record and read aloud; the transcript and the
Markdown export give each line once, where it was said, in order."""

from __future__ import annotations

from html import unescape

from django.urls import reverse

from deliberation.models import NarrationKind, TurnKind
from deliberation.rooms import control
from deliberation.services import round_run
from tests.deliberation.rooms.test_counsel_work import (  # noqa: F401  (text_judge: the judge speaks in text)
    CLOSING,
    TEACHER,
    _browser,
    _class_with_a_trial,
    text_judge,
)


def test_each_line_the_judge_said_at_the_trial_and_after_it_is_in_the_transcript_once_in_order(robbery):
    _session, room = _class_with_a_trial(robbery)  # Ben objected once: the judge ruled
    round_run(deliberation_id=room.pk)
    seat = room.seats.filter(kind="ai").exclude(number=1).order_by("number").first().number
    control.room_discharge(deliberation_id=room.pk, session_key=TEACHER, seat_number=seat)
    room.refresh_from_db()
    judge = list(room.turns.filter(kind__in=(TurnKind.TRIAL, TurnKind.JUDGE), speaker_name="The judge"))
    ruling = next(t for t in judge if t.strategy == "ruling")
    directions = next(t for t in judge if t.strategy == "directions")
    discharged = next(t for t in judge if t.kind == TurnKind.JUDGE)
    read_aloud = set(room.narrations.filter(kind=NarrationKind.LINE).values_list("text", flat=True))
    assert {ruling.content, directions.content, discharged.content} <= read_aloud  # each line was also voiced

    teacher = _browser(TEACHER)
    page = unescape(teacher.get(reverse("review:transcript", args=[room.public_id])).content.decode())
    said = page[page.index('id="transcript-heading"') : page.index('id="verdict"')]
    for line in (directions.content, discharged.content):
        assert said.count(line) == 1, line
    rulings = room.turns.filter(kind=TurnKind.TRIAL, strategy="ruling", content=ruling.content).count()
    assert said.count(ruling.content) == rulings
    assert said.index(CLOSING) < said.index(directions.content) < said.index('id="round-1"')  # where it was said
    assert "other line" not in said

    markdown = teacher.get(reverse("review:export_md", args=[room.public_id])).content.decode()
    for line in (directions.content, discharged.content):
        assert markdown.count(line) == 1, line
    assert markdown.count(ruling.content) == rulings and "(other line)" not in markdown
