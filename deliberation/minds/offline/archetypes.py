"""What an offline juror chooses to argue: its archetype's behaviour and its own memory.

Most jurors argue their current vote. Four archetypes act on their own terms (seed 000's personas):

* the contrarian plays devil's advocate against a large majority (``LARGE_MAJORITY`` of the room
  or more), whatever its own vote;
* the conformist echoes the last juror who persuaded it (an argument that moved it towards the
  speaker's side in the last ``ECHO_ROUNDS`` rounds), or else the majority;
* the impatient juror presses the foreperson to call the vote (from round 2, ``PRESS_CHANCE``);
* the wildcard now and then (``WILDCARD_CHANCE``) changes its mind for reasons of its own: it
  argues the other side from something the room has not dwelt on, and its conviction moves with it.

Every juror also uses its memory (``JurorOutlook``): it answers a counter-point it has been
keeping (``ANSWER_CHANCE``), avoids the items it has argued already, and now and then recalls a
key moment (``MOMENT_CHANCE``). Items the room keeps hearing are left for fresh ones.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from deliberation.engine.ports import HeardTurn, Impression, JurorOutlook
from deliberation.engine.types import JurorProfile
from deliberation.minds.offline.points import Point, heard_recently, mention
from deliberation.minds.offline.text import fresh

LARGE_MAJORITY = 0.75  # 9 of 12
ECHO_ROUNDS = 2
ECHO_DELTA = 0.04  # how far an argument must have moved the conformist towards its side
PRESS_CHANCE = 0.8
WILDCARD_CHANCE = 0.2
WILDCARD_TARGET = 0.18  # the wildcard lands this far past the middle on its new side
ANSWER_CHANCE = 0.7
WORN_OUT = 1  # times the room has heard an item lately before a juror looks for another
MOMENT_CHANCE = 0.25

DEVILS_ADVOCATE = (
    "Let me play devil's advocate. {count} of us say {majority}, and nobody is testing it.",
    "Somebody should argue the other side, so I will: {count} to {rest} is too comfortable.",
    "Devil's advocate for a moment. When {count} people agree this quickly, I get suspicious.",
    "I'll take the other side, if only to test it: {count} of us say {majority} and nobody has pushed back.",
    "Someone has to argue against {count} to {rest}, so let it be me.",
)
ECHO_SPEAKER = (  # said right after greeting the juror echoed, by name
    "I've come round to that.",
    "That convinced me, I'll admit it.",
    "You put it better than I could, and I agree.",
)
ECHO_MAJORITY = (
    "Most of the room says {side}, and I can see why.",
    "I'll go along with the majority here: {side}.",
    "{count} of us say {side}. I don't want to be the one holding things up.",
)
OWN_TURN = (
    "Strange as it sounds, I've changed my mind, and not because of anything anyone said.",
    "I was lying awake on this one. I've changed my mind.",
    "Something nobody has talked about keeps nagging at me, and it turns me around.",
)
PRESS_VOTE = (  # "Foreperson, " then words a closer may have said already
    "Foreperson, can we just vote already?",
    "Foreperson, call the vote. We've heard enough.",
    "Foreperson, I'd like a show of hands now, please.",
    "Foreperson, how many more rounds? Let's vote.",
    "Foreperson, let's put it to a vote before we go round again.",
)
RECALL = (
    "I keep thinking of round {round}, when {text}.",
    "Remember round {round}, when {text}.",
    "Don't forget round {round}: {text}.",
    "What stuck with me was round {round}, when {text}.",
    "Go back to round {round}, when {text}. That mattered.",
    "I wrote it down in round {round}: {text}.",
    "Think back to round {round}, when {text}.",
    "My mind keeps going back to round {round}: {text}.",
    "We've skipped past round {round}, when {text}.",
)
RECALL_TRIAL = (
    "I keep thinking of the trial, when {text}.",
    "Remember the witness box: {text}.",
    "At the trial, {text}. That stays with me.",
)
SIDE_WORDS = {"guilty": "guilty", "not_guilty": "not guilty"}
REASONS = {  # the speaker's private reasoning says when it argues a side that is not its vote
    "devils_advocate": "Devil's advocate against the majority. ",
    "echo_speaker": "Going along with the last juror who convinced me. ",
    "echo_majority": "Going along with the majority. ",
    "own_turn": "I changed my mind on my own. ",
}


@dataclass(frozen=True)
class Choice:
    """What a juror argues this turn, and why."""

    side: str  # guilty | not_guilty
    behaviour: str = ""  # devils_advocate | echo_speaker | echo_majority | own_turn | answer
    lead: str = ""  # a line said after the greeting, before the argument
    reply_to: Impression | None = None  # the juror answered or echoed
    own_shift: float = 0.0  # the wildcard's change of mind, towards guilty when positive


def other_side(side: str) -> str:
    return "not_guilty" if side == "guilty" else "guilty"


def majority_of(tally: dict[str, int]) -> tuple[str, int, int]:
    """The majority side with its count and the rest's ("" when tied)."""
    guilty, not_guilty = tally.get("guilty", 0), tally.get("not_guilty", 0)
    if guilty == not_guilty:
        return "", guilty, not_guilty
    return ("guilty", guilty, not_guilty) if guilty > not_guilty else ("not_guilty", not_guilty, guilty)


