"""The trial played step by step, with a person (or an agent) as counsel for one side.

The state (``engine.trial.steps``) lives in ``Deliberation.trial_state`` while the phase is
``trial``; every step is its own short transaction (the row locked, the step played, its events
stored as ``trial`` turns, the state saved), so a reload or another worker resumes exactly where the
trial stood, and nothing slow runs inside a transaction. When the last step is played the jury
casts its first ballot from what the trial admitted (``ballot.first_ballot``).

Each new step announces "trial" (the new turns, the on-the-stand panel and the controls); a ruling
is read aloud by the judge's voice.

With a model engine the witness answers through the model (``minds.trial_model``), prepared before
the step's transaction; an answer the model could not give (a timeout, an error, garbage, an
invented fact) is the offline rule's, logged and stored marked as a fallback with its reason. A game
whose trial has AI counsel on both sides is played the same way (``lifecycle.side_choose``).

In a room, a move AI counsel make for a counsel whose time ran out (``counsel_stand_in``) that is
refused is tried again on the clock's next tick, ``STAND_IN_TRIES`` times in all; then the trial is
closed early (``trial_steps.close_early``) and the room's rounds begin, so a room never hangs there.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from angryagents.background import enqueue
from cases.casefile import case_file
from cases.models import Case
from deliberation.engine.trial import steps as trial_steps
from deliberation.engine.trial.course import Answerer, TrialEvent, TrialState, new_trial, stopped_by_objection
from deliberation.engine.trial.witness import Answer
from deliberation.engine.trial.witness import answer as offline_answer
from deliberation.engine.types import CaseFile, Usage, WitnessItem
from deliberation.models import Deliberation, NarrationKind, Phase, PlayerSide, Turn, TurnKind
from deliberation.rooms.state import STAGE_TRIAL, is_room, pace_seconds, room_of, room_save, turn_seconds
from deliberation.services import claims
from deliberation.services import narration as narration_services
from deliberation.services import room_clock as clock
from deliberation.services.ballot import first_ballot
from deliberation.services.broadcast import announce

if TYPE_CHECKING:
    from deliberation.minds.trial_model import ModelWitness

logger = logging.getLogger(__name__)

COUNSEL_SIDE = {PlayerSide.PROSECUTE: "prosecution", PlayerSide.DEFEND: "defense"}
ACTIONS = ("ask", "ai_ask", "rest", "speak", "ai_speak", "object", "no_objection", "continue")
MAX_STEPS = 400  # more than any trial's plan: a loop that never pauses still ends
TRIAL_STALL_SECONDS = 120  # a model witness's answer takes seconds; two minutes of silence is a dead task
# A room's trial that AI counsel hold on both sides goes at the pace a class reads it: after each
# step, the room's pause between AI steps plus the time a student takes to read what was said
# (about 200 words a minute; a long speech is skimmed after 12 s).
READ_CHARS_PER_SECOND = 18.0
READ_MESSAGE_MAX_SECONDS = 12.0
MOVE_READING_MAX_SECONDS = 30.0  # what a counsel's move waits, at most, for her page to show what was said
ERROR_NO_TRIAL = "The trial is not under way in this deliberation."
ERROR_NOT_COUNSEL = "You are not counsel at this trial."
ERROR_ACTION_UNKNOWN = "A move at the trial is one of: " + ", ".join(ACTIONS) + "."


def trial_begin(
    deliberation: Deliberation, *, people: list[str], vote: str | None, opened: bool = True
) -> dict[str, Any]:
    """The stored form of a new step-by-step trial (the caller saves it on the locked row).

    ``opened`` off (a room): AI counsel waits until someone claims counsel or the room's clock
    opens the trial (``trial_open``); ``counsel`` maps a side to the seat that plays it."""
    case = Case.objects.with_file().get(pk=deliberation.case_id)
    chosen = deliberation.settings or {}
    limits: dict[str, Any] = {}
    if chosen.get("trial_witnesses"):  # a lesson's length chose the trial's
        limits["max_witnesses"] = int(chosen["trial_witnesses"])
    if chosen.get("trial_questions"):
        limits["max_questions"] = int(chosen["trial_questions"])
    state = new_trial(case_file(case), seed=deliberation.seed, **limits)
    state.people = list(people)
    last = deliberation.turns.order_by("-sequence").values_list("sequence", flat=True).first() or 0
    return {
        "state": state.to_dict(),
        "vote": vote,
        "base": last + 1,
        "stored": 0,
        "struck": [],
        "opened": opened,
        "counsel": {},
        "began_at": timezone.now().isoformat(),  # a trial that never got going stands still from here
    }


def load(deliberation: Deliberation) -> TrialState:
    return TrialState.from_dict(deliberation.trial_state["state"])


def lock_trial(deliberation_id: int) -> Deliberation:
    deliberation = Deliberation.objects.select_for_update().get(pk=deliberation_id)
    if deliberation.phase != Phase.TRIAL or not deliberation.trial_state:
        raise ValidationError(ERROR_NO_TRIAL)
    return deliberation


def _model(deliberation_id: int) -> ModelWitness | None:
    """The game's model witness, or None offline."""
    from deliberation.minds.trial_model import witness_for  # a model witness loads LiteLLM: only for a model game

    engine = Deliberation.objects.filter(pk=deliberation_id).values_list("engine", flat=True).first()
    return witness_for(engine) if engine else None


