"""The host's controls while a room runs (pause, resume, more time, skip, hide a message, discharge
an AI juror) and a seated person's "I'm back".

Thin, like ``views``: each answers through ``views._act`` (htmx gets the browser's controls with the
outcome or the refusal; a plain post a redirect with a message). A host control asked for by
anyone but the host is refused with 403 (a participant) or 404 (a stranger, who may not know the
room exists); the services check the host again under the row lock.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from deliberation.models import Deliberation, Phase
from deliberation.rooms import control
from deliberation.rooms.services import Credential
from deliberation.rooms.state import current_seat, room_of
from deliberation.rooms.views import _act, _number
from deliberation.services.discharge import ERROR_NO_JUROR

MESSAGE_PAUSED = "The room is paused: no round or step of the trial starts and no turn runs out until you resume."
MESSAGE_RESUMED = "The room goes on; the turn has the seconds it had left."
MESSAGE_EXTENDED = "Seat {seat} has {seconds} s left."
MESSAGE_SKIPPED = "Seat {seat}'s turn was skipped."
MESSAGE_TRIAL_EXTENDED = "The trial's move has {seconds} s left."
MESSAGE_HIDDEN = "The message is hidden from every screen; your transcript still shows it, marked."
MESSAGE_BACK = "Welcome back: you take turns again from your seat."
ERROR_NO_MESSAGE = "Choose a message to hide."


@require_POST
def pause(request: HttpRequest, code: str) -> HttpResponse:
    def act(deliberation: Deliberation, key: str) -> str:
        control.room_pause(deliberation_id=deliberation.pk, session_key=key)
        return MESSAGE_PAUSED

    return _act(request, code, act, host_only="pause the room")


@require_POST
def resume(request: HttpRequest, code: str) -> HttpResponse:
    def act(deliberation: Deliberation, key: str) -> str:
        control.room_resume(deliberation_id=deliberation.pk, session_key=key)
        return MESSAGE_RESUMED

    return _act(request, code, act, host_only="resume the room")


@require_POST
def extend(request: HttpRequest, code: str) -> HttpResponse:
    def act(deliberation: Deliberation, key: str) -> str:
        seconds = _number(request.POST.get("seconds", "")) or control.EXTRA_SECONDS
        seat = current_seat(room_of(deliberation))
        left = control.room_extend(deliberation_id=deliberation.pk, session_key=key, seconds=seconds)
        if deliberation.phase == Phase.TRIAL:
            return MESSAGE_TRIAL_EXTENDED.format(seconds=left)
        return MESSAGE_EXTENDED.format(seat=seat, seconds=left)

    return _act(request, code, act, host_only="give more time")


@require_POST
def skip(request: HttpRequest, code: str) -> HttpResponse:
    def act(deliberation: Deliberation, key: str) -> str:
        if deliberation.phase == Phase.TRIAL:  # a counsel's move, or the wait for counsel
            return control.trial_skip(deliberation_id=deliberation.pk, session_key=key)
        seat = control.room_skip(deliberation_id=deliberation.pk, session_key=key)
        return MESSAGE_SKIPPED.format(seat=seat)

    return _act(request, code, act, host_only="skip a turn")


@require_POST
def discharge(request: HttpRequest, code: str) -> HttpResponse:
    def act(deliberation: Deliberation, key: str) -> str:
        seat = _number(request.POST.get("seat", ""))
        if seat is None:
            raise ValidationError(ERROR_NO_JUROR)
        return control.room_discharge(deliberation_id=deliberation.pk, session_key=key, seat_number=seat)

    return _act(request, code, act, host_only="discharge a juror")


@require_POST
def hide(request: HttpRequest, code: str) -> HttpResponse:
    def act(deliberation: Deliberation, key: str) -> str:
        turn_id = _number(request.POST.get("turn", ""))
        if turn_id is None:
            raise ValidationError(ERROR_NO_MESSAGE)
        user = request.user
        by = user.get_username() if user.is_authenticated else control.HIDDEN_BY_HOST
        control.message_hide(deliberation_id=deliberation.pk, session_key=key, turn_id=turn_id, by=by)
        return MESSAGE_HIDDEN

    return _act(request, code, act, host_only="hide a message")


@require_POST
def back(request: HttpRequest, code: str) -> HttpResponse:
    def act(deliberation: Deliberation, key: str) -> str:
        control.seat_return(deliberation_id=deliberation.pk, credential=Credential(session_key=key))
        return MESSAGE_BACK

    return _act(request, code, act)
