"""The teacher's view: the room's banner, whose turn it is, each participant's words labelled with
the round in which the jury heard them (as the transcript and the exports label them), live over
the room's socket until the verdict."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import timedelta

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from deliberation.models import Deliberation, Turn
from deliberation.rooms import clock, services
from deliberation.rooms.state import room_of, turn_seconds
from deliberation.services import round_run
from deliberation.services.broadcast import pushes
from tests.deliberation.rooms.test_views import code, first_round, htmx, join, teacher  # noqa: F401

WORDS = "Two seconds of lamplight is not an identification."


def _banner_round(html: str) -> str:
    return re.search(r'<p class="round">Round (\d+) of \d+</p>', html).group(1)


def test_a_speech_is_labelled_with_the_round_the_jury_heard_it_as_in_the_transcript_and_exports(code, teacher):  # noqa: F811
    """One truth for a person's words: the round in which the jury heard them. She types while the
    banner reads round 1; the jury hears her in round 2, and every page and export says round 2."""
    anna = join(code, 2, "Anna")
    first_round(code, teacher)
    htmx(anna, "post", reverse("room_speak", args=[code]), {"seat": "2", "content": WORDS, "argument_type": "logical"})
    url = reverse("room_teacher", args=[code])
    waiting = teacher.get(url).content.decode()
    assert _banner_round(waiting) == "1"
    assert '<span class="round-label">Round 2 <span class="muted">(the jury hears it next)</span></span>' in waiting
    room = Deliberation.objects.get(room_code=code)
    round_run(deliberation_id=room.pk)  # the jury hears her
    services.room_call_vote(deliberation_id=room.pk, session_key=room.host_session_key)
    assert Turn.objects.get(content=WORDS).round_number == 2

    view = teacher.get(url).content.decode()
    assert f'<span class="round-label">Round 2</span>{WORDS}' in view
    transcript = teacher.get(reverse("review:transcript", args=[room.public_id])).content.decode()
    round_two = transcript[transcript.index('id="round-2"') : transcript.index('id="verdict"')]
    assert WORDS in round_two
    record = json.loads(teacher.get(reverse("review:export_json", args=[room.public_id])).content)
    heard = [r["round"] for r in record["round_log"] for t in r["turns"] if t["content"] == WORDS]
    assert heard == [2]
    sheet = teacher.get(reverse("review:debrief_csv", args=[room.public_id])).content.decode()
    rows = [row for row in csv.DictReader(io.StringIO(sheet)) if row["text"] == WORDS]
    assert [row["round"] for row in rows] == ["2"]
    debrief = teacher.get(reverse("review:debrief", args=[room.public_id])).content.decode()
    people_first = debrief[debrief.index('class="contribution-head"') :]
    assert people_first.startswith('class="contribution-head"><span class="moment-round">Round 2</span>')  # hers


def test_the_view_listens_to_the_rooms_socket_until_the_verdict_and_htmx_gets_its_live_part_alone(code, teacher):  # noqa: F811
    join(code, 2, "Anna")
    url = reverse("room_teacher", args=[code])
    room = Deliberation.objects.get(room_code=code)
    page = teacher.get(url).content.decode()
    socket = f"/ws/court/{room.public_id}/?seen={pushes(room.pk)}"
    assert f'data-live="{url}" data-socket="{socket}"' in page and "<h1>" in page
    assert 'hx-trigger="every' not in page  # no polling while the socket works (static/js/teacher.js)
    live = htmx(teacher, "get", url).content.decode()
    assert live.lstrip().startswith('<div id="teacher-live"') and "<h1>" not in live and "Anna" in live
    assert "data-finished" not in live
    room = first_round(code, teacher)
    services.room_call_vote(deliberation_id=room.pk, session_key=room.host_session_key)
    finished = htmx(teacher, "get", url).content.decode()
    assert "data-finished" in finished and "Finished" in finished


def test_the_view_costs_the_same_queries_after_one_speech_and_after_many(code, teacher):  # noqa: F811
    anna = join(code, 2, "Anna")
    first_round(code, teacher)
    htmx(anna, "post", reverse("room_speak", args=[code]), {"seat": "2", "content": WORDS, "argument_type": "logical"})
    url = reverse("room_teacher", args=[code])
    with CaptureQueriesContext(connection) as one:
        htmx(teacher, "get", url)
    turn = Turn.objects.get(content=WORDS)
    top = turn.sequence
    for n in range(30):
        turn.pk, turn.sequence = None, top + n + 1
        turn.save()
    with CaptureQueriesContext(connection) as many:
        html = htmx(teacher, "get", url).content.decode()
    assert html.count(WORDS) == 31
    assert len(many) == len(one)


def test_the_room_page_and_the_view_name_the_updates_they_were_rendered_after_to_their_socket(code, teacher):  # noqa: F811
    """So a socket that joins after a further update can tell its page it missed one (consumers.py)."""
    join(code, 2, "Anna")
    room = Deliberation.objects.get(room_code=code)
    before = pushes(room.pk)
    first_round(code, teacher)  # the round's updates go out
    after = pushes(room.pk)
    assert after > before
    socket = f"/ws/court/{room.public_id}/?seen={after}"
    assert f'ws-connect="{socket}"' in teacher.get(reverse("room", args=[code])).content.decode()
    assert f'data-socket="{socket}"' in teacher.get(reverse("room_teacher", args=[code])).content.decode()


def _cell(html: str, seat: int, label: str) -> str:
    row = html[html.index(f'id="teacher-seat-{seat}"') :]
    return re.search(rf'<td data-label="{label}">(.*?)</td>', row, re.S).group(1)


def test_a_turn_that_ran_out_is_shown_as_missed_not_as_a_pass(code, teacher):  # noqa: F811
    anna = join(code, 2, "Anna")
    room = first_round(code, teacher)
    htmx(anna, "post", reverse("room_pass", args=[code]), {"seat": "2"})  # she passes
    assert clock.room_tick(deliberation_id=room.pk) == "round"  # the jury's round; her turn again
    later = timezone.now() + timedelta(seconds=turn_seconds(room_of(room)) + 1)
    assert clock.room_tick(deliberation_id=room.pk, now=later) == "timeout"  # she let it run out
    view = teacher.get(reverse("room_teacher", args=[code])).content.decode()
    assert _cell(view, 2, "Passes") == "1"
    assert _cell(view, 2, "Turns missed") == '<span class="ran-out">1 ran out</span>'
