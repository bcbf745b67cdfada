"""Room pages: create, join by code, the room itself (live over the courtroom's websocket), the
teacher's view.

Thin: reads come from ``selectors`` and ``page``, writes from ``services``. A room's pages answer
to the one access rule (``deliberation.access``): its host, participants and staff see them; to
anyone else, even someone holding the code, they answer 404 as for a code that does not exist.
The code opens one door only: ``/join/<code>/``, where a person takes an open seat. A person is whoever
holds this browser (``angryagents.identity.browser_key``, kept in the session across logins); a room
made while logged in belongs to the account too, which hosts it from any browser (``_key_in``).
The room page is the courtroom's page with room controls; its live fragments come from the one
broadcaster, and each browser fetches its own controls (``room_controls``) when a pushed turn
banner tells it to. Actions
answer htmx with those controls (a refusal inline) and plain form posts with a redirect and a
message.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from angryagents.identity import browser_key
from cases.picker import picker_context
from deliberation.court.courtroom import base_context, court_queryset, page_context
from deliberation.engine.trial.counsel import side_name
from deliberation.game_settings import GameSettingsForm
from deliberation.models import ClassSession, Deliberation, Phase, Seat, SeatKind
from deliberation.rooms import class_selectors, classes, control, page, seat_codes, selectors, services, throttle
from deliberation.rooms.forms import JoinCodeForm, JoinSeatForm, RoomCreateForm, SpeakForm
from deliberation.rooms.services import Credential
from deliberation.services import counsel_claims
from deliberation.services.broadcast import pushes

# A free seat on the join form: an AI juror plays it until a student takes it, nobody sits there.
SEAT_HELD = "Seat {number}: AI juror {name} holds it for now"
MESSAGE_SEAT_BACK = "You are back in seat {seat}. Any other screen that held it has lost it."
TEACHER_POLL_SECONDS = 3


def _session_key(request: HttpRequest) -> str:
    return browser_key(request)


def _user_id(request: HttpRequest) -> int | None:
    return request.user.pk if request.user.is_authenticated else None


def _key_in(request: HttpRequest, deliberation: Deliberation) -> str:
    """The key this request acts with in ``deliberation``: the room's host key for the logged-in
    account that owns it (from any browser), else this browser's (``access.acting_key``)."""
    return services.acting_key(deliberation, _session_key(request), _user_id(request))


def _refused(request: HttpRequest, exc: ValidationError) -> None:
    for message in exc.messages:
        messages.error(request, message)


def room_new(request: HttpRequest) -> HttpResponse:
    """Create a room: the case (the picker), who plays, the open seats and the game settings."""
    posted = request.method == "POST"
    form = RoomCreateForm(request.POST if posted else None)
    settings_form = GameSettingsForm.submitted(request.POST, room=True) if posted else GameSettingsForm(room=True)
    if posted and form.is_valid() and settings_form.is_valid():
        game = settings_form.game_settings()
        try:
            deliberation = services.room_create(
                case=form.cleaned_data["case"],
                host_session_key=_session_key(request),
                owner_id=_user_id(request),
                host_plays=form.cleaned_data["host_plays"],
                open_seats=tuple(form.cleaned_data["open_seats"]),
                show_convictions=form.cleaned_data["show_convictions"],
                seed=form.cleaned_data["seed"],
                rules=form.cleaned_data["rules"],
                engine=game.engine,
                max_rounds=game.max_rounds,
                turn_seconds=game.turn_seconds,
                options={**game.to_settings(), **({"trial": True} if form.cleaned_data["trial"] else {})},
            )
        except ValidationError as exc:
            _refused(request, exc)
        else:
            return redirect("room", code=deliberation.room_code)
    chosen = request.POST.get("case", "") if posted else request.GET.get("case", "")
    context = {"form": form, "settings_form": settings_form, **picker_context(request.GET, selected=chosen)}
    return render(request, "rooms/new.html", context, status=400 if posted else 200)


def join(request: HttpRequest) -> HttpResponse:
    form = JoinCodeForm(request.POST or request.GET or None)
    if form.is_valid() and seat_codes.looks_like_seat_code(form.cleaned_data["code"]):
        if request.method == "POST":  # a seat code moves a seat: never on a GET
            try:
                deliberation, seat = throttle.seat_for_request(
                    request, form.cleaned_data["code"], Credential(session_key=_session_key(request))
                )
            except ValidationError as exc:
                _refused(request, exc)
            else:
                messages.success(request, MESSAGE_SEAT_BACK.format(seat=seat.number))
                return redirect("room", code=deliberation.room_code)
    elif form.is_valid():
        try:
            deliberation = throttle.room_for_request(request, form.cleaned_data["code"])
        except ValidationError as exc:
            _refused(request, exc)
        else:
            return redirect("room_join_code", code=deliberation.room_code)
    return render(request, "rooms/join.html", {"form": form})


