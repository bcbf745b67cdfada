"""Failed model calls: what kind of call failed, why, and how the record says so.

Every call the engine makes to a mind is one of four kinds (a juror's speech, a participant's
crafted argument, the batch reaction, the rolling summary). When the model behind it fails, or
the call is never made because the budget is spent, the offline engine answers instead and the
round carries a ``CallFailure`` naming the kind and the cause. The service stores them with the
round's figures; stand-in turns carry their cause; the transcript, the courtroom and every export
show it. Pure Python, no Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

CallKind = Literal["speech", "argument", "reaction", "summary"]
CALL_KINDS: tuple[CallKind, ...] = ("speech", "argument", "reaction", "summary")
KIND_LABELS: dict[str, str] = {
    "speech": "juror's speech",
    "argument": "crafted argument",
    "reaction": "jury's reactions",
    "summary": "memory summary",
}

# Why a call failed. The first five are what a provider really does; "refused" is a request the
# provider will not serve (bad key, unknown model), "unreachable" a connection that never opened,
# "error" a mind that raised instead of answering.
Cause = Literal["timeout", "rate_limit", "server_error", "unusable", "budget", "refused", "unreachable", "error"]
CAUSES: tuple[Cause, ...] = (
    "timeout",
    "rate_limit",
    "server_error",
    "unusable",
    "budget",
    "refused",
    "unreachable",
    "error",
)
CAUSE_LABELS: dict[str, str] = {
    "timeout": "timed out",
    "rate_limit": "rate limited",
    "server_error": "server error",
    "unusable": "unusable answer",
    "budget": "budget spent",
    "refused": "request refused",
    "unreachable": "model unreachable",
    "error": "engine error",
}

NOTE_REACTIONS_FAILED = "The model's reactions failed ({cause}); the jury moved by the offline rules this round."
NOTE_SUMMARY_FAILED = (
    "The model's memory summary failed ({cause}); the jurors' memories were folded by the offline rules."
)
DETAIL_BUDGET = "the model budget for this deliberation is spent; the offline engine answered"


@dataclass(frozen=True)
class CallFailure:
    """One failed (or budget-skipped) call to the model, answered by the offline engine instead."""

    kind: CallKind
    cause: Cause
    detail: str = ""  # the mind's own words: attempts, status, the provider's message
    seat: int | None = None  # the speaker, for speeches and crafted arguments

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "cause": self.cause, "detail": self.detail, "seat": self.seat}


def cause_label(cause: str) -> str:
    """A cause in words; an unknown code (an older record) shows as itself."""
    return CAUSE_LABELS.get(cause, cause.replace("_", " "))


def kind_label(kind: str) -> str:
    return KIND_LABELS.get(kind, kind)
