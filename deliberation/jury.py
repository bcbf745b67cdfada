"""From seats and personas to the engine's ``JurorProfile``s, and the seats of a new jury."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from deliberation.engine.types import ARGUMENT_TYPES, JurorProfile
from deliberation.models import Seat, SeatKind
from jurors.models import PLAYER_SEAT, Persona

PLAYER_NAME = "Juror 7"  # how the other jurors address the person in seat 7
PLAYER_EMOJI = "👤"
PLAYER_ARCHETYPE = "Player"
# A participant's seat has no persona of its own; these only matter for the engine's bookkeeping
# (participants' convictions follow their own votes, never the formula). Influence 0.6 as specified.
PARTICIPANT_TRAITS = {"stubbornness": 0.5, "volatility": 0.5, "influence": 0.6, "verbosity": 0.5}

ERROR_JURY_INCOMPLETE = "The jury needs an active persona in every AI seat; seat(s) {seats} have none."


def new_seats(*, personas: Sequence[Persona], player_in_seat_7: bool, open_seats: Iterable[int] = ()) -> list[Seat]:
    """Unsaved seats 1-12: AI personas everywhere, except seat 7 when a person plays there."""
    by_seat = {p.seat_number: p for p in personas}
    opened = set(open_seats)
    missing = [n for n in range(1, 13) if n not in by_seat and not (n == PLAYER_SEAT and player_in_seat_7)]
    if missing:
        raise ValueError(ERROR_JURY_INCOMPLETE.format(seats=", ".join(map(str, missing))))
    seats = []
    for number in range(1, 13):
        if number == PLAYER_SEAT and player_in_seat_7:
            seats.append(
                Seat(
                    number=number,
                    kind=SeatKind.HUMAN,
                    display_name=PLAYER_NAME,
                    emoji=PLAYER_EMOJI,
                    archetype_name=PLAYER_ARCHETYPE,
                    is_host=True,
                )
            )
            continue
        persona = by_seat[number]
        seats.append(
            Seat(
                number=number,
                kind=SeatKind.AI,
                persona=persona,
                display_name=persona.name,
                emoji=persona.emoji,
                archetype_name=persona.archetype.name,
                is_open=number in opened and number != PLAYER_SEAT,
            )
        )
    return seats


def profile(seat: Seat) -> JurorProfile:
    """The engine's view of one seat. Participants (people, agents) are never chosen to speak, unless
    their seat stands empty."""
    persona = seat.persona
    # A participant's seat left empty (``away_since``) is played by its AI juror until they return.
    if (seat.kind != SeatKind.AI and seat.away_since is None) or persona is None:
        return JurorProfile(
            seat=seat.number,
            name=seat.display_name,
            emoji=seat.emoji,
            archetype="player",
            modifiers=dict.fromkeys(ARGUMENT_TYPES, 1.0),
            personality="A participant in the deliberation.",
            kind="agent" if seat.kind == SeatKind.AGENT else "human",
            **PARTICIPANT_TRAITS,
        )
    return JurorProfile(
        seat=seat.number,
        name=persona.name,
        emoji=persona.emoji,
        archetype=persona.archetype.slug,
        modifiers=persona.archetype.modifiers,
        personality=persona.personality_prompt,
        stubbornness=persona.stubbornness,
        volatility=persona.volatility,
        influence=persona.influence,
        verbosity=persona.verbosity,
        initial_lean=persona.initial_lean,
        model=persona.model,
        temperature=persona.temperature,
        memory_window=persona.memory_window,
        kind="ai",
        stands_in=seat.kind != SeatKind.AI,
        holder=seat.display_name if seat.kind != SeatKind.AI else "",
    )


def profiles(seats: Iterable[Seat]) -> list[JurorProfile]:
    """Profiles in seat order; load seats with ``select_related("persona__archetype")``."""
    return [profile(seat) for seat in sorted(seats, key=lambda s: s.number)]
