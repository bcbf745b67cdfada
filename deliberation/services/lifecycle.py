"""Starting a deliberation and everything a participant may do in it.

Every function validates, writes in one short transaction, schedules background work on
commit and announces the change through the one broadcaster. None of them waits for a model.
"""

from __future__ import annotations

import random
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from angryagents.background import enqueue
from cases.casefile import case_file
from cases.models import Case
from deliberation import jury as jury_build
from deliberation.engine import ending
from deliberation.engine.state import DeliberationState
from deliberation.engine.strategies import ITEM_STRATEGIES, MAX_TEXT, StrategyError, check_item, validate_move
from deliberation.minds.factory import OFFLINE, engine_check
from deliberation.models import (
    BallotKind,
    Deliberation,
    Phase,
    PlayerSide,
    Seat,
    SeatKind,
    Turn,
    TurnKind,
    Vote,
)
from deliberation.rooms.state import is_room
from deliberation.services import ballot
from deliberation.services import counsel as counsel_services
from deliberation.services import narration as narration_services
from deliberation.services import trial as trial_services
from deliberation.services.ballot import ERROR_RULES_UNKNOWN as ERROR_RULES_UNKNOWN
from deliberation.services.ballot import engine_settings as engine_settings
from deliberation.services.broadcast import announce
from deliberation.services.common import ERROR_FINISHED as ERROR_FINISHED
from deliberation.services.common import ERROR_ROUND_RUNNING, lock, require_deliberating, round_busy
from deliberation.services.formats import check_format_options
from deliberation.services.rounds import conclude
from jurors.models import PLAYER_SEAT, Persona

ERROR_CASE_UNPLAYABLE = "This case is kept for the record only and cannot be played."
ERROR_SIDE_LOCKED = "The side is already chosen and locked for this deliberation."
ERROR_SIDE_UNKNOWN = "Choose DEFEND or PROSECUTE."
ERROR_NOT_YOUR_SEAT = "Seat {seat} is not a participant's seat in this deliberation."
ERROR_VOTE_UNKNOWN = "A vote is 'guilty' or 'not_guilty'."
ERROR_ENGINE_BLANK = "An engine is 'offline' or a LiteLLM model string."
ERROR_MAX_ROUNDS = "The round limit must be between 1 and 100."
ERROR_TEXT_TOO_LONG = "Keep your argument under {limit} characters (yours has {length})."
ERROR_TARGET_UNKNOWN = "Address one of the other jurors (seats 1 to 12, not your own)."
ERROR_ALREADY_ACTED = "You have already taken your turn for this round; wait for the jurors to answer."
MAX_FREE_TEXT = MAX_TEXT
COURTROOM_TURNS_BEFORE_VERDICT = 2  # the courtroom player votes and argues twice before the jury may end it
VOTE_LINE = "{name} changed their vote: {before} → {after}."
FIRST_VOTE_LINE = "{name} casts a first vote: {after}."
VOTE_WORDS = {"guilty": "Guilty", "not_guilty": "Not guilty", "": "No vote"}


def draw_seed() -> int:
    """The seed of a game started without one: a fresh draw each time."""
    return random.SystemRandom().randrange(2**31)


@transaction.atomic
def deliberation_start(
    *,
    case: Case,
    engine: str | None = None,
    seed: int | None = None,
    player_side: str | None = None,
    host_session_key: str = "",
    host_plays: bool = True,
    max_rounds: int | None = None,
    open_seats: tuple[int, ...] = (),
    options: dict[str, Any] | None = None,
    experiment_id: int | None = None,
) -> Deliberation:
    """Seat the jury and present the case (phase ``presentation``).

    With ``host_plays`` a person holds seat 7 and picks a side next (``side_choose``); without,
    the "Juror 7" persona sits there. Passing ``player_side`` chooses the side at once (the
    command line, AI-only runs). Requests the judge's presentation. Announces "phase".

    A person who will choose a side in the courtroom gets room to argue: the jury reaches no
    verdict by itself before they have voted and had ``COURTROOM_TURNS_BEFORE_VERDICT`` turns
    (``options["turns_before_verdict"]`` overrides it; a room sets its own).
    """
    if not case.playable:
        raise ValidationError(ERROR_CASE_UNPLAYABLE)
    engine = (engine or settings.ANGRY_LLM_MODEL).strip()
    if not engine:
        raise ValidationError(ERROR_ENGINE_BLANK)
    engine_check(engine)
    if max_rounds is not None and not 1 <= max_rounds <= 100:
        raise ValidationError(ERROR_MAX_ROUNDS)
    ballot.check_rule_options(options or {})
    check_format_options(options or {})
    plays = host_plays and player_side != PlayerSide.NONE
    gate = {"turns_before_verdict": COURTROOM_TURNS_BEFORE_VERDICT} if plays and player_side is None else {}
    deliberation = Deliberation(
        case=case,
        engine=engine,
        seed=seed if seed is not None else draw_seed(),
        phase=Phase.PRESENTATION,
        host_session_key=host_session_key,
        host_plays=plays,
        settings={**gate, **(options or {}), **({"max_rounds": max_rounds} if max_rounds else {})},
        experiment_id=experiment_id,
        started_at=timezone.now(),
    )
    deliberation.full_clean()
    deliberation.save()
    personas = list(Persona.objects.jury())
    seats = jury_build.new_seats(personas=personas, player_in_seat_7=plays, open_seats=open_seats)
    for seat in seats:
        seat.deliberation = deliberation
        if seat.number == PLAYER_SEAT and plays:
            seat.session_key = host_session_key
    Seat.objects.bulk_create(seats)
    if experiment_id is None:
        narration_services.narration_request_presentation(
            deliberation_id=deliberation.pk,
            defendants=[d.name for d in case.defendants.all()],
            charges=list(case.charges),
            summary=case.summary,
        )
    announce(deliberation.pk, "phase")
    if player_side is not None:
        return side_choose(deliberation_id=deliberation.pk, side=player_side)
    return deliberation


