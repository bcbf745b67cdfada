"""A student's work as counsel at a room's trial, where a teacher grades it: the teacher's view (per
student), the class's contributions sheet, and the room's own exports (its debrief sheet, the
Markdown and the JSON) name each opening, question, objection and closing as that student's, for
the side they played; what AI counsel said for the side, before the student took it or in their
stead, is not theirs."""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from angryagents.identity import SESSION_FIELD
from deliberation.engine.trial import steps as trial_steps
from deliberation.models import ClassSession, Deliberation, Phase
from deliberation.rooms import classes, clock, services
from deliberation.rooms.services import Credential
from deliberation.services import counsel, counsel_claims
from tests.conftest import browser_of

TEACHER = "the-teachers-browser"
ANNA = Credential(session_key="anna-session")
BEN = Credential(session_key="ben-session")
OPENING = "Anna opens: the bait bills were in his glovebox twenty minutes later."
QUESTION = "Anna asks: how long did you see the robber's face?"
CROSS = "Ben asks: was the store lit that night?"
CLOSING = "Ben closes: one clerk's glance at a masked man is not proof."


@pytest.fixture(autouse=True)
def text_judge(settings):
    settings.ANGRY_NARRATION = "text"


def _browser(key: str) -> Client:
    client = Client()
    browser_of(client, **{SESSION_FIELD: key})
    return client


def _waiting(room: Deliberation) -> trial_steps.Waiting | None:
    room.refresh_from_db()
    return trial_steps.awaiting(counsel.load(room)) if room.phase == Phase.TRIAL else None


def _play(room: Deliberation, *, objections: int = 1) -> None:
    """Anna (seat 2) prosecutes, Ben (seat 3) defends: Anna opens in her own words and asks one
    question of each witness she examines, Ben objects once, cross-examines once and closes in his
    own words; every other move is AI counsel's for them ("let the AI speak", no further questions)."""
    asked: set[tuple[int, str, str]] = set()
    objected = 0
    for _ in range(300):
        waiting = _waiting(room)
        if waiting is None:
            return
        seat = 2 if waiting.side == "prosecution" else 3
        if waiting.what == trial_steps.SPEECH:
            own = {("prosecution", "opening"): OPENING, ("defense", "closing"): CLOSING}.get(
                (waiting.side, waiting.kind)
            )
            action, text = ("speak", own) if own else ("ai_speak", "")
            counsel_claims.seat_move(deliberation_id=room.pk, seat_number=seat, action=action, text=text)
        elif waiting.what == trial_steps.EXAMINE:
            key = (seat, waiting.witness_id, waiting.part)
            if key in asked:
                counsel_claims.seat_move(deliberation_id=room.pk, seat_number=seat, action="rest")
            else:
                asked.add(key)
                words = QUESTION if seat == 2 else CROSS
                counsel_claims.seat_move(deliberation_id=room.pk, seat_number=seat, action="ask", text=words)
        elif seat == 3 and objected < objections:
            objected += 1
            counsel_claims.seat_move(deliberation_id=room.pk, seat_number=seat, action="object", ground="speculation")
        else:
            counsel_claims.seat_move(deliberation_id=room.pk, seat_number=seat, action="no_objection")
    raise AssertionError("the trial did not end")


def _class_with_a_trial(robbery) -> tuple[ClassSession, Deliberation]:  # type: ignore[no-untyped-def]
    session = classes.class_create(
        case=robbery, groups=1, seats=2, teacher_session_key=TEACHER, seed=11, trial=True, turn_seconds=60
    )
    room = session.rooms.get()
    services.room_join(code=room.room_code, credential=ANNA, name="Anna", preferred_seat=2)
    services.room_join(code=room.room_code, credential=BEN, name="Ben", preferred_seat=3)
    classes.class_start(class_id=session.pk)
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=2, side="prosecution")
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=3, side="defense")
    later = timezone.now() + timedelta(seconds=counsel_claims.CLAIM_SECONDS + 1)
    clock.room_tick(deliberation_id=room.pk, now=later)
    _play(room)
    room.refresh_from_db()
    assert room.phase == Phase.DELIBERATION
    return session, room


