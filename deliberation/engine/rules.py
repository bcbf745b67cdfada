"""Jury rule sets: which tallies are a verdict, and what the court does when the jury is stuck.

A rule set is chosen per game (``EngineSettings.rules``) and applied exactly, round by round:

* ``unanimous``: twelve votes the same way, else hung at the jury's end (stability, no new
  arguments, the round limit).
* ``england-wales``: unanimity first. After ``majority_after_rounds`` rounds (the equivalent of
  two hours ten minutes: a round stands for ``ROUND_MINUTES`` of talk) the judge gives the
  majority direction; from then on 11-1 or 10-2 is a verdict (10-1 with eleven jurors, 9-1 with
  ten: ``majority_needed``). Before the direction a stuck jury is sent back to keep trying.
* ``us-allen``: unanimity. At the first deadlock the foreperson reports it and the judge gives a
  balanced further-deliberation instruction (a modified Allen charge); the jury reconsiders
  with its counters reset and, at the round limit, ``ALLEN_EXTRA_ROUNDS`` more rounds. A second
  deadlock hangs the jury: a mistrial.
* ``historical-old-bailey``: twelve jurors, unanimity, short deliberations (at most
  ``OLD_BAILEY_ROUNDS`` rounds, as the Proceedings describe juries agreeing in minutes).

The judge's directions are ``ProcessLine``s of kind ``judge``; the service narrates them. The jury's
size is the number of seats still voting, so a discharged juror lowers the thresholds.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

RuleName = Literal["unanimous", "england-wales", "us-allen", "historical-old-bailey"]
RULE_NAMES: tuple[str, ...] = ("unanimous", "england-wales", "us-allen", "historical-old-bailey")
DEFAULT_RULES = "unanimous"

ROUND_MINUTES = 10  # what one round of the game stands for in a real jury room
MAJORITY_DIRECTION_MINUTES = 130  # England and Wales: two hours ten minutes
MAJORITY_AFTER_ROUNDS = math.ceil(MAJORITY_DIRECTION_MINUTES / ROUND_MINUTES)  # 13
ALLEN_EXTRA_ROUNDS = 5  # rounds the jury gets after the instruction when it came at the round limit
OLD_BAILEY_ROUNDS = 6  # an hour at most: most Old Bailey juries agreed without long retirement

UNKNOWN_RULES = "Unknown jury rules {name!r}; choose one of: unanimous, england-wales, us-allen, historical-old-bailey."
JUDGE_NAME = "The judge"


@dataclass(frozen=True)
class RuleSet:
    name: str
    label: str
    summary: str  # one line for the courtroom and the transcript
    source: str
    majority_direction: bool = False
    further_instructions: int = 0  # deadlocks the judge answers with an instruction before one hangs
    round_cap: int | None = None


RULE_SETS: dict[str, RuleSet] = {
    "unanimous": RuleSet(
        "unanimous",
        "Unanimous",
        "All twelve must agree; otherwise the jury is hung.",
        "The common-law rule, and today's game.",
    ),
    "england-wales": RuleSet(
        "england-wales",
        "England and Wales (majority direction)",
        "Unanimity first; after about 2 h 10 min the judge accepts 11-1 or 10-2 (10-1 of eleven, 9-1 of ten).",
        "Juries Act 1974 s.17; Criminal Practice Directions, Crown Court Compendium (majority direction).",
        majority_direction=True,
    ),
    "us-allen": RuleSet(
        "us-allen",
        "United States (Allen charge)",
        "Unanimity; a first deadlock brings a balanced instruction to keep deliberating, a second is a mistrial.",
        "Allen v. United States, 164 U.S. 492 (1896); ABA Standard 15-5.4 (modified Allen charge).",
        further_instructions=1,
    ),
    "historical-old-bailey": RuleSet(
        "historical-old-bailey",
        "Old Bailey, 1674-1913",
        "Twelve men, unanimity, short deliberations (at most an hour here).",
        "The Proceedings of the Old Bailey: 'Juries and verdicts' (oldbaileyonline.org).",
        round_cap=OLD_BAILEY_ROUNDS,
    ),
}

MAJORITY_DIRECTION = (
    "Members of the jury, you have now been deliberating for more than two hours and ten minutes. "
    "I must still ask you to reach a verdict upon which you are all agreed. But the time has come when "
    "I can accept a verdict which is not the verdict of you all: a verdict upon which at least {needed} "
    "of the {size} of you are agreed."
)
KEEP_TRYING = (
    "Members of the jury, I cannot yet accept a verdict that is not the verdict of you all. "
    "Please go back and continue your deliberations."
)
ALLEN_INSTRUCTION = (
    "Members of the jury, your foreperson tells me you have not been able to agree. I ask you to go back "
    "and try once more. Each of you must decide the case for yourself, but only after an impartial "
    "consideration of the evidence with your fellow jurors. Those in the majority should ask whether the "
    "doubts of the others are reasonable; those in the minority should ask whether their own are, when "
    "others equally honest see it differently. No juror should give up an honest conviction about the "
    "weight or effect of the evidence only because of the opinion of the others, or only to return a verdict."
)


def rule_set(name: str) -> RuleSet:
    if name not in RULE_SETS:
        raise ValueError(UNKNOWN_RULES.format(name=name))
    return RULE_SETS[name]


def majority_needed(size: int) -> int:
    """Votes a majority verdict needs, by the number of jurors still sitting (s.17 Juries Act 1974):
    twelve or eleven jurors need ten, ten need nine; below ten no majority is allowed."""
    if size >= 11:
        return 10
    if size == 10:
        return 9
    return size


@dataclass
class RuleProgress:
    """What the rule set has done so far in one deliberation (stored with the engine state)."""

    direction_round: int = 0  # the round the majority direction was given (0: not yet)
    deadlocks: int = 0  # deadlocks the foreperson reported
    extra_rounds: int = 0  # rounds added to the limit by a further-deliberation instruction
    rounds_without_new: int = 0  # rounds in a row in which no argument was new to the room
    asked_ready_round: int = 0
    heard: dict[str, int] = field(default_factory=dict)  # "facet|sign" -> times argued
    labels: dict[str, str] = field(default_factory=dict)  # "facet|sign" -> the facet's name

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> RuleProgress:
        return cls(**(data or {}))


def jury_size(votes: dict[int, str]) -> int:
    return len(votes)


def valid_verdict(votes: dict[int, str], *, rules: RuleSet, progress: RuleProgress) -> str | None:
    """``guilty`` or ``not_guilty`` when the tally is a verdict under the rules now, else None."""
    if not votes:
        return None
    values = list(votes.values())
    leader = max(("guilty", "not_guilty"), key=values.count)
    count = values.count(leader)
    if count == len(values):
        return leader
    if rules.majority_direction and progress.direction_round and count >= majority_needed(len(values)):
        return leader
    return None


def round_limit(max_rounds: int, rules: RuleSet, progress: RuleProgress) -> int:
    limit = min(max_rounds, rules.round_cap) if rules.round_cap else max_rounds
    return limit + progress.extra_rounds


def final_ballot(votes: dict[int, str]) -> dict[str, int]:
    values = list(votes.values())
    return {"guilty": values.count("guilty"), "not_guilty": values.count("not_guilty"), "jurors": len(values)}


def round_limit_of(engine_state: dict[str, Any], default: int) -> int:
    """The round limit a stored deliberation runs to now: its own limit, the rule set's cap and any
    rounds a further-deliberation instruction added (for pages that read the stored state)."""
    settings = engine_state.get("settings") or {}
    rules = RULE_SETS.get(settings.get("rules", DEFAULT_RULES), RULE_SETS[DEFAULT_RULES])
    progress = RuleProgress.from_dict(engine_state.get("rule_progress"))
    return round_limit(int(settings.get("max_rounds", default)), rules, progress)