@transaction.atomic
def side_choose(*, deliberation_id: int, side: str, vote: str | None = None, counsel: bool = False) -> Deliberation:
    """Lock the player's side, cast the first ballot and open the deliberation.

    Walks presentation -> side_selection -> initial_vote -> deliberation. Refuses a second
    choice. Records every seat's initial vote and round-0 conviction. ``vote`` is the player's
    own first vote (the courtroom asks for it beside the side); without it the side's vote
    stands in and the player has not yet voted themselves. Announces "phase".

    With the trial on and ``counsel``, the player is counsel for their side: the phase becomes
    ``trial`` and the first ballot waits for the trial's end (``services.counsel``; call
    ``counsel.trial_advance`` after this commits to play AI counsel's first steps).

    With the trial on, AI counsel on both sides and a model engine, the witnesses answer through the
    model, which never runs inside this transaction: the trial is played step by step like a
    counsel's (phase ``trial``, nobody's counsel); the caller plays it after this commits (the
    ``trial_advance`` task, or ``counsel.trial_advance``). Offline, the whole trial is held here.
    """
    deliberation = lock(deliberation_id)
    if deliberation.player_side:
        raise ValidationError(ERROR_SIDE_LOCKED)
    if side not in PlayerSide.values or (side == PlayerSide.NONE and deliberation.host_plays):
        raise ValidationError(ERROR_SIDE_UNKNOWN)
    if vote is not None and (vote not in ("guilty", "not_guilty") or not deliberation.host_plays):
        raise ValidationError(ERROR_VOTE_UNKNOWN)
    trial_on = trial_services.trial_enabled(deliberation)
    room = is_room(deliberation)
    person = trial_on and counsel and (room or (deliberation.host_plays and side != PlayerSide.NONE))
    by_model = trial_on and not room and deliberation.engine != OFFLINE  # the model witness: step by step
    if person or by_model:
        deliberation.player_side = side
        deliberation.phase = Phase.TRIAL
        deliberation.trial_state = (  # in a room, participants claim counsel before the trial opens
            counsel_services.trial_begin(deliberation, people=[], vote=vote, opened=False)
            if room
            else counsel_services.trial_begin(
                deliberation, people=[counsel_services.COUNSEL_SIDE[PlayerSide(side)]] if person else [], vote=vote
            )
        )
        deliberation.save(update_fields=["player_side", "phase", "trial_state"])
        announce(deliberation.pk, "phase")
        return deliberation
    events = None
    if trial_on:  # the whole trial with AI counsel on both sides, at once
        case = Case.objects.with_file().get(pk=deliberation.case_id)
        events = trial_services.trial_hold(deliberation, case_file(case))
    return ballot.first_ballot(deliberation, side=side, vote=vote, trial_events=events)


def _participant_seat(deliberation: Deliberation, seat_number: int) -> Seat:
    seat = deliberation.seats.filter(number=seat_number).first()
    if seat is None or seat.kind == SeatKind.AI:
        raise ValidationError(ERROR_NOT_YOUR_SEAT.format(seat=seat_number))
    return seat


def _queue(deliberation: Deliberation, item: dict[str, Any]) -> None:
    deliberation.pending = [*deliberation.pending, item]
    deliberation.save(update_fields=["pending"])


def _take_turn(deliberation: Deliberation, seat_number: int) -> None:
    """One turn per seat per round, however often the button is pressed: the row lock orders
    simultaneous requests and the queue for the next round says who has already acted."""
    if any(entry.get("seat") == seat_number for entry in deliberation.pending):
        raise ValidationError(ERROR_ALREADY_ACTED)
    record_turn(deliberation, seat_number)


