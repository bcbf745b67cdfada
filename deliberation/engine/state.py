"""The engine's memory between rounds, and its JSON form.

``DeliberationState`` holds everything that changes during a deliberation: the phase, the round,
votes, each juror's memory (convictions, trust, participation) and the random generator's state.
The static parts (the case file and the twelve ``JurorProfile``s, memory layers 1 and 4) are not
stored here: the service rebuilds them from the database and passes them to every call.

``to_dict()`` gives a JSON-safe dict (the service stores it in ``Deliberation.engine_state``);
``DeliberationState.from_dict()`` restores it exactly, random generator included, so a round run
after a reload draws the same numbers as one run without it.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from deliberation.engine import formats, params
from deliberation.engine.ports import HeardTurn, Impression, JurorOutlook, KeyMoment
from deliberation.engine.rules import RuleProgress, rule_set

STATE_VERSION = 1
SPOKEN_KEPT = 400  # speeches kept in ``DeliberationState.spoken``: far more than a game holds


@dataclass(frozen=True)
class EngineSettings:
    """Per-deliberation knobs. Budgets are optional: past them the jurors continue offline."""

    max_rounds: int = params.MAX_ROUNDS
    min_speakers: int = params.MIN_SPEAKERS
    max_speakers: int = params.MAX_SPEAKERS
    # Read when the settings are made, so a bench can try another value of the parameter.
    stability_rounds: int = field(default_factory=lambda: params.STABILITY_ROUNDS)
    summary_interval: int = params.SUMMARY_INTERVAL
    keep_recent: int = params.KEEP_RECENT
    active_listeners: int = params.ACTIVE_LISTENERS
    foreperson: bool = True
    # Turns every participant (person or agent) has before the jury may reach a verdict by itself
    # (unanimity or stability); 0 leaves AI-only and command-line runs ungated. See ``ending``.
    turns_before_verdict: int = 0
    budget_tokens: int | None = None  # prompt + completion tokens
    budget_cost_usd: float | None = None
    # Jury rules and the foreperson (see ``rules`` and ``foreperson``).
    rules: str = "unanimous"
    majority_after_rounds: int = 13  # england-wales: rounds before the majority direction (2 h 10 min)
    foreperson_summary_every: int = 5  # the foreperson sums up the argument every N rounds (0: never)
    poll: str = "hands"  # how the foreperson polls the jury: "hands" (names) or "secret" (counts)
    no_new_rounds: int = 0  # end after K rounds in which no argument is new (0: not an end condition)
    # Formats (``engine.formats``): how speakers are chosen and what a model juror's prompt carries.
    turn_mode: str = formats.DEFAULT_TURN_MODE
    context_scope: str = formats.DEFAULT_CONTEXT_SCOPE
    last_n: int = formats.DEFAULT_LAST_N

    def __post_init__(self) -> None:
        if not 1 <= self.min_speakers <= self.max_speakers <= 4:
            raise ValueError(SPEAKERS_OUT_OF_RANGE)
        rule_set(self.rules)  # raises UNKNOWN_RULES for a name that is not a rule set
        if self.poll not in ("hands", "secret"):
            raise ValueError(UNKNOWN_POLL.format(poll=self.poll))
        formats.check_turn_mode(self.turn_mode)
        formats.check_context_scope(self.context_scope)
        if not 1 <= self.last_n <= 50:
            raise ValueError(formats.ERROR_LAST_N)


UNKNOWN_POLL = "The foreperson polls by 'hands' or 'secret' ballot, not {poll!r}."
SPEAKERS_OUT_OF_RANGE = "Speakers per round must satisfy 1 <= min_speakers <= max_speakers <= 4."


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """A dataclass's field names, read once per class."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


def _flat(item: Any) -> dict[str, Any]:
    """A dataclass of plain values (numbers, strings) as a dict: what ``asdict`` gives, without its
    recursive deep copy. A room saves the engine state on every vote, and ``asdict`` over twelve
    memories was a tenth of a vote's web CPU (BENCHMARKS.md)."""
    return {name: getattr(item, name) for name in _field_names(type(item))}


def heard_to_dict(turn: HeardTurn) -> dict[str, Any]:
    return _flat(turn)


def heard_from_dict(data: dict[str, Any]) -> HeardTurn:
    return HeardTurn(**data)


