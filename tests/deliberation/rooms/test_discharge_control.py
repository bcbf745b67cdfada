"""The host has the judge discharge an AI juror from a running room: the jury box, the transcript
and the host's own controls show it, the jury goes on with the jurors who remain, and every refusal
(a person's seat, rules that allow none, too few jurors, no juror chosen) says why."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from deliberation.engine.discharge import ERROR_NOT_ALLOWED, ERROR_NOT_AN_AI_JUROR, ERROR_TOO_FEW, MINIMUM_JURY
from deliberation.models import Deliberation, Phase, TurnKind
from deliberation.rooms import clock
from deliberation.services.discharge import DISCHARGE_DIRECTION, DISCHARGED, ERROR_NO_JUROR
from tests.deliberation.rooms.test_control_views import room_of_code, running, teacher  # noqa: F401 (fixtures)

HTMX = {"HX-Request": "true"}


def _discharge(client: Client, code: str, seat: str) -> str:
    return client.post(reverse("room_discharge", args=[code]), {"seat": seat}, headers=HTMX).content.decode()


def test_the_host_discharges_an_ai_juror_and_the_room_goes_on_with_eleven(running, teacher):  # noqa: F811
    code, _anna = running
    before = teacher.get(reverse("room", args=[code])).content.decode()
    assert 'id="host-discharge"' in before and '<option value="5">5. ' in before
    name = room_of_code(code).seats.get(number=5).display_name
    answer = _discharge(teacher, code, "5")
    assert DISCHARGED.format(name=name, seat=5, size=11) in answer
    assert '<option value="5">' not in answer  # no juror is discharged twice
    room = room_of_code(code)
    seat = room.seats.get(number=5)
    assert seat.discharged_round == room.round_number + 1 and seat.vote == "" and not seat.is_open
    assert room.engine_state["discharged"] == [5] and "5" not in room.engine_state["votes"]
    direction = DISCHARGE_DIRECTION.format(name=name, size=11)
    assert room.turns.get(kind=TurnKind.JUDGE).content == direction
    page = teacher.get(reverse("room", args=[code])).content.decode()
    assert 'id="seat-5"' in page and "seat-discharged" in page
    transcript = teacher.get(reverse("review:transcript", args=[room.public_id])).content.decode()
    assert direction in transcript


def test_a_persons_seat_cannot_be_discharged_and_the_host_is_told_why(running, teacher):  # noqa: F811
    code, _anna = running
    answer = _discharge(teacher, code, "2")
    assert ERROR_NOT_AN_AI_JUROR.format(seat=2) in answer
    assert room_of_code(code).seats.get(number=2).discharged_round is None


def test_the_jury_never_falls_below_its_minimum(running, teacher):  # noqa: F811
    code, _anna = running
    for seat in ("4", "5", "6"):
        _discharge(teacher, code, seat)
    assert room_of_code(code).seats.filter(discharged_round__isnull=False).count() == 12 - MINIMUM_JURY
    answer = _discharge(teacher, code, "8")
    assert ERROR_TOO_FEW.format(minimum=MINIMUM_JURY) in answer
    assert room_of_code(code).seats.get(number=8).discharged_round is None


def test_choosing_no_juror_is_refused_with_a_message(running, teacher):  # noqa: F811
    code, _anna = running
    assert ERROR_NO_JUROR in _discharge(teacher, code, "")


def test_under_the_old_bailey_rules_the_host_sees_no_discharge_and_a_post_is_refused(robbery, settings):
    settings.ANGRY_NARRATION = "text"
    host = Client()
    host.post(
        reverse("room_new"), {"case": robbery.pk, "open_seats": ["2"], "rules": "historical-old-bailey", "seed": 0}
    )
    code = Deliberation.objects.get(room_code__isnull=False).room_code
    host.post(reverse("room_start", args=[code]))
    clock.room_tick(deliberation_id=room_of_code(code).pk)
    assert room_of_code(code).phase == Phase.DELIBERATION  # seeded: some seeds reach a verdict by now
    page = host.get(reverse("room", args=[code])).content.decode()
    assert 'id="host-discharge"' not in page and "no juror may be discharged" in page
    answer = _discharge(host, code, "5")
    assert ERROR_NOT_ALLOWED.format(rules="Old Bailey, 1674-1913") in answer
    assert room_of_code(code).seats.filter(discharged_round__isnull=False).count() == 0


def test_the_final_vote_after_a_discharge_leaves_the_juror_out_and_the_room_names_the_rule(running, teacher):  # noqa: F811
    code, _anna = running
    _discharge(teacher, code, "5")
    teacher.post(reverse("room_call", args=[code]))
    room = room_of_code(code)
    assert room.verdict in ("guilty", "not_guilty", "hung")
    assert room.seats.get(number=5).vote == "" and "5" not in room.engine_state["votes"]
    page = teacher.get(reverse("room", args=[code])).content.decode()
    banner = page.split('id="room-turn"')[1].split("</div>")[0]
    assert f"{room.verdict_detail}." in banner and "(rules: Unanimous)" in banner
