"""The trial played step by step, with a person (or an agent) as counsel for one side.

The state (``engine.trial_steps``) lives in ``Deliberation.trial_state`` while the phase is
``trial``; every step is its own short transaction (the row locked, the step played, its events
stored as ``trial`` turns, the state saved), so a reload or another worker resumes exactly where the
trial stood, and nothing slow runs inside a transaction. When the last step is played the jury
casts its first ballot from what the trial admitted (``lifecycle.first_ballot``).

Each new step announces "trial" (the new turns, the on-the-stand panel and the controls); a ruling
is read aloud by the judge's voice.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from cases.casefile import case_file
from cases.models import Case
from deliberation import narration_services
from deliberation.engine import trial_counsel, trial_steps
from deliberation.engine.trial import Answerer, TrialEvent, TrialState, new_trial
from deliberation.engine.trial_witness import Answer
from deliberation.engine.trial_witness import answer as offline_answer
from deliberation.engine.types import CaseFile, WitnessItem
from deliberation.models import Deliberation, NarrationKind, Phase, PlayerSide, Turn, TurnKind
from deliberation.services.broadcast import announce

COUNSEL_SIDE = {PlayerSide.PROSECUTE: "prosecution", PlayerSide.DEFEND: "defense"}
ACTIONS = ("ask", "ai_ask", "rest", "speak", "ai_speak", "object", "no_objection", "continue")
MAX_STEPS = 400  # more than any trial's plan: a loop that never pauses still ends
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
    state = new_trial(case_file(case), seed=deliberation.seed)
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
    }


def load(deliberation: Deliberation) -> TrialState:
    return TrialState.from_dict(deliberation.trial_state["state"])


def _lock(deliberation_id: int) -> Deliberation:
    deliberation = Deliberation.objects.select_for_update().get(pk=deliberation_id)
    if deliberation.phase != Phase.TRIAL or not deliberation.trial_state:
        raise ValidationError(ERROR_NO_TRIAL)
    return deliberation


def _model(deliberation_id: int) -> Answerer | None:
    """The game's model witness, or None offline."""
    from deliberation.minds.trial_model import witness_for

    engine = Deliberation.objects.filter(pk=deliberation_id).values_list("engine", flat=True).first()
    return witness_for(engine) if engine else None


def _case(deliberation_id: int) -> CaseFile:
    return case_file(Case.objects.with_file().get(deliberations__pk=deliberation_id))


def _save(deliberation: Deliberation, state: TrialState) -> None:
    """Store what happened since the last save: new events as turns, struck answers marked, the
    state; announce it and let the judge read each new ruling (and the directions) aloud."""
    stored: dict[str, Any] = dict(deliberation.trial_state)
    base, done = int(stored["base"]), int(stored["stored"])
    new = state.events[done:]
    Turn.objects.bulk_create(
        Turn(
            deliberation=deliberation,
            round_number=0,
            sequence=base + event.index,
            kind=TurnKind.TRIAL,
            speaker_name=event.speaker[:100],
            strategy=event.kind,
            content=event.text,
            engine="offline",
            trial=event.to_dict(),
        )
        for event in new
    )
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
    if new or struck:
        announce(deliberation.pk, "trial", {"from": base + done, "struck": [base + i for i in struck]})


class Prepared:
    """A witness's answer computed before the step's transaction (a model call takes seconds: it
    never runs with the row locked). It answers only the question it was prepared for, at the
    point of the trial it was prepared at; anything else gets the offline rule's answer."""

    def __init__(self, witness_id: str, question: str, answer: Answer | None) -> None:
        self.witness_id, self.question, self.answer = witness_id, question, answer

    def __call__(self, witness: WitnessItem, question: str, *, part: str, said: set[str]) -> Answer:
        if self.answer is not None and witness.id == self.witness_id and question == self.question:
            return self.answer
        return offline_answer(witness, question, part=part, said=said)


def _point(state: TrialState) -> tuple[int, int, str]:
    return state.cursor, len(state.events), state.review


