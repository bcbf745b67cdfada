"""MCP tools for an external agent as counsel at the trial, beside the juror tools.

An agent that joined a room (``join_as_juror``) may take counsel for one side while the room's
trial is under way, then plays it: ``trial_state`` says what the trial waits for; on its move it
puts questions to the witness (``ask_witness``) or says no further questions (``rest_case``), gives
an opening or a closing (``counsel_speech``), and after each question of the other side either
objects (``object``) or lets the answer stand (``no_objection``). Thin over
``deliberation.services.counsel``; refusals are tool errors with the service's message.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from deliberation.court.courtroom import witness_roles
from deliberation.engine.trial.steps import MAX_QUESTION
from deliberation.mcp.app import _call, _seat_for, server
from deliberation.services import counsel_claims
from deliberation.trial.panel import trial_state_for


def _state(token: str) -> dict[str, Any]:
    deliberation, seat = _seat_for(token)
    return trial_state_for(deliberation, witness_roles(deliberation.case), seat=seat.number)


def _move(token: str, action: str, text: str = "", ground: str = "") -> dict[str, Any]:
    deliberation, seat = _seat_for(token)
    counsel_claims.seat_move(
        deliberation_id=deliberation.pk, seat_number=seat.number, action=action, text=text, ground=ground
    )
    return _state(token)


def _claim(token: str, side: str) -> dict[str, Any]:
    deliberation, seat = _seat_for(token)
    counsel_claims.counsel_claim(deliberation_id=deliberation.pk, seat_number=seat.number, side=side)
    return _state(token)


@server.tool()
async def trial_state(token: str) -> dict[str, Any]:
    """The trial before the deliberation, if one is under way: stage, on_stand (the witness), counsel
    (the seat playing each side), your_side, waiting_for (side, move: speech | examine | review,
    witness, part: chief | cross), is_your_move, grounds (for object) and recent (the last events:
    questions, answers, objections, rulings; struck answers are marked). under_way is false once
    the jury has the case."""
    return await _call(_state, token=token)


@server.tool()
async def take_counsel(token: str, side: str) -> dict[str, Any]:
    """Be counsel for 'prosecution' or 'defense' at this room's trial (first come, first served; one
    side per seat). The trial then waits for your moves on that side. Returns trial_state."""
    return await _call(_claim, token=token, side=side)


@server.tool()
async def ask_witness(
    token: str, question: Annotated[str, Field(description=f"At most {MAX_QUESTION} characters.")]
) -> dict[str, Any]:
    """On your examination (waiting_for.move 'examine'): put a question to the witness on the stand.
    The witness answers only from its record; the other side may object (leading is not allowed of
    your own witness, in chief). Ask as many as you like, then rest_case. Returns trial_state."""
    return await _call(_move, token=token, action="ask", text=question)


@server.tool()
async def rest_case(token: str, let_ai_ask: bool = False) -> dict[str, Any]:
    """ "No further questions" to this witness (with let_ai_ask, AI counsel puts your next planned
    question instead). Returns trial_state."""
    return await _call(_move, token=token, action="ai_ask" if let_ai_ask else "rest")


@server.tool()
async def counsel_speech(token: str, text: str = "") -> dict[str, Any]:
    """Your opening or closing speech to the jury (waiting_for.move 'speech'); leave text empty to let
    AI counsel speak for you. Returns trial_state."""
    return await _call(_move, token=token, action="speak" if text.strip() else "ai_speak", text=text)


@server.tool(name="object")
async def object_to_question(token: str, ground: str) -> dict[str, Any]:
    """Object to the other side's question just answered (waiting_for.move 'review'): ground is one of
    leading, hearsay, speculation, relevance, argumentative, asked_and_answered. The judge rules with
    a one-line reason; sustained, the answer is struck and never reaches the jury. Returns trial_state."""
    return await _call(_move, token=token, action="object", ground=ground)


@server.tool()
async def no_objection(token: str) -> dict[str, Any]:
    """Let the other side's last answer stand (waiting_for.move 'review'). Returns trial_state."""
    return await _call(_move, token=token, action="no_objection")
