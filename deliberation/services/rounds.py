"""Running one round: claim it, let the engine think with no transaction open, store it all.

A round is claimed by number with one conditional UPDATE (``claims``): a second delivery of the
same task, a second worker or a late redelivery does nothing. While the engine thinks a heartbeat
shows the round's process is alive; a round whose process died is taken over by the next tick,
page action or worker once its heartbeat is stale, and stored exactly once: storing checks that
the round before it is the last one stored. If the engine itself fails, the claim is released and
a note recorded.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection
from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from cases.casefile import case_file
from cases.models import Case
from cases.retrieval import CaseRetriever
from deliberation import jury as jury_build
from deliberation.engine import phases
from deliberation.engine import rules as jury_rules
from deliberation.engine.ending import awaiting_vote, final_verdict, tally_cast
from deliberation.engine.results import PlayerMove, RoundResult
from deliberation.engine.rounds import run_round
from deliberation.engine.state import DeliberationState
from deliberation.engine.types import Speech
from deliberation.minds.factory import mind_for
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.stand_ins import argued_points
from deliberation.models import (
    BallotKind,
    ConvictionSnapshot,
    Deliberation,
    EndReason,
    NarrationKind,
    Phase,
    RoundStats,
    RoundStatus,
    Seat,
    SeatKind,
    Turn,
    TurnKind,
    Vote,
)
from deliberation.rooms.state import lesson_left, room_of
from deliberation.services import claims
from deliberation.services import narration as narration_services
from deliberation.services.broadcast import Streamer, announce, publish
from deliberation.services.common import add_turn, next_sequence
from deliberation.services.discharge import scheduled_discharge
from deliberation.services.watching import is_watched

logger = logging.getLogger(__name__)

# The Celery time limits of a task that may run a round (deliberation.round_run, deliberation.room_tick).
ROUND_SOFT_TIME_LIMIT = 540
ROUND_TIME_LIMIT = 600
NOTE_ROUND_FAILED = "The round could not be completed ({error}); the jury is ready to try again."


def _spoken(pending: list[dict]) -> list[dict]:
    """The queued entries the jury hears (a pass only marks that its seat has had its turn)."""
    return [entry for entry in pending if entry["kind"] != "pass"]


def _injected(pending: list[dict]) -> list[Speech | PlayerMove]:
    """Participants' queued contributions, in the order they were made."""
    items: list[Speech | PlayerMove] = []
    for entry in _spoken(pending):
        if entry["kind"] == "move":
            items.append(
                PlayerMove(
                    seat=entry["seat"],
                    side=entry["side"],
                    strategy=entry["strategy"],
                    target_seat=entry.get("target"),
                    free_text=entry.get("text", ""),
                    item_id=entry.get("item", ""),
                )
            )
        else:  # a speech typed by a person or an external agent: stored verbatim, no model call
            items.append(
                Speech(
                    seat=entry["seat"],
                    speaker_name=entry["speaker_name"],
                    content=entry["content"],
                    argument_type=entry.get("argument_type", "logical"),
                    target_seat=entry.get("target"),
                    strategy=entry.get("strategy", ""),
                )
            )
    return items


def round_run(*, deliberation_id: int, round_number: int | None = None) -> bool:
    """Run round ``round_number`` (the next round when None) unless it runs or ran already.

    True when this call stored the round. The round number is the idempotency key: a repeated or
    late delivery of a round already stored, or one whose process is alive, returns False. A round
    whose process died (stale heartbeat) is taken over. Announces "thinking" while the jurors
    think, streams speech text when a browser is watching the room (``watching``), then "round"
    (and "phase" when the deliberation ends).
    """
    scheduled_discharge(deliberation_id=deliberation_id, round_number=round_number)
    claimed_at = claims.claim(deliberation_id, round_number)
    if claimed_at is None:
        return False
    deliberation = Deliberation.objects.select_related("case").get(pk=deliberation_id)
    pending = list(deliberation.pending)
    seats = list(deliberation.seats.select_related("persona__archetype"))
    jury = jury_build.profiles(seats)
    case = Case.objects.with_file().get(pk=deliberation.case_id)
    state = DeliberationState.from_dict(deliberation.engine_state)
    publish(deliberation_id, "thinking", {"round": state.round_number + 1})
    watched = is_watched(deliberation_id)
    try:
        with claims.Heartbeat(deliberation_id, claimed_at), Streamer(deliberation_id) as streamer:
            result = asyncio.run(
                run_round(
                    state,
                    case=case_file(case),
                    jury=jury,
                    mind=mind_for(deliberation.engine),
                    retriever=CaseRetriever(case),
                    injected=_injected(pending),
                    fallback=OfflineMind(),
                    reader=argued_points,
                    on_text=streamer if watched else None,  # nobody reading along: no streaming
                    lesson_left=lesson_left(room_of(deliberation)),  # a lesson's bell: time in minutes
                )
            )
    except Exception as exc:  # the engine failed: keep everything as it was and say so
        logger.exception("round of deliberation %s failed", deliberation_id)
        _record_failure(deliberation_id, claimed_at, error=type(exc).__name__)
        return False
    recorded = {index: entry["turn_id"] for index, entry in enumerate(_spoken(pending)) if entry.get("turn_id")}
    return _store_round(
        deliberation_id,
        state,
        result,
        consumed=len(pending),
        recorded=recorded,
        spoken_by_people=len(_spoken(pending)),
    )