def _prepare(
    deliberation_id: int, file: CaseFile, model: Answerer | None, question: Callable[[TrialState], str | None]
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
    part = state.plan[state.cursor]["part"] if not state.finished else "chief"
    reply = model(witness, asked, part=part, said=set(state.said.get(witness_id, [])))
    return Prepared(witness_id, asked, reply), _point(state)


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
    """Play AI counsel's steps, one short transaction each, until a person must act or the trial
    ends (then the jury's first ballot). ``until_mine`` (a side) lets the other side's questions
    stand without waiting for that side's objection, up to its own next move. Safe to call any
    time: it does nothing when no trial is under way."""
    file: CaseFile | None = None
    model = _model(deliberation_id)
    for _ in range(MAX_STEPS):
        if model is not None:
            file = file or _case(deliberation_id)
        prepared, point = _prepare(deliberation_id, file, model, _planned) if file else (None, None)
        with transaction.atomic():
            try:
                deliberation = _lock(deliberation_id)
            except ValidationError:
                return
            if not deliberation.trial_state.get("opened", True):
                return
            state = load(deliberation)
            waiting = trial_steps.awaiting(state)
            if waiting is not None and not (waiting.side == until_mine and waiting.what == trial_steps.REVIEW):
                _hold_for(deliberation, state, waiting)
                return
            if waiting is not None:  # the person lets the answer stand on their way to their turn
                trial_steps.no_objection(state, side=waiting.side)
            elif state.finished:
                _close(deliberation, state)
                return
            else:
                if point is not None and point != _point(state):
                    continue  # someone moved the trial on while the model answered: prepare again
                file = file or _case(deliberation_id)
                trial_steps.advance(state, file, prepared)
            _save(deliberation, state)


def _wait_mark(state: TrialState, waiting: trial_steps.Waiting) -> str:
    """Which wait this is: a move made and a new wait of the same kind is another wait."""
    return f"{len(state.events)}:{waiting.side}:{waiting.what}"


def _hold_for(deliberation: Deliberation, state: TrialState, waiting: trial_steps.Waiting) -> None:
    """In a room, a person's move at the trial has a turn's time (``turn_seconds``), like a turn in
    the deliberation; when it runs out the clock has AI counsel make that one move for them
    (``counsel_stand_in``), so a student who left never holds the room. A paused room's clock stops."""
    from deliberation.rooms import clock
    from deliberation.rooms.state import STAGE_TRIAL, is_room, room_of, room_save, turn_seconds

    if not is_room(deliberation):
        return
    room = room_of(deliberation)
    mark = _wait_mark(state, waiting)
    if room.get("stage") != STAGE_TRIAL or room.get("trial_wait") == mark:
        return
    now = timezone.now()
    room["trial_wait"] = mark
    clock.set_due(room, "next_at", now + timedelta(seconds=turn_seconds(room)), now)
    room_save(deliberation, room)
    clock.schedule(deliberation, room)


STAND_IN = {trial_steps.EXAMINE: "ai_ask", trial_steps.SPEECH: "ai_speak", trial_steps.REVIEW: "no_objection"}


def counsel_stand_in(*, deliberation_id: int) -> str:
    """A room's counsel let their time run out: AI counsel makes the move the trial waits for (the
    next question, the speech, or letting the answer stand), then the trial goes on. Returns the
    action taken, or "" when the wait was already over (they moved meanwhile)."""
    from deliberation.rooms.state import room_of

    with transaction.atomic():
        try:
            deliberation = _lock(deliberation_id)
        except ValidationError:
            return ""
        state = load(deliberation)
        waiting = trial_steps.awaiting(state)
        if waiting is None or room_of(deliberation).get("trial_wait") != _wait_mark(state, waiting):
            return ""
    action = STAND_IN[waiting.what]
    trial_move(deliberation_id=deliberation_id, side=waiting.side, action=action)
    return action


def _close(deliberation: Deliberation, state: TrialState) -> None:
    from deliberation.rooms import clock
    from deliberation.rooms.state import is_room, room_of
    from deliberation.services.lifecycle import first_ballot

    vote = deliberation.trial_state.get("vote")
    deliberation.phase = Phase.INITIAL_VOTE
    first_ballot(deliberation, side=deliberation.player_side, vote=vote, trial_events=state.events)
    if is_room(deliberation):  # the room's rounds and turns begin now
        clock.cycle_begin(deliberation, room_of(deliberation))


def trial_move(*, deliberation_id: int, side: str, action: str, text: str = "", ground: str = "") -> None:
    """A move of the person who is counsel for ``side``: ``ask`` (``text``: a question to the
    witness), ``ai_ask`` (AI counsel's next question for them), ``rest`` (no further questions),
    ``speak`` / ``ai_speak`` (an opening or closing: ``text``, or AI counsel's words),
    ``object`` (``ground``) / ``no_objection`` to the other side's last answer, ``continue``
    (let every answer stand until their own next move).

    The move is one short transaction; AI counsel's following steps are played after it
    (``trial_advance``). Raises ``ValidationError`` with a message a person can act on.
    """
    if action not in ACTIONS:
        raise ValidationError(ERROR_ACTION_UNKNOWN)
    if action == "continue":
        with transaction.atomic():
            if side not in load(_lock(deliberation_id)).people:
                raise ValidationError(ERROR_NOT_COUNSEL)
    else:
        file = _case(deliberation_id)
        asks = {
            "ask": lambda _state: " ".join(text.split()) or None,
            "ai_ask": lambda s: None if s.finished else s.plan[s.cursor].get("question"),
        }
        prepared, point = (
            _prepare(deliberation_id, file, _model(deliberation_id), asks[action]) if action in asks else (None, None)
        )
        with transaction.atomic():
            deliberation = _lock(deliberation_id)
            state = load(deliberation)
            if side not in state.people:
                raise ValidationError(ERROR_NOT_COUNSEL)
            if point is not None and point != _point(state):
                prepared = None  # the trial moved on meanwhile: the rule answers this once
            try:
                _apply(state, file, side=side, action=action, text=text, ground=ground, answerer=prepared)
            except ValueError as exc:
                raise ValidationError(str(exc)) from None
            _save(deliberation, state)
    trial_advance(deliberation_id=deliberation_id, until_mine=side if action == "continue" else "")


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

CLAIM_SECONDS = 20.0  # how long a room's trial waits for a first counsel before AI counsel begin
SIDES = ("prosecution", "defense")
ERROR_SIDE_TAKEN = "{counsel} is already taken by seat {seat}."
ERROR_SIDE_NAME = "Counsel is for the 'prosecution' or the 'defense'."
ERROR_ONE_SIDE = "Seat {seat} is already counsel for the {side}."
ERROR_NOT_A_PARTICIPANT = "Only a person or an agent in the room may be counsel."


def counsel_side_of(deliberation: Deliberation, seat_number: int) -> str:
    """The side this seat plays as counsel at the trial (empty: none)."""
    seats = (deliberation.trial_state or {}).get("counsel", {})
    return next((side for side, seat in seats.items() if seat == seat_number), "")


def counsel_claim(*, deliberation_id: int, seat_number: int, side: str) -> None:
    """A room's participant (a person or an agent) takes counsel for ``side``; the first claim opens
    the trial. First come, first served: a side already taken is refused, and a seat plays one side.
    Announces "trial"."""
    from deliberation.models import SeatKind

    if side not in SIDES:
        raise ValidationError(ERROR_SIDE_NAME)
    with transaction.atomic():
        deliberation = _lock(deliberation_id)
        seat = deliberation.seats.filter(number=seat_number).first()
        if seat is None or seat.kind == SeatKind.AI:
            raise ValidationError(ERROR_NOT_A_PARTICIPANT)
        stored = dict(deliberation.trial_state)
        seats: dict[str, int] = dict(stored.get("counsel", {}))
        if side in seats and seats[side] != seat_number:
            raise ValidationError(ERROR_SIDE_TAKEN.format(counsel=trial_counsel.side_name(side), seat=seats[side]))
        mine = counsel_side_of(deliberation, seat_number)
        if mine and mine != side:
            raise ValidationError(ERROR_ONE_SIDE.format(seat=seat_number, side=mine))
        state = load(deliberation)
        if side not in state.people:
            state.people.append(side)
        seats[side] = seat_number
        stored.update(counsel=seats, opened=True, state=state.to_dict())
        deliberation.trial_state = stored
        deliberation.save(update_fields=["trial_state"])
        announce(deliberation.pk, "trial", {"from": int(stored["base"]) + int(stored["stored"]), "struck": []})
    trial_advance(deliberation_id=deliberation_id)


def trial_open(*, deliberation_id: int) -> None:
    """A room's trial opens without counsel claimed for a side: AI counsel plays it (the clock calls
    this when ``CLAIM_SECONDS`` have passed)."""
    with transaction.atomic():
        try:
            deliberation = _lock(deliberation_id)
        except ValidationError:
            return
        if not deliberation.trial_state.get("opened", True):
            deliberation.trial_state = {**deliberation.trial_state, "opened": True}
            deliberation.save(update_fields=["trial_state"])
    trial_advance(deliberation_id=deliberation_id)


def seat_move(*, deliberation_id: int, seat_number: int, action: str, text: str = "", ground: str = "") -> None:
    """A room participant's or agent's move as counsel: ``trial_move`` for the side their seat plays."""
    deliberation = Deliberation.objects.get(pk=deliberation_id)
    side = counsel_side_of(deliberation, seat_number)
    if not side:
        raise ValidationError(ERROR_NOT_COUNSEL)
    trial_move(deliberation_id=deliberation_id, side=side, action=action, text=text, ground=ground)
