"""The model port: what the engine asks of a mind, and what it gets back.

Pure Python, no Django. The engine owns this port; the minds depend on it, never the other way
round. Two implementations live in ``deliberation.minds``: the offline rule-based mind (the
embedded default, no network) and the LiteLLM mind (any provider).
Every method is one call to the mind; the engine counts them all as ``llm_calls``,
under every engine, the offline one included.

Whoever builds the engine also hands it its stand-ins through this port (the engine imports no
mind): the fallback ``Mind`` that answers a call the model failed or the budget skipped, and the
``ArgumentReader`` that tells which points of the case file a speech argued (the jury's rules count
the rounds in which nothing new was said).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Protocol

from deliberation.engine.types import CaseFile, JurorProfile, Passage, Reaction, Speech, Usage

# A chat message as LiteLLM / OpenAI take it: {"role": "system"|"user"|"assistant", "content": str}.
# Minds that talk to a model build them with ``deliberation.engine.prompts`` (per-speaker perspective).
Message = dict[str, str]


@dataclass(frozen=True)
class HeardTurn:
    """A turn as a juror remembers it (memory layer 2)."""

    round_number: int
    seat: int
    speaker_name: str
    content: str
    argument_type: str = ""
    target_seat: int | None = None
    kind: str = "speech"  # speech | process | judge
    position: str = ""  # the speaker's side when known: guilty | not_guilty


@dataclass(frozen=True)
class Impression:
    """How one argument struck one listener (memory layer 3): who argued what, and how far it moved them."""

    round_number: int
    seat: int
    speaker_name: str
    position: str  # the side the argument argued: guilty | not_guilty
    item_id: str = ""  # the evidence or witness it rested on, when it cited one
    label: str = ""  # that item as the jury knows it ("the pawn ticket", "Dolores Finch")
    delta: float = 0.0  # this listener's conviction change (+ towards guilty)
    persuaded: bool = False
    thought: str = ""


@dataclass(frozen=True)
class KeyMoment:
    """A moment a juror flags for the long term (memory layer 2): a vote flip, a strong argument
    or a contradiction, in words that sit after "in round N, when ..."."""

    round_number: int
    kind: str  # flip | strong | contradiction
    text: str


@dataclass(frozen=True)
class JurorOutlook:
    """A juror's reasoning state (memory layer 3) as a mind sees it."""

    conviction: float
    vote: str
    reasoning_chain: tuple[str, ...] = ()
    doubts: tuple[str, ...] = ()
    opinions: dict[int, float] = field(default_factory=dict)  # seat -> trust -1..1
    summary: str = ""  # rolling summary of turns older than the window
    impressions: tuple[Impression, ...] = ()  # the arguments heard lately and how each struck this juror
    counterpoints: tuple[Impression, ...] = ()  # arguments against this juror's side it means to answer
    key_moments: tuple[KeyMoment, ...] = ()
    points_made: tuple[str, ...] = ()  # labels of the items this juror has argued: not to repeat
    in_discussion: int = 11  # the other AI jurors still in the discussion (not withdrawn, not discharged)


@dataclass(frozen=True)
class SpeakRequest:
    juror: JurorProfile
    outlook: JurorOutlook
    case: CaseFile
    recent: tuple[HeardTurn, ...]  # the last N turns in full, oldest first
    passages: tuple[Passage, ...]  # retrieved for this juror's doubts and the last argument
    round_number: int
    tally: dict[str, int]  # {"guilty": n, "not_guilty": n}
    jury: tuple[JurorProfile, ...]  # everyone in the room, for names and targets
    seed: int = 0
    answering: int | None = None  # the seat the round's plan has this juror answer, when it chose one
    context_scope: str = "window-and-summary"  # what ``recent`` holds: see ``engine.formats``
    # Every speech of the game so far, oldest first (this round's earlier ones included): what a mind
    # must not say again word for word. The offline mind reads it; a model's prompt does not carry it.
    said: tuple[str, ...] = ()


@dataclass(frozen=True)
class Listener:
    juror: JurorProfile
    outlook: JurorOutlook
    active: bool  # active listeners get full attention, passive ones a lighter heuristic


@dataclass(frozen=True)
class ReactRequest:
    case: CaseFile
    speeches: tuple[Speech, ...]  # everything said this round, in order
    listeners: tuple[Listener, ...]
    round_number: int
    seed: int = 0
    # What the case's retriever found for each speech (same order as ``speeches``; may be empty).
    passages: tuple[tuple[Passage, ...], ...] = ()
    # Earlier turns the room heard in this deliberation (oldest first): a point made again persuades less.
    earlier: tuple[HeardTurn, ...] = ()


@dataclass(frozen=True)
class SummarizeRequest:
    case: CaseFile
    turns: tuple[HeardTurn, ...]  # the turns to fold into the rolling summary
    previous_summary: str
    jurors: tuple[JurorProfile, ...]  # one call covers every juror
    round_number: int
    seed: int = 0


@dataclass(frozen=True)
class CraftRequest:
    """The player's argument: a strategy, an optional target and optional free text."""

    player: JurorProfile
    side: str  # defend | prosecute
    strategy: str
    case: CaseFile
    recent: tuple[HeardTurn, ...]
    passages: tuple[Passage, ...]
    round_number: int
    tally: dict[str, int]
    jury: tuple[JurorProfile, ...]
    target_seat: int | None = None
    free_text: str = ""
    seed: int = 0
    item_id: str = ""  # the evidence or witness the player picked; their words are about it


@dataclass(frozen=True)
class ReactionBatch:
    reactions: tuple[Reaction, ...]
    usage: Usage = field(default_factory=Usage)


@dataclass(frozen=True)
class SummaryResult:
    summaries: dict[int, str]  # seat -> summary text (one call for all jurors)
    usage: Usage = field(default_factory=Usage)


class Mind(Protocol):
    """A source of juror speech and reactions."""

    name: str  # "offline" or the LiteLLM model string

    async def speak(self, request: SpeakRequest, *, on_text: TextSink | None = None) -> Speech: ...

    async def react_batch(self, request: ReactRequest) -> ReactionBatch: ...

    async def summarize(self, request: SummarizeRequest) -> SummaryResult: ...

    async def craft_argument(self, request: CraftRequest, *, on_text: TextSink | None = None) -> Speech: ...


class TextSink(Protocol):
    """Receives a speech's text as it streams in (chunks, in order)."""

    def __call__(self, seat: int, chunk: str) -> None: ...


@dataclass(frozen=True)
class ArguedPoint:
    """One point of the case file a speech argued, and which way."""

    key: str  # the point (an item, or one attack on it), the same key each time it is argued
    sign: int  # +1 towards guilt, -1 towards doubt
    name: str  # how the jury names it ("the bait bills in the glovebox")


class ArgumentReader(Protocol):
    """Reads a speech against the case file: the points it argued (none when it touched nothing)."""

    def __call__(self, case: CaseFile, text: str) -> Collection[ArguedPoint]: ...