def _row_of(html: str, seat: int) -> str:
    start = html.index(f'id="teacher-seat-{seat}"')
    return html[start : html.index("</tr>", start)]


def test_the_teachers_view_shows_each_students_work_as_counsel_for_their_side(robbery):
    _session, room = _class_with_a_trial(robbery)
    html = unescape(_browser(TEACHER).get(reverse("room_teacher", args=[room.room_code])).content.decode())
    assert '<th scope="col">At the trial</th>' in html
    anna, ben = _row_of(html, 2), _row_of(html, 3)
    assert "<strong>Counsel for the prosecution</strong>" in anna and "Counsel for the defence" not in anna
    assert '<span class="round-label">Opening speech</span>' + OPENING in anna
    assert QUESTION in anna and "Question to " in anna and "(examination in chief)" in anna
    assert CLOSING not in anna and CROSS not in anna
    assert "<strong>Counsel for the defence</strong>" in ben
    assert CROSS in ben and "(cross-examination)" in ben
    assert "Objection: calls for speculation · " in ben  # with the judge's ruling
    assert '<span class="round-label">Closing speech</span>' + CLOSING in ben
    assert "AI counsel made" in ben  # his opening was AI counsel's, counted apart, not shown as his
    assert OPENING not in ben


def test_the_class_sheet_and_the_rooms_exports_give_each_students_moves_as_counsel(robbery):
    session, room = _class_with_a_trial(robbery)
    services.room_call_vote(deliberation_id=room.pk, session_key=TEACHER)
    teacher = _browser(TEACHER)
    sheet = list(csv.DictReader(io.StringIO(teacher.get(f"/classes/{session.public_id}/debrief.csv").content.decode())))
    trial = [(r["name"], r["counsel_for"], r["trial_move"], r["text"]) for r in sheet if r["trial_move"]]
    assert ("Anna", "prosecution", "opening", OPENING) in trial
    assert ("Anna", "prosecution", "question", QUESTION) in trial
    assert ("Ben", "defence", "question", CROSS) in trial
    assert ("Ben", "defence", "closing", CLOSING) in trial
    objection = next(r for r in sheet if r["trial_move"] == "objection")
    assert objection["name"] == "Ben" and objection["outcome"] in ("sustained", "overruled") and objection["witness"]
    assert all(r["round"] == "0" for r in sheet if r["trial_move"])
    assert not [r for r in trial if r[0] == "Ben" and r[2] == "opening"]  # AI counsel spoke for him

    room.refresh_from_db()
    own = list(
        csv.DictReader(io.StringIO(teacher.get(reverse("review:debrief_csv", args=[room.public_id])).content.decode()))
    )
    assert [(r["name"], r["trial_move"], r["text"]) for r in own if r["trial_move"]] == [
        (name, move, text) for name, _side, move, text in trial
    ]
    markdown = teacher.get(reverse("review:export_md", args=[room.public_id])).content.decode()
    assert "### Counsel for the prosecution · Anna (seat 2) (trial: speech)\n\n" + OPENING in markdown
    assert "### Counsel for the defence · Ben (seat 3) (trial: speech)\n\n" + CLOSING in markdown
    record = json.loads(teacher.get(reverse("review:export_json", args=[room.public_id])).content)
    said = {t["content"]: t["counsel_seat"] for r in record["round_log"] for t in r["turns"] if t["kind"] == "trial"}
    assert said[OPENING] == 2 and said[QUESTION] == 2 and said[CROSS] == 3 and said[CLOSING] == 3
    assert said[next(t for t in said if t.startswith("Members of the jury, the burden"))] is None  # the judge's


def _ben_defends_and_the_trial_opens(robbery):  # type: ignore[no-untyped-def]
    """A one-group class with the trial: Ben claims the defence, nobody the prosecution, and the
    claim window closes, so AI counsel open for the prosecution."""
    session = classes.class_create(case=robbery, groups=1, seats=2, teacher_session_key=TEACHER, seed=11, trial=True)
    room = session.rooms.get()
    services.room_join(code=room.room_code, credential=BEN, name="Ben", preferred_seat=3)
    classes.class_start(class_id=session.pk)
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=3, side="defense")
    clock.room_tick(deliberation_id=room.pk, now=timezone.now() + timedelta(seconds=counsel_claims.CLAIM_SECONDS + 1))
    return session, room