def record_turn(deliberation: Deliberation, seat_number: int, *, timed_out: bool = False, settle: bool = True) -> None:
    """Count a participant's turn towards the room the jury leaves to argue (``ending.waiting_for``).

    Call it with the deliberation row locked and no round running (the round would overwrite it).
    A turn whose time ran out on a seat that had not voted settles its ballot as an abstention: the
    vote that stood in for the person was nobody's, so it leaves every count (the tallies, the
    judge's, the verdict) and the seat goes on showing no vote; the jury no longer waits for it. A
    vote the person casts later counts from then on (``vote_cast_locked``).
    With ``settle`` False (the room's last person present let the turn run out) the ballot stays
    open: the jury does not return its verdict by itself with nobody left at the table.
    """
    state = DeliberationState.from_dict(deliberation.engine_state)
    settles = timed_out and settle and not ending.has_own_vote(state, seat_number)
    ending.record_turn(state, seat=seat_number, timed_out=timed_out and settle)
    if settles:
        state.votes.pop(seat_number, None)
    deliberation.engine_state = state.to_dict()
    deliberation.save(update_fields=["engine_state"])
    if settles:
        deliberation.seats.filter(number=seat_number).update(vote="")


def participant_returns_locked(deliberation: Deliberation, seat_number: int) -> bool:
    """A person is back at a seat whose ballot a run-out turn had settled as an abstention: the
    jury waits for their own vote again (``ending.waiting_for``), so eleven jurors do not return
    a verdict over the head of someone who is back at the table. A seat that shows a vote of its
    own keeps it. Call it with the deliberation row locked and no round running (the round would
    overwrite it); True when the jury waits for the seat again."""
    if deliberation.phase != Phase.DELIBERATION:
        return False
    seat = deliberation.seats.filter(number=seat_number).exclude(kind=SeatKind.AI).first()
    if seat is None or seat.vote:
        return False
    state = DeliberationState.from_dict(deliberation.engine_state)
    if not ending.reopen_ballot(state, seat=seat_number):
        return False
    deliberation.engine_state = state.to_dict()
    deliberation.save(update_fields=["engine_state"])
    return True


def _start_round(deliberation: Deliberation) -> None:
    """Ask for the next round by its number, so a late or repeated delivery never adds one."""
    enqueue("deliberation.round_run", deliberation.pk, deliberation.round_number + 1)
    announce(deliberation.pk, "thinking")


@transaction.atomic
def player_speak(
    *,
    deliberation_id: int,
    seat_number: int,
    strategy: str,
    target: int | None = None,
    text: str = "",
    item: str = "",
    start: bool = True,
) -> Deliberation:
    """A participant argues with one of the six strategies; the next round starts with it.

    The argument is crafted by the mind (it counts as a speaker). Refused while a round runs.
    ``item`` is the evidence (challenge) or witness (question) the argument is about, by its id in
    the case file (``E1``, ``W2``...); the player's words are then argued about it.
    With ``start=False`` the move only waits for the next round (the command line runs it).
    One argument per seat per round: a second one before the round has run is refused.
    """
    deliberation = lock(deliberation_id)
    require_deliberating(deliberation)
    if round_busy(deliberation):
        raise ValidationError(ERROR_ROUND_RUNNING)
    _participant_seat(deliberation, seat_number)
    side = deliberation.player_side if deliberation.player_side in ("defend", "prosecute") else "defend"
    text = text.strip()
    if len(text) > MAX_FREE_TEXT:
        raise ValidationError(ERROR_TEXT_TOO_LONG.format(limit=MAX_FREE_TEXT, length=len(text)))
    if target is not None and (not 1 <= target <= 12 or target == seat_number):
        raise ValidationError(ERROR_TARGET_UNKNOWN)
    item = item.strip() if strategy in ITEM_STRATEGIES else ""
    try:
        validate_move(strategy=strategy, side=side, target_seat=target, free_text=text)
        if item:
            check_item(
                case_file(Case.objects.with_file().get(pk=deliberation.case_id)), strategy=strategy, item_id=item
            )
    except StrategyError as exc:
        raise ValidationError(str(exc)) from None
    _take_turn(deliberation, seat_number)
    move = {"kind": "move", "seat": seat_number, "side": side, "strategy": strategy, "target": target, "text": text}
    _queue(deliberation, {**move, "item": item} if item else move)
    if start:
        _start_round(deliberation)
    return deliberation


@transaction.atomic
def turn_pass(*, deliberation_id: int, seat_number: int) -> Deliberation:
    """A participant passes: the AI jurors take the next round without them (a pass is a turn)."""
    deliberation = lock(deliberation_id)
    require_deliberating(deliberation)
    if round_busy(deliberation):
        raise ValidationError(ERROR_ROUND_RUNNING)
    _participant_seat(deliberation, seat_number)
    _take_turn(deliberation, seat_number)
    _queue(deliberation, {"kind": "pass", "seat": seat_number})
    _start_round(deliberation)
    return deliberation


