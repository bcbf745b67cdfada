"""Deliberation formats: how speakers are chosen (turn modes) and what a model juror sees (context
scopes). Pure Python, no Django. Seed 003's debate manager, fitted to a jury room.

Turn modes (``EngineSettings.turn_mode``), each drawing the round's 1-4 AI speakers:

* ``weighted`` (the default): the participation-weighted draw of ``engine.turns``;
* ``round-robin``: in seat order, each round carrying on after the last AI juror who spoke;
* ``random``: a uniform draw without replacement;
* ``reply-chain``: drawn as ``weighted``, then each speaker answers the one before them (the first
  answers the last speaker of the previous round), so the round is a chain of replies.

Every mode skips discharged seats, and jurors who withdrew unless someone addressed them.

Context scopes (``EngineSettings.context_scope``), what a juror's speaking prompt carries besides
the case, their persona and their own vote:

* ``window-and-summary`` (the default): the last turns of the memory window and the rolling minutes;
* ``full-log``: every turn of the deliberation in full (nothing is folded into minutes);
* ``last-n``: the last ``last_n`` turns in full, no minutes;
* ``summary-only``: the rolling minutes and no turns;
* ``persona-only``: nothing of what the others said: no turns, no minutes, no impressions of them.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from deliberation.engine.ports import HeardTurn, JurorOutlook

TURN_MODES = ("weighted", "round-robin", "random", "reply-chain")
CONTEXT_SCOPES = ("window-and-summary", "full-log", "last-n", "summary-only", "persona-only")
DEFAULT_TURN_MODE = "weighted"
DEFAULT_CONTEXT_SCOPE = "window-and-summary"
DEFAULT_LAST_N = 6
ERROR_TURN_MODE = "Unknown turn mode {value!r}: choose one of " + ", ".join(TURN_MODES) + "."
ERROR_CONTEXT_SCOPE = "Unknown context scope {value!r}: choose one of " + ", ".join(CONTEXT_SCOPES) + "."
ERROR_LAST_N = "The last-n context scope keeps between 1 and 50 turns."

UNCAPPED = ("full-log", "last-n")  # scopes whose turns go in whole, past the window's character budget


def check_turn_mode(value: str) -> str:
    if value not in TURN_MODES:
        raise ValueError(ERROR_TURN_MODE.format(value=value))
    return value


def check_context_scope(value: str) -> str:
    if value not in CONTEXT_SCOPES:
        raise ValueError(ERROR_CONTEXT_SCOPE.format(value=value))
    return value


def round_robin(seats: Sequence[int], eligible: Sequence[int], last_spoken: Sequence[int], count: int) -> list[int]:
    """``count`` eligible seats in seat order, starting after the last of ``last_spoken`` among ``seats``."""
    order = sorted(seats)
    previous = [seat for seat in last_spoken if seat in order]
    start = (order.index(previous[-1]) + 1) if previous else 0
    cycle = order[start:] + order[:start]
    allowed = set(eligible)
    return [seat for seat in cycle if seat in allowed][:count]


def uniform(eligible: Sequence[int], count: int, rng: random.Random) -> list[int]:
    return rng.sample(list(eligible), min(count, len(eligible)))


def scoped_turns(
    scope: str, heard: Sequence[HeardTurn], extra: Sequence[HeardTurn], *, window: int, last_n: int
) -> tuple[HeardTurn, ...]:
    """The remembered turns a juror's prompt carries under ``scope`` (``extra``: this round's so far)."""
    turns = [*heard, *extra]
    if scope in ("summary-only", "persona-only"):
        return ()
    if scope == "full-log":
        return tuple(turns)
    size = last_n if scope == "last-n" else window
    return tuple(turns[-size:]) if size > 0 else ()


def scoped_outlook(scope: str, outlook: JurorOutlook) -> JurorOutlook:
    """The juror's own state as the scope shows it: minutes only where the scope keeps them, and
    under ``persona-only`` nothing of the others (impressions, answers owed, trust, moments)."""
    if scope in ("window-and-summary", "summary-only"):
        return outlook
    if scope == "persona-only":
        return dataclasses.replace(
            outlook, summary="", impressions=(), counterpoints=(), key_moments=(), opinions={}, doubts=()
        )
    return dataclasses.replace(outlook, summary="")


def folds(scope: str) -> bool:
    """Whether the rolling minutes are kept (and old turns folded into them) under ``scope``."""
    return scope != "full-log"


def kept_in_full(scope: str, keep_recent: int, last_n: int) -> int:
    """Turns a fold keeps in full: a ``last-n`` juror still needs its last n."""
    return max(keep_recent, last_n) if scope == "last-n" else keep_recent
