"""Who answers whom in a round, decided before anyone is generated. Pure Python, no Django.

A model takes a second or more per speech; a round whose speakers wait in line takes as long as
all of them together. So the round is planned first: each AI speaker answers the participant who
addressed them, else the participants of this round, else whoever addressed them last round, else
the last speaker they heard. Only an answer to a speech that is itself being generated this round
(a participant's crafted argument) has to wait for it; everyone else is generated at the same time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from deliberation.engine.results import PlayerMove
from deliberation.engine.state import DeliberationState
from deliberation.engine.types import Speech


@dataclass(frozen=True)
class Planned:
    """One AI speaker's place in the round."""

    seat: int
    answering: int | None  # the seat they answer, or None to speak to the room
    waits_for: tuple[int, ...] = ()  # indexes of this round's contributions they must hear first


def plan_answers(
    state: DeliberationState, seats: Sequence[int], contributions: Sequence[Speech | PlayerMove]
) -> list[Planned]:
    """The plan for ``seats`` (in speaking order) after the participants' ``contributions``."""
    number = state.round_number
    crafted = tuple(index for index, item in enumerate(contributions) if isinstance(item, PlayerMove))
    plan: list[Planned] = []
    for seat in seats:
        to_me = [index for index, item in enumerate(contributions) if item.target_seat == seat and item.seat != seat]
        others = [index for index, item in enumerate(contributions) if item.seat != seat]
        chosen = to_me[-1] if to_me else (others[-1] if others else None)
        if chosen is not None:
            plan.append(Planned(seat, contributions[chosen].seat, crafted))
            continue
        heard = [turn for turn in state.memories[seat].heard if turn.kind == "speech" and turn.seat != seat]
        addressed = [turn for turn in heard if turn.round_number == number - 1 and turn.target_seat == seat]
        last = addressed[-1] if addressed else (heard[-1] if heard else None)
        plan.append(Planned(seat, last.seat if last else None))
    return plan
