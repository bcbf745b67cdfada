"""The courtroom and the verdict page. Thin: services write, ``courtroom`` reads.

Every page here is addressed by the deliberation's public id and answers to the one access rule
(``deliberation.access``): the host, participants and staff see it (command-line and experiment
runs are public); to a stranger it does not exist (404). Only the browser that started a
deliberation (its session holds seat 7) may act in it; staff and a browser that opened the
game's share link may watch. Actions answer htmx with
the controls partial (an error inline when a service refuses), and plain form posts with a
redirect back to the courtroom.

A room (classroom play) is played on its own page, which is this page with the room's controls:
the courtroom of a room redirects there (only its members and staff may see a room, so its code
reaches nobody else), and its single-player actions refuse, so nobody skips the room's turn
order through them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from angryagents.identity import browser_key
from cases.models import HistoricalVerdict
from cases.retrieval import evidence_lookup
from deliberation import services
from deliberation.access import deliberation_for
from deliberation.charts import conviction_chart
from deliberation.court.courtroom import (
    STRATEGIES,
    base_context,
    court_queryset,
    is_host,
    judge_narration,
    page_context,
)
from deliberation.models import ConvictionSnapshot, Deliberation, Narration, Phase, Seat
from deliberation.rooms.state import is_room
from deliberation.services import counsel as counsel_services
from deliberation.services import discharge as discharge_services
from deliberation.services.broadcast import pushes

ERROR_NOT_HOST = "Only the juror in seat 7 can act in this deliberation; you are watching."
ERROR_TARGET = "Choose a juror to address."
ERROR_ROOM = "This deliberation is a room: act from the room page, on your turn."
ERROR_FIRST_VOTE = "Cast your own first vote, guilty or not guilty, with your side."
SEARCH_RESULTS = 5
NO_TEXT_STRATEGIES = {s.id for s in STRATEGIES if s.free_text == "none"}
ITEM_FIELDS = {"challenge_evidence": "evidence", "question_witness": "witness"}  # the form's item pickers


def court(request: HttpRequest, public_id: str) -> HttpResponse:
    deliberation = deliberation_for(request, public_id, court_queryset())
    if is_room(deliberation):
        return redirect("room", code=deliberation.room_code)
    counsel_services.trial_resume_if_stalled(deliberation)  # a trial whose task died goes on
    context = page_context(deliberation, session_key=browser_key(request, create=False))
    context["confirming_call"] = request.GET.get("confirm") == "call"
    context["push_seen"] = pushes(deliberation.pk)  # read with the page: see broadcast.pushes
    return render(request, "courtroom/court.html", context)


def _host_deliberation(request: HttpRequest, public_id: str) -> Deliberation:
    deliberation = deliberation_for(request, public_id)
    if is_room(deliberation):
        raise PermissionDenied(ERROR_ROOM)
    if not is_host(deliberation, browser_key(request, create=False)):
        raise PermissionDenied(ERROR_NOT_HOST)
    return deliberation


def _act(
    request: HttpRequest, public_id: str, action: Callable[[Deliberation], Any], form: dict[str, Any]
) -> HttpResponse:
    deliberation = _host_deliberation(request, public_id)
    error = ""
    try:
        action(deliberation)
    except ValidationError as exc:
        error = " ".join(exc.messages)
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("court", public_id=public_id)
    deliberation = Deliberation.objects.select_related("case").get(pk=deliberation.pk)
    seats = list(Seat.objects.filter(deliberation=deliberation).order_by("number"))
    context = {**base_context(deliberation, seats), "error": error, **(form if error else {})}
    return render(request, "courtroom/controls.html#controls", context)


@require_POST
def side(request: HttpRequest, public_id: str) -> HttpResponse:
    """The side (locked) and the player's own first vote, asked together on the first ballot.

    With the trial on, ``counsel=me`` makes the player counsel for their side at the trial (AI
    counsel's first steps are played once the choice is stored)."""
    choice = request.POST.get("side", "")
    vote = request.POST.get("vote", "")
    be_counsel = request.POST.get("counsel") == "me"

    def choose(deliberation: Deliberation) -> None:
        if vote not in ("guilty", "not_guilty"):
            raise ValidationError(ERROR_FIRST_VOTE)
        chosen = services.side_choose(deliberation_id=deliberation.pk, side=choice, vote=vote, counsel=be_counsel)
        if be_counsel:
            counsel_services.trial_advance(deliberation_id=deliberation.pk)
        elif chosen.phase == Phase.TRIAL:  # a model's witnesses, AI counsel on both sides: off the request
            counsel_services.trial_play(deliberation_id=deliberation.pk)

    return _act(request, public_id, choose, {"form_vote": vote})


@require_POST
def trial(request: HttpRequest, public_id: str) -> HttpResponse:
    """The player's move as counsel at the trial (``services.counsel.trial_move``)."""
    action = request.POST.get("action", "")
    text = request.POST.get("text", "").strip()
    ground = request.POST.get("ground", "")

    def move(deliberation: Deliberation) -> None:
        side = counsel_services.COUNSEL_SIDE.get(deliberation.player_side, "")
        counsel_services.trial_move(deliberation_id=deliberation.pk, side=side, action=action, text=text, ground=ground)

    return _act(request, public_id, move, {"form_question": text if action in ("ask", "speak") else ""})


@require_POST
def vote(request: HttpRequest, public_id: str) -> HttpResponse:
    """The player's own vote, at any time between rounds; the side stays locked."""
    value = request.POST.get("vote", "")
    return _act(
        request,
        public_id,
        lambda d: services.vote_cast(deliberation_id=d.pk, seat_number=d.player_seat, value=value),
        {},
    )


def _target(raw: str) -> int | None:
    try:
        return int(raw)
    except (TypeError, ValueError):
        return None


@require_POST
def speak(request: HttpRequest, public_id: str) -> HttpResponse:
    strategy = request.POST.get("strategy", "")
    text = "" if strategy in NO_TEXT_STRATEGIES else request.POST.get("text", "").strip()
    target = _target(request.POST.get("target", "")) if strategy == "address_juror" else None
    item = request.POST.get(ITEM_FIELDS.get(strategy, ""), "").strip()
    form = {"form_strategy": strategy, "form_text": text, "form_target": target, "form_item": item}

    def move(deliberation: Deliberation) -> None:
        if strategy == "address_juror" and target is None:
            raise ValidationError(ERROR_TARGET)
        services.player_speak(
            deliberation_id=deliberation.pk,
            seat_number=deliberation.player_seat,
            strategy=strategy,
            target=target,
            text=text,
            item=item,
        )

    return _act(request, public_id, move, form)


@require_POST
def pass_turn(request: HttpRequest, public_id: str) -> HttpResponse:
    return _act(request, public_id, lambda d: services.turn_pass(deliberation_id=d.pk, seat_number=d.player_seat), {})


@require_POST
def call_vote(request: HttpRequest, public_id: str) -> HttpResponse:
    """Calling the final vote ends the game, so it is asked twice: the first press shows what the
    current votes would give (a split jury is hung); only ``confirm=yes`` calls it."""
    if request.POST.get("confirm") != "yes":
        deliberation = _host_deliberation(request, public_id)
        if not request.htmx:
            return redirect(f"{reverse('court', kwargs={'public_id': public_id})}?confirm=call#controls")
        seats = list(Seat.objects.filter(deliberation=deliberation).order_by("number"))
        return render(
            request, "courtroom/controls.html#controls", {**base_context(deliberation, seats), "confirming_call": True}
        )
    return _act(request, public_id, lambda d: services.vote_call(deliberation_id=d.pk, seat_number=d.player_seat), {})


@require_POST
def discharge(request: HttpRequest, public_id: str) -> HttpResponse:
    """The player has the judge discharge an AI juror (illness), where the game's rules allow it."""
    seat = _target(request.POST.get("seat", ""))

    def release(deliberation: Deliberation) -> None:
        if seat is None:
            raise ValidationError(discharge_services.ERROR_NO_JUROR)
        discharge_services.juror_discharge(deliberation_id=deliberation.pk, seat_number=seat)

    return _act(request, public_id, release, {})


@require_GET
def search(request: HttpRequest, public_id: str) -> HttpResponse:
    deliberation = deliberation_for(request, public_id)
    query = request.GET.get("q", "").strip()[:200]
    passages = evidence_lookup(deliberation.case, query, k=SEARCH_RESULTS) if query else []
    context = {"deliberation": deliberation, "query": query, "passages": passages}
    if request.htmx:
        return render(request, "courtroom/search_results.html", context)
    page = page_context(court_queryset().get(pk=deliberation.pk), session_key=browser_key(request, create=False))
    return render(request, "courtroom/court.html", {**page, **context})


def ground_truth(deliberation: Deliberation) -> dict[str, Any]:
    """What the historical jury found, and whether this jury agreed (only shown after the verdict)."""
    case = deliberation.case
    known = case.historical_verdict in (HistoricalVerdict.GUILTY, HistoricalVerdict.NOT_GUILTY)
    return {
        "known": known,
        "verdict": case.get_historical_verdict_display(),
        "punishment": case.historical_punishment,
        "agreed": known and deliberation.verdict == case.historical_verdict,
        "hung": deliberation.verdict == "hung",
    }


def verdict(request: HttpRequest, public_id: str) -> HttpResponse:
    deliberation = deliberation_for(
        request,
        public_id,
        Deliberation.objects.select_related("case").prefetch_related(
            Prefetch("seats", queryset=Seat.objects.order_by("number")),
            Prefetch("snapshots", queryset=ConvictionSnapshot.objects.order_by("round_number", "seat_number")),
            Prefetch("narrations", queryset=Narration.objects.order_by("created_at", "id")),
        ),
    )
    seats = list(deliberation.seats.all())
    context = base_context(deliberation, seats)
    if not deliberation.is_finished:
        return render(request, "verdict.html", context)
    snapshots = list(deliberation.snapshots.all())
    names = {seat.number: seat.display_name for seat in seats}
    rounds = sorted({s.round_number for s in snapshots})
    by_key = {(s.seat_number, s.round_number): s for s in snapshots}
    table = [(seat, [by_key.get((seat.number, r)) for r in rounds]) for seat in seats]
    narrations = [n for n in deliberation.narrations.all() if n.kind == "verdict"]
    context.update(
        chart=conviction_chart(
            snapshots,
            names=names,
            highlight_seat=context["player_seat"],
            participants={seat.number for seat in seats if seat.is_participant},
        ),
        rounds=rounds,
        table=table,
        truth=ground_truth(deliberation),
        narration=judge_narration(narrations),
    )
    return render(request, "verdict.html", context)
