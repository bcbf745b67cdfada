"""What one round returns to the service: speeches, reactions, flips, usage, process lines."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

from deliberation.engine.failures import CallFailure
from deliberation.engine.foreperson import ProcessLine
from deliberation.engine.moves import Thought, move_of
from deliberation.engine.types import Speech, Usage


@dataclass(frozen=True)
class PlayerMove:
    """A participant's strategy for the mind to craft into an argument (counts as a speaker)."""

    seat: int
    side: str  # defend | prosecute
    strategy: str
    target_seat: int | None = None
    free_text: str = ""
    item_id: str = ""  # the evidence or witness a challenge or a question is about (E1, W2...)


@dataclass(frozen=True)
class ReactionRecord:
    """One listener's reaction to one speech, after the personality modifiers. A thought the mind
    gave for every kind of move (``moves.Thought``) reads as the move ``delta`` is, and is said
    persuaded only beside a clear move towards the speaker; once the round's votes are in, a
    listener whose vote turned takes its words for that (``after_vote``)."""

    seat: int
    speech_index: int
    base_impact: float
    delta: float
    thought: str
    persuaded: bool
    active: bool
    words: Thought | None = field(default=None, compare=False, repr=False)  # the mind's words for every move

    def __post_init__(self) -> None:
        if isinstance(self.thought, Thought):
            words = self.thought
            object.__setattr__(self, "words", words)
            object.__setattr__(self, "thought", words.for_move(self.delta))
            clear = move_of(self.delta, words.towards) == "clear"
            object.__setattr__(self, "persuaded", self.persuaded and clear)

    def after_vote(self, turned: bool) -> ReactionRecord:
        """The reaction as shown once the round's votes are in: for a listener whose vote turned, the
        words that do not say its view stood."""
        if not turned or self.words is None:
            return self
        return replace(self, thought=self.words.for_move(self.delta, turned=True))


@dataclass(frozen=True)
class Flip:
    seat: int
    before: str
    after: str
    reason: str = ""  # why the juror changed their mind, in words (``engine.reflection.flip_reason``)
    # The round's speech the change is shown under: the one that moved the juror furthest towards
    # the new vote (``engine.reflection.moving_speech``); None: the round's last speech.
    speech_index: int | None = None


@dataclass
class RoundUsage:
    """Totals of the round's mind calls. Every call counts as one, under every engine."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    latency_ms: int = 0
    fallback_calls: int = 0
    cached_tokens: int = 0  # of the prompt tokens, those the provider reported as served from its cache

    def add(self, usage: Usage, *, fallback: bool = False) -> None:
        self.calls += 1
        self.prompt_tokens += usage.prompt_tokens
        self.completion_tokens += usage.completion_tokens
        self.cached_tokens += usage.cached_tokens
        self.cost_usd += usage.cost_usd
        self.latency_ms += usage.latency_ms
        if fallback or usage.fallback:
            self.fallback_calls += 1


@dataclass
class RoundResult:
    round_number: int
    engine: str
    speeches: list[Speech] = field(default_factory=list)
    reactions: list[ReactionRecord] = field(default_factory=list)
    flips: list[Flip] = field(default_factory=list)
    convictions: dict[int, float] = field(default_factory=dict)
    votes: dict[int, str] = field(default_factory=dict)
    tally: dict[str, int] = field(default_factory=dict)
    process_lines: list[ProcessLine] = field(default_factory=list)
    usage: RoundUsage = field(default_factory=RoundUsage)
    failures: list[CallFailure] = field(default_factory=list)  # calls the offline engine answered instead
    active_listeners: tuple[int, ...] = ()
    summarized: bool = False
    end_reason: str = ""

    def deltas_for(self, speech_index: int) -> dict[int, float]:
        """Seat -> conviction delta that speech caused."""
        return {r.seat: r.delta for r in self.reactions if r.speech_index == speech_index}

    def reactions_for(self, speech_index: int) -> list[ReactionRecord]:
        return [r for r in self.reactions if r.speech_index == speech_index]

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe, for logs and the command line (no timing fields)."""
        return {
            "round_number": self.round_number,
            "engine": self.engine,
            "speeches": [
                {
                    "seat": s.seat,
                    "speaker_name": s.speaker_name,
                    "target_seat": s.target_seat,
                    "argument_type": s.argument_type,
                    "position": s.position,
                    "strategy": s.strategy,
                    "content": s.content,
                    "is_fallback": s.is_fallback,
                    "fallback_cause": s.usage.cause if s.is_fallback else "",
                    "deltas": {str(seat): round(d, 4) for seat, d in self.deltas_for(i).items()},
                }
                for i, s in enumerate(self.speeches)
            ],
            "flips": [asdict(f) for f in self.flips],
            "convictions": {str(seat): c for seat, c in self.convictions.items()},
            "votes": {str(seat): v for seat, v in self.votes.items()},
            "tally": dict(self.tally),
            "process_lines": [asdict(line) for line in self.process_lines],
            "usage": {k: v for k, v in asdict(self.usage).items() if k != "latency_ms"},
            "failures": [failure.to_dict() for failure in self.failures],
            "summarized": self.summarized,
            "end_reason": self.end_reason,
        }