@transaction.atomic
def _record_failure(deliberation_id: int, claimed_at: datetime, *, error: str) -> None:
    deliberation = Deliberation.objects.select_for_update().filter(pk=deliberation_id).first()
    if deliberation is None or deliberation.round_claimed_at != claimed_at:  # deleted, or taken over
        return
    add_turn(
        deliberation,
        round_number=deliberation.round_number,
        kind=TurnKind.NOTE,
        speaker_name="Court clerk",
        content=NOTE_ROUND_FAILED.format(error=error),
    )
    deliberation.round_status = RoundStatus.IDLE
    deliberation.round_claimed_at = deliberation.round_heartbeat_at = None
    deliberation.save(update_fields=["round_status", "round_claimed_at", "round_heartbeat_at"])
    announce(deliberation_id, "round", {"round": deliberation.round_number})


def round_turns(
    deliberation: Deliberation,
    result: RoundResult,
    first_sequence: int,
    people: dict[int, str] | None = None,
    *,
    spoken_by_people: int | None = None,
) -> list[Turn]:
    """The round's turns, unsaved, in the order they were said: process lines between the speeches.

    Each speech carries its listeners' reactions; each of the round's vote flips goes on
    the speech that moved that juror furthest towards the new vote (the last speech when none did).
    ``people`` names the seats people or agents hold. The round's first ``spoken_by_people``
    speeches are theirs (the engine speaks the participants' contributions first); any later speech
    in one of their seats is their AI juror's, playing the seat while it stood empty
    (``Turn.stood_in``), even when the person took that juror's name. Without the count, a speech
    in their seat under another name is the juror's.
    Used for rounds played live and for experiment runs stored afterwards.
    """
    people = people or {}

    def stood_in(index: int, speech: Speech) -> bool:
        if speech.seat not in people:
            return False
        if spoken_by_people is not None:
            return index >= spoken_by_people
        return people[speech.seat] != speech.speaker_name

    number = result.round_number
    turns: list[Turn] = []
    lines = sorted(result.process_lines, key=lambda line: line.after_speeches)
    line_index = 0
    for index, speech in enumerate([*result.speeches, None]):
        while line_index < len(lines) and lines[line_index].after_speeches <= index:
            line = lines[line_index]
            turns.append(
                Turn(
                    deliberation=deliberation,
                    round_number=number,
                    sequence=first_sequence + len(turns),
                    kind=line.kind if line.kind in TurnKind.values else TurnKind.PROCESS,
                    speaker_name=line.speaker_name,
                    target_seat=line.target_seat,
                    content=line.content,
                    engine=result.engine,
                )
            )
            line_index += 1
        if speech is None:
            break
        turns.append(
            Turn(
                deliberation=deliberation,
                round_number=number,
                sequence=first_sequence + len(turns),
                kind=TurnKind.SPEECH,
                seat_number=speech.seat,
                speaker_name=speech.speaker_name,
                stood_in=stood_in(index, speech),
                target_seat=speech.target_seat,
                argument_type=speech.argument_type,
                strategy=speech.strategy,
                position=speech.position or "",
                reasoning=speech.reasoning,
                content=speech.content,
                crafted=speech.crafted,
                reactions=[
                    {
                        "seat": r.seat,
                        "delta": round(r.delta, 4),
                        "thought": r.thought,
                        "persuaded": r.persuaded,
                        "active": r.active,
                    }
                    for r in result.reactions_for(index)
                ],
                is_fallback=speech.is_fallback,
                fallback_cause=(speech.usage.cause or "error") if speech.is_fallback else "",
                fallback_reason=(speech.usage.note or "")[:300] if speech.is_fallback else "",
                engine=result.engine,
            )
        )
    speeches = [t for t in turns if t.kind == TurnKind.SPEECH]
    for flip in result.flips if speeches else ():
        index = flip.speech_index if flip.speech_index is not None and flip.speech_index < len(speeches) else -1
        shown = speeches[index]
        shown.flips = [
            *(shown.flips or []),
            {"seat": flip.seat, "from": flip.before, "to": flip.after, "reason": flip.reason},
        ]
    return turns


