"""Counsel at a room's trial: participants claim a side, play it through the same moves, and the
room's rounds begin when the trial ends; nobody claiming, the clock lets AI counsel hold it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from angryagents.identity import SESSION_FIELD
from deliberation.engine.trial import steps as trial_steps
from deliberation.models import Deliberation, Phase, Turn, TurnKind
from deliberation.rooms import clock, control, services
from deliberation.rooms.class_selectors import room_card
from deliberation.rooms.page import trial_steering
from deliberation.rooms.services import Credential
from deliberation.rooms.state import STAGE_AI, STAGE_TRIAL, room_of, turn_seconds, when
from deliberation.services import counsel, counsel_claims, counsel_stand_in
from tests.conftest import browser_of

HOST = Credential(session_key="teacher-session")
ANNA = Credential(session_key="anna-session")
BEN = Credential(session_key="ben-session")


@pytest.fixture
def room(robbery, settings) -> Deliberation:
    settings.ANGRY_NARRATION = "text"
    room = services.room_create(
        case=robbery,
        host_session_key=HOST.session_key,
        host_plays=False,
        open_seats=(2, 3, 5),
        seed=11,
        options={"trial": True},
    )
    services.room_join(code=room.room_code, credential=ANNA, name="Anna", preferred_seat=2)
    services.room_join(code=room.room_code, credential=BEN, name="Ben", preferred_seat=3)
    services.room_start(deliberation_id=room.pk, session_key=HOST.session_key)
    room.refresh_from_db()
    return room


def _window_ends(room: Deliberation) -> None:
    """The window for claiming counsel runs out: the clock opens the trial."""
    later = timezone.now() + timedelta(seconds=counsel_claims.CLAIM_SECONDS + 1)
    assert clock.room_tick(deliberation_id=room.pk, now=later) == "trial"


def _waiting(room: Deliberation) -> trial_steps.Waiting | None:
    room.refresh_from_db()
    return trial_steps.awaiting(counsel.load(room)) if room.phase == Phase.TRIAL else None


def test_a_rooms_trial_waits_for_counsel_and_the_first_participant_of_each_side_takes_it(room):
    assert room.phase == Phase.TRIAL and room_of(room)["stage"] == STAGE_TRIAL
    assert not Turn.objects.filter(deliberation=room, kind=TurnKind.TRIAL).exists()  # nobody has spoken yet
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=3, side="defense")
    with pytest.raises(ValidationError, match="already taken by seat 3"):
        counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=2, side="defense")
    with pytest.raises(ValidationError, match="Only a person or an agent"):
        counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=4, side="prosecution")
    assert not Turn.objects.filter(deliberation=room, kind=TurnKind.TRIAL).exists()  # a claim opens nothing
    _window_ends(room)  # AI counsel takes the prosecution nobody claimed and opens; the defence's turn waits
    waiting = _waiting(room)
    assert waiting is not None and waiting.side == "defense" and waiting.what == trial_steps.SPEECH
    counsel_claims.counsel_claim(
        deliberation_id=room.pk, seat_number=2, side="prosecution"
    )  # in time for its witnesses
    with pytest.raises(ValidationError, match="not your turn"):
        counsel_claims.seat_move(deliberation_id=room.pk, seat_number=2, action="ai_speak")
    counsel_claims.seat_move(deliberation_id=room.pk, seat_number=3, action="speak", text="He was driving around.")
    assert _waiting(room).what == trial_steps.EXAMINE and _waiting(room).side == "prosecution"
    counsel_claims.seat_move(deliberation_id=room.pk, seat_number=2, action="ask", text="What did you see?")
    waiting = _waiting(room)
    assert waiting.side == "defense" and waiting.what == trial_steps.REVIEW  # both sides are people
    counsel_claims.seat_move(deliberation_id=room.pk, seat_number=3, action="object", ground="speculation")
    assert Turn.objects.filter(deliberation=room, kind=TurnKind.TRIAL, strategy="ruling").exists()


def test_no_further_questions_tells_the_other_counsels_page_that_it_is_their_turn(room, monkeypatch):
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=3, side="defense")
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=2, side="prosecution")
    _window_ends(room)
    counsel_claims.seat_move(deliberation_id=room.pk, seat_number=2, action="ai_speak")
    counsel_claims.seat_move(deliberation_id=room.pk, seat_number=3, action="speak", text="He was driving around.")
    assert _waiting(room).side == "prosecution" and _waiting(room).what == trial_steps.EXAMINE
    told: list[tuple[int, str]] = []
    monkeypatch.setattr(counsel, "announce", lambda pk, event, data=None: told.append((pk, event)))

    counsel_claims.seat_move(deliberation_id=room.pk, seat_number=2, action="rest")  # not a word said

    assert _waiting(room).side == "defense"  # the defence's cross-examination
    assert (room.pk, "trial") in told


def test_a_room_whose_trial_ends_begins_its_rounds(room):
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=3, side="defense")
    _window_ends(room)
    for _ in range(300):
        waiting = _waiting(room)
        if waiting is None:
            break
        action = {trial_steps.REVIEW: "no_objection", trial_steps.EXAMINE: "rest"}.get(waiting.what, "ai_speak")
        counsel_claims.seat_move(deliberation_id=room.pk, seat_number=3, action=action)
    room.refresh_from_db()
    assert room.phase == Phase.DELIBERATION and room_of(room)["stage"] == STAGE_AI
    assert clock.room_tick(deliberation_id=room.pk) == "round"


def _said_at_trial(room: Deliberation) -> int:
    return Turn.objects.filter(deliberation=room, kind=TurnKind.TRIAL).count()


def test_nobody_claiming_counsel_the_clock_lets_ai_counsel_hold_the_trial_step_by_step(room):
    later = timezone.now() + timedelta(seconds=counsel_claims.CLAIM_SECONDS + 1)
    assert clock.room_tick(deliberation_id=room.pk, now=later) == "trial"
    room.refresh_from_db()
    assert room.phase == Phase.TRIAL  # one step said, the next when the class has read it
    said = _said_at_trial(room)
    assert said >= 1
    due = when(room_of(room)["next_at"])
    step = (due - timezone.now()).total_seconds()
    assert counsel.reading_seconds(room_of(room), []) <= step + 0.5  # at least the room's pause
    assert clock.room_tick(deliberation_id=room.pk, now=due - timedelta(seconds=0.5)) == ""  # not yet
    assert _said_at_trial(room) == said
    for _ in range(counsel.MAX_STEPS):  # the clock plays the trial to its end, a step a tick
        room.refresh_from_db()
        if room.phase != Phase.TRIAL:
            break
        assert clock.room_tick(deliberation_id=room.pk, now=timezone.now() + timedelta(seconds=60)) == "trial"
        assert _said_at_trial(room) > said  # every tick says something
        said = _said_at_trial(room)
    room.refresh_from_db()
    assert room.phase == Phase.DELIBERATION
    assert Turn.objects.filter(deliberation=room, kind=TurnKind.TRIAL, strategy="directions").count() == 1


def test_the_host_pauses_and_skips_a_trial_ai_counsel_hold_on_both_sides(room):
    later = timezone.now() + timedelta(seconds=counsel_claims.CLAIM_SECONDS + 1)
    clock.room_tick(deliberation_id=room.pk, now=later)
    control.room_pause(deliberation_id=room.pk, session_key=HOST.session_key)
    said = _said_at_trial(room)
    assert clock.room_tick(deliberation_id=room.pk, now=timezone.now() + timedelta(seconds=60)) == ""
    assert _said_at_trial(room) == said  # paused: AI counsel wait
    control.room_resume(deliberation_id=room.pk, session_key=HOST.session_key)
    assert _said_at_trial(room) == said  # the resume gives the step its seconds left, not at once
    room.refresh_from_db()
    assert trial_steering(room, room_of(room))["ai_trial"]  # the host's controls offer the next step
    card = room_card(room, list(room.seats.all()), group=1)
    assert card.skippable and card.skip_words == "AI counsel's next step of the trial now"
    done = control.trial_skip(deliberation_id=room.pk, session_key=HOST.session_key)
    assert done == control.TRIAL_NEXT_STEP
    assert _said_at_trial(room) > said  # skip: the next step at once


def test_a_student_claims_the_defence_on_the_room_page_and_plays_it_from_their_controls(robbery, settings):
    from django.test import Client
    from django.urls import reverse

    settings.ANGRY_NARRATION = "text"
    teacher = Client()
    teacher.post(
        reverse("room_new"), {"case": robbery.pk, "open_seats": ["2", "3"], "trial": "on", "show_convictions": "on"}
    )
    code = Deliberation.objects.get(room_code__isnull=False).room_code
    student = Client()
    student.post(reverse("room_join_code", args=[code]), {"seat": 3, "name": "Cleo"})
    teacher.post(reverse("room_start", args=[code]))
    controls = student.get(reverse("room_controls", args=[code])).content.decode()
    assert "Be counsel for the defence" in controls and "Be counsel for the prosecution" in controls
    trial_url = reverse("room_trial", args=[code])
    claimed = student.post(trial_url, {"action": "claim", "side": "defense"}, HTTP_HX_REQUEST="true")
    html = claimed.content.decode()
    assert "You are counsel for the defence." in html and "Your opening speech" not in html  # the window runs
    assert "<strong>Counsel for the defence</strong>: you" in html and "Switch to the other side" in html
    counsel_claims.trial_open(deliberation_id=Deliberation.objects.get(room_code=code).pk)  # the window's end
    html = student.get(reverse("room_controls", args=[code])).content.decode()
    assert "Your opening speech to the jury" in html
    teacher_controls = teacher.get(reverse("room_controls", args=[code])).content.decode()
    assert "Your opening speech" not in teacher_controls  # the host watches; the student is counsel
    html = student.post(trial_url, {"action": "ai_speak"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Objection!" in html  # the prosecution's first question was answered: object, or let it stand
    html = student.post(trial_url, {"action": "object", "ground": "relevance"}, HTTP_HX_REQUEST="true")
    room = Deliberation.objects.get(room_code=code)
    assert Turn.objects.filter(deliberation=room, kind=TurnKind.TRIAL, strategy="ruling").exists()
    page = student.get(reverse("room", args=[code])).content.decode()
    assert 'id="on-stand"' in page and "On the stand" in page and 'The trial: <strong class="room-turn-stage">' in page
    refused = teacher.post(trial_url, {"action": "claim", "side": "prosecution"}, HTTP_HX_REQUEST="true")
    assert counsel_claims.ERROR_NOT_A_PARTICIPANT in refused.content.decode()


def test_a_counsel_whose_time_runs_out_has_ai_counsel_make_that_move_and_the_trial_goes_on(room):
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=3, side="defense")
    _window_ends(room)
    waiting = _waiting(room)
    assert waiting.side == "defense" and waiting.what == trial_steps.SPEECH  # their opening, and they left
    speeches = Turn.objects.filter(deliberation=room, kind=TurnKind.TRIAL, strategy="speech", trial__side="defense")
    assert not speeches.exists()

    first_wait = room_of(room)["trial_wait"]
    due = when(room_of(room)["next_at"]) + timedelta(seconds=1)
    assert clock.room_tick(deliberation_id=room.pk, now=timezone.now()) == ""  # not yet
    assert clock.room_tick(deliberation_id=room.pk, now=due) == "counsel"

    assert speeches.count() == 1  # AI counsel gave the opening for them, in its own name
    assert speeches.get().speaker_name == "AI counsel standing in for the defence"
    waiting = _waiting(room)
    assert waiting is not None and waiting.side == "defense" and waiting.what == trial_steps.REVIEW
    # The new wait has a turn's time of its own, counted from now.
    assert room_of(room)["trial_wait"] != first_wait
    assert clock.room_tick(deliberation_id=room.pk, now=timezone.now()) == ""


def test_a_counsel_who_moves_in_time_is_never_overtaken_by_the_clock(room):
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=3, side="defense")
    _window_ends(room)
    counsel_claims.seat_move(deliberation_id=room.pk, seat_number=3, action="speak", text="He was driving around.")
    before = _waiting(room)

    held = room_of(room)["trial_wait"]  # _waiting refreshed the room
    assert held and not held.endswith(":speech")  # the clock holds the new wait, not the opening's

    stale = {**room.settings, "room": {**room_of(room), "trial_wait": "0:defense:speech"}}
    Deliberation.objects.filter(pk=room.pk).update(settings=stale)  # as if the old wait's tick came late
    assert counsel_stand_in.counsel_stand_in(deliberation_id=room.pk) == ""
    assert _waiting(room) == before


def test_a_stand_in_move_that_is_refused_is_tried_again_and_then_the_trial_closes_and_the_room_moves_on(room):
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=3, side="defense")
    _window_ends(room)
    counsel_claims.seat_move(deliberation_id=room.pk, seat_number=3, action="ai_speak")
    counsel_claims.seat_move(deliberation_id=room.pk, seat_number=3, action="continue")  # to their cross-examination
    waiting = _waiting(room)
    assert waiting.side == "defense" and waiting.what == trial_steps.EXAMINE
    said = Turn.objects.filter(deliberation=room, kind=TurnKind.TRIAL).count()
    # The case is edited while the trial stands: the witness on the stand is no longer in it, so AI
    # counsel's next question to them (the stand-in move, "ai_ask") is refused.
    room.case.witnesses.all().delete()
    with pytest.raises(StopIteration):
        counsel_claims.seat_move(deliberation_id=room.pk, seat_number=3, action="ai_ask")

    room.refresh_from_db()
    due = when(room_of(room)["next_at"]) + timedelta(seconds=1)
    assert clock.room_tick(deliberation_id=room.pk, now=due) == "counsel"
    room.refresh_from_db()
    assert room.phase == Phase.TRIAL and room_of(room)["stand_in_refused"] == 1  # refused, to be tried again
    assert clock.room_tick(deliberation_id=room.pk, now=due) == ""  # not before its new time
    retry = timedelta(seconds=counsel_stand_in.STAND_IN_RETRY_SECONDS + 1)
    assert clock.room_tick(deliberation_id=room.pk, now=due + retry) == "counsel"
    room.refresh_from_db()
    assert room.phase == Phase.TRIAL and room_of(room)["stand_in_refused"] == 2
    assert clock.room_tick(deliberation_id=room.pk, now=due + 2 * retry) == "counsel"  # the last try

    room.refresh_from_db()
    assert room.phase == Phase.DELIBERATION and room_of(room)["stage"] == STAGE_AI
    trial = list(Turn.objects.filter(deliberation=room, kind=TurnKind.TRIAL).order_by("sequence"))
    assert [t.content for t in trial[said:-1]] == [trial_steps.CLOSED_EARLY]  # what was said stands
    assert trial[-1].strategy == "directions"
    people = room.seats.exclude(kind="ai").count()  # who have not voted yet: no vote in the ballot
    assert room.votes.filter(round_number=0).count() == 12 - people  # the jury's first ballot
    assert clock.room_tick(deliberation_id=room.pk) == "round"


def test_both_students_see_who_has_which_side_and_can_swap_before_the_trial_opens(room):
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=2, side="prosecution")
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=3, side="defense")
    ben = Client()
    browser_of(ben, **{SESSION_FIELD: BEN.session_key})
    controls = ben.get(reverse("room_controls", args=[room.room_code])).content.decode()
    assert "<strong>Counsel for the prosecution</strong>: Anna (seat 2)" in controls
    assert "<strong>Counsel for the defence</strong>: you" in controls and "Swap sides with Anna" in controls
    assert counsel_claims.counsel_swap(deliberation_id=room.pk, seat_number=3) == "prosecution"
    room.refresh_from_db()
    assert room.trial_state["counsel"] == {"prosecution": 3, "defense": 2}
    assert not Turn.objects.filter(deliberation=room, kind=TurnKind.TRIAL).exists()  # nobody has lost a move
    _window_ends(room)
    waiting = _waiting(room)
    assert waiting.side == "prosecution" and waiting.what == trial_steps.SPEECH  # Ben gives the opening
    with pytest.raises(ValidationError) as refused:
        counsel_claims.counsel_swap(deliberation_id=room.pk, seat_number=3)
    assert refused.value.messages == [counsel_claims.ERROR_SWAP_STARTED]


def test_the_second_student_to_claim_in_the_window_loses_nothing_to_ai_counsel(room):
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=3, side="defense")
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=2, side="prosecution")  # claimed a moment later
    _window_ends(room)
    trial = list(Turn.objects.filter(deliberation=room, kind=TurnKind.TRIAL).values_list("strategy", flat=True))
    assert "opening" not in trial  # AI counsel gave no opening for either side
    assert _waiting(room).side == "prosecution" and _waiting(room).what == trial_steps.SPEECH


def test_the_counsel_waiting_through_the_other_sides_speech_is_told_so_and_offered_no_objection(room):
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=2, side="prosecution")
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=3, side="defense")
    _window_ends(room)
    ben = Client()
    browser_of(ben, **{SESSION_FIELD: BEN.session_key})
    html = ben.get(reverse("room_controls", args=[room.room_code])).content.decode()
    assert "the other side is giving its opening speech" in html
    assert "questioning" not in html and 'value="continue"' not in html


def _examining(room: Deliberation) -> trial_steps.Waiting:
    """Anna holds the prosecution, gives her opening in her own words, and is to question a witness."""
    counsel_claims.counsel_claim(deliberation_id=room.pk, seat_number=2, side="prosecution")
    _window_ends(room)
    counsel_claims.seat_move(deliberation_id=room.pk, seat_number=2, action="speak", text="He did it.")
    waiting = _waiting(room)
    assert waiting is not None and waiting.side == "prosecution" and waiting.what == trial_steps.EXAMINE
    return waiting


def _questions(room: Deliberation) -> list[Turn]:
    return list(Turn.objects.filter(deliberation=room, kind=TurnKind.TRIAL, strategy="question").order_by("sequence"))


def test_ai_counsel_asks_for_a_student_only_when_her_whole_move_has_run_out_and_in_its_own_name(room):
    began = timezone.now()
    _examining(room)
    assert not _questions(room)
    # Her page first types out what was said since her opening (the defence's opening, the call of
    # the witness) and holds her buttons meanwhile: a turn's time from the wait's start is not hers.
    bare_turn = began + timedelta(seconds=turn_seconds(room_of(room)) + 1)
    assert clock.room_tick(deliberation_id=room.pk, now=bare_turn) == ""
    assert not _questions(room)  # nothing said for her while her move still runs

    deadline = when(room_of(room)["next_at"])
    assert clock.room_tick(deliberation_id=room.pk, now=deadline + timedelta(seconds=1)) == "counsel"
    [asked] = _questions(room)
    assert asked.trial["side"] == "prosecution"  # it counts for her side...
    assert asked.speaker_name == "AI counsel standing in for the prosecution"  # ...but is not in her name
    assert asked.speaker_name != "Counsel for the prosecution"


def test_the_question_a_student_lets_the_ai_ask_is_in_ai_counsels_name(room):
    _examining(room)
    counsel_claims.seat_move(deliberation_id=room.pk, seat_number=2, action="ai_ask")
    [asked] = _questions(room)
    assert asked.speaker_name == "AI counsel standing in for the prosecution"
    counsel_claims.seat_move(deliberation_id=room.pk, seat_number=2, action="ask", text="Where were you standing?")
    assert _questions(room)[-1].speaker_name == "Counsel for the prosecution"  # her own words, her side's name


def test_a_student_is_told_before_the_start_that_her_group_holds_a_trial_and_pointed_to_the_claim_buttons(
    robbery, settings
):
    settings.ANGRY_NARRATION = "text"
    room = services.room_create(
        case=robbery, host_session_key=HOST.session_key, host_plays=False, open_seats=(2, 3), options={"trial": True}
    )
    plain = services.room_create(case=robbery, host_session_key=HOST.session_key, host_plays=False, open_seats=(2,))
    services.room_join(code=room.room_code, credential=ANNA, name="Anna", preferred_seat=2)
    services.room_join(code=plain.room_code, credential=BEN, name="Ben", preferred_seat=2)
    anna, ben = Client(), Client()
    browser_of(anna, **{SESSION_FIELD: ANNA.session_key})
    browser_of(ben, **{SESSION_FIELD: BEN.session_key})
    seated = anna.get(reverse("room_controls", args=[room.room_code])).content.decode()
    assert "Your group holds a trial first" in seated and "claim counsel for a side" in seated
    assert "Your group holds a trial" not in ben.get(reverse("room_controls", args=[plain.room_code])).content.decode()

    services.room_start(deliberation_id=room.pk, session_key=HOST.session_key)
    window = anna.get(reverse("room_controls", args=[room.room_code])).content.decode()
    notice = window[window.index('id="claim-now"') : window.index("</p>", window.index('id="claim-now"'))]
    assert "Claim counsel now" in notice and 'class="countdown' in notice and "data-deadline" in notice
    assert 'href="#counsel-claim"' in notice and 'id="counsel-claim"' in window  # the jump lands on the buttons
    anna.post(reverse("room_trial", args=[room.room_code]), {"action": "claim", "side": "defense"})
    assert 'id="claim-now"' not in anna.get(reverse("room_controls", args=[room.room_code])).content.decode()
