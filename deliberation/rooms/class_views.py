"""A teacher's class pages: make a class, watch every room live, print the codes, the debrief, and
"My rooms".

Thin: writes in ``classes``, reads in ``class_selectors``. Every page of a class asks the one
access rule (``deliberation.access.class_for``): only the class's teacher (the browser that made
it, or the account logged in then) and staff see it; to anyone else it does not exist (404).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.views import LoginView
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from angryagents.identity import SESSION_FIELD, browser_key
from cases.picker import picker_context
from deliberation.access import Viewer, class_for
from deliberation.engine.rules import DEFAULT_RULES, RULE_SETS
from deliberation.game_settings import GameSettingsForm
from deliberation.rooms import class_selectors, classes
from deliberation.rooms.class_forms import ClassCreateForm
from deliberation.services.broadcast import class_pushes

MESSAGE_CREATED = (
    "Your class is ready: {groups} rooms. Print the codes, then start the rooms when the groups are seated."
)
MESSAGE_STARTED = "{count} room{s} started."
MESSAGE_EMPTY_LEFT = "{count} group{s} nobody has joined {verb} waiting: a late student can still take a seat there."
MESSAGE_LOGGED_OUT = "You are logged out. This browser still hosts the rooms it made."
POLL_SECONDS = 5  # the class page asks for its rooms this often only while its socket is down


def _user_id(request: HttpRequest) -> int | None:
    return request.user.pk if request.user.is_authenticated else None


def class_new(request: HttpRequest) -> HttpResponse:
    """Make a class: the case, the groups and seats, the jury rules and the game settings every
    room is played with (the room form's own, ``GameSettingsForm``)."""
    posted = request.method == "POST"
    form = ClassCreateForm(request.POST or None, initial={"case": request.GET.get("case")})
    settings_form = GameSettingsForm.submitted(request.POST, room=True) if posted else GameSettingsForm(room=True)
    if posted and form.is_valid() and settings_form.is_valid():
        data = form.cleaned_data
        game = settings_form.game_settings()
        try:
            session = classes.class_create(
                case=data["case"],
                groups=data["groups"],
                seats=data["seats"],
                teacher_session_key=browser_key(request),
                owner_id=_user_id(request),
                name=data["name"],
                max_rounds=game.max_rounds,
                turn_seconds=game.turn_seconds,
                pace_seconds=data["pace_seconds"],
                seed=data["seed"],
                engine=game.engine,
                rules=data["rules"],
                options=game.to_settings(),
                trial=data["trial"],
                lesson_minutes=data["lesson_minutes"],
            )
        except ValidationError as exc:
            for message in exc.messages:
                form.add_error(None, message)
        else:
            messages.success(request, MESSAGE_CREATED.format(groups=data["groups"]))
            return redirect("class_page", public_id=session.public_id)
    chosen = request.POST.get("case", "") if posted else request.GET.get("case", "")
    context = {"form": form, "settings_form": settings_form, **picker_context(request.GET, selected=chosen)}
    return render(request, "rooms/class_new.html", context)


def _join_urls(request: HttpRequest, cards: list[class_selectors.RoomCard]) -> dict[str, str]:
    return {c.code: request.build_absolute_uri(reverse("room_join_code", args=[c.code])) for c in cards}


@require_GET
def class_page(request: HttpRequest, public_id: str) -> HttpResponse:
    """Every room of the class, live. htmx gets the rooms alone (``class_rooms``): the page asks
    for them when its socket says it missed a card, and every few seconds while the socket is down
    (static/js/class.js)."""
    session = class_for(request, public_id)
    seen = class_pushes(session.pk)  # before the rooms are read: see broadcast.pushes
    cards = class_selectors.class_cards(session)
    if request.htmx:
        return render(request, "rooms/class_page.html#class_rooms", {"cards": cards})
    plan = classes.lesson_plan_of(session)
    context = {
        "session": session,
        "cards": cards,
        "join_url": request.build_absolute_uri(reverse("room_join")),
        "any_waiting": any(c.waiting for c in cards),
        "any_empty": any(c.waiting and not c.seated for c in cards),
        "any_finished": any(c.finished for c in cards),
        "push_seen": seen,
        "poll_seconds": POLL_SECONDS,
        "lesson_plan": plan and classes.plan_as_played(session, plan),
        "group_plans": [
            (group, classes.plan_as_played(session, own))
            for group, own in classes.group_plans(session, [(c.group, c.deliberation) for c in cards])
        ],
        # The cards (pushed alike to every viewer) carry the host's pause, more time and skip; the
        # page shows them to the class's teacher only (staff watch).
        "steers": session.teacher_session_key == browser_key(request, create=False)
        or (session.owner_id is not None and session.owner_id == _user_id(request)),
        "jury_rules": RULE_SETS.get((session.settings or {}).get("rules", DEFAULT_RULES), RULE_SETS[DEFAULT_RULES]),
    }
    return render(request, "rooms/class_page.html", context)


@require_POST
def class_start(request: HttpRequest, public_id: str) -> HttpResponse:
    """Start the groups that have students; with ``empty`` posted, the empty groups too, as AI-only
    juries; with ``trial_choice`` posted, the groups ticked under ``trial`` hold the trial first
    and the others do not (``classes.class_start``)."""
    session = class_for(request, public_id)
    try:
        chosen = {int(n) for n in request.POST.getlist("trial") if n.isdigit()}
        count = classes.class_start(
            class_id=session.pk,
            empty_too=bool(request.POST.get("empty")),
            trial_groups=chosen if request.POST.get("trial_choice") else None,
        )
    except ValidationError as exc:
        for message in exc.messages:
            messages.error(request, message)
    else:
        messages.success(request, MESSAGE_STARTED.format(count=count, s="" if count == 1 else "s"))
        left = sum(1 for c in class_selectors.class_cards(session) if c.waiting and not c.seated)
        if left:
            messages.info(
                request,
                MESSAGE_EMPTY_LEFT.format(count=left, s="" if left == 1 else "s", verb="is" if left == 1 else "are"),
            )
    return redirect("class_page", public_id=session.public_id)


@require_POST
def class_trial_choice(request: HttpRequest, public_id: str) -> HttpResponse:
    """A tick or untick under "Hold the trial first in", kept as the teacher makes it (the page posts
    the whole choice on every change): 204, nothing to redraw."""
    session = class_for(request, public_id)
    chosen = {int(n) for n in request.POST.getlist("trial") if n.isdigit()}
    classes.class_trial_choose(class_id=session.pk, trial_groups=chosen)
    return HttpResponse(status=204)


@require_GET
def class_codes(request: HttpRequest, public_id: str) -> HttpResponse:
    """The sheet of codes to print and cut: one slip per group, with the join address."""
    session = class_for(request, public_id)
    cards = class_selectors.class_cards(session)
    context = {"session": session, "cards": cards, "join_url": request.build_absolute_uri(reverse("room_join"))}
    return render(request, "rooms/class_codes.html", context)


@require_GET
def class_debrief(request: HttpRequest, public_id: str) -> HttpResponse:
    """The class's juries side by side; groups nobody joined are listed apart and not counted."""
    session = class_for(request, public_id)
    every = class_selectors.class_debriefs(session)
    groups = [g for g in every if g.counted]
    context = {
        "session": session,
        "groups": groups,
        "empty_groups": [g for g in every if not g.counted],
    }
    # a hung jury finished without a verdict: the lead counts it apart
    finished = [g for g in groups if g.debrief is not None]
    context["done"] = len(finished)
    context["hung"] = sum(1 for g in finished if g.deliberation.verdict == "hung")
    context["reached"] = len(finished) - context["hung"]
    return render(request, "rooms/class_debrief.html", context)


@require_GET
def class_debrief_csv(request: HttpRequest, public_id: str) -> HttpResponse:
    session = class_for(request, public_id)
    sheet = class_selectors.class_contributions_csv(class_selectors.class_debriefs(session))
    response = HttpResponse(sheet, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="class-{session.public_id}-contributions.csv"'
    return response


@require_GET
def my_rooms(request: HttpRequest) -> HttpResponse:
    context = class_selectors.my_rooms(Viewer.of(request), user_id=_user_id(request))
    return render(request, "rooms/my_rooms.html", context)


class TeacherLoginView(LoginView):
    """A teacher logs in (an account the operator made in the admin): what they make from then on
    belongs to the account and opens from any browser where they log in. Django keeps the
    session's data at login, so this browser keeps its key, its rooms and its seats."""

    template_name = "rooms/login.html"
    redirect_authenticated_user = True
    next_page = "my_rooms"


@require_POST
def teacher_logout(request: HttpRequest) -> HttpResponse:
    """Log out, keeping this browser's key: the rooms it made (its host key) stay with it."""
    key = browser_key(request, create=False)
    logout(request)
    if key:
        request.session[SESSION_FIELD] = key
    messages.success(request, MESSAGE_LOGGED_OUT)
    return redirect("my_rooms")
