"""The offline juror's reflection: when it withdraws, and when it calls out a contradiction.

Pure rules, no random draws (a seed gives the same speech with or without them):

* **Withdrawal** (seed 001's ``<Withdrawn>``): a juror withdraws from the discussion when it has
  nothing new to add: it has made its case (argued at least ``CASE_MADE`` point of its own), the
  strongest ``CORE_POINTS`` points the case file offers its side are spent (argued by the juror
  already, or named on its side in the turns it remembers), nothing it owes an answer to is new
  (every counter-point is on an item it has argued already: answering again would only repeat
  it), it is sure of its vote (conviction at least ``SURE_MARGIN`` from 0.5), and at least
  ``KEEP_TALKING`` other jurors are still in the discussion (a room does not fall silent). It
  still votes, and speaks again when addressed. (Before this rule a juror had to have argued
  every point of a file, ten or more in most trials, and answered every counter-point: in a
  split room nobody ever withdrew.)
* **Contradiction**: a juror answering someone who argued one side earlier and the other side now
  (two impressions of that speaker in its own memory, the newer one from this round or the last)
  says so, by name, unless that speaker's vote changed in between (a change of mind, which it
  remembers as a flip, is no contradiction).
"""

from __future__ import annotations

from collections.abc import Sequence

from deliberation.engine.ports import Impression, JurorOutlook

SURE_MARGIN = 0.3
KEEP_TALKING = 6
CORE_POINTS = 2  # a side rests on its strongest few points; the rest are detail
CASE_MADE = 1  # points a juror argues itself before it may say it has nothing to add
WITHDRAW_LINE = "I have said all I have to say on this; I'll listen now, and I'll still vote when it comes to it."
WITHDRAW_LINES = (  # one is picked by seat and round (no random draw), so a room does not hear the same words
    WITHDRAW_LINE,
    "That's my case made. I'll sit back and listen; my vote stands until something new moves it.",
    "I've nothing new to add, so I'll keep quiet unless someone asks me something.",
    "I'll leave the floor to others now. Ask me if you want me, and I'll vote when we vote.",
    "Everything I had, I've said. I'm listening from here on.",
    "I've made my points. I'll hold my peace and hear the rest of you out.",
    "There's nothing I can add that you haven't heard from me, so I'll step back.",
    "I'm done arguing it. I'll listen, and my vote speaks for me.",
    "You know where I stand and why. I'll let others talk now.",
    "I won't repeat myself. I'm out of the discussion until something changes.",
    "That's all I've got. I'll stay quiet and keep listening.",
)
CONTRADICTION_LINE = "{name}, in round {before_round} you argued {before}, and now you argue {after}. Which is it?"
CONTRADICTION_LINES = (
    CONTRADICTION_LINE,
    "Wait, {name}. Round {before_round}, you were arguing {before}; now it's {after}?",
    "{name}, you've switched from {before} to {after} since round {before_round}. What changed?",
    "Hold on, {name}: {before} in round {before_round}, {after} today. Which do you believe?",
)
SIDE_WORDS = {"guilty": "guilty", "not_guilty": "not guilty"}


def has_nothing_to_add(
    outlook: JurorOutlook, labels: Sequence[str], side: str, heard: Sequence[tuple[str, str]] = ()
) -> bool:
    """The withdrawal rule (see the module): case made, core points spent, nothing new to answer,
    sure of its vote, and enough jurors still talking.

    ``labels`` are the points of ``side``, strongest first; ``heard`` the turns the juror remembers
    in full, as (side argued, words): a point whose label they name on ``side`` is spent too."""
    if not labels or outlook.in_discussion < KEEP_TALKING or len(outlook.points_made) < CASE_MADE:
        return False
    if abs(outlook.conviction - 0.5) < SURE_MARGIN:
        return False
    said = " ".join(words.lower() for position, words in heard if position == side)

    def spent(label: str) -> bool:
        return label in outlook.points_made or label.lower() in said

    if any(not spent(point.label) for point in outlook.counterpoints if point.label):
        return False
    return all(spent(label) for label in labels[:CORE_POINTS])


def contradiction(outlook: JurorOutlook, seat: int, round_number: int) -> tuple[Impression, Impression] | None:
    """The earlier and the newer impression of ``seat`` arguing opposite sides, when the newer is recent
    and ``seat`` did not change its vote between them."""
    theirs = [i for i in outlook.impressions if i.seat == seat and i.position]
    if len(theirs) < 2:
        return None
    newer = theirs[-1]
    if newer.round_number < round_number - 1:
        return None
    # the same person: a student who took the seat of the AI juror that argued there before is not caught
    earlier = next(
        (i for i in reversed(theirs[:-1]) if i.position != newer.position and i.speaker_name == newer.speaker_name),
        None,
    )
    if earlier is None:
        return None
    between = range(earlier.round_number, newer.round_number + 1)
    flips = [m for m in outlook.key_moments if m.kind == "flip" and m.round_number in between]
    changed = any(newer.speaker_name in m.text for m in flips)
    return None if changed else (earlier, newer)


def contradiction_line(pair: tuple[Impression, Impression], variant: int = 0) -> str:
    """The challenge, in the ``variant``-th of ``CONTRADICTION_LINES`` (chosen by the caller without a
    random draw, so that two jurors catching the same speaker do not say it alike)."""
    earlier, newer = pair
    line = CONTRADICTION_LINES[variant % len(CONTRADICTION_LINES)]
    return line.format(
        name=newer.speaker_name,
        before_round=earlier.round_number,
        before=SIDE_WORDS.get(earlier.position, earlier.position),
        after=SIDE_WORDS.get(newer.position, newer.position),
    )