def trial_case(deliberation_id: int) -> CaseFile:
    return case_file(Case.objects.with_file().get(deliberations__pk=deliberation_id))


def save_trial(deliberation: Deliberation, state: TrialState, prepared: Prepared | None = None) -> None:
    """Store what happened since the last save: new events as turns, struck answers marked, the
    state; announce it and let the judge read each new ruling (and the directions) aloud. The
    answer the ``prepared`` model answer gave is stored as the model's (or as its fallback)."""
    stored: dict[str, Any] = dict(deliberation.trial_state)
    base, done = int(stored["base"]), int(stored["stored"])
    new = state.events[done:]
    by_model = prepared.answered if prepared is not None else None
    Turn.objects.bulk_create(
        Turn(
            deliberation=deliberation,
            round_number=0,
            sequence=base + event.index,
            kind=TurnKind.TRIAL,
            speaker_name=event.speaker[:100],
            strategy=event.kind,
            content=event.text,
            trial=event.to_dict(),
            **(_answered_by(prepared) if prepared is not None and event.index == by_model else {"engine": "offline"}),
        )
        for event in new
    )
    # A move can change whose turn it is without a word said ("No further questions", "No
    # objection"): the other counsel's page must hear of it all the same.
    moved = stored.get("state") != state.to_dict()
    struck = sorted(e.index for e in state.events[:done] if e.struck and e.index not in stored["struck"])
    for index in struck:  # an answer struck after it was stored (a person's objection)
        turn = Turn.objects.get(deliberation=deliberation, kind=TurnKind.TRIAL, sequence=base + index)
        turn.trial = state.events[index].to_dict()
        turn.save(update_fields=["trial"])
    stored.update(
        state=state.to_dict(),
        stored=len(state.events),
        struck=sorted({*stored["struck"], *(e.index for e in state.events if e.struck)}),
    )
    deliberation.trial_state = stored
    deliberation.save(update_fields=["trial_state"])
    if deliberation.experiment_id is None:
        for event in new:
            if event.kind in ("ruling", "directions"):
                narration_services.narration_request(
                    deliberation_id=deliberation.pk, kind=NarrationKind.LINE, text=event.text
                )
    if new or struck or moved:
        announce(deliberation.pk, "trial", {"from": base + done, "struck": [base + i for i in struck]})


def _answered_by(prepared: Prepared) -> dict[str, Any]:
    """The stored answer's engine, and when the model's answer was replaced, why."""
    usage = prepared.usage
    if usage is None or not usage.fallback:
        return {"engine": prepared.engine}
    return {
        "engine": prepared.engine,
        "is_fallback": True,
        "fallback_cause": usage.cause,
        "fallback_reason": usage.note[:300],
    }


class Prepared:
    """A witness's answer computed before the step's transaction (a model call takes seconds: it
    never runs with the row locked). It answers only the question it was prepared for, at the
    point of the trial it was prepared at; anything else gets the offline rule's answer.

    ``usage`` is the model call's (its ``fallback`` says the offline rule answered instead);
    ``answered`` the index of the event its answer became (-1: not used)."""

    def __init__(
        self, witness_id: str, question: str, answer: Answer | None, *, engine: str = "", usage: Usage | None = None
    ) -> None:
        self.witness_id, self.question, self.answer = witness_id, question, answer
        self.engine, self.usage = engine, usage
        self.answered = -1

    def __call__(self, witness: WitnessItem, question: str, *, part: str, said: set[str]) -> Answer:
        if self.answer is not None and witness.id == self.witness_id and question == self.question:
            self.answered = -2  # set to the answer's index once the step has put it in the record
            return self.answer
        return offline_answer(witness, question, part=part, said=said)

    def note_answer(self, state: TrialState, before: int) -> None:
        """After the step: which new event is the prepared answer (the step's one answer)."""
        if self.answered == -2:
            self.answered = next((e.index for e in state.events[before:] if e.kind == "answer"), -1)


