"""Juror memory: what each juror carries from turn to turn (the spec's four layers).

1. Case knowledge: the case file, looked up through a ``Retriever`` (not stored here).
2. Deliberation memory: ``JurorMemory.heard`` holds turns in full; the prompt shows the last
   ``memory_window`` of them. Every ``summary_interval`` rounds the turns older than the
   ``keep_recent`` most recent are folded into the rolling ``summary`` (one summarize call covers
   every juror) and dropped, so memory stays bounded however long the deliberation runs.
   Key moments (a vote flip, an argument that hit hard, a juror contradicting themselves) are
   flagged in ``key_moments`` and outlive the fold.
3. Reasoning state: conviction, the reasoning chain, doubts and opinions of the others (trust),
   and the arguments to make and avoid: ``impressions`` (how persuasive each argument heard was
   to this juror), ``counterpoints`` (arguments against its side that did not move it, to answer
   when it next speaks) and ``points_made`` (what it has argued already, not to repeat).
4. Persona: the static ``JurorProfile``.

Every listener keeps its own: two jurors who heard the same speech remember it differently.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from deliberation.engine import params
from deliberation.engine.ports import HeardTurn, Impression, KeyMoment
from deliberation.engine.state import JurorMemory
from deliberation.engine.types import CaseFile

SIDE_WORDS = {"guilty": "guilty", "not_guilty": "not guilty"}


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


def flag_moment(memory: JurorMemory, moment: KeyMoment) -> None:
    """Keep a key moment for the long term (the newest ``MAX_KEY_MOMENTS``)."""
    if moment not in memory.key_moments:
        memory.key_moments.append(moment)
    del memory.key_moments[: -params.MAX_KEY_MOMENTS]


def named(label: str, *, witness: bool, names: Collection[str] = ()) -> str:
    """An item as it sits mid-sentence: a witness by name, evidence as "the pawn ticket". A label led
    by a possessive takes "the" when it is a common noun's ("the defendant's statements to police"),
    not when it is a name's (``names``: the case's names, lower case, as ``case_names`` finds them)."""
    if witness or not label:
        return label
    words = label.split()
    owner = re.sub(r"['’]s$", "", words[0]).lower()
    # A label keeps its first capital when it starts with a name: "Captain Deckard's report", "Salem
    # Avenue receipt", "CCTV footage", "Wade's alibi"; not "Photo array identification by Miles Ferraro".
    proper = len(words) > 1 and words[1][:1].isupper()
    proper = proper or any(ch.isupper() for ch in words[0][1:]) or owner in names
    lowered = label if proper else label[:1].lower() + label[1:]
    possessive = re.search(r"['’]s$", words[0]) is not None
    owned = re.match(r"^(?:[A-Z][\w.-]* ){1,3}[A-Z][\w-]*['’]s ", label) is not None  # "Captain Deckard's report"
    if words[0].lower() in {"the", "a", "an"} or (possessive and proper) or owned:
        return lowered
    return "the " + lowered


NAME_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")


def case_names(case: CaseFile) -> frozenset[str]:
    """The words of a case that are names, lower case: parts of its people's names, and words its
    summary and evidence write with a capital mid-sentence and never in lower case."""
    people = [w.name for w in case.witnesses] + [d.name for d in case.defendants]
    names = {word.lower() for name in people for word in NAME_WORD.findall(name)}
    upper: set[str] = set()
    lower: set[str] = set()
    for text in (case.summary, *(e.description for e in case.evidence)):
        for sentence in re.split(r"(?<=[.!?])\s+", text):
            for word in NAME_WORD.findall(sentence)[1:]:
                bare = re.sub(r"['’]s$", "", word)
                (upper if bare[:1].isupper() else lower).add(bare.lower())
    return frozenset(names | (upper - lower))


def note_impression(memory: JurorMemory, impression: Impression, *, vote: str, words: str = "") -> None:
    """A listener takes in one argument: how it struck them, and what it leaves them to do.

    ``vote`` is the listener's vote when they heard it; ``words`` names the item argued, as it
    sits mid-sentence (``named``). An argument against that vote which did
    not persuade them becomes a counter-point to answer; one that moved them hard its own way is a
    key moment; a speaker arguing the other side from the one they argued before is a
    contradiction worth remembering.
    """
    earlier = next((i for i in reversed(memory.impressions) if i.seat == impression.seat), None)
    memory.impressions.append(impression)
    del memory.impressions[: -params.MAX_IMPRESSIONS]
    name, side = impression.speaker_name, SIDE_WORDS.get(impression.position, impression.position)
    about = f" on {words or impression.label}" if impression.label else ""
    if impression.position and impression.position != vote and not impression.persuaded:
        memory.counterpoints = [
            c for c in memory.counterpoints if (c.seat, c.item_id) != (impression.seat, impression.item_id)
        ]
        memory.counterpoints.append(impression)
        del memory.counterpoints[: -params.MAX_COUNTERPOINTS]
    towards = impression.delta if impression.position == "guilty" else -impression.delta
    if impression.position and (towards >= params.STRONG_ARGUMENT or impression.persuaded):
        text = f"{name}'s argument{about} moved me towards {side}"
        flag_moment(memory, KeyMoment(impression.round_number, "strong", text))
    if earlier is not None and earlier.position and impression.position and earlier.position != impression.position:
        before = SIDE_WORDS.get(earlier.position, earlier.position)
        text = f"{name} argued {side} after arguing {before} in round {earlier.round_number}"
        flag_moment(memory, KeyMoment(impression.round_number, "contradiction", text))


def note_flip(memory: JurorMemory, *, round_number: int, name: str, after: str, own: bool) -> None:
    """A vote changed: the juror's own (its counter-points against that side lapse) or another's."""
    side = SIDE_WORDS.get(after, after)
    text = f"I changed my vote to {side}" if own else f"{name} switched to {side}"
    flag_moment(memory, KeyMoment(round_number, "flip", text))
    if own:
        memory.counterpoints = [c for c in memory.counterpoints if c.position != after]


def note_spoken(memory: JurorMemory, *, label: str, answered: int | None) -> None:
    """The juror has argued ``label`` (not to repeat) and answered the counter-points of ``answered``
    on it, or every counter-point on that item when the speech named no one."""
    if label:
        remember(memory.points_made, label, params.MAX_POINTS_MADE)
    memory.counterpoints = [
        c
        for c in memory.counterpoints
        if not ((label and c.label == label) or (answered is not None and c.seat == answered))
    ]
