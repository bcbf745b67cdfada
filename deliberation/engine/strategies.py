"""The player's six argument strategies (spec: "Player Input: Strategy + Optional Free Text")."""

from __future__ import annotations

from typing import get_args

from deliberation.engine.types import CaseFile, Strategy

STRATEGIES: tuple[Strategy, ...] = get_args(Strategy)  # the spec's six, in its order
PLAYER_SIDES = ("defend", "prosecute")
# One limit for a person's or an agent's own words, wherever they are typed: the courtroom and room
# text boxes (maxlength), the services and the MCP tools all read it from here.
MAX_TEXT = 2000  # about three hundred words: a turn at the table, not a speech

UNKNOWN_STRATEGY = "Unknown strategy '{strategy}'. Choose one of: " + ", ".join(STRATEGIES) + "."
STRATEGY_NEEDS_TARGET = "Addressing a juror needs a target juror."
STRATEGY_NEEDS_TEXT = "A custom argument needs some text."
SIDE_REQUIRED = "The player argues a side: 'defend' or 'prosecute'."


class StrategyError(ValueError):
    """A player's move that cannot be argued as given."""


ITEM_STRATEGIES = {"challenge_evidence": "evidence", "question_witness": "witness"}
ITEM_UNKNOWN = "Choose an item of this case file for that strategy (got '{item}')."


def item_label(case: CaseFile, item_id: str) -> str:
    """The name of an evidence item or a witness by its id ("" when there is none)."""
    for item in case.evidence:
        if item.id == item_id:
            return item.label
    for witness in case.witnesses:
        if witness.id == item_id:
            return witness.name
    return ""


def spoken(crafted: str, own: str) -> str:
    """A person's speech as the jury hears it: the crafted part, then their own words exactly as typed.

    A free argument has no crafted part; a strategy's crafted part may stand alone. ``own_words``
    takes the person's words back out of what was spoken, unchanged."""
    if not crafted:
        return own
    if not own.strip():
        return crafted
    return f"{crafted} {own}"


def own_words(content: str, crafted: str) -> str:
    """The person's own words in a speech ``spoken(crafted, own)`` made (all of it when nothing was crafted)."""
    if not crafted:
        return content
    if content == crafted:
        return ""
    return content[len(crafted) + 1 :] if content.startswith(crafted + " ") else content


def check_item(case: CaseFile, *, strategy: str, item_id: str) -> None:
    """A picked item must be evidence for a challenge and a witness for a question."""
    if not item_id:
        return
    kind = ITEM_STRATEGIES.get(strategy)
    pool = case.evidence if kind == "evidence" else case.witnesses if kind == "witness" else ()
    if not any(item.id == item_id for item in pool):
        raise StrategyError(ITEM_UNKNOWN.format(item=item_id[:20]))


def validate_move(*, strategy: str, side: str, target_seat: int | None, free_text: str) -> None:
    if strategy not in STRATEGIES:
        raise StrategyError(UNKNOWN_STRATEGY.format(strategy=strategy))
    if side not in PLAYER_SIDES:
        raise StrategyError(SIDE_REQUIRED)
    if strategy == "address_juror" and target_seat is None:
        raise StrategyError(STRATEGY_NEEDS_TARGET)
    if strategy == "free_argument" and not free_text.strip():
        raise StrategyError(STRATEGY_NEEDS_TEXT)
