"""The engine's front door: start a deliberation, run it round by round or to the end.

Typical use by a service (state persisted between rounds with ``to_dict``/``from_dict``)::

    state = begin(case=case, jury=jury, seed=7, player_side="none")   # phase: deliberation
    state.first_ballot                                                 # {"guilty": n, "not_guilty": n}
    result = await run_round(state, case=case, jury=jury, mind=mind,   # one round
                             fallback=offline_mind, reader=argument_reader)
    if state.end_reason:                                               # unanimous|called|stable|round_limit
        verdict = finish(state)                                        # guilty|not_guilty|hung

The engine imports no mind: the service hands it its stand-ins through ``engine.ports`` (the
fallback ``Mind`` for failed or over-budget calls and the ``ArgumentReader``; the project's are the
offline mind and ``deliberation.minds.stand_ins.argued_points``).

``begin`` walks the phases setup -> presentation -> (side_selection) -> initial_vote, casts the
first ballot and opens the deliberation. A service that shows each phase to people can do the same
steps itself with ``initial.new_state``, ``phases.advance`` and ``initial.cast_initial_ballot``.
"""

from __future__ import annotations

from collections.abc import Sequence

from deliberation.engine.ending import final_verdict
from deliberation.engine.initial import cast_initial_ballot, new_state
from deliberation.engine.phases import advance
from deliberation.engine.ports import ArgumentReader, Mind
from deliberation.engine.results import PlayerMove, RoundResult
from deliberation.engine.rounds import run_round
from deliberation.engine.state import DeliberationState, EngineSettings
from deliberation.engine.types import CaseFile, JurorProfile, Retriever, Speech


def begin(
    *,
    case: CaseFile,
    jury: Sequence[JurorProfile],
    seed: int,
    player_side: str = "none",
    settings: EngineSettings | None = None,
) -> DeliberationState:
    """A new deliberation with its first ballot cast, in phase ``deliberation``."""
    state = new_state(jury=jury, seed=seed, player_side=player_side, settings=settings)
    advance(state, "presentation")
    if player_side != "none":
        advance(state, "side_selection")
    advance(state, "initial_vote")
    cast_initial_ballot(state, case=case, jury=jury)
    advance(state, "deliberation")
    return state


def finish(state: DeliberationState) -> str:
    """Close an ended deliberation: final vote, verdict (``guilty``, ``not_guilty`` or ``hung``)."""
    advance(state, "final_vote")
    verdict = final_verdict(state)
    advance(state, "verdict")
    return verdict


async def run_to_end(
    state: DeliberationState,
    *,
    case: CaseFile,
    jury: Sequence[JurorProfile],
    mind: Mind,
    fallback: Mind,
    reader: ArgumentReader,
    retriever: Retriever | None = None,
    player_moves: dict[int, Sequence[Speech | PlayerMove]] | None = None,
) -> list[RoundResult]:
    """Run rounds until an end condition holds, then read the verdict. ``player_moves`` maps a
    round number to what participants inject in that round."""
    results: list[RoundResult] = []
    while not state.end_reason:
        injected = (player_moves or {}).get(state.round_number + 1, ())
        results.append(
            await run_round(
                state,
                case=case,
                jury=jury,
                mind=mind,
                fallback=fallback,
                reader=reader,
                retriever=retriever,
                injected=injected,
            )
        )
    finish(state)
    return results