@dataclass
class JurorMemory:
    """Memory layers 2 and 3 for one seat (layer 1 is the case file, layer 4 the persona)."""

    seat: int
    conviction: float = 0.5
    vote: str = "not_guilty"
    conviction_history: list[float] = field(default_factory=list)
    # Layer 2: the deliberation, recent turns in full and the rest folded into a summary.
    heard: list[HeardTurn] = field(default_factory=list)
    summary: str = ""
    key_moments: list[KeyMoment] = field(default_factory=list)  # flagged for the long term
    # Layer 3: reasoning state.
    reasoning_chain: list[str] = field(default_factory=list)
    doubts: list[str] = field(default_factory=list)
    opinions: dict[int, float] = field(default_factory=dict)  # seat -> trust -1..1
    arguments_made: list[str] = field(default_factory=list)
    points_made: list[str] = field(default_factory=list)  # items argued already: not to repeat
    impressions: list[Impression] = field(default_factory=list)  # how each argument heard struck this juror
    counterpoints: list[Impression] = field(default_factory=list)  # arguments to answer
    # Participation, for speaker selection.
    spoke_count: int = 0
    last_spoke_round: int = 0
    addressed_round: int = 0
    flipped_round: int = 0
    # Withdrawn from the discussion (seed 001's <Withdrawn>): speaks only when addressed, still votes.
    withdrawn: bool = False
    # What of the conviction is still the room's hunch about the prisoner, not the evidence
    # (``engine.initial``): it gives way as the evidence is argued (``engine.rounds``).
    hunch: float = 0.0

    def outlook(self) -> JurorOutlook:
        return JurorOutlook(
            conviction=self.conviction,
            vote=self.vote,
            reasoning_chain=tuple(self.reasoning_chain),
            doubts=tuple(self.doubts),
            opinions=dict(self.opinions),
            summary=self.summary,
            impressions=tuple(self.impressions[-params.OUTLOOK_IMPRESSIONS :]),
            counterpoints=tuple(self.counterpoints),
            key_moments=tuple(self.key_moments),
            points_made=tuple(self.points_made),
        )

    def to_dict(self) -> dict[str, Any]:
        """The memory as plain data (``asdict``'s result, built field by field: see ``_flat``)."""
        data = _flat(self)
        for name in ("conviction_history", "reasoning_chain", "doubts", "arguments_made", "points_made"):
            data[name] = list(data[name])
        for name in ("heard", "key_moments", "impressions", "counterpoints"):
            data[name] = [_flat(item) for item in data[name]]
        data["opinions"] = {str(seat): trust for seat, trust in self.opinions.items()}
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> JurorMemory:
        values = dict(data)
        values["heard"] = [heard_from_dict(turn) for turn in data.get("heard", [])]
        values["opinions"] = {int(seat): float(trust) for seat, trust in data.get("opinions", {}).items()}
        values["impressions"] = [Impression(**item) for item in data.get("impressions", [])]
        values["counterpoints"] = [Impression(**item) for item in data.get("counterpoints", [])]
        values["key_moments"] = [KeyMoment(**item) for item in data.get("key_moments", [])]
        return cls(**values)


def _rng_state_to_json(rng: random.Random) -> list[Any]:
    version, internal, gauss_next = rng.getstate()
    return [version, list(internal), gauss_next]


def _rng_from_json(data: list[Any]) -> random.Random:
    rng = random.Random()
    rng.setstate((data[0], tuple(data[1]), data[2]))
    return rng