@transaction.atomic
def _store_round(
    deliberation_id: int,
    state: DeliberationState,
    result: RoundResult,
    *,
    consumed: int,
    recorded: dict[int, int] | None = None,
    spoken_by_people: int = 0,
) -> bool:
    """Store the round in one transaction; False when it was already stored (nothing is written).

    ``recorded`` maps the index of a participant's speech to the Turn already written when it was
    spoken: that Turn gets its reactions, no copy is made."""
    deliberation = Deliberation.objects.select_for_update().select_related("case").filter(pk=deliberation_id).first()
    number = result.round_number
    if deliberation is None:  # deleted while its jurors thought (a teacher's delete, the retention sweep)
        logger.info("deliberation %s was deleted during round %s; the round is discarded", deliberation_id, number)
        return False
    if deliberation.phase != Phase.DELIBERATION or deliberation.round_number != number - 1:
        # Our claim went stale and another worker stored this round (or the vote was called):
        # storing it again would double it.
        logger.warning("round %s of deliberation %s was already settled; discarded", number, deliberation_id)
        return False
    seats = list(deliberation.seats.all())
    people = {seat.number: seat.display_name for seat in seats if seat.kind != SeatKind.AI}
    turns = round_turns(deliberation, result, next_sequence(deliberation), people, spoken_by_people=spoken_by_people)
    speeches = [t for t in turns if t.kind == TurnKind.SPEECH]
    spoken_earlier = {turn_id: speeches[i] for i, turn_id in (recorded or {}).items() if i < len(speeches)}
    stored = Turn.objects.in_bulk(list(spoken_earlier))
    for turn_id, built in spoken_earlier.items():
        if turn_id in stored:
            built.pk = turn_id  # not created again below
            stored[turn_id].reactions, stored[turn_id].flips = built.reactions, built.flips
            stored[turn_id].save(update_fields=["reactions", "flips"])
    Turn.objects.bulk_create([t for t in turns if t.pk is None])
    Vote.objects.bulk_create(flip_votes(deliberation, result))
    store_snapshots(deliberation, seats, state, round_number=number)
    round_stats(deliberation, result).save()
    spoke = {s.seat for s in result.speeches}
    if spoke:
        Seat.objects.filter(deliberation=deliberation, number__in=spoke).update(turns_taken=F("turns_taken") + 1)
    deliberation.pending = deliberation.pending[consumed:]
    deliberation.round_number = number
    deliberation.rounds_without_change = state.rounds_without_change
    deliberation.budget_exhausted = state.budget_exhausted
    deliberation.round_status = RoundStatus.IDLE
    deliberation.round_claimed_at = deliberation.round_heartbeat_at = None
    deliberation.engine_state = state.to_dict()
    deliberation.save()
    if deliberation.experiment_id is None:  # the judge's directions are spoken, like his other lines
        for line in result.process_lines:
            if line.kind == TurnKind.JUDGE:
                narration_services.narration_request(
                    deliberation_id=deliberation.pk, kind=NarrationKind.LINE, text=line.content, round_number=number
                )
    if result.flips and deliberation.experiment_id is None:
        tally = tally_cast(state, list(people))
        narration_services.narration_request_vote(
            deliberation_id=deliberation.pk,
            round_number=number,
            guilty=tally["guilty"],
            not_guilty=tally["not_guilty"],
            waiting=tally["waiting"],
            ended=bool(state.end_reason),
        )
    announce(deliberation.pk, "round", {"round": number, "flips": [f.seat for f in result.flips]})
    if state.end_reason:
        conclude(deliberation, state)
    return True


def flip_votes(deliberation: Deliberation, result: RoundResult) -> list[Vote]:
    """The round's vote changes as ``flip`` ballots (unsaved)."""
    return [
        Vote(
            deliberation=deliberation,
            round_number=result.round_number,
            seat_number=flip.seat,
            value=flip.after,
            previous=flip.before,
            ballot=BallotKind.FLIP,
        )
        for flip in result.flips
    ]


