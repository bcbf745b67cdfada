"""The phases of a deliberation and the only moves between them.

setup -> presentation -> side_selection -> initial_vote -> deliberation -> final_vote -> verdict.
An AI-only deliberation may skip side selection (presentation -> initial_vote), and a deliberation
may be abandoned to its verdict from final_vote only. Anything else is refused with
``PhaseError`` carrying ``ILLEGAL_TRANSITION``.
"""

from __future__ import annotations

from typing import Literal

from deliberation.engine.state import DeliberationState

Phase = Literal["setup", "presentation", "side_selection", "initial_vote", "deliberation", "final_vote", "verdict"]
PHASES: tuple[Phase, ...] = (
    "setup",
    "presentation",
    "side_selection",
    "initial_vote",
    "deliberation",
    "final_vote",
    "verdict",
)
TRANSITIONS: dict[str, frozenset[str]] = {
    "setup": frozenset({"presentation"}),
    "presentation": frozenset({"side_selection", "initial_vote"}),
    "side_selection": frozenset({"initial_vote"}),
    "initial_vote": frozenset({"deliberation"}),
    "deliberation": frozenset({"final_vote"}),
    "final_vote": frozenset({"verdict"}),
    "verdict": frozenset(),
}

ILLEGAL_TRANSITION = "A deliberation in phase '{current}' cannot move to '{target}'."
UNKNOWN_PHASE = "'{target}' is not a phase of a deliberation."
WRONG_PHASE = "This needs the deliberation in phase '{expected}', but it is in '{current}'."


class PhaseError(ValueError):
    """An action or transition that the current phase does not allow."""


def can_advance(current: str, target: str) -> bool:
    return target in TRANSITIONS.get(current, frozenset())


def advance(state: DeliberationState, target: str) -> None:
    """Move ``state`` to ``target`` or raise ``PhaseError`` without changing anything."""
    if target not in TRANSITIONS:
        raise PhaseError(UNKNOWN_PHASE.format(target=target))
    if not can_advance(state.phase, target):
        raise PhaseError(ILLEGAL_TRANSITION.format(current=state.phase, target=target))
    state.phase = target


def require(state: DeliberationState, expected: str) -> None:
    if state.phase != expected:
        raise PhaseError(WRONG_PHASE.format(expected=expected, current=state.phase))
