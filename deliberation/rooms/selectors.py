"""Reads for room pages and the MCP tools: state, transcript, case briefing, the teacher's view."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from cases.models import Case
from deliberation.models import PASSED, RAN_OUT, SKIPPED, Deliberation, Seat, SeatKind, Turn, TurnKind, Vote
from deliberation.rooms.services import when_next_turn
from deliberation.rooms.state import (
    STAGE_AI,
    STAGE_DONE,
    STAGE_TURNS,
    current_seat,
    room_of,
    seconds_left,
)
from deliberation.trial.record import counsel_work

RECENT_ARGUMENTS = 5


def turn_record(turn: Turn) -> dict[str, Any]:
    return {
        "sequence": turn.sequence,
        "round": turn.round_number,
        "kind": turn.kind,
        "seat": turn.seat_number,
        "speaker": turn.speaker_name,
        "argument_type": turn.argument_type,
        "target_seat": turn.target_seat,
        "position": turn.position,
        "content": turn.content,
    }


def transcript(deliberation: Deliberation) -> list[dict[str, Any]]:
    return [turn_record(t) for t in deliberation.turns.filter(hidden_at=None).order_by("sequence")]


def recent_arguments(deliberation: Deliberation, count: int = RECENT_ARGUMENTS) -> list[dict[str, Any]]:
    turns = list(deliberation.turns.filter(kind=TurnKind.SPEECH, hidden_at=None).order_by("-sequence")[:count])
    return [turn_record(t) for t in reversed(turns)]


def tally(seats: list[Seat]) -> dict[str, int]:
    votes = [s.vote for s in seats if s.vote]
    return {"guilty": votes.count("guilty"), "not_guilty": votes.count("not_guilty")}


def seat_record(seat: Seat) -> dict[str, Any]:
    return {
        "seat": seat.number,
        "name": seat.display_name,
        "emoji": seat.emoji,
        "kind": seat.kind,
        "open": seat.is_open,
        "host": seat.is_host,
        "vote": seat.vote,
    }


def next_speaker(deliberation: Deliberation, room: dict[str, Any], seats: list[Seat]) -> dict[str, Any]:
    """Who speaks next: a participant's seat, or the AI jurors' round."""
    stage = room.get("stage")
    if deliberation.is_finished or stage == STAGE_DONE:
        return {"who": "nobody", "detail": "The deliberation has ended."}
    seat_number = current_seat(room)
    if seat_number is not None:
        seat = next((s for s in seats if s.number == seat_number), None)
        return {
            "who": "participant",
            "seat": seat_number,
            "name": seat.display_name if seat else "",
            "seconds_left": seconds_left(room),
            "then": list((room.get("queue") or [])[1:]),
        }
    if stage == STAGE_AI:
        return {"who": "ai_jurors", "detail": "The AI jurors take the next round."}
    return {"who": "nobody", "detail": "The deliberation has not started yet."}


def room_state(deliberation: Deliberation, seat: Seat | None = None, *, for_agent: bool = False) -> dict[str, Any]:
    """What a participant (or the room page) needs to know right now."""
    room = room_of(deliberation)
    seats = list(deliberation.seats.order_by("number"))
    own = next((s for s in seats if seat is not None and s.number == seat.number), None)
    state: dict[str, Any] = {
        "room_code": deliberation.room_code,
        "case": deliberation.case.title,
        "phase": deliberation.phase,
        "round": deliberation.round_number,
        "rules": {"name": deliberation.jury_rules.name, "summary": deliberation.jury_rules.summary},
        "stage": room.get("stage"),
        "tally": tally(seats),
        "recent_arguments": recent_arguments(deliberation),
        "next_speaker": next_speaker(deliberation, room, seats),
        "is_your_turn": bool(own is not None and current_seat(room) == own.number),
        "seats": [seat_record(s) for s in seats],
        "verdict": deliberation.verdict or None,
    }
    if own is not None:
        state.update(
            your_seat=own.number,
            your_vote=own.vote or None,
            your_conviction=round(own.conviction, 3),
            your_turn=(
                "now"
                if state["is_your_turn"]
                else (None if deliberation.is_finished else when_next_turn(room, own.number))
            ),
        )
    if not for_agent or room.get("show_convictions", True):
        state["convictions"] = {str(s.number): round(s.conviction, 3) for s in seats}
    return state


def case_briefing(case: Case) -> dict[str, Any]:
    """The case file every juror sees (no verdict, no notes for curators)."""
    return {
        "title": case.title,
        "summary": case.summary,
        "charges": list(case.charges),
        "defendants": [{"name": d.name, "description": d.description} for d in case.defendants.all()],
        "evidence": [
            {"id": f"E{i + 1}", "label": e.label, "type": e.type, "description": e.description}
            for i, e in enumerate(case.evidence.all())
        ],
        "witnesses": [
            {"id": f"W{i + 1}", "name": w.name, "role": w.role, "testimony": w.testimony_summary}
            for i, w in enumerate(case.witnesses.all())
        ],
    }


def persona_hint(seat: Seat) -> dict[str, Any]:
    """The persona whose seat a participant took: a suggestion they are free to ignore."""
    persona = seat.persona
    if persona is None:
        return {"name": seat.display_name}
    return {
        "name": persona.name,
        "archetype": persona.archetype.name,
        "personality": persona.personality_prompt,
    }


def teacher_view(deliberation: Deliberation, seats: list[Seat] | None = None) -> dict[str, Any]:
    """Who holds which seat, the tally, and what each participant has contributed: their speeches,
    passes and votes, and at a trial their work as counsel (``trial.record.counsel_work``). ``seats``
    in seat order, when the caller has them already."""
    seats = list(deliberation.seats.order_by("number")) if seats is None else seats
    turns = list(deliberation.turns.filter(Q(seat_number__isnull=False) | Q(kind=TurnKind.TRIAL)).order_by("sequence"))
    casts = list(Vote.objects.filter(deliberation=deliberation, ballot="cast").order_by("id"))
    counsel = counsel_work(turns, deliberation.trial_state)
    people = []
    for seat in seats:
        if seat.kind == SeatKind.AI and not seat.is_open:
            continue
        own = [t for t in turns if t.seat_number == seat.number and seat.kind != SeatKind.AI and not t.stood_in]
        missed = [t.pass_kind for t in own if t.kind == TurnKind.PASS]
        people.append(
            {
                "seat": seat,
                "taken": seat.kind != SeatKind.AI,
                "speeches": [t for t in own if t.kind == TurnKind.SPEECH],
                "passes": missed.count(PASSED),
                "ran_out": missed.count(RAN_OUT),
                "skipped": missed.count(SKIPPED),
                "votes": [v for v in casts if v.seat_number == seat.number],
                "counsel": counsel.get(seat.number) if seat.kind != SeatKind.AI else None,
            }
        )
    return {
        "tally": tally(seats),
        "people": people,
        "room": room_of(deliberation),
        "stage_turns": STAGE_TURNS,
        # A column for the trial when the room holds one (its record, or its settings before it begins).
        "trial_column": bool(deliberation.trial_state or (deliberation.settings or {}).get("trial")),
    }
