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
* ``historical-old-bailey``: twelve jurors, unanimity, short deliberations, and a jury kept until
  it agrees, as the Proceedings and the law of the time describe it (sources in ``RULE_SETS``).
  The jury first confers in the box (``OLD_BAILEY_BOX_ROUNDS`` rounds, the minutes most period
  juries took). Not agreed by then, or stuck sooner, it is sent out to consider its verdict
  under the common-law rule: kept together "without meat, drink, fire, or candle" until all are
  agreed. In the jury room the foreperson presses for agreement every round, and each AI juror
  in the minority feels the room's pull (``yielding_pull``: ``RETIRED_PULL`` a round, growing
  with every round out, less for a stubborn juror) until they yield, as period jurors did: the
  recorded minority gave way to the majority, and to acquittal when the room stood even (the
  benefit of the doubt). A jury that reports it cannot agree is sent back (``SEND_BACK``); only at
  ``OLD_BAILEY_ROUNDS`` is it discharged unagreed (hung), as in the one such case of the sample
  (t18261026, Singleton: eleven to one after twenty-two hours, "in extreme cases"). A person in
  the minority is never pulled: their vote is their own.

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
OLD_BAILEY_BOX_ROUNDS = 2  # conferring in the box: a few minutes, how most period juries agreed
OLD_BAILEY_ROUNDS = 10  # the court's patience before it discharges a jury that cannot agree
RETIRED_PULL = 0.05  # a minority juror's drift to the majority per round out of court, times rounds out

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
    kept_until_agreed: bool = False  # the Old Bailey: sent out after the box, sent back when stuck


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
        "Twelve men, unanimity; they confer in the box, and if they cannot agree they are sent out "
        "and kept until they do.",
        "The Proceedings of the Old Bailey, 'Trial procedures' and 'Juries' (oldbaileyonline.org); Blackstone, "
        "Commentaries III ch. 23 (kept 'without meat, drink, fire, or candle' until agreed); Beattie, Crime "
        "and the Courts in England 1660-1800 (1986); Langbein, The Origins of Adversary Criminal Trial (2003).",
        round_cap=OLD_BAILEY_ROUNDS,
        kept_until_agreed=True,
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

SEND_OUT = (
    "Gentlemen of the jury, you are not agreed. You will retire and consider your verdict, and you will be "
    "kept together, without meat, drink, fire, or candle, until you are all agreed."
)
SEND_BACK = (
    "Gentlemen, the court cannot take a verdict that is not the verdict of you all, and it cannot discharge "
    "you. Go back to your room until you are agreed."
)
DISCHARGE_UNAGREED = (
    "Gentlemen, you have been kept a long while and tell me you are not at all likely to agree. This is an "
    "extreme case, and the court will exercise its discretion: you are discharged, and the prisoner will be "
    "tried again by another jury."
)
PRESS_FOR_AGREEMENT = (
    "We stand {count} to {rest} for {verdict}, and the court will not have us back until we are all agreed. "
    "{names}, I ask you to consider whether you will hold out against the rest of us."
)
WORDS = {"guilty": "guilty", "not_guilty": "not guilty"}


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
    retired_round: int = 0  # the Old Bailey: the round the jury was sent out to consider (0: in the box)
    extra_rounds: int = 0  # rounds added to the limit by a further-deliberation instruction
    rounds_without_new: int = 0  # rounds in a row in which no argument was new to the room
    asked_ready_round: int = 0
    heard: dict[str, int] = field(default_factory=dict)  # "facet|sign" -> times argued
    labels: dict[str, str] = field(default_factory=dict)  # "facet|sign" -> the facet's name
    raised: dict[str, str] = field(default_factory=dict)  # "facet|sign" -> who first argued it (the foreperson's note)
    raised_round: dict[str, int] = field(default_factory=dict)  # "facet|sign" -> the round they did
    answered: list[str] = field(default_factory=list)  # "facet|sign" whose ``raised`` named it to answer it

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


def pressed_towards(votes: dict[int, str]) -> str:
    """The verdict a kept jury is pressed towards: the room's majority; at an even room, acquittal
    (the benefit of the doubt, which period juries gave freely)."""
    values = list(votes.values())
    return "guilty" if values.count("guilty") > values.count("not_guilty") else "not_guilty"


def yielding_pull(*, rules: RuleSet, progress: RuleProgress, round_number: int, stubbornness: float) -> float:
    """How far one minority juror of a jury kept until it agrees drifts to the verdict it is pressed
    towards at the end of this round: ``RETIRED_PULL`` for every round out of court (this one
    included), halved for the most stubborn juror. Zero in the box and under other rules."""
    if not rules.kept_until_agreed or not progress.retired_round:
        return 0.0
    rounds_out = round_number - progress.retired_round
    return RETIRED_PULL * max(0, rounds_out) * (1.0 - 0.5 * max(0.0, min(1.0, stubbornness)))


def round_limit(max_rounds: int, rules: RuleSet, progress: RuleProgress) -> int:
    limit = min(max_rounds, rules.round_cap) if rules.round_cap else max_rounds
    return limit + progress.extra_rounds


def final_ballot(votes: dict[int, str]) -> dict[str, int]:
    values = list(votes.values())
    return {"guilty": values.count("guilty"), "not_guilty": values.count("not_guilty"), "jurors": len(values)}