@dataclass
class DeliberationState:
    seed: int
    player_side: str = "none"
    settings: EngineSettings = field(default_factory=EngineSettings)
    phase: str = "setup"
    round_number: int = 0
    memories: dict[int, JurorMemory] = field(default_factory=dict)
    votes: dict[int, str] = field(default_factory=dict)  # every seat, human ones included
    first_ballot: dict[str, int] = field(default_factory=dict)
    vote_history: list[dict[int, str]] = field(default_factory=list)  # votes after each round, round 0 first
    vote_changes: int = 0
    rounds_without_change: int = 0
    vote_called: bool = False
    end_reason: str = ""
    verdict: str = ""
    summary: str = ""  # the shared rolling summary (each juror also keeps its own)
    usage: dict[str, float] = field(
        default_factory=lambda: {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "cost_usd": 0.0}
    )
    budget_exhausted: bool = False
    foreperson_called_vote: bool = False
    last_speakers: list[int] = field(default_factory=list)
    own_votes: list[int] = field(default_factory=list)  # participants who voted themselves (or timed out)
    turns_had: dict[int, int] = field(default_factory=dict)  # participants' turns: spoke, passed or timed out
    rule_progress: RuleProgress = field(default_factory=RuleProgress)
    # Seats the judge discharged (``engine.discharge``): out of turns, votes and tallies from then on.
    discharged: list[int] = field(default_factory=list)
    # Every speech of the game, oldest first (the last ``SPOKEN_KEPT``): what no juror says again.
    spoken: list[str] = field(default_factory=list)
    # The witnesses heard at the trial held before the deliberation (``trial.jury.testified``), by id;
    # None when no trial was held, and every witness of the case file is the jury's to argue.
    heard_witnesses: list[str] | None = None
    # What each of them said at that trial, by witness id: the lines of their admitted answers
    # (``trial.jury.heard_words``), the only words of theirs a juror may quote. None: no trial, or a
    # state saved before the trial's words were kept (the file's testimony stands for them).
    heard_words: dict[str, list[str]] | None = None
    rng: random.Random = field(default_factory=random.Random, repr=False)

    def __post_init__(self) -> None:
        # A fresh state starts its generator from the seed; from_dict() then restores a saved one.
        self.rng = random.Random(self.seed)

    @property
    def convictions(self) -> dict[int, float]:
        return {seat: memory.conviction for seat, memory in sorted(self.memories.items())}

    def jury_size(self) -> int:
        """The jurors the tally is taken on: every seat with a vote, discharged seats excluded."""
        return len(self.votes)

    def tally(self) -> dict[str, int]:
        values = list(self.votes.values())
        return {"guilty": values.count("guilty"), "not_guilty": values.count("not_guilty")}

    def next_seed(self) -> int:
        """A seed for one mind call, drawn from the state's generator (determinism)."""
        return self.rng.randrange(2**31)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "seed": self.seed,
            "player_side": self.player_side,
            "settings": asdict(self.settings),
            "phase": self.phase,
            "round_number": self.round_number,
            "memories": {str(seat): memory.to_dict() for seat, memory in sorted(self.memories.items())},
            "votes": {str(seat): vote for seat, vote in sorted(self.votes.items())},
            "first_ballot": dict(self.first_ballot),
            "vote_history": [{str(s): v for s, v in sorted(row.items())} for row in self.vote_history],
            "vote_changes": self.vote_changes,
            "rounds_without_change": self.rounds_without_change,
            "vote_called": self.vote_called,
            "end_reason": self.end_reason,
            "verdict": self.verdict,
            "summary": self.summary,
            "usage": dict(self.usage),
            "budget_exhausted": self.budget_exhausted,
            "foreperson_called_vote": self.foreperson_called_vote,
            "last_speakers": list(self.last_speakers),
            "own_votes": sorted(self.own_votes),
            "turns_had": {str(seat): count for seat, count in sorted(self.turns_had.items())},
            "rule_progress": self.rule_progress.to_dict(),
            "discharged": sorted(self.discharged),
            "spoken": list(self.spoken),
            "heard_witnesses": None if self.heard_witnesses is None else list(self.heard_witnesses),
            "heard_words": None
            if self.heard_words is None
            else {witness: list(lines) for witness, lines in self.heard_words.items()},
            "rng_state": _rng_state_to_json(self.rng),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DeliberationState:
        state = cls(
            seed=int(data["seed"]),
            player_side=data.get("player_side", "none"),
            settings=EngineSettings(**data.get("settings", {})),
            phase=data["phase"],
            round_number=int(data["round_number"]),
            memories={int(s): JurorMemory.from_dict(m) for s, m in data.get("memories", {}).items()},
            votes={int(s): v for s, v in data.get("votes", {}).items()},
            first_ballot=dict(data.get("first_ballot", {})),
            vote_history=[{int(s): v for s, v in row.items()} for row in data.get("vote_history", [])],
            vote_changes=int(data.get("vote_changes", 0)),
            rounds_without_change=int(data.get("rounds_without_change", 0)),
            vote_called=bool(data.get("vote_called", False)),
            end_reason=data.get("end_reason", ""),
            verdict=data.get("verdict", ""),
            summary=data.get("summary", ""),
            usage=dict(data.get("usage", {})),
            budget_exhausted=bool(data.get("budget_exhausted", False)),
            foreperson_called_vote=bool(data.get("foreperson_called_vote", False)),
            last_speakers=list(data.get("last_speakers", [])),
            own_votes=[int(seat) for seat in data.get("own_votes", [])],
            turns_had={int(seat): int(count) for seat, count in data.get("turns_had", {}).items()},
            rule_progress=RuleProgress.from_dict(data.get("rule_progress")),
            discharged=[int(seat) for seat in data.get("discharged", [])],
            spoken=[str(text) for text in data.get("spoken", [])],
            heard_witnesses=(
                None if data.get("heard_witnesses") is None else [str(w) for w in data["heard_witnesses"]]
            ),
            heard_words=(
                None
                if data.get("heard_words") is None
                else {str(w): [str(line) for line in lines] for w, lines in data["heard_words"].items()}
            ),
        )
        state.rng = _rng_from_json(data["rng_state"])
        return state
