"""Juror memory: what each juror carries from turn to turn (the spec's four layers).

1. Case knowledge: the case file, looked up through a ``Retriever`` (not stored here).
2. Deliberation memory: ``JurorMemory.heard`` holds turns in full; the prompt shows the last
   ``memory_window`` of them. Every ``summary_interval`` rounds the turns older than the
   ``keep_recent`` most recent are folded into the rolling ``summary`` (one summarize call covers
   every juror) and dropped, so memory stays bounded however long the deliberation runs.
3. Reasoning state: conviction, the reasoning chain, doubts and opinions of the others (trust).
4. Persona: the static ``JurorProfile``.
"""

from __future__ import annotations

from deliberation.engine import params
from deliberation.engine.ports import HeardTurn
from deliberation.engine.state import JurorMemory


def recent_turns(memory: JurorMemory, window: int, extra: tuple[HeardTurn, ...] = ()) -> tuple[HeardTurn, ...]:
    """The last ``window`` turns in full, counting ``extra`` (this round's earlier speeches)."""
    turns = [*memory.heard, *extra]
    return tuple(turns[-window:]) if window > 0 else ()


def is_summary_round(round_number: int, interval: int) -> bool:
    return interval > 0 and round_number > 0 and round_number % interval == 0


def turns_to_fold(memory: JurorMemory, keep_recent: int) -> list[HeardTurn]:
    """The turns a fold would move into the summary: all but the ``keep_recent`` most recent."""
    if len(memory.heard) <= keep_recent:
        return []
    return memory.heard[: len(memory.heard) - keep_recent]


def fold(memory: JurorMemory, *, folded: int, summary: str) -> None:
    """Drop the ``folded`` oldest turns, which ``summary`` now covers."""
    memory.heard = memory.heard[folded:]
    memory.summary = summary


def remember(items: list[str], item: str, limit: int) -> None:
    """Append ``item`` once, keeping only the newest ``limit`` entries."""
    if item in items:
        items.remove(item)
    items.append(item)
    del items[:-limit]


def add_reasoning(memory: JurorMemory, line: str) -> None:
    remember(memory.reasoning_chain, line, params.MAX_REASONING_CHAIN)


def add_doubt(memory: JurorMemory, doubt: str) -> None:
    remember(memory.doubts, doubt, params.MAX_DOUBTS)


def settle_doubt(memory: JurorMemory, doubt: str) -> None:
    if doubt in memory.doubts:
        memory.doubts.remove(doubt)
