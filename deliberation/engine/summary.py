"""What pages read of the engine's state, small enough to load on every request.

A stored state is mostly the jurors' memories (what each heard, thought and felt: 90% of it, and it
grows every round) and the random generator's state. Pages never read those: they read the
settings, the votes, the rule progress, who has voted or had a turn, and which jurors withdrew.
``summary_of`` keeps exactly that, so a room's requests (a vote, a controls fetch, the room page)
load a few kB instead of decoding the whole state several times a request (BENCHMARKS.md).
The summary is stored beside the state and written with it (``Deliberation.save``); it is only
ever read, never turned back into a state.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from deliberation.engine.state import EngineSettings

HEAVY_KEYS = frozenset({"memories", "rng_state"})  # what pages never read
WITHDRAWN = "withdrawn"  # seats whose juror withdrew from the discussion (from their memories)


def summary_of(state: dict[str, Any]) -> dict[str, Any]:
    """The state without the jurors' memories and the random generator, plus the withdrawn seats."""
    if not state:
        return {}
    summary = {key: value for key, value in state.items() if key not in HEAVY_KEYS}
    memories = state.get("memories") or {}
    summary[WITHDRAWN] = sorted(int(seat) for seat, memory in memories.items() if (memory or {}).get("withdrawn"))
    return summary


def withdrawn_of(summary: dict[str, Any]) -> frozenset[int]:
    return frozenset(int(seat) for seat in summary.get(WITHDRAWN) or [])


def settings_of(summary: dict[str, Any]) -> EngineSettings:
    return EngineSettings(**(summary.get("settings") or {}))


def waiting_in(summary: dict[str, Any], participants: Collection[int]) -> bool:
    """Whether the jury still waits for a participant before it may reach a verdict by itself: the
    rule of ``ending.waiting_for``, read from a summary."""
    needed = settings_of(summary).turns_before_verdict
    if needed <= 0:
        return False
    own = {int(seat) for seat in summary.get("own_votes") or []}
    turns = {int(seat): int(count) for seat, count in (summary.get("turns_had") or {}).items()}
    return any(seat not in own or turns.get(seat, 0) < needed for seat in participants)