def _point(state: TrialState) -> tuple[int, int, str]:
    return state.cursor, len(state.events), state.review


def _prepare(
    deliberation_id: int, file: CaseFile, model: ModelWitness | None, question: Callable[[TrialState], str | None]
) -> tuple[Prepared | None, tuple[int, int, str] | None]:
    """Outside any transaction: the model's answer to the question the next step will put (by
    ``question``), and the point of the trial it is for (None without a model or a question)."""
    if model is None:
        return None, None
    deliberation = Deliberation.objects.get(pk=deliberation_id)
    if deliberation.phase != Phase.TRIAL or not deliberation.trial_state:
        return None, None
    state = load(deliberation)
    asked = question(state)
    witness_id = _witness_next(state)
    if not asked or not witness_id:
        return None, None
    witness = next(w for w in file.witnesses if w.id == witness_id)
    item = state.plan[state.cursor]
    part = item["part"]
    if stopped_by_objection(state, file, witness_id=witness_id, side=item["side"], question=asked, part=part):
        return None, None  # the judge will sustain the objection: the witness will not answer
    reply = model(witness, asked, part=part, said=set(state.said.get(witness_id, [])))
    return Prepared(witness_id, asked, reply, engine=model.model, usage=model.last), _point(state)


def _witness_next(state: TrialState) -> str:
    if state.finished:
        return ""
    item = state.plan[state.cursor]
    return item.get("witness", "") if item["kind"] == "question" else ""


def _planned(state: TrialState) -> str | None:
    """The question AI counsel's next step would put (when no person must act first)."""
    if state.finished or state.review or trial_steps.awaiting(state) is not None:
        return None
    item = state.plan[state.cursor]
    return item.get("question") if item["kind"] == "question" else None


def trial_advance(*, deliberation_id: int, until_mine: str = "") -> None:
    """Play AI counsel's steps, one short transaction each, until a person must act, the trial
    ends (then the jury's first ballot), or, in a room, the host has paused it (the resume plays
    on). ``until_mine`` (a side) lets the other side's questions stand without waiting for that
    side's objection, up to its own next move. Safe to call any time: it does nothing when no
    trial is under way.

    The trial is marked as played by this process meanwhile (``claims.trial_playing``): if the
    process dies in a step (a witness's answer takes seconds), the step is played again by whoever
    finds the mark stale (the room's clock, or the web process's sweep for a single player)."""
    with claims.trial_playing(deliberation_id):
        _advance(deliberation_id, until_mine)


def _advance(deliberation_id: int, until_mine: str) -> None:
    file: CaseFile | None = None
    model = _model(deliberation_id)
    for _ in range(MAX_STEPS):
        if model is not None:
            file = file or trial_case(deliberation_id)
        prepared, point = _prepare(deliberation_id, file, model, _planned) if file else (None, None)
        with transaction.atomic():
            try:
                deliberation = lock_trial(deliberation_id)
            except ValidationError:
                return
            if not deliberation.trial_state.get("opened", True):
                return
            state = load(deliberation)
            waiting = trial_steps.awaiting(state)
            if waiting is not None and not (waiting.side == until_mine and waiting.what == trial_steps.REVIEW):
                _hold_for(deliberation, state, waiting)
                return
            if is_room(deliberation) and room_of(deliberation).get("paused"):
                return  # the host paused the room: AI counsel's next step waits for the resume
            if waiting is not None:  # the person lets the answer stand on their way to their turn
                trial_steps.no_objection(state, side=waiting.side)
            elif state.finished:
                close_trial(deliberation, state)
                return
            else:
                if point is not None and point != _point(state):
                    continue  # someone moved the trial on while the model answered: prepare again
                file = file or trial_case(deliberation_id)
                before = len(state.events)
                trial_steps.advance(state, file, prepared)
                if prepared is not None:
                    prepared.note_answer(state, before)
                if is_room(deliberation) and not state.people and not state.finished:
                    save_trial(deliberation, state, prepared)
                    _pace_step(deliberation, state.events[before:])
                    return  # the room's clock plays the next step when the class has read this one
            save_trial(deliberation, state, prepared)


