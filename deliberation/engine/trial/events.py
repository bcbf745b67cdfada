"""What a trial is made of: its state (the plan, where it stands, what was said) and its events,
stored as plain dicts in the deliberation's ``trial_state``. Below ``course``, which plays a trial.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from deliberation.engine.trial.witness import Answer
from deliberation.engine.types import WitnessItem


class Answerer(Protocol):
    """Who answers for the witness: the offline rule (``trial_witness.answer``) or a model port."""

    def __call__(self, witness: WitnessItem, question: str, *, part: str, said: set[str]) -> Answer: ...


STAGES = ("openings", "prosecution_case", "defence_case", "closings", "directions", "done")
JUDGE = "The judge"
DOUBT_WORDS = (
    "not sure",
    "could not swear",
    "cannot swear",
    "can't swear",
    "can't say",
    "cannot say",
    "could not say",
    "did not see",
    "didn't see",
    "not see his face",
    "dark",
    "drunk",
    "mistaken",
    "i believe",
    "i think",
    "only",
    "not blind",
    "concedes",
    "typing slip",
)
MAX_WITNESSES_PER_SIDE = 6
ERROR_NOT_ON_STAND = "No witness is on the stand."
ERROR_QUESTION_BLANK = "Ask the witness a question."
ERROR_TRIAL_OVER = "The trial is over; the jury has been sent out."
ERROR_GROUND_UNKNOWN = "An objection is one of: {choices}."
ERROR_NOTHING_TO_OBJECT = "There is no question from the other side to object to."


@dataclass(frozen=True)
class TrialEvent:
    """One thing said in court. ``kind``: speech | call | question | answer | objection | ruling | directions."""

    index: int
    stage: str
    kind: str
    speaker: str
    side: str  # prosecution | defense | witness | judge
    text: str
    witness_id: str = ""
    part: str = ""  # chief | cross, for questions and answers
    ground: str = ""  # for objections and rulings
    sustained: bool | None = None  # for rulings
    struck: bool = False  # an answer struck out (never reaches the jury)
    helps: str = ""  # the side an admitted answer helped: prosecution | defense | ""
    grounded: bool | None = None  # for answers: every fact in the witness's record
    quoted: tuple[str, ...] = ()  # for answers: the record lines said verbatim

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["quoted"] = list(self.quoted)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TrialEvent:
        return cls(**{**data, "quoted": tuple(data.get("quoted", ()))})


@dataclass
class TrialState:
    """Where the trial stands: its plan, how far it has gone, and everything said so far."""

    seed: int
    plan: list[dict[str, Any]] = field(default_factory=list)
    cursor: int = 0
    events: list[TrialEvent] = field(default_factory=list)
    on_stand: str = ""  # the witness id
    answered: dict[str, list[str]] = field(default_factory=dict)  # "W1:prosecution" -> questions answered
    said: dict[str, list[str]] = field(default_factory=dict)  # witness id -> record lines said (normalised)
    people: list[str] = field(default_factory=list)  # the sides a person or an agent plays (trial_steps.py)
    review: str = ""  # the side (a person) who may now object to the other side's last question
    rng: random.Random = field(default_factory=random.Random, repr=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    @property
    def stage(self) -> str:
        return self.plan[self.cursor]["stage"] if self.cursor < len(self.plan) else "done"

    @property
    def finished(self) -> bool:
        return self.cursor >= len(self.plan)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "plan": self.plan,
            "cursor": self.cursor,
            "events": [event.to_dict() for event in self.events],
            "on_stand": self.on_stand,
            "answered": self.answered,
            "said": self.said,
            "people": self.people,
            "review": self.review,
            "rng": [self.rng.getstate()[0], list(self.rng.getstate()[1]), self.rng.getstate()[2]],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TrialState:
        state = cls(seed=data["seed"], plan=data["plan"], cursor=data["cursor"], on_stand=data.get("on_stand", ""))
        state.events = [TrialEvent.from_dict(e) for e in data.get("events", [])]
        state.answered = data.get("answered", {})
        state.said = data.get("said", {})
        state.people = list(data.get("people", []))
        state.review = data.get("review", "")
        version, internal, gauss = data["rng"]
        state.rng.setstate((version, tuple(internal), gauss))
        return state
