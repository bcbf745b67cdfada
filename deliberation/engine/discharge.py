"""Discharge: the judge releases a juror (illness) and the jury goes on without them.

Pure Python, no Django. A discharged seat is out of every turn, reaction, vote and tally from the
round it leaves: its vote is removed from ``state.votes`` (so ``state.tally()`` and
``state.jury_size()`` count the jurors who remain) and ``RoundWork`` leaves it out of the jury.

Whether a rule set allows it, and how few jurors may go on, is the rule set's to say: the
``allows_discharge`` and ``minimum_jury`` hooks below are the places ``engine.rules`` fills in.
Defaults: the modern rule sets allow it down to ``MINIMUM_JURY`` jurors (England and Wales, Juries
Act 1974 s.16: at least nine; US federal, Rule 23(b)(3): eleven may return a verdict); the Old
Bailey's historical twelve did not.
"""

from __future__ import annotations

from collections.abc import Sequence

from deliberation.engine import rules as jury_rules
from deliberation.engine.state import DeliberationState
from deliberation.engine.types import JurorProfile

MINIMUM_JURY = 9
NO_DISCHARGE_RULES = frozenset({"historical-old-bailey"})
ERROR_NOT_ALLOWED = "The jury rules of this deliberation ({rules}) do not allow a juror to be discharged."
ERROR_NOT_AN_AI_JUROR = "Only an AI juror still in the room can be discharged (seat {seat})."
ERROR_TOO_FEW = "The jury cannot go on with fewer than {minimum} jurors."
ERROR_NOT_DELIBERATING = "A juror can be discharged only while the jury is deliberating."


class DischargeError(ValueError):
    pass


def rules_of(state: DeliberationState) -> str:
    return str(getattr(state.settings, "rules", "") or "unanimous")


def allows_discharge(rules: str) -> bool:
    """The hook a rule set fills in: may the judge discharge a juror under ``rules``?"""
    return rules not in NO_DISCHARGE_RULES


def minimum_jury(rules: str) -> int:
    """The fewest jurors who may go on under ``rules`` (the hook's second half)."""
    return MINIMUM_JURY


def discharge(state: DeliberationState, jury: Sequence[JurorProfile], *, seat: int) -> None:
    """Discharge ``seat``: it leaves turns, votes and tallies; the jury continues without it.

    Raises ``DischargeError`` (with one of the module's messages) when the rules forbid it, the seat
    is not an AI juror still seated, the jury would fall below its minimum, or the jury is not deliberating.
    """
    rules = rules_of(state)
    if state.phase != "deliberation" or state.end_reason:
        raise DischargeError(ERROR_NOT_DELIBERATING)
    if not allows_discharge(rules):
        raise DischargeError(ERROR_NOT_ALLOWED.format(rules=getattr(jury_rules.RULE_SETS.get(rules), "label", rules)))
    juror = next((j for j in jury if j.seat == seat), None)
    if juror is None or juror.kind != "ai" or seat in state.discharged:
        raise DischargeError(ERROR_NOT_AN_AI_JUROR.format(seat=seat))
    if state.jury_size() - 1 < minimum_jury(rules):
        raise DischargeError(ERROR_TOO_FEW.format(minimum=minimum_jury(rules)))
    state.discharged.append(seat)
    state.votes.pop(seat, None)
    if seat in state.memories:
        state.memories[seat].withdrawn = False
