"""When a deliberation ends, and with which verdict.

Checked after every round from round 1 (``rounds.run_round`` does it and records the reason on the
state): unanimity, a vote called by the player, stability (``stability_rounds`` rounds in a row
without a vote change) and the round limit. The verdict needs all twelve votes to agree; anything
less is a hung jury.
"""

from __future__ import annotations

from typing import Literal

from deliberation.engine.state import DeliberationState

EndReason = Literal["unanimous", "called", "stable", "round_limit"]
Verdict = Literal["guilty", "not_guilty", "hung"]


def is_unanimous(votes: dict[int, str]) -> bool:
    return len(votes) > 0 and len(set(votes.values())) == 1


def end_reason(state: DeliberationState) -> EndReason | None:
    """Why the deliberation should end now, or None to keep going. Unanimity wins ties."""
    if state.round_number < 1:
        return None
    if is_unanimous(state.votes):
        return "unanimous"
    if state.vote_called:
        return "called"
    if state.rounds_without_change >= state.settings.stability_rounds:
        return "stable"
    if state.round_number >= state.settings.max_rounds:
        return "round_limit"
    return None


def verdict_of(votes: dict[int, str]) -> Verdict:
    if is_unanimous(votes):
        return "guilty" if next(iter(votes.values())) == "guilty" else "not_guilty"
    return "hung"


def call_vote(state: DeliberationState) -> None:
    """The player calls the vote: the deliberation ends after the current round is checked."""
    state.vote_called = True


FINAL_VOTE_ONLY = "The verdict is read only after the final vote."
UNKNOWN_VOTE = "A vote is 'guilty' or 'not_guilty', not '{value}'."
NOT_A_SEAT = "Seat {seat} is not on this jury."


def cast_vote(state: DeliberationState, *, seat: int, value: str) -> bool:
    """A participant (human or external agent) casts or changes a vote; True when it changed.

    The change counts as a vote change for the stability rule at the end of the current round.
    """
    if value not in ("guilty", "not_guilty"):
        raise ValueError(UNKNOWN_VOTE.format(value=value))
    if seat not in state.memories:
        raise ValueError(NOT_A_SEAT.format(seat=seat))
    memory = state.memories[seat]
    changed = state.votes.get(seat) != value
    state.votes[seat] = value
    memory.vote = value
    return changed


def final_verdict(state: DeliberationState) -> Verdict:
    """Read the verdict from the final ballot (phase ``final_vote``) and record it on the state."""
    if state.phase != "final_vote":
        raise ValueError(FINAL_VOTE_ONLY)
    state.verdict = verdict_of(state.votes)
    return state.verdict