def own_turn_shift(conviction: float, turned: str) -> float:
    """How far a juror who changes its mind to ``turned`` moves: to ``WILDCARD_TARGET`` past the
    middle on that side, so its vote turns with it (past the hysteresis of ``vote_after``); 0 when
    its conviction is on that side already. The offline wildcard and a model's wildcard alike."""
    target = 0.5 + (WILDCARD_TARGET if turned == "guilty" else -WILDCARD_TARGET)
    shift = target - conviction
    return shift if (shift > 0) == (turned == "guilty") and shift else 0.0


def last_persuader(outlook: JurorOutlook, round_number: int) -> Impression | None:
    """The newest argument of the last ``ECHO_ROUNDS`` rounds that moved this juror its own way."""
    for impression in reversed(outlook.impressions):
        if round_number - impression.round_number > ECHO_ROUNDS:
            return None
        towards = impression.delta if impression.position == "guilty" else -impression.delta
        if impression.persuaded or towards >= ECHO_DELTA:
            return impression
    return None


def choose(
    juror: JurorProfile, outlook: JurorOutlook, tally: dict[str, int], round_number: int, rng: random.Random
) -> Choice:
    """The side this juror argues now and the behaviour behind it (one or two draws from ``rng``)."""
    own = "guilty" if outlook.vote == "guilty" else "not_guilty"
    majority, count, rest = majority_of(tally)
    total = count + rest
    if juror.archetype == "contrarian" and majority and total and count / total >= LARGE_MAJORITY:
        lead = ""
        if own == majority:  # arguing against its own vote: it says so
            lead = rng.choice(DEVILS_ADVOCATE).format(count=count, rest=rest, majority=SIDE_WORDS[majority])
        return Choice(other_side(majority), "devils_advocate", lead)
    if juror.archetype == "conformist":
        persuader = last_persuader(outlook, round_number)
        if persuader is not None:
            lead = rng.choice(ECHO_SPEAKER)
            return Choice(persuader.position, "echo_speaker", lead, reply_to=persuader)
        if majority:
            lead = rng.choice(ECHO_MAJORITY).format(side=SIDE_WORDS[majority], count=count)
            return Choice(majority, "echo_majority", lead)
    if juror.archetype == "wildcard" and rng.random() < WILDCARD_CHANCE:
        turned = other_side(own)
        shift = own_turn_shift(outlook.conviction, turned)
        if shift:
            return Choice(turned, "own_turn", rng.choice(OWN_TURN), own_shift=shift)
    answer = next((c for c in reversed(outlook.counterpoints) if c.position != own), None)
    if answer is not None and rng.random() < ANSWER_CHANCE:
        return Choice(own, "answer", reply_to=answer)
    return Choice(own)


