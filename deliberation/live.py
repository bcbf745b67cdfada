"""HTML partials pushed over the websocket, keyed by event.

``render_event`` returns the fragments a browser swaps in by id when ``event`` happens; the
htmx websocket extension swaps every top-level element of a message out of band. The markup
comes from the courtroom templates' named partials, so a pushed fragment and a reloaded page
are the same HTML. Each event costs a fixed number of queries, whatever the round.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils.html import escape, format_html

from deliberation.courtroom import base_context, latest_narration, messages_for
from deliberation.models import Deliberation, Seat, Turn

PAGE = "courtroom/court.html"
CONTROLS = "courtroom/controls.html#controls"
ANNOUNCE_FLIP = "Round {round}: {name} changed vote to {vote}."
ANNOUNCE_TALLY = "The vote stands at {tally}."
ANNOUNCE_VERDICT = "The jury has reached its verdict: {verdict}."


def _partials(names: list[str], context: dict[str, Any]) -> list[str]:
    return [render_to_string(CONTROLS if name == "controls" else f"{PAGE}#{name}", context) for name in names]


def _announce(lines: list[str]) -> str:
    if not lines:
        return ""
    inner = "".join(str(format_html('<p class="announce">{}</p>', line)) for line in lines)
    return f'<div hx-swap-oob="beforeend:#announcements">{inner}</div>'


def _load(deliberation_id: int) -> tuple[Deliberation, list[Seat], dict[str, Any]]:
    deliberation = Deliberation.objects.select_related("case").get(pk=deliberation_id)
    seats = list(Seat.objects.filter(deliberation_id=deliberation_id).order_by("number"))
    return deliberation, seats, base_context(deliberation, seats)


def _round_fragments(deliberation: Deliberation, context: dict[str, Any], round_number: int) -> list[str]:
    turns = list(Turn.objects.filter(deliberation=deliberation, round_number=round_number).order_by("sequence"))
    messages = messages_for(turns, context["seat_by_number"], player_seat=context["player_seat"])
    items = "".join(
        render_to_string(f"{PAGE}#message", {**context, "message": message, "animate": True}) for message in messages
    )
    lines = [
        ANNOUNCE_FLIP.format(round=round_number, name=flip.name, vote=flip.after.lower())
        for message in messages
        for flip in message.flips
    ]
    if lines and context["tally"]:
        lines.append(ANNOUNCE_TALLY.format(tally=context["tally"].label))
    out = ['<div id="chat-empty" hx-swap-oob="delete"></div>']
    if items:
        out.append(f'<div hx-swap-oob="beforeend:#chat">{items}</div>')
    out.append(_announce(lines))
    return out


def render_event(deliberation_id: int, event: str, data: dict[str, Any]) -> str:
    """The out-of-band fragments for one event ("phase", "thinking", "round", "vote", "narration")."""
    if event == "narration":
        return render_to_string(f"{PAGE}#judge", {"narration": latest_narration(deliberation_id)})
    deliberation, _seats, context = _load(deliberation_id)
    if event == "vote":
        return "".join(_partials(["jury_box", "tally"], context))
    if event == "thinking":
        return "".join(_partials(["status", "controls", "jury_box", "stream"], context))
    fragments = _partials(["phase_banner", "tally", "jury_box", "status", "stream", "controls"], context)
    if event == "round":
        fragments += _round_fragments(deliberation, context, int(data.get("round", deliberation.round_number)))
    elif event == "phase":
        if context["finished"]:
            fragments.append(_announce([ANNOUNCE_VERDICT.format(verdict=deliberation.get_verdict_display().lower())]))
            fragments.append(render_to_string(f"{PAGE}#watch_note", context))
        elif context["deliberating"] and context["tally"] and deliberation.round_number == 0:
            fragments.append(_announce([ANNOUNCE_TALLY.format(tally=context["tally"].label)]))
    return "".join(fragments)


def render_chunk(deliberation_id: int, seat: int, chunk: str) -> str:
    return f'<span hx-swap-oob="beforeend:#stream-{seat}">{escape(chunk)}</span>'