@transaction.atomic
def vote_cast(*, deliberation_id: int, seat_number: int, value: str) -> bool:
    """A participant casts or changes their own vote at any time during deliberation, between rounds.

    True when the vote changed (a first vote of one's own counts as a change even when it matches
    the vote that stood in, and so does a vote the seat did not show). Refused while a round runs
    (the round would overwrite it; a room keeps such a vote and applies it after the round).
    Records a ``cast`` ballot, puts the change in the record like a juror's flip, has the judge
    read the new tally and announces "vote".
    """
    if value not in ("guilty", "not_guilty"):
        raise ValidationError(ERROR_VOTE_UNKNOWN)
    deliberation = lock(deliberation_id)
    require_deliberating(deliberation)
    if round_busy(deliberation):
        raise ValidationError(ERROR_ROUND_RUNNING)
    return vote_cast_locked(deliberation, _participant_seat(deliberation, seat_number), value)


def vote_cast_locked(deliberation: Deliberation, seat: Seat, value: str) -> bool:
    """``vote_cast`` for a caller that already holds the deliberation's row lock (with its engine
    state), has checked that it deliberates with no round under way, and found the participant's
    seat: a room's vote locks the row once, not twice (BENCHMARKS.md).

    A vote that changes what the seat shows is a change even when the jury already counted that
    vote for the seat (a seat that shows no vote casts a first vote): it is recorded and announced,
    so every page shows the seat's new vote."""
    if value not in ("guilty", "not_guilty"):
        raise ValidationError(ERROR_VOTE_UNKNOWN)
    seat_number = seat.number
    state = DeliberationState.from_dict(deliberation.engine_state)
    previous = seat.vote  # as every page shows it: the vote the seat stood on, or none yet
    first = not ending.has_own_vote(state, seat_number)
    changed = ending.cast_vote(state, seat=seat_number, value=value) or first or previous != value
    if not changed:
        return False
    state.memories[seat_number].conviction = 1.0 if value == "guilty" else 0.0
    deliberation.engine_state = state.to_dict()
    deliberation.save(update_fields=["engine_state"])
    seat.vote, seat.conviction = value, state.memories[seat_number].conviction
    seat.save(update_fields=["vote", "conviction"])
    Vote.objects.create(
        deliberation=deliberation,
        round_number=deliberation.round_number,
        seat_number=seat_number,
        value=value,
        previous=previous,
        ballot=BallotKind.CAST,
    )
    _record_vote_turn(deliberation, seat, previous=previous, value=value)
    if deliberation.experiment_id is None:
        people = deliberation.seats.exclude(kind=SeatKind.AI).values_list("number", flat=True)
        tally = ending.tally_cast(state, list(people))
        narration_services.narration_request_vote(
            deliberation_id=deliberation.pk,
            round_number=deliberation.round_number,
            guilty=tally["guilty"],
            not_guilty=tally["not_guilty"],
            waiting=tally["waiting"],
            held=deliberation,
        )
    announce(deliberation.pk, "vote", {"seat": seat_number, "round": deliberation.round_number})
    return True


def _record_vote_turn(deliberation: Deliberation, seat: Seat, *, previous: str, value: str) -> None:
    """A person's vote in the record, shown and announced like a juror's flip."""
    last = deliberation.turns.order_by("-sequence").values_list("sequence", flat=True).first()
    line = FIRST_VOTE_LINE if not previous else VOTE_LINE
    Turn.objects.create(
        deliberation=deliberation,
        round_number=deliberation.round_number,
        sequence=(last or 0) + 1,
        kind=TurnKind.PROCESS,
        seat_number=seat.number,
        speaker_name=seat.display_name,
        content=line.format(name=seat.display_name, before=VOTE_WORDS[previous], after=VOTE_WORDS[value]),
        flips=[{"seat": seat.number, "from": previous, "to": value}],
    )


@transaction.atomic
def vote_call(*, deliberation_id: int, seat_number: int | None = None, reason: str = "called") -> Deliberation:
    """The host calls the final vote: the verdict is read from the current votes at once.
    ``reason`` "time": the judge directs it because the lesson's time is nearly up."""
    deliberation = lock(deliberation_id)
    require_deliberating(deliberation)
    if round_busy(deliberation):
        raise ValidationError(ERROR_ROUND_RUNNING)
    if seat_number is not None:
        _participant_seat(deliberation, seat_number)
    state = DeliberationState.from_dict(deliberation.engine_state)
    ending.call_vote(state)
    state.end_reason = "time" if reason == "time" else "called"
    conclude(deliberation, state)
    return deliberation
