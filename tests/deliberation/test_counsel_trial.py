"""The player as counsel at the trial, through the courtroom's views: step by step, stored as it happens."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.test import Client

from cases.models import Case
from deliberation.engine.trial import steps as trial_steps
from deliberation.models import Deliberation, Narration, Phase, Turn, TurnKind
from deliberation.services import counsel
from deliberation.services.lifecycle import side_choose, vote_call
from deliberation.trial.record import counsel_players

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def library(db, settings):
    settings.ANGRY_NARRATION = "text"  # the judge's words without synthesis keep these tests quick
    call_command("load_cases", stdout=open("/dev/null", "w"))


def _start(client: Client, robbery: Case, capture, *, side: str) -> Deliberation:
    with capture(execute=True):
        client.post("/court/start/", {"case": robbery.slug, "trial": robbery.slug})
    deliberation = Deliberation.objects.get()
    with capture(execute=True):
        response = client.post(
            f"/court/{deliberation.public_id}/side/",
            {"side": side, "vote": "not_guilty", "counsel": "me"},
            **HTMX,
        )
    assert response.status_code == 200
    return Deliberation.objects.get()


def _move(client: Client, deliberation: Deliberation, capture, **data: str) -> str:
    with capture(execute=True):
        response = client.post(f"/court/{deliberation.public_id}/trial/", data, **HTMX)
    assert response.status_code == 200
    return response.content.decode()


def _waiting(deliberation: Deliberation) -> trial_steps.Waiting | None:
    deliberation.refresh_from_db()
    if deliberation.phase != Phase.TRIAL:
        return None
    return trial_steps.awaiting(counsel.load(deliberation))


def test_defence_counsel_hears_the_prosecution_open_then_gives_their_own_opening(
    client, robbery, django_capture_on_commit_callbacks
):
    deliberation = _start(client, robbery, django_capture_on_commit_callbacks, side="defend")
    assert deliberation.phase == Phase.TRIAL and deliberation.player_side == "defend"
    page = client.get(f"/court/{deliberation.public_id}/").content.decode()
    assert 'id="on-stand"' in page and "Your opening speech to the jury" in page
    assert "Let the AI speak for me" in page
    trial = list(Turn.objects.filter(kind=TurnKind.TRIAL).order_by("sequence"))
    assert [t.speaker_name for t in trial] == ["Counsel for the prosecution"]
    assert not deliberation.votes.exists()  # the first ballot waits for the trial's end
    _move(client, deliberation, django_capture_on_commit_callbacks, action="speak", text="My client was elsewhere.")
    assert Turn.objects.filter(kind=TurnKind.TRIAL, content="My client was elsewhere.").exists()
    waiting = _waiting(deliberation)
    assert waiting is not None and waiting.what == trial_steps.REVIEW and waiting.side == "defense"
    assert "Objection!" in client.get(f"/court/{deliberation.public_id}/").content.decode()


def test_an_objection_gets_a_ruling_in_the_judges_voice_and_a_reload_resumes_where_the_trial_stood(
    client, robbery, django_capture_on_commit_callbacks
):
    deliberation = _start(client, robbery, django_capture_on_commit_callbacks, side="defend")
    _move(client, deliberation, django_capture_on_commit_callbacks, action="ai_speak")
    html = _move(client, deliberation, django_capture_on_commit_callbacks, action="object", ground="speculation")
    ruling = Turn.objects.filter(kind=TurnKind.TRIAL, strategy="ruling").order_by("sequence").last()
    assert ruling is not None and ruling.content.startswith(("Sustained", "Overruled"))
    assert Narration.objects.filter(deliberation=deliberation, text=ruling.content).exists()
    waiting = _waiting(deliberation)
    stored = Turn.objects.filter(kind=TurnKind.TRIAL).count()
    assert stored == len(counsel.load(deliberation).events)
    page = Client()  # the same browser's cookies, a fresh page load
    page.cookies = client.cookies
    again = page.get(f"/court/{deliberation.public_id}/").content.decode()
    assert _waiting(deliberation) == waiting
    assert ruling.content in again and (("Objection!" in again) == ("Objection!" in html))


def test_prosecution_counsel_questions_a_witness_in_free_text_and_the_trial_ends_in_the_first_ballot(
    client, robbery, django_capture_on_commit_callbacks
):
    deliberation = _start(client, robbery, django_capture_on_commit_callbacks, side="prosecute")
    _move(client, deliberation, django_capture_on_commit_callbacks, action="ai_speak")
    assert _waiting(deliberation).what == trial_steps.EXAMINE
    _move(client, deliberation, django_capture_on_commit_callbacks, action="ask", text="What did you see that night?")
    question = Turn.objects.get(kind=TurnKind.TRIAL, content="What did you see that night?")
    answer = Turn.objects.filter(kind=TurnKind.TRIAL, sequence__gt=question.sequence).order_by("sequence").first()
    assert answer.strategy == "answer" and answer.trial["grounded"]
    refused = _move(client, deliberation, django_capture_on_commit_callbacks, action="ask", text="   ")
    assert "Ask the witness a question." in refused
    struck: list[Turn] = []
    crossed = False
    for _ in range(200):
        waiting = _waiting(deliberation)
        if waiting is None:
            break
        if waiting.what == trial_steps.REVIEW:
            _move(client, deliberation, django_capture_on_commit_callbacks, action="object", ground="leading")
        elif waiting.what == trial_steps.EXAMINE:
            page = client.get(f"/court/{deliberation.public_id}/").content.decode()
            if waiting.part == "cross":  # the defence's witness, not hers
                assert "The other side's witness, for your cross-examination" in page
                assert "Your witness" not in page
                crossed = True
            else:
                assert "Your witness, for the examination in chief" in page
            _move(client, deliberation, django_capture_on_commit_callbacks, action="rest")
        else:
            _move(client, deliberation, django_capture_on_commit_callbacks, action="ai_speak")
    deliberation.refresh_from_db()
    assert crossed  # she cross-examined the defence's witness
    assert deliberation.phase == Phase.DELIBERATION and deliberation.votes.count() == 12
    turns = list(Turn.objects.filter(kind=TurnKind.TRIAL).order_by("sequence"))
    assert turns[-1].strategy == "directions"
    struck = [t for t in turns if (t.trial or {}).get("struck")]
    memory = json.dumps(deliberation.engine_state)
    for turn in struck:
        asked = next(t for t in reversed(turns) if t.sequence < turn.sequence and t.strategy == "question")
        assert json.dumps(f"(at the trial, asked: {asked.content}) {turn.content}")[1:-1] not in memory
    assert "What did you see that night?" in memory  # the person's own admitted question reached the jury
    vote_call(deliberation_id=deliberation.pk)
    debrief = client.get(f"/deliberations/{deliberation.public_id}/debrief/").content.decode()
    assert 'Counsel for the prosecution <span class="counsel-played-by">(you)</span>' in debrief
    assert 'Counsel for the defence <span class="counsel-played-by">(AI counsel)</span>' in debrief


def test_the_debrief_names_a_rooms_counsel_by_seat_and_name_and_ai_counsel_for_a_side_nobody_took():
    stored = {"state": {"people": ["defense"]}, "counsel": {"defense": 3}}
    assert counsel_players(stored, {3: "Cleo"}) == {"defense": "seat 3: Cleo"}
    assert counsel_players({"state": {"people": ["prosecution"]}, "counsel": {}}, {}) == {"prosecution": "you"}
    assert counsel_players(None, {}) == {}


def test_without_counsel_the_whole_trial_is_held_at_once_as_before(robbery, django_capture_on_commit_callbacks):
    from deliberation.services import deliberation_start

    with django_capture_on_commit_callbacks(execute=True):
        deliberation = deliberation_start(case=robbery, options={"trial": True}, host_session_key="k")
        side_choose(deliberation_id=deliberation.pk, side="defend", vote="guilty")
    deliberation.refresh_from_db()
    assert deliberation.phase == Phase.DELIBERATION and not deliberation.trial_state
    assert Turn.objects.filter(kind=TurnKind.TRIAL, strategy="directions").count() == 1


def test_a_move_out_of_turn_is_refused_with_a_message(client, robbery, django_capture_on_commit_callbacks):
    deliberation = _start(client, robbery, django_capture_on_commit_callbacks, side="defend")
    html = _move(client, deliberation, django_capture_on_commit_callbacks, action="rest")
    assert "It is not your turn at the trial" in html
    html = _move(client, deliberation, django_capture_on_commit_callbacks, action="dance")
    assert counsel.ERROR_ACTION_UNKNOWN in html