def lead_options(choice: Choice, tally: dict[str, int]) -> list[str]:
    """Every way of saying ``choice``'s lead (the one drawn first): a juror arguing against its own
    vote says why in words the room has not heard, when the drawn words have been said."""
    if not choice.lead:
        return []
    majority, count, rest = majority_of(tally)
    values = {
        "count": count,
        "rest": rest,
        "majority": SIDE_WORDS.get(majority, ""),
        "side": SIDE_WORDS.get(majority, ""),
    }
    table = {
        "devils_advocate": DEVILS_ADVOCATE,
        "echo_speaker": ECHO_SPEAKER,
        "echo_majority": ECHO_MAJORITY,
        "own_turn": OWN_TURN,
    }.get(choice.behaviour, ())
    others = [line.format(**values) for line in table]
    return [choice.lead, *(line for line in others if line != choice.lead)]


def said(point: Point, recent: tuple[HeardTurn, ...]) -> int:
    """How many recent turns already carried this point's reason, under whichever item's name."""
    words = " ".join(point.reason.lower().split()[:8])
    return sum(1 for turn in recent if words and words in turn.content.lower()) if len(words) > 20 else 0


def fresh_points(points: list[Point], outlook: JurorOutlook, recent: tuple[HeardTurn, ...]) -> list[Point]:
    """The points worth making: not one this juror has argued already, nor one the room has heard
    ``WORN_OUT`` time(s) lately (in the turns it remembers in full or the arguments it keeps
    impressions of); when every point is spent, the least worn ones."""
    unmade = [p for p in points if p.label not in outlook.points_made] or points
    heard = Counter(impression.label for impression in outlook.impressions)
    worn = {
        p.label: max(heard_recently(recent, mention(p).removeprefix("the ")), said(p, recent), heard[p.label])
        for p in unmade
    }
    least = min(worn.values(), default=0)
    return [p for p in unmade if worn[p.label] < WORN_OUT] or [p for p in unmade if worn[p.label] == least]


def replied_turn(choice: Choice) -> HeardTurn | None:
    """The juror this turn answers or echoes, as a turn the speech can greet by name."""
    reply = choice.reply_to
    if reply is None:
        return None
    return HeardTurn(reply.round_number, reply.seat, reply.speaker_name, reply.label, position=reply.position)


def press_line(juror: JurorProfile, round_number: int, rng: random.Random, said: str = "") -> str:
    """The impatient juror's push for a vote ("" for everyone else, and in round 1), in words
    that neither this speech (``said``) nor the room has just used."""
    if juror.archetype != "impatient" or round_number < 2 or rng.random() >= PRESS_CHANCE:
        return ""
    low = said.lower()
    unsaid = [line for line in PRESS_VOTE if line.split(", ", 1)[1].lower().rstrip("?.") not in low]
    return fresh(unsaid or PRESS_VOTE, rng, said)


def recall_line(outlook: JurorOutlook, rng: random.Random, heard: str, side: str = "") -> str:
    """Now and then, a key moment this juror flagged that the room has not just been reminded of;
    arguing ``side``, not another juror's change of vote to the other side (cited without a word
    against it, it reads as the speaker's own point for that side)."""
    low = heard.lower()
    moments = [m for m in outlook.key_moments if m.text.lower() not in low and not _flip_against(m.text, m.kind, side)]
    if not moments or rng.random() >= MOMENT_CHANCE:
        return ""
    moment = rng.choice(moments)
    if moment.kind == "trial":  # a witness's answer at the trial, before the first round
        return fresh(RECALL_TRIAL, rng, heard).format(text=moment.text)
    return fresh(RECALL, rng, heard).format(round=moment.round_number, text=moment.text)


def _flip_against(text: str, kind: str, side: str) -> bool:
    """Whether a key moment is another juror's change of vote to the side other than ``side``."""
    if kind != "flip" or not side or text.startswith("I "):
        return False
    to = "not_guilty" if text.endswith("not guilty") else "guilty" if text.endswith("guilty") else ""
    return bool(to) and to != side