def join_room(request: HttpRequest, code: str) -> HttpResponse:
    # A browser already in the room (or staff) is never held up by its address's wrong codes.
    deliberation = throttle.seen_room(request, code)
    if deliberation is None:
        try:
            deliberation = throttle.room_for_request(request, code)
        except ValidationError as exc:
            _refused(request, exc)
            return redirect("room_join")
    key = _key_in(request, deliberation)
    credential = Credential(session_key=key)
    if services.is_host(deliberation, key) or services.seat_of(deliberation, credential):
        return redirect("room", code=deliberation.room_code)
    finished = deliberation.phase == Phase.VERDICT
    if finished:  # a late student is offered no seat in a room whose verdict is in
        return render(request, "rooms/join_room.html", {"deliberation": deliberation, "finished": True, "free": []})
    if classes.seconds_left_to_start(deliberation) is not None:  # nor in a group the class's bell shuts out
        return render(request, "rooms/join_room.html", {"deliberation": deliberation, "too_late": True, "free": []})
    free = [
        (s.number, SEAT_HELD.format(number=s.number, name=s.display_name))
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


def room(request: HttpRequest, code: str) -> HttpResponse:
    found = throttle.visible_room(request, code)
    key = _key_in(request, found)
    seen = pushes(found.pk)  # before the room is read: see broadcast.pushes
    deliberation = court_queryset().defer("engine_state").get(pk=found.pk)  # pages read its summary
    context = page_context(deliberation, session_key=key)
    context["push_seen"] = seen
    seats = context["seats"]
    context.update(page.turn_context(deliberation, seats))
    context.update(page.controls_context(deliberation, seats, session_key=key))
    context.update(
        host=False,  # the courtroom's single-player controls never show in a room
        join_url=request.build_absolute_uri(reverse("room_join_code", args=[deliberation.room_code])),
    )
    return render(request, "rooms/room.html", context)


def _controls(
    request: HttpRequest, deliberation_id: int, form: dict | None = None, *, read: Deliberation | None = None
) -> HttpResponse:
    """This browser's controls, read fresh (two queries: the deliberation without its engine state,
    its seats; one when ``read`` is that row, read by this request and not changed since)."""
    rows = Deliberation.objects.select_related("case").defer("engine_state")
    deliberation = read if read is not None else rows.get(pk=deliberation_id)
    seats = list(Seat.objects.filter(deliberation_id=deliberation_id).order_by("number"))
    context = page.controls_context(deliberation, seats, session_key=_key_in(request, deliberation), form=form)
    return render(request, "rooms/controls.html", context)


@require_GET
def room_controls(request: HttpRequest, code: str) -> HttpResponse:
    found = throttle.visible_room(request, code)  # the same row _controls reads, with the case
    return _controls(request, found.pk, read=found)


def teacher(request: HttpRequest, code: str) -> HttpResponse:
    """The teacher's view: the room's banner and turn, and each participant's contributions.

    Live: the page listens to the room's websocket and asks again for its live part (htmx gets
    that part alone, a fixed number of queries however long the room runs) when the room changes,
    until the verdict; every few seconds only while the socket is down (static/js/teacher.js).

    Staff, who may see every room, may watch it here too, without the host's controls: only the
    room's host steers it."""
    found = throttle.visible_room(request, code)
    key = _key_in(request, found)
    host = services.is_host(found, key)
    if not host and not request.user.is_staff:
        raise PermissionDenied(services.ERROR_NOT_HOST.format(action="see the teacher's view"))
    seen = pushes(found.pk)  # before the room is read: see broadcast.pushes
    deliberation = Deliberation.objects.select_related("case").defer("engine_state").get(pk=found.pk)
    seats = list(Seat.objects.filter(deliberation_id=deliberation.pk).order_by("number"))
    context = {
        **base_context(deliberation, seats),
        **page.turn_context(deliberation, seats),
        **page.controls_context(deliberation, seats, session_key=key),
        **selectors.teacher_view(deliberation, seats),
        "poll_seconds": TEACHER_POLL_SECONDS,
        "push_seen": seen,
        "steers": host,
    }
    if request.htmx:
        return render(request, "rooms/teacher.html#teacher_live", context)
    context["class_session"] = ClassSession.objects.filter(rooms=deliberation).only("public_id", "name").first()
    return render(request, "rooms/teacher.html", context)


def _act(
    request: HttpRequest,
    code: str,
    action: Callable[[Deliberation, str], str | None],
    form: dict | None = None,
    *,
    host_only: str = "",
) -> HttpResponse:
    deliberation = throttle.visible_room(request, code)
    key = _key_in(request, deliberation)
    if host_only and not services.is_host(deliberation, key):
        # A participant (who may see the room) is refused outright; a stranger already got 404.
        raise PermissionDenied(services.ERROR_NOT_HOST.format(action=host_only))
    error, done = "", None
    try:
        done = action(deliberation, key)
    except ValidationError as exc:
        error = " ".join(exc.messages)
    back = request.POST.get("back", "")
    found = class_selectors.card_for_broadcast(deliberation.pk) if back == "class" else None
    if request.htmx and found is not None:  # from the class page: the room's card, with the outcome
        context = {"card": found[1], "error": error, "notice": done or ""}
        return render(request, "rooms/_class_room.html", context)
    if request.htmx:  # the answer is this browser's controls, with the refusal or the outcome
        kept = (form or {}) if error else {}  # a refused argument stays in the form to fix
        # a refusal because the host paused the room leaves the screen when they resume (room.js)
        paused = error in (control.ERROR_PAUSED, counsel_claims.ERROR_PAUSED)
        answer = {"error": error, "error_paused": paused, "notice": done or ""}
        return _controls(request, deliberation.pk, {**answer, **kept})
    if error:
        messages.error(request, error)
    elif done:
        messages.success(request, done)
    if found is not None:
        return redirect("class_page", public_id=found[0].public_id)
    back = "room_teacher" if back == "teacher" and services.is_host(deliberation, key) else "room"
    return redirect(back, code=deliberation.room_code)


@require_POST
def start(request: HttpRequest, code: str) -> HttpResponse:
    def act(deliberation: Deliberation, key: str) -> str:
        services.room_start(deliberation_id=deliberation.pk, session_key=key, side=request.POST.get("side", ""))
        return "The deliberation has started."

    return _act(request, code, act)


def _number(raw: str) -> int | None:
    return int(raw) if raw.isdigit() else None


def _seat_field(request: HttpRequest) -> int | None:
    return _number(request.POST.get("seat", ""))


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
            item={"challenge_evidence": data["evidence"], "question_witness": data["witness"]}.get(
                data["strategy"], ""
            ),
        )
        return "Your argument is in; the jury hears it in the next round."

    form = {
        "form_strategy": request.POST.get("strategy", ""),
        "form_argument_type": request.POST.get("argument_type", "logical"),
        "form_text": request.POST.get("content", ""),
        "form_target": _number(request.POST.get("target", "")),
    }
    return _act(request, code, act, form)


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
def trial(request: HttpRequest, code: str) -> HttpResponse:
    """A participant's move at the room's trial: ``claim`` a side as counsel, or a counsel's move
    (``services.counsel.trial_move``) for the side their seat plays."""
    action = request.POST.get("action", "")

    def act(deliberation: Deliberation, key: str) -> str:
        seat = services.seat_of(deliberation, Credential(session_key=key))
        if seat is None:
            raise ValidationError(counsel_claims.ERROR_NOT_A_PARTICIPANT)
        if action == "claim":
            side = request.POST.get("side", "")
            counsel_claims.counsel_claim(deliberation_id=deliberation.pk, seat_number=seat.number, side=side)
            return f"You are {side_name(side).lower()}."
        if action == "swap":
            side = counsel_claims.counsel_swap(deliberation_id=deliberation.pk, seat_number=seat.number)
            return f"You are {side_name(side).lower()} now."
        counsel_claims.seat_move(
            deliberation_id=deliberation.pk,
            seat_number=seat.number,
            action=action,
            text=request.POST.get("text", "").strip(),
            ground=request.POST.get("ground", ""),
        )
        return ""

    return _act(request, code, act, {"form_question": request.POST.get("text", "")})


@require_POST
def call_vote(request: HttpRequest, code: str) -> HttpResponse:
    def act(deliberation: Deliberation, key: str) -> str:
        services.room_call_vote(deliberation_id=deliberation.pk, session_key=key)
        return "The final vote is called."

    return _act(request, code, act, host_only="call the final vote")


@require_POST
def remove(request: HttpRequest, code: str, seat: int) -> HttpResponse:
    def act(deliberation: Deliberation, key: str) -> str:
        services.room_remove(deliberation_id=deliberation.pk, session_key=key, seat_number=seat)
        return f"Seat {seat} is back with its AI juror."

    return _act(request, code, act, host_only="remove someone")
