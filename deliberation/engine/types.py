"""The engine's vocabulary: plain dataclasses with no Django in sight.

The service layer builds these from the database; the engine and the minds only ever see
these. ``CaseFile`` deliberately has no historical verdict or punishment: the jurors must
not be able to read the answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol

ArgumentType = Literal["evidence", "emotional", "logical", "question", "moral", "narrative"]
ARGUMENT_TYPES: tuple[ArgumentType, ...] = ("evidence", "emotional", "logical", "question", "moral", "narrative")
VoteValue = Literal["guilty", "not_guilty"]
SeatKind = Literal["ai", "human", "agent"]
Side = Literal["defend", "prosecute", "none"]
InitialLean = Literal[
    "neutral",
    "defense",
    "prosecution",
    "majority",
    "minority",
    "first_impression",
    "gut_feeling",
    "calculated",
    "best_story",
    "random",
]
Strategy = Literal[
    "challenge_evidence",
    "question_witness",
    "reasonable_doubt",
    "alternative_theory",
    "address_juror",
    "free_argument",
]


@dataclass(frozen=True)
class EvidenceItem:
    id: str
    label: str
    type: str  # physical | testimonial | documentary | forensic
    description: str
    strength_prosecution: float
    strength_defense: float
    contestable: bool = False
    contest_reason: str = ""


@dataclass(frozen=True)
class WitnessItem:
    id: str
    name: str
    role: str
    testimony: str
    credibility_issues: tuple[str, ...] = ()
    side: str = "neutral"  # prosecution | defense | neutral
    first_person: str = ""  # what the witness says on the stand, in its own words (a curated case's); "" for none


@dataclass(frozen=True)
class DefendantInfo:
    name: str
    gender: str = "unknown"
    age: int | None = None
    description: str = ""


@dataclass(frozen=True)
class CaseFile:
    """What the jury is allowed to know about a case."""

    slug: str
    title: str
    summary: str
    charges: tuple[str, ...]
    defendants: tuple[DefendantInfo, ...]
    evidence: tuple[EvidenceItem, ...]
    witnesses: tuple[WitnessItem, ...]
    prosecution_arguments: tuple[str, ...] = ()
    defense_arguments: tuple[str, ...] = ()
    themes: tuple[str, ...] = ()
    year: int | None = None
    jurisdiction: str = ""


@dataclass(frozen=True)
class JurorProfile:
    """One seat's persona: static (memory layer 4)."""

    seat: int
    name: str
    emoji: str
    archetype: str
    modifiers: dict[str, float]  # argument type -> multiplier
    personality: str
    stubbornness: float
    volatility: float
    influence: float
    verbosity: float = 0.5
    initial_lean: str = "neutral"
    model: str = ""
    temperature: float | None = None
    memory_window: int = 10
    kind: SeatKind = "ai"
    # A person's seat its AI juror plays while they are away: it speaks and is moved, but the vote
    # stays the person's (the one they cast, or the one their time running out settled).
    stands_in: bool = False
    holder: str = ""  # with ``stands_in``: the person whose seat it is (her vote is named by her name)

    @property
    def voter(self) -> str:
        """Whose vote the seat holds, by name: the person's in a seat her AI juror plays for her."""
        return self.holder if self.stands_in and self.holder else self.name


@dataclass(frozen=True)
class Passage:
    """A piece of the case file that a retriever found for a query."""

    kind: Literal["summary", "evidence", "witness"]
    item_id: str
    label: str
    text: str
    score: float = 0.0


class Retriever(Protocol):
    """Evidence look-up that the service layer injects (the case library implements it)."""

    def lookup(self, query: str, k: int = 3) -> list[Passage]: ...


@dataclass(frozen=True)
class Usage:
    """What one call to a mind cost."""

    calls: int = 1
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    latency_ms: int = 0
    fallback: bool = False
    note: str = ""
    cause: str = ""  # why a fallback was needed: a ``deliberation.engine.failures.Cause``
    cached_tokens: int = 0  # of the prompt tokens, those the provider served from its cache (when it says)


@dataclass
class Speech:
    """A juror's (or the player's) contribution to the deliberation."""

    seat: int
    speaker_name: str
    content: str
    argument_type: str = "logical"
    target_seat: int | None = None
    position: VoteValue | None = None
    reasoning: str = ""
    strength: float = 0.0  # -1 (towards not guilty) .. +1 (towards guilty), the mind's own rating
    cited: tuple[str, ...] = ()  # evidence / witness ids the statement rests on
    strategy: str = ""
    is_fallback: bool = False
    usage: Usage = field(default_factory=Usage)
    # How far the speaker's own conviction moves as they speak (+ towards guilty): a change of
    # mind of their own, such as the wildcard's. The engine clamps it to +-MAX_OWN_SHIFT.
    own_shift: float = 0.0
    # The speaker withdraws from the discussion (nothing new to add): silent unless addressed, still votes.
    withdrawn: bool = False
    # A person's argument: the part a crafter (a strategy, offline or a model) added before their own
    # words. ``content`` is the whole speech, ``strategies.spoken(crafted, own words)``; "" when the
    # person's words are all of it.
    crafted: str = ""


@dataclass(frozen=True)
class Reaction:
    """One listener's reaction to one speech, before the personality modifiers."""

    seat: int
    speech_index: int
    base_impact: float  # -1..1, towards guilty when positive
    thought: str = ""
    persuaded: bool = False
