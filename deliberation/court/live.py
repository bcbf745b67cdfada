"""HTML partials pushed over the websocket, keyed by event.

``render_event`` returns the fragments a browser swaps in by id when ``event`` happens; the
htmx websocket extension swaps every top-level element of a message out of band. The markup
comes from the courtroom templates' named partials, so a pushed fragment and a reloaded page
are the same HTML. Each event costs a fixed number of queries, whatever the round.

A room (classroom play) is the same page with several people in it, so its fragments stay the
same for every viewer: instead of the single player's controls it gets the turn banner
("rooms/turn.html": who has the floor, with the deadline a small script counts down), whose
pushed copy makes each browser fetch its own controls (``deliberation.rooms.page``). Rooms add
two events: "seats" (someone joined or was removed) and "turn" (the floor moved; passes join
the chat).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.template.loader import render_to_string
from django.utils.html import escape, format_html

from deliberation.court.courtroom import base_context, box_context, latest_narration, messages_for
from deliberation.models import Deliberation, Seat, Turn, TurnKind
from deliberation.rooms.page import turn_context

PAGE = "courtroom/court.html"
CONTROLS = "courtroom/controls.html#controls"
ANNOUNCE_FLIP = "Round {round}: {name} changed vote to {vote}."
ANNOUNCE_TALLY = "The vote stands at {tally}."
ANNOUNCE_VOTE = "{name} votes {vote}."
ANNOUNCE_VERDICT = "The jury has reached its verdict: {verdict}."


ROOM_TURN = "rooms/turn.html"


def _partials(names: list[str], context: dict[str, Any]) -> list[str]:
    """Render named partials; in a room "controls" is the turn banner (each page fetches its own controls)."""
    out = []
    for name in names:
        if name == "controls" and context["is_room"]:
            room_context = turn_context(context["deliberation"], context["seats"], pushed=True)
            out.append(render_to_string(ROOM_TURN, {**context, **room_context}))
        elif name == "controls":
            out.append(render_to_string(CONTROLS, context))
        else:
            out.append(render_to_string(f"{PAGE}#{name}", context))
    return out


def _announce(lines: list[str], *, verdict: bool = False) -> str:
    """Lines for the screen reader's live region; ``verdict`` marks the verdict's, which a page
    shows only once the speeches before it are typed (static/js/court.js)."""
    if not lines:
        return ""
    inner = "".join(str(format_html('<p class="announce">{}</p>', line)) for line in lines)
    mark = " data-verdict" if verdict else ""
    return f'<div hx-swap-oob="beforeend:#announcements"{mark}>{inner}</div>'


def _load(deliberation_id: int) -> tuple[Deliberation, list[Seat], dict[str, Any]]:
    deliberation = Deliberation.objects.select_related("case").defer("engine_state").get(pk=deliberation_id)
    seats = list(Seat.objects.filter(deliberation_id=deliberation_id).order_by("number"))
    return deliberation, seats, base_context(deliberation, seats)


def _chat_fragments(context: dict[str, Any], turns: list[Turn], *, animate: bool = True) -> tuple[list[str], list[Any]]:
    """New messages appended to the chat, to be typed out unless ``animate`` is off (a browser drops
    any it already shows)."""
    messages = messages_for(turns, context["seat_by_number"], player_seat=context["player_seat"])
    items = "".join(
        render_to_string(f"{PAGE}#message", {**context, "message": message, "animate": animate}) for message in messages
    )
    # Hidden, not deleted: the next round's copy finds its target (no htmx oobErrorNoTarget).
    out = ['<li id="chat-empty" class="msg msg-note chat-empty" hidden hx-swap-oob="true"></li>']
    if items:
        out.append(f'<div hx-swap-oob="beforeend:#chat">{items}</div>')
    return out, messages


def _round_fragments(deliberation: Deliberation, context: dict[str, Any], round_number: int) -> list[str]:
    turns = list(Turn.objects.filter(deliberation=deliberation, round_number=round_number).order_by("sequence"))
    out, messages = _chat_fragments(context, turns)
    lines = [
        ANNOUNCE_FLIP.format(round=round_number, name=flip.name, vote=flip.after.lower())
        for message in messages
        for flip in message.flips
    ]
    if lines and context["tally"]:
        lines.append(ANNOUNCE_TALLY.format(tally=context["tally"].label))
    out.append(_announce(lines))
    return out


def _vote_fragments(deliberation: Deliberation, context: dict[str, Any], data: dict[str, Any]) -> list[str]:
    """A person's vote, in the chat and announced like a juror's flip."""
    turn = (
        Turn.objects.filter(deliberation=deliberation, kind=TurnKind.PROCESS, seat_number=data.get("seat"))
        .exclude(flips=[])
        .order_by("-sequence")
        .first()
    )
    if turn is None:
        return []
    out, messages = _chat_fragments(context, [turn], animate=False)  # shown at once, not behind the typing
    lines = [ANNOUNCE_VOTE.format(name=flip.name, vote=flip.after.lower()) for flip in messages[0].flips]
    if context["tally"]:
        lines.append(ANNOUNCE_TALLY.format(tally=context["tally"].label))
    out.append(_announce(lines))
    return out


def _vote(deliberation_id: int, data: dict[str, Any]) -> str:
    """A person's vote: only what it changes, their seat in the jury box, the tally, the vote in
    the chat and, in a room, the turn banner with the jury's outlook. A room of 12 receives every
    vote on every socket, and the whole jury box was most of each message (BENCHMARKS.md); a vote
    changes no other seat."""
    deliberation = Deliberation.objects.defer("engine_state").get(pk=deliberation_id)
    seats = list(Seat.objects.filter(deliberation_id=deliberation_id).order_by("number"))
    context = box_context(deliberation, seats)
    seat = context["seat_by_number"].get(data.get("seat"))
    box = ["jury_box"] if seat is None else []  # a vote that names no seat shows the whole box again
    # In a room the turn banner too: it carries how close the jury now is to a verdict, which every
    # participant's controls show (a vote that makes the jury unanimous changes it for all of them).
    banner = ["controls"] if context["is_room"] else []
    fragments = _partials([*box, "tally", *banner], context)
    if seat is not None:
        fragments.insert(0, render_to_string(f"{PAGE}#seat", {**context, "seat": seat}))
    return "".join(fragments + _vote_fragments(deliberation, context, data))


def _passes(deliberation: Deliberation, context: dict[str, Any]) -> list[str]:
    """A room's participant turns since the last round: passes of this round, and the speeches
    already spoken for the next one (the jury hears them then, everyone reads them now)."""
    number = deliberation.round_number
    turns = list(
        Turn.objects.filter(deliberation=deliberation)
        .filter(Q(round_number=number, kind=TurnKind.PASS) | Q(round_number=number + 1, kind=TurnKind.SPEECH))
        .order_by("sequence")
    )
    return _chat_fragments(context, turns)[0] if turns else []


def _trial_step_fragments(deliberation: Deliberation, context: dict[str, Any], data: dict[str, Any]) -> list[str]:
    """A step of the trial: its turns appended to the chat at once (the on-the-stand panel types
    them out), answers struck since re-rendered in place, the panel, the status and the controls."""
    start, struck = int(data["from"]), [int(n) for n in data.get("struck", [])]
    turns = list(
        Turn.objects.filter(deliberation=deliberation, kind=TurnKind.TRIAL)
        .filter(Q(sequence__gte=start) | Q(sequence__in=struck))
        .order_by("sequence")
    )
    fresh = [turn for turn in turns if turn.sequence >= start]
    out = _chat_fragments(context, fresh, animate=False)[0]
    for message in messages_for(
        [t for t in turns if t.sequence in struck], context["seat_by_number"], player_seat=context["player_seat"]
    ):
        out.append(render_to_string(f"{PAGE}#message", {**context, "message": message, "oob": True}))
    base = int((deliberation.trial_state or {}).get("base", 0))
    stand = {**context, "stand_from": start - base}
    out += _partials(["on_stand", "status", "controls", "phase_banner"], stand)
    return out


def render_event(deliberation_id: int, event: str, data: dict[str, Any]) -> str:
    """The out-of-band fragments for one event: "phase", "thinking", "round", "vote", "narration",
    "hide" (the host hid a message: it leaves every chat), and in rooms "seats" and "turn"."""
    if event == "hide":
        return format_html('<li id="turn-{}" hx-swap-oob="delete"></li>', int(data["turn"]))
    if event == "narration":
        return render_to_string(f"{PAGE}#judge", {"narration": latest_narration(deliberation_id)})
    if event == "vote":
        return _vote(deliberation_id, data)
    deliberation, _seats, context = _load(deliberation_id)
    if event == "trial" and "from" in data:  # a step of a trial played step by step
        return "".join(_trial_step_fragments(deliberation, context, data))
    if event == "trial":  # the trial's turns, appended to the chat before the first tally
        turns = list(Turn.objects.filter(deliberation=deliberation, kind=TurnKind.TRIAL).order_by("sequence"))
        return "".join(_chat_fragments(context, turns)[0])
    if event == "seats":
        return "".join(_partials(["jury_box", "tally", "controls"], context))
    if event == "turn":
        # the phase pill says whether the host paused the room (a pause or a resume is a "turn")
        fragments = _partials(["status", "jury_box", "controls", "phase_banner"], context)
        return "".join(fragments + (_passes(deliberation, context) if context["is_room"] else []))
    if event == "thinking":
        return "".join(_partials(["status", "controls", "jury_box", "stream"], context))
    fragments = _partials(["phase_banner", "tally", "jury_box", "status", "stream", "controls", "on_stand"], context)
    if event == "round":
        fragments += _round_fragments(deliberation, context, int(data.get("round", deliberation.round_number)))
    elif event == "phase":
        if context["finished"]:
            fragments.append(
                _announce([ANNOUNCE_VERDICT.format(verdict=deliberation.get_verdict_display().lower())], verdict=True)
            )
            if not context["is_room"]:  # a room's turn banner carries the verdict and its links
                fragments.append(render_to_string(f"{PAGE}#watch_note", context))
        elif context["deliberating"] and context["tally"] and deliberation.round_number == 0:
            fragments.append(_announce([ANNOUNCE_TALLY.format(tally=context["tally"].label)]))
    return "".join(fragments)


def render_chunk(deliberation_id: int, seat: int, chunk: str) -> str:
    return f'<span hx-swap-oob="beforeend:#stream-{seat}">{escape(chunk)}</span>'