def test_a_side_claimed_after_the_trial_opened_is_the_students_from_their_claim_on(robbery):
    _session, room = _ben_defends_and_the_trial_opens(robbery)
    # AI counsel opened for the prosecution; Anna sits down and takes the prosecution now
    services.room_join(code=room.room_code, credential=ANNA, name="Anna", preferred_seat=2)
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=2, side="prosecution")
    _play(room, objections=0)
    html = unescape(_browser(TEACHER).get(reverse("room_teacher", args=[room.room_code])).content.decode())
    anna = _row_of(html, 2)
    assert "<strong>Counsel for the prosecution</strong>" in anna and QUESTION in anna
    assert "Opening speech" not in anna  # the prosecution's opening was AI counsel's, before her claim


def test_the_debriefs_scorecard_counts_only_the_students_own_moves_when_ai_counsel_held_her_side_before(robbery):
    """AI counsel open for the prosecution and examine its first witness while nobody holds that side;
    then Anna sits down and claims it. The debrief's scorecard beside her name counts her own
    questions only (AI counsel's earlier ones, and what came of them, in a row of their own), as the
    teacher's view and the class sheet give her own moves only."""
    from deliberation.review.debrief import build_debrief
    from deliberation.review.selectors import build_transcript, deliberation_for_review
    from deliberation.trial.record import SCORE_LABELS

    before_label = "Moves AI counsel made before the side was claimed"

    session, room = _ben_defends_and_the_trial_opens(robbery)
    for _ in range(40):  # Ben lets AI counsel's questions for the prosecution stand
        room.refresh_from_db()
        events = counsel.load(room).events
        if sum(1 for e in events if e.side == "prosecution" and e.kind == "question") >= 2:
            break
        waiting = _waiting(room)
        assert waiting is not None and waiting.side == "defense"
        action = "ai_speak" if waiting.what == trial_steps.SPEECH else "no_objection"
        counsel_claims.seat_move(deliberation_id=room.pk, seat_number=3, action=action)
    services.room_join(code=room.room_code, credential=ANNA, name="Anna", preferred_seat=2)
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=2, side="prosecution")
    room.refresh_from_db()
    claimed = room.trial_state["counsel_from"]["prosecution"]
    _play(room, objections=0)
    services.room_call_vote(deliberation_id=room.pk, session_key=TEACHER)
    room.refresh_from_db()

    events = counsel.load(room).events
    ai_before = [
        e for e in events if e.side == "prosecution" and e.kind in ("question", "speech") and e.index < claimed
    ]
    hers = [e for e in events if e.side == "prosecution" and e.kind == "question" and e.index >= claimed]
    assert sum(1 for e in ai_before if e.kind == "question") >= 2 and any(e.kind == "speech" for e in ai_before)
    assert hers and all(e.text == QUESTION for e in hers)

    debrief = build_debrief(build_transcript(deliberation_for_review(room.pk)))
    prosecution = next(row for row in debrief.counsel if row["side"] == "prosecution")
    assert prosecution["played_by"] == "seat 2: Anna"
    counts = dict(prosecution["rows"])
    assert counts[SCORE_LABELS["questions"]] == len(hers)  # not hers plus AI counsel's two
    assert counts[SCORE_LABELS["questions_allowed"]] <= len(hers)
    assert counts.get(before_label) == len(ai_before)
    html = unescape(_browser(TEACHER).get(reverse("review:debrief", args=[room.public_id])).content.decode())
    assert before_label in html

    sheet = list(
        csv.DictReader(io.StringIO(_browser(TEACHER).get(f"/classes/{session.public_id}/debrief.csv").content.decode()))
    )
    anna = [r for r in sheet if r["name"] == "Anna" and r["trial_move"]]
    assert [r["trial_move"] for r in anna] == ["question"] * len(hers)  # her closing was "let the AI speak"
    assert "Opening speech" not in _row_of(
        unescape(_browser(TEACHER).get(reverse("room_teacher", args=[room.room_code])).content.decode()), 2
    )