def required_verdict(name: str, *, size: int = 12, direction_given: bool = False) -> str:
    """The verdict the rules asked of this jury, as a phrase: "a unanimous verdict" or, after the
    majority direction, "a verdict of at least 10 to 2" (9 to 1 of ten, 10 to 1 of eleven)."""
    rules = RULE_SETS.get(name, RULE_SETS[DEFAULT_RULES])
    if rules.majority_direction and direction_given and size >= 10:
        needed = majority_needed(size)
        return f"a verdict of at least {needed} to {size - needed}"
    return "a unanimous verdict" if size in (0, 12) else f"a unanimous verdict of all {size}"


def required_of_cast(name: str, *, size: int, direction_given: bool = False, abstained: bool = False) -> str:
    """``required_verdict`` for a ballot of ``size`` votes cast; when a seat cast none (``abstained``),
    unanimity is of those who voted ("a unanimous verdict of the 11 who voted"), never "of all 11"
    of a jury of twelve."""
    required = required_verdict(name, size=size, direction_given=direction_given)
    if abstained and required in (f"a unanimous verdict of all {size}", "a unanimous verdict"):
        return f"a unanimous verdict of the {size} who voted"
    return required


def verdict_detail(
    name: str,
    *,
    verdict: str,
    guilty: int,
    not_guilty: int,
    direction_given: bool = False,
    end_reason: str = "",
    abstained: tuple[int, ...] = (),
) -> str:
    """How the verdict was reached, naming the rule it was taken under: "it could not reach a
    verdict of at least 10 to 2 (rules: England and Wales ...)" for a hung jury, "by a majority of
    10 to 2 (rules: ...)" or "unanimously (rules: ...)" for a verdict. Seats that cast no vote
    (``abstained``) are named: "a unanimous verdict of the 11 who voted (seat 3 did not vote)"."""
    rules = RULE_SETS.get(name, RULE_SETS[DEFAULT_RULES])
    size = guilty + not_guilty
    tag = f"(rules: {rules.label})"
    if end_reason == "time":  # the judge directed it: the lesson's time was nearly up
        tag = f"when the lesson's time was up {tag}"
    if abstained:
        tag = f"({abstained_words(abstained)}) {tag}"
    if verdict == "hung":
        required = required_of_cast(name, size=size, direction_given=direction_given, abstained=bool(abstained))
        if end_reason == "deadlock" and rules.kept_until_agreed:
            return f"kept until agreed, it could not reach {required} and was discharged {tag}"
        if end_reason == "deadlock":
            return f"deadlocked twice, it could not reach {required}; a mistrial {tag}"
        return f"it could not reach {required} {tag}"
    count = guilty if verdict == "guilty" else not_guilty
    how = "unanimously" if count == size else f"by a majority of {count} to {size - count}"
    return f"{how} {tag}"


def verdict_phrase(name: str, *, verdict: str, **ballot: Any) -> str:
    """The verdict with ``verdict_detail``: "Hung jury: it could not reach ..." or "Guilty, unanimously (...)"."""
    detail = verdict_detail(name, verdict=verdict, **ballot)
    if verdict == "hung":
        return f"Hung jury: {detail}"
    return f"{VERDICT_WORDS.get(verdict, verdict)}, {detail}"


VERDICT_WORDS = {"guilty": "Guilty", "not_guilty": "Not guilty", "hung": "Hung jury"}


JURY_SEATS = 12  # a stored summary drops the jurors' memories: the seats are the twelve of a jury


def abstained_words(seats: tuple[int, ...]) -> str:
    """ "seat 3 did not vote", "seats 2 and 3 did not vote"."""
    numbers = [str(seat) for seat in seats]
    joined = numbers[0] if len(numbers) == 1 else ", ".join(numbers[:-1]) + " and " + numbers[-1]
    return f"seat{'s' if len(numbers) > 1 else ''} {joined} did not vote"


def ballot_of(engine_state: dict[str, Any]) -> dict[str, Any]:
    """The final ballot and whether the majority direction was given, from a stored state; the
    seats that cast no vote in it (neither voting nor discharged: a person who never voted)."""
    stored = engine_state.get("votes") or {}
    votes = list(stored.values())
    progress = RuleProgress.from_dict(engine_state.get("rule_progress"))
    out = {int(seat) for seat in engine_state.get("discharged") or []}
    cast = {int(seat) for seat in stored}
    seats = {int(seat) for seat in engine_state.get("memories") or {}} or set(range(1, JURY_SEATS + 1))
    abstained = tuple(sorted(seats - cast - out))
    return {
        "guilty": votes.count("guilty"),
        "not_guilty": votes.count("not_guilty"),
        "direction_given": bool(progress.direction_round),
        "abstained": abstained if stored else (),
    }


def verdict_phrase_of(engine_state: dict[str, Any], rules_name: str, verdict: str, end_reason: str = "") -> str:
    """``verdict_phrase`` for a stored deliberation: the final ballot and the direction from its state."""
    return verdict_phrase(rules_name, verdict=verdict, end_reason=end_reason, **ballot_of(engine_state))


def verdict_detail_of(engine_state: dict[str, Any], rules_name: str, verdict: str, end_reason: str = "") -> str:
    return verdict_detail(rules_name, verdict=verdict, end_reason=end_reason, **ballot_of(engine_state))


def round_limit_of(engine_state: dict[str, Any], default: int) -> int:
    """The round limit a stored deliberation runs to now: its own limit, the rule set's cap and any
    rounds a further-deliberation instruction added (for pages that read the stored state)."""
    settings = engine_state.get("settings") or {}
    rules = RULE_SETS.get(settings.get("rules", DEFAULT_RULES), RULE_SETS[DEFAULT_RULES])
    progress = RuleProgress.from_dict(engine_state.get("rule_progress"))
    return round_limit(int(settings.get("max_rounds", default)), rules, progress)