def snapshots(
    deliberation: Deliberation,
    round_number: int,
    convictions: dict[int, float],
    votes: dict[int, str],
    no_vote: Collection[int] = (),
) -> list[ConvictionSnapshot]:
    """Every seat's conviction and vote after a round (unsaved); a discharged seat has neither. A
    person whose seat shows no vote (``no_vote``: not voted yet, or a run-out turn left it empty)
    has their snapshot with no vote, never the stand-in the engine keeps for the seat."""
    return [
        ConvictionSnapshot(
            deliberation=deliberation,
            round_number=round_number,
            seat_number=seat,
            conviction=round(conviction, 6),
            vote="" if seat in no_vote else votes.get(seat, ""),
        )
        for seat, conviction in sorted(convictions.items())
        if seat in votes or seat in no_vote
    ]


def round_stats(deliberation: Deliberation, result: RoundResult) -> RoundStats:
    """The round's model calls, tokens, cost, latency and failed calls with their causes (unsaved)."""
    usage = result.usage
    return RoundStats(
        deliberation=deliberation,
        round_number=result.round_number,
        engine=result.engine,
        llm_calls=usage.calls,
        prompt_tokens=usage.prompt_tokens,
        cached_prompt_tokens=usage.cached_tokens,
        completion_tokens=usage.completion_tokens,
        cost_usd=usage.cost_usd,
        latency_ms=usage.latency_ms,
        failed_calls=len(result.failures),
        failures=[failure.to_dict() for failure in result.failures],
    )


def store_snapshots(
    deliberation: Deliberation, seats: list[Seat], state: DeliberationState, *, round_number: int
) -> None:
    """Every seat's conviction and vote as the round left them, and the seats' current values."""
    people = [seat.number for seat in seats if seat.kind != SeatKind.AI]
    awaiting = set(awaiting_vote(state, people))
    no_vote = awaiting | {seat for seat in people if seat not in state.votes and seat not in state.discharged}
    ConvictionSnapshot.objects.bulk_create(
        snapshots(deliberation, round_number, state.convictions, state.votes, no_vote)
    )
    for seat in seats:
        seat.conviction = round(state.memories[seat.number].conviction, 6)
        seat.vote = "" if seat.number in awaiting else state.votes.get(seat.number, "")  # discharged: ""
    Seat.objects.bulk_update(seats, ["conviction", "vote"])


def conclude(deliberation: Deliberation, state: DeliberationState) -> None:
    """Final vote and verdict for an ended deliberation (inside the caller's transaction).

    A person who never cast a vote of their own (their seat showed none) abstains from the final
    ballot: the verdict, the stored ballot and the judge's count are the votes cast, as the room saw
    them, never a vote nobody chose."""
    phases.advance(state, "final_vote")
    people = deliberation.seats.exclude(kind=SeatKind.AI).values_list("number", flat=True)
    abstained = [seat for seat in people if seat not in state.votes and seat not in state.discharged]
    for seat in awaiting_vote(state, list(people)):
        state.votes.pop(seat, None)
        abstained.append(seat)
    verdict = final_verdict(state)
    phases.advance(state, "verdict")
    Vote.objects.bulk_create(
        Vote(
            deliberation=deliberation,
            round_number=deliberation.round_number,
            seat_number=seat,
            value=value,
            ballot=BallotKind.FINAL,
        )
        for seat, value in sorted(state.votes.items())
    )
    deliberation.phase = Phase.VERDICT
    deliberation.round_status = RoundStatus.IDLE
    deliberation.round_claimed_at = deliberation.round_heartbeat_at = None
    deliberation.verdict = verdict
    deliberation.end_reason = state.end_reason if state.end_reason in EndReason.values else EndReason.CALLED
    deliberation.finished_at = timezone.now()
    deliberation.engine_state = state.to_dict()
    deliberation.save()
    if deliberation.experiment_id is None:
        tally = state.tally()
        narration_services.narration_request_verdict(
            deliberation_id=deliberation.pk,
            round_number=deliberation.round_number,
            verdict=verdict,
            guilty=tally["guilty"],
            not_guilty=tally["not_guilty"],
            end_reason=deliberation.end_reason,
            defendants=[d.name for d in deliberation.case.defendants.all()],
            required=jury_rules.required_of_cast(
                state.settings.rules,
                size=state.jury_size(),
                direction_given=bool(state.rule_progress.direction_round),
                abstained=bool(abstained),
            ),
        )
    announce(deliberation.pk, "phase")