def reading_seconds(room: dict[str, Any], said: list[TrialEvent]) -> float:
    """How long a room waits after AI counsel's step before the next: its pause between AI steps
    (``pace_seconds``) and the time a student takes to read what the step said."""
    return pace_seconds(room) + read_seconds(said)


def read_seconds(said: list[TrialEvent]) -> float:
    """The time a student takes to read ``said`` (a long speech is skimmed)."""
    return sum(min(READ_MESSAGE_MAX_SECONDS, len(event.text) / READ_CHARS_PER_SECOND) for event in said)


def _pace_step(deliberation: Deliberation, said: list[TrialEvent]) -> None:
    """AI counsel hold both sides of a room's trial: the next step is the clock's, when the class has
    read this one, so the trial unfolds step by step on every page and the teacher can pause it
    (its seconds kept), or skip to the next step."""
    room = room_of(deliberation)
    if room.get("stage") != STAGE_TRIAL:
        return
    now = timezone.now()
    room.pop("trial_wait", None)
    room["trial_read"] = len(deliberation.trial_state["state"]["events"])  # the class reads this step now
    clock.set_due(room, "next_at", now + timedelta(seconds=reading_seconds(room, said)), now)
    room_save(deliberation, room)
    clock.schedule(deliberation, room)


def trial_play(*, deliberation_id: int) -> None:
    """Play a trial AI counsel hold on both sides off the request: the ``trial_advance`` task, after
    the transaction commits (a model's witness answers take seconds each)."""
    enqueue("deliberation.trial_advance", deliberation_id)


def _began_at(deliberation: Deliberation) -> datetime | None:
    try:
        return datetime.fromisoformat(str(deliberation.trial_state.get("began_at")))
    except ValueError:  # a trial stored before the time was kept
        return None


def trial_resume_if_stalled(deliberation: Deliberation, *, now: datetime | None = None) -> bool:
    """A trial AI counsel hold on both sides is played by a task; if nothing has been said at it for
    ``TRIAL_STALL_SECONDS`` (the task failed, or never ran: a worker killed before starting it gives
    its message back only after the broker's visibility timeout), the player's next look at the
    courtroom plays it again. A step cut off with its process is taken over sooner, by the web
    process's sweep (``claims.trial_playing``). Safe beside a task still running: each step
    re-reads the trial under the row's lock, and an answer prepared for a point the trial has left
    is prepared again.
    In a room the clock keeps the trial going (``counsel_stand_in``); with a person as counsel, their
    own moves play AI counsel's steps. True when the trial was asked for again."""

    if deliberation.phase != Phase.TRIAL or not deliberation.trial_state or is_room(deliberation):
        return False
    if load(deliberation).people:
        return False
    last = Turn.objects.filter(deliberation_id=deliberation.pk).order_by("-id").values_list("created_at", flat=True)
    moments = [said for said in (last.first(), _began_at(deliberation)) if said is not None]
    if moments and (now or timezone.now()) - max(moments) < timedelta(seconds=TRIAL_STALL_SECONDS):
        return False
    logger.warning("the trial of deliberation %s stood still; playing it again", deliberation.pk)
    trial_play(deliberation_id=deliberation.pk)
    return True


def wait_mark(state: TrialState, waiting: trial_steps.Waiting) -> str:
    """Which wait this is: a move made and a new wait of the same kind is another wait."""
    return f"{len(state.events)}:{waiting.side}:{waiting.what}"


def move_seconds(room: dict[str, Any], state: TrialState) -> float:
    """A counsel's time for her move: a turn's time (``turn_seconds``) counted from when her page
    has shown what was said since her last wait (the stand types it out, and her buttons hold until
    it has: ``read_seconds``, at most ``MOVE_READING_MAX_SECONDS``), so the clock never spends her
    move on the other side's question, the ruling and the answer she is still being shown."""
    said = state.events[int(room.get("trial_read") or 0) :]
    return turn_seconds(room) + min(MOVE_READING_MAX_SECONDS, read_seconds(said))


