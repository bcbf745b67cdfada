"""The trial played step by step, with a person (or an external agent) as counsel for one side.

``trial.py`` plays AI counsel's plan; here the plan pauses wherever the side a person plays
(``TrialState.people``) must act, and the person's moves are applied to the same state:

- an opening or a closing: their own words (``speak``), or AI counsel's for them (``speak`` with
  no text), said in AI counsel's name (``counsel.stand_in_name``), never in the side's own;
- their examination or cross-examination of a witness: free-text questions (``put_question``,
  answered by the witness from its record, the other side's AI counsel objecting by the rules),
  AI counsel's next planned question (``let_ai_ask``, put in AI counsel's name), or "No further
  questions" (``rest``);
- after each question of the other side has been answered: an objection (``object_to``; the
  judge rules, and a sustained objection strikes the answer) or none (``no_objection``).

When the trial cannot go on as planned (a move that keeps being refused), ``close_early`` ends it:
the judge says so, what was said stands, and the judge's directions send the jury out.

``awaiting`` says what the state waits for; ``advance`` plays AI steps until a person must act.
All of it is pure and deterministic for a seed, so the services can store the state after every
step and a reload resumes where the trial stood.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from deliberation.engine.trial import counsel
from deliberation.engine.trial.course import (
    ERROR_QUESTION_BLANK,
    JUDGE,
    Answerer,
    TrialEvent,
    TrialState,
    ask,
    object_to_last,
    skip_answered,
    step,
)
from deliberation.engine.types import CaseFile

SPEECH = "speech"  # an opening or a closing is theirs to give
EXAMINE = "examine"  # a witness is theirs to question
REVIEW = "review"  # the other side's question was answered: object, or let it stand
MAX_QUESTIONS_PER_WITNESS = 12  # a person's own questions to one witness in one part; then they rest
MAX_QUESTION = 500
CLOSED_EARLY = (
    "The trial cannot go on as planned: counsel's remaining questions and speeches are withdrawn, "
    "and the jury will decide on what it has heard."
)
ERROR_NOT_YOUR_TURN = "It is not your turn at the trial: {waiting}"
ERROR_QUESTION_TOO_LONG = f"Keep a question under {MAX_QUESTION} characters."
ERROR_TOO_MANY_QUESTIONS = "The judge has heard enough from this witness: say no further questions."
WAITING_WORDS = {
    SPEECH: "{counsel}'s {kind}.",
    EXAMINE: "{counsel}'s questions to {witness}.",
    REVIEW: "{counsel} may object to the last answer.",
    "": "AI counsel is speaking.",
    "directions": "The judge is directing the jury.",
}


@dataclass(frozen=True)
class Waiting:
    """What the trial waits for: ``what`` (speech | examine | review) from counsel for ``side``."""

    side: str
    what: str
    kind: str = ""  # opening | closing, for a speech
    witness_id: str = ""
    part: str = ""  # chief | cross, for an examination


def awaiting(state: TrialState) -> Waiting | None:
    """The move a person must make before the trial goes on (None: AI counsel's step, or the end)."""
    if state.review:
        asked = next(e for e in reversed(state.events) if e.kind == "question")
        return Waiting(side=state.review, what=REVIEW, witness_id=asked.witness_id, part=asked.part)
    if state.finished:
        return None
    item = state.plan[state.cursor]
    if item["side"] not in state.people:
        return None
    if item["kind"] in ("opening", "closing"):
        return Waiting(side=item["side"], what=SPEECH, kind=item["kind"])
    if item["kind"] == "question":
        return Waiting(side=item["side"], what=EXAMINE, witness_id=item["witness"], part=item["part"])
    return None


def describe(waiting: Waiting | None, names: dict[str, str], state: TrialState | None = None) -> str:
    """What the trial waits for, in words; with no person's move awaited, who has the floor (the
    judge at the directions, else AI counsel)."""
    if waiting is None:
        return WAITING_WORDS["directions" if state is not None and state.stage == "directions" else ""]
    return WAITING_WORDS[waiting.what].format(
        counsel=counsel.side_name(waiting.side), kind=waiting.kind, witness=names.get(waiting.witness_id, "the witness")
    )


def _require(state: TrialState, side: str, what: str, names: dict[str, str] | None = None) -> Waiting:
    waiting = awaiting(state)
    if waiting is None or waiting.side != side or waiting.what != what:
        raise ValueError(ERROR_NOT_YOUR_TURN.format(waiting=describe(waiting, names or {})))
    return waiting


def advance(
    state: TrialState, case: CaseFile, answerer: Answerer | None = None, *, max_steps: int = 1
) -> list[TrialEvent]:
    """Play up to ``max_steps`` of AI counsel's steps, stopping where a person must act.

    An AI question whose opponent is a person is answered without AI objections, and the trial
    then waits for that person's review of it.
    """
    events: list[TrialEvent] = []
    for _ in range(max_steps):
        if awaiting(state) is None:
            skip_answered(state)
        if state.finished or awaiting(state) is not None:
            break
        item = state.plan[state.cursor]
        if item["kind"] == "question" and counsel.other(item["side"]) in state.people:
            state.cursor += 1
            state.on_stand = item["witness"]
            events += ask(
                state,
                case,
                side=item["side"],
                question=item["question"],
                part=item["part"],
                stage=item["stage"],
                answerer=answerer,
                opponent_objects=False,
            )
            state.review = counsel.other(item["side"])
            continue
        events += step(state, case, answerer)
    return events


def put_question(
    state: TrialState, case: CaseFile, *, side: str, question: str, answerer: Answerer | None = None
) -> list[TrialEvent]:
    """A person's own question to the witness they are examining (the plan's cursor stays put)."""
    waiting = _require(state, side, EXAMINE)
    question = " ".join(question.split())
    if not question:
        raise ValueError(ERROR_QUESTION_BLANK)
    if len(question) > MAX_QUESTION:
        raise ValueError(ERROR_QUESTION_TOO_LONG)
    mine = [
        e
        for e in state.events
        if e.kind == "question" and e.side == side and e.witness_id == waiting.witness_id and e.part == waiting.part
    ]
    if len(mine) >= MAX_QUESTIONS_PER_WITNESS:
        raise ValueError(ERROR_TOO_MANY_QUESTIONS)
    state.on_stand = waiting.witness_id
    item = state.plan[state.cursor]
    both_people = counsel.other(side) in state.people
    events = ask(
        state,
        case,
        side=side,
        question=question,
        part=waiting.part,
        stage=item["stage"],
        answerer=answerer,
        opponent_objects=not both_people,
    )
    if both_people and any(e.kind == "answer" for e in events):
        state.review = counsel.other(side)
    return events


def let_ai_ask(state: TrialState, case: CaseFile, *, side: str, answerer: Answerer | None = None) -> list[TrialEvent]:
    """AI counsel puts the next question of its plan for the person's side, in its own name
    (``counsel.stand_in_name``): the question is AI counsel's, not the person's."""
    waiting = _require(state, side, EXAMINE)
    skip_answered(state, side=side)
    item = state.plan[state.cursor] if not state.finished else None
    if item is None or (item["kind"], item["side"], item["witness"], item["part"]) != (
        "question",
        side,
        waiting.witness_id,
        waiting.part,
    ):
        return []  # the witness has given every line AI counsel would ask about: no further questions
    return _stood_in(state, step(state, case, answerer), side)


def _stood_in(state: TrialState, events: list[TrialEvent], side: str) -> list[TrialEvent]:
    """What AI counsel said for a person's side is said in AI counsel's name (the side stays hers:
    it counts for her side's record)."""
    out = []
    for event in events:
        if event.side == side and event.kind in ("question", "speech"):
            event = replace(event, speaker=counsel.stand_in_name(side))
            state.events[event.index] = event
        out.append(event)
    return out


def rest(state: TrialState, *, side: str) -> list[TrialEvent]:
    """ "No further questions": the rest of this side's questions to this witness are dropped."""
    waiting = _require(state, side, EXAMINE)
    while not state.finished:
        item = state.plan[state.cursor]
        same = item["kind"] == "question" and item["side"] == side and item["witness"] == waiting.witness_id
        if not same or item["part"] != waiting.part:
            break
        state.cursor += 1
    return []


def speak(state: TrialState, case: CaseFile, *, side: str, text: str = "") -> list[TrialEvent]:
    """A person's opening or closing in their own words; with no words, AI counsel speaks for them."""
    _require(state, side, SPEECH)
    text = " ".join(text.split())
    if not text:
        return _stood_in(state, step(state, case), side)
    item = state.plan[state.cursor]
    state.cursor += 1
    state.on_stand = ""
    event = TrialEvent(
        index=len(state.events),
        stage=item["stage"],
        kind="speech",
        speaker=counsel.side_name(side),
        side=side,
        text=text[: MAX_QUESTION * 4],
    )
    state.events.append(event)
    return [event]


def object_to(state: TrialState, case: CaseFile, *, side: str, ground: str) -> list[TrialEvent]:
    """A person objects to the other side's question just answered; the judge rules, and a
    sustained objection strikes the answer (it never reaches the jury)."""
    _require(state, side, REVIEW)
    events = object_to_last(state, case, side=side, ground=ground)
    state.review = ""
    return events


def no_objection(state: TrialState, *, side: str) -> list[TrialEvent]:
    """The person lets the other side's last answer stand."""
    _require(state, side, REVIEW)
    state.review = ""
    return []


def close_early(state: TrialState, case: CaseFile, *, text: str = "") -> list[TrialEvent]:
    """End the trial now: the judge says it cannot go on (or ``text``: why it ends here), what was
    said stands (struck answers stay struck), nobody waits any more, and the judge's directions
    close it."""
    if state.finished:
        return []
    stage = state.stage
    state.people, state.review, state.on_stand = [], "", ""
    event = TrialEvent(
        index=len(state.events), stage=stage, kind="speech", speaker=JUDGE, side="judge", text=text or CLOSED_EARLY
    )
    state.events.append(event)
    directions = [i for i, item in enumerate(state.plan) if item["kind"] == "directions"]
    state.cursor = directions[-1] if directions else len(state.plan)
    return [event, *step(state, case)]
