"""Room pages: create, join by code, the room itself (polled live), the teacher's view.

Thin: reads come from ``selectors``, writes from ``services``; a refusal is shown as a message.
A person is whoever holds this browser session (``request.session.session_key``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from cases.models import Case
from deliberation.models import Deliberation, SeatKind
from deliberation.rooms import selectors, services
from deliberation.rooms.forms import JoinCodeForm, JoinSeatForm, RoomCreateForm, SpeakForm, VoteForm
from deliberation.rooms.services import Credential
from deliberation.rooms.state import room_of, turn_seconds


def _session_key(request: HttpRequest) -> str:
    if not request.session.session_key:
        request.session.save()
    return request.session.session_key or ""


def _refused(request: HttpRequest, exc: ValidationError) -> None:
    for message in exc.messages:
        messages.error(request, message)


def room_new(request: HttpRequest) -> HttpResponse:
    form = RoomCreateForm(request.POST or None, initial={"case": request.GET.get("case")})
    if request.method == "POST" and form.is_valid():
        try:
            deliberation = services.room_create(
                case=form.cleaned_data["case"],
                host_session_key=_session_key(request),
                host_plays=form.cleaned_data["host_plays"],
                open_seats=tuple(form.cleaned_data["open_seats"]),
                show_convictions=form.cleaned_data["show_convictions"],
                seed=form.cleaned_data["seed"],
            )
        except ValidationError as exc:
            _refused(request, exc)
        else:
            return redirect("room", code=deliberation.room_code)
    return render(request, "rooms/new.html", {"form": form})


def join(request: HttpRequest) -> HttpResponse:
    form = JoinCodeForm(request.POST or request.GET or None)
    if form.is_valid():
        try:
            deliberation = services.room_for_session(form.cleaned_data["code"])
        except ValidationError as exc:
            _refused(request, exc)
        else:
            return redirect("room_join_code", code=deliberation.room_code)
    return render(request, "rooms/join.html", {"form": form})


def join_room(request: HttpRequest, code: str) -> HttpResponse:
    try:
        deliberation = services.room_for_session(code)
    except ValidationError as exc:
        _refused(request, exc)
        return redirect("room_join")
    key = _session_key(request)
    credential = Credential(session_key=key)
    if services.is_host(deliberation, key) or services.seat_of(deliberation, credential):
        return redirect("room", code=deliberation.room_code)
    free = [
        (s.number, f"Seat {s.number} ({s.display_name})")
        for s in deliberation.seats.filter(is_open=True, kind=SeatKind.AI).order_by("number")
    ]
    form = JoinSeatForm(request.POST or None, free_seats=free)
    if request.method == "POST" and form.is_valid():
        try:
            services.room_join(
                code=code,
                credential=credential,
                preferred_seat=form.cleaned_data["seat"],
                name=form.cleaned_data["name"],
            )
        except ValidationError as exc:
            _refused(request, exc)
            return redirect("room_join_code", code=deliberation.room_code)
        return redirect("room", code=deliberation.room_code)
    context = {"deliberation": deliberation, "form": form, "free": free}
    return render(request, "rooms/join_room.html", context)


def _context(request: HttpRequest, deliberation: Deliberation) -> dict:
    key = _session_key(request)
    seat = services.seat_of(deliberation, Credential(session_key=key))
    room = room_of(deliberation)
    return {
        "deliberation": deliberation,
        "state": selectors.room_state(deliberation, seat),
        "seat": seat,
        "is_host": services.is_host(deliberation, key),
        "transcript": deliberation.turns.order_by("sequence"),
        "room": room,
        "turn_seconds": int(turn_seconds(room)),
        "join_url": request.build_absolute_uri(reverse("room_join_code", args=[deliberation.room_code])),
    }


def _room_or_join(request: HttpRequest, code: str) -> Deliberation | HttpResponse:
    try:
        return services.room_for_session(code)
    except ValidationError as exc:
        _refused(request, exc)
        return redirect("room_join")


def room(request: HttpRequest, code: str) -> HttpResponse:
    deliberation = _room_or_join(request, code)
    if isinstance(deliberation, HttpResponse):
        return deliberation
    context = _context(request, deliberation)
    case = Case.objects.prefetch_related("defendants", "evidence", "witnesses").get(pk=deliberation.case_id)
    context.update(
        briefing=selectors.case_briefing(case),
        speak_form=SpeakForm(initial={"seat": context["seat"].number if context["seat"] else None}),
        vote_form=VoteForm(initial={"seat": context["seat"].number if context["seat"] else None}),
    )
    return render(request, "rooms/room.html", context)


def room_live(request: HttpRequest, code: str) -> HttpResponse:
    deliberation = _room_or_join(request, code)
    if isinstance(deliberation, HttpResponse):
        return deliberation
    return render(request, "rooms/_live.html", _context(request, deliberation))


def teacher(request: HttpRequest, code: str) -> HttpResponse:
    deliberation = _room_or_join(request, code)
    if isinstance(deliberation, HttpResponse):
        return deliberation
    if not services.is_host(deliberation, _session_key(request)):
        return HttpResponseForbidden(services.ERROR_NOT_HOST.format(action="see the teacher's view"))
    context = {"deliberation": deliberation, **selectors.teacher_view(deliberation)}
    return render(request, "rooms/teacher.html", context)


def _act(request: HttpRequest, code: str, action: Callable[[Deliberation, str], str | None]) -> HttpResponse:
    deliberation = _room_or_join(request, code)
    if isinstance(deliberation, HttpResponse):
        return deliberation
    try:
        done = action(deliberation, _session_key(request))
    except ValidationError as exc:
        _refused(request, exc)
    else:
        if done:
            messages.success(request, done)
    return redirect("room", code=deliberation.room_code)


@require_POST
def start(request: HttpRequest, code: str) -> HttpResponse:
    def act(deliberation: Deliberation, key: str) -> str:
        services.room_start(deliberation_id=deliberation.pk, session_key=key, side=request.POST.get("side", ""))
        return "The deliberation has started."

    return _act(request, code, act)


def _seat_field(request: HttpRequest) -> int | None:
    raw = request.POST.get("seat", "")
    return int(raw) if raw.isdigit() else None


@require_POST
def speak(request: HttpRequest, code: str) -> HttpResponse:
    def act(deliberation: Deliberation, key: str) -> str:
        form = SpeakForm(request.POST)
        if not form.is_valid():
            raise ValidationError([e for errors in form.errors.values() for e in errors])
        data = form.cleaned_data
        services.room_speak(
            deliberation_id=deliberation.pk,
            credential=Credential(session_key=key),
            seat_number=data["seat"],
            content=data["content"],
            argument_type=data["argument_type"],
            target=data["target"],
            strategy=data["strategy"],
        )
        return "Your argument is in; the jury hears it in the next round."

    return _act(request, code, act)


@require_POST
def pass_turn(request: HttpRequest, code: str) -> HttpResponse:
    def act(deliberation: Deliberation, key: str) -> str:
        services.room_pass(
            deliberation_id=deliberation.pk, credential=Credential(session_key=key), seat_number=_seat_field(request)
        )
        return "You passed your turn."

    return _act(request, code, act)


@require_POST
def vote(request: HttpRequest, code: str) -> HttpResponse:
    def act(deliberation: Deliberation, key: str) -> str:
        outcome = services.room_vote(
            deliberation_id=deliberation.pk,
            credential=Credential(session_key=key),
            value=request.POST.get("vote", ""),
            seat_number=_seat_field(request),
        )
        return "Your vote will count as soon as this round ends." if outcome["deferred"] else "Your vote is in."

    return _act(request, code, act)


@require_POST
def call_vote(request: HttpRequest, code: str) -> HttpResponse:
    def act(deliberation: Deliberation, key: str) -> str:
        services.room_call_vote(deliberation_id=deliberation.pk, session_key=key)
        return "The final vote is called."

    return _act(request, code, act)


@require_POST
def remove(request: HttpRequest, code: str, seat: int) -> HttpResponse:
    def act(deliberation: Deliberation, key: str) -> str:
        services.room_remove(deliberation_id=deliberation.pk, session_key=key, seat_number=seat)
        return f"Seat {seat} is back with its AI juror."

    return _act(request, code, act)