def _hold_for(deliberation: Deliberation, state: TrialState, waiting: trial_steps.Waiting) -> None:
    """In a room, a person's move at the trial has a turn's time (``move_seconds``), like a turn in
    the deliberation, once she has been shown what was said; when it runs out the clock has AI
    counsel make that one move for them (``counsel_stand_in``), so a student who left never holds
    the room. A paused room's clock stops.

    Announces "trial" with the new wait and its deadline: the step that led here was announced
    before its wait began (or, as the trial opens, nothing was said at all), so without it the
    room's pages and the class card would keep the last wait, or the claim window, and its clock."""

    if not is_room(deliberation):
        return
    room = room_of(deliberation)
    mark = wait_mark(state, waiting)
    if room.get("stage") != STAGE_TRIAL or room.get("trial_wait") == mark:
        return
    now = timezone.now()
    room["trial_wait"] = mark
    room.pop("stand_in_refused", None)  # a new wait: AI counsel's tries for it start afresh
    clock.set_due(room, "next_at", now + timedelta(seconds=move_seconds(room, state)), now)
    room["trial_read"] = len(state.events)
    room_save(deliberation, room)
    clock.schedule(deliberation, room)
    stored = deliberation.trial_state
    announce(deliberation.pk, "trial", {"from": int(stored["base"]) + int(stored["stored"]), "struck": []})


def close_trial(deliberation: Deliberation, state: TrialState) -> None:

    vote = deliberation.trial_state.get("vote")
    deliberation.phase = Phase.INITIAL_VOTE
    first_ballot(deliberation, side=deliberation.player_side or PlayerSide.NONE, vote=vote, trial_events=state.events)
    if is_room(deliberation):  # the room's rounds and turns begin now
        clock.cycle_begin(deliberation, room_of(deliberation))


def trial_move(*, deliberation_id: int, side: str, action: str, text: str = "", ground: str = "") -> None:
    """A move of the person who is counsel for ``side``: ``ask`` (``text``: a question to the
    witness), ``ai_ask`` (AI counsel's next question for them), ``rest`` (no further questions),
    ``speak`` / ``ai_speak`` (an opening or closing: ``text``, or AI counsel's words),
    ``object`` (``ground``) / ``no_objection`` to the other side's last answer, ``continue``
    (let every answer stand until their own next move).

    The move is one short transaction; AI counsel's following steps are played after it
    (``trial_advance``), the trial marked as played by this process from the move on, so that
    steps cut off by its death are played by another. Raises ``ValidationError`` with a message a
    person can act on.
    """
    if action not in ACTIONS:
        raise ValidationError(ERROR_ACTION_UNKNOWN)
    with claims.trial_playing(deliberation_id):
        _move(deliberation_id, side=side, action=action, text=text, ground=ground)
        _advance(deliberation_id, side if action == "continue" else "")


def _move(deliberation_id: int, *, side: str, action: str, text: str, ground: str) -> None:
    if action == "continue":
        with transaction.atomic():
            if side not in load(lock_trial(deliberation_id)).people:
                raise ValidationError(ERROR_NOT_COUNSEL)
    else:
        file = trial_case(deliberation_id)
        asks = {
            "ask": lambda _state: " ".join(text.split()) or None,
            "ai_ask": lambda s: None if s.finished else s.plan[s.cursor].get("question"),
        }
        prepared, point = (
            _prepare(deliberation_id, file, _model(deliberation_id), asks[action]) if action in asks else (None, None)
        )
        with transaction.atomic():
            deliberation = lock_trial(deliberation_id)
            state = load(deliberation)
            if side not in state.people:
                raise ValidationError(ERROR_NOT_COUNSEL)
            if point is not None and point != _point(state):
                prepared = None  # the trial moved on meanwhile: the rule answers this once
            before = len(state.events)
            try:
                _apply(state, file, side=side, action=action, text=text, ground=ground, answerer=prepared)
            except ValueError as exc:
                raise ValidationError(str(exc)) from None
            if prepared is not None:
                prepared.note_answer(state, before)
            save_trial(deliberation, state, prepared)


def _apply(
    state: TrialState,
    file: CaseFile,
    *,
    side: str,
    action: str,
    text: str,
    ground: str,
    answerer: Answerer | None = None,
) -> list[TrialEvent]:
    if action == "ask":
        return trial_steps.put_question(state, file, side=side, question=text, answerer=answerer)
    if action == "ai_ask":
        return trial_steps.let_ai_ask(state, file, side=side, answerer=answerer)
    if action == "rest":
        return trial_steps.rest(state, side=side)
    if action in ("speak", "ai_speak"):
        return trial_steps.speak(state, file, side=side, text=text if action == "speak" else "")
    if action == "object":
        return trial_steps.object_to(state, file, side=side, ground=ground)
    return trial_steps.no_objection(state, side=side)


# --- Counsel in a room: participants and external agents ------------------------------------------------
