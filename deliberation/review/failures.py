"""Failed model calls as the transcript, the courtroom and the exports show them.

Pages and exports name a failure by its kind and cause ("juror's speech: rate limited") and never
show what the model client said about it (``Turn.fallback_reason``, a failure's ``detail``): that
carries the provider's URL, host and sometimes part of a key, and command-line games are public
and games can be shared. The detail stays in the server log and the admin
(``deliberation.admin``). Reads only what a transcript already loaded: no query of its own.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from deliberation.engine.failures import CALL_KINDS, CAUSES, cause_label, kind_label
from deliberation.models import RoundStats, Seat, Turn

STAND_IN_BADGE = "stand-in"
STAND_IN_LINE = "The offline engine spoke instead: {cause}."


@dataclass(frozen=True)
class FailureView:
    kind: str
    cause: str
    seat_number: int | None
    speaker: str  # the seat's name, for speeches and crafted arguments

    @property
    def kind_label(self) -> str:
        return kind_label(self.kind)

    @property
    def cause_label(self) -> str:
        return cause_label(self.cause)

    @property
    def line(self) -> str:
        """One failure in words: "Harold's speech (seat 3): rate limited"."""
        who = f" by {self.speaker} (seat {self.seat_number})" if self.seat_number else ""
        return f"{self.kind_label}{who}: {self.cause_label}"


def failure_views(stats: RoundStats | None, seats: dict[int, Seat]) -> list[FailureView]:
    if stats is None:
        return []
    views = []
    for raw in stats.failures or []:
        number = raw.get("seat")
        seat = seats.get(number) if number else None
        views.append(
            FailureView(
                kind=str(raw.get("kind", "")),
                cause=str(raw.get("cause", "")),
                seat_number=number,
                speaker=seat.display_name if seat else (f"Seat {number}" if number else ""),
            )
        )
    return views


def _ordered(counts: Counter[str], order: tuple[str, ...]) -> dict[str, int]:
    known = {key: counts[key] for key in order if counts[key]}
    return {**known, **{key: n for key, n in sorted(counts.items()) if key not in known}}


def failure_totals(stats_rows: list[RoundStats]) -> dict[str, Any]:
    """Failed calls over the run, by kind and by cause (the export's and the figures' totals)."""
    kinds: Counter[str] = Counter()
    causes: Counter[str] = Counter()
    for stats in stats_rows:
        for raw in stats.failures or []:
            kinds[str(raw.get("kind", ""))] += 1
            causes[str(raw.get("cause", ""))] += 1
    return {
        "failed_calls": sum(s.failed_calls for s in stats_rows),
        "failures_by_kind": _ordered(kinds, CALL_KINDS),
        "failures_by_cause": _ordered(causes, CAUSES),
    }


def causes_in_words(by_cause: dict[str, int]) -> str:
    """ "3 timed out, 1 rate limited" """
    return ", ".join(f"{n} {cause_label(cause)}" for cause, n in by_cause.items())


def kinds_in_words(by_kind: dict[str, int]) -> str:
    return ", ".join(f"{n} {kind_label(kind)}" for kind, n in by_kind.items())


def stand_in_line(turn: Turn) -> str:
    """Why a stand-in turn was spoken by the offline engine, in a sentence (empty for a model's turn)."""
    if not turn.is_fallback:
        return ""
    cause = cause_label(turn.fallback_cause) if turn.fallback_cause else "the model's answer was replaced"
    return STAND_IN_LINE.format(cause=cause)


def public_reason(cause: str) -> str:
    """Why a call failed, as pages and exports may say it: its cause in words, nothing the client said."""
    return cause_label(cause) if cause else ""


def public_failures(failures: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """A round's failed calls for an export: kind, cause, the cause in words and the seat."""
    return [
        {
            "kind": raw.get("kind", ""),
            "cause": raw.get("cause", ""),
            "reason": public_reason(str(raw.get("cause", ""))),
            "seat": raw.get("seat"),
        }
        for raw in failures or []
    ]


def stand_in_badge(turn: Turn) -> str:
    """The short badge: "stand-in · rate limited"."""
    if not turn.is_fallback:
        return ""
    return f"{STAND_IN_BADGE} · {cause_label(turn.fallback_cause)}" if turn.fallback_cause else STAND_IN_BADGE


class StandIn:
    """For views of a turn (``self.turn``): its stand-in badge and sentence, for the templates."""

    turn: Turn

    @property
    def stand_in_badge(self) -> str:
        return stand_in_badge(self.turn)

    @property
    def stand_in_line(self) -> str:
        return stand_in_line(self.turn)
