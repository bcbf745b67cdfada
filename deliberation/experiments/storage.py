"""Storing one simulated run as a finished deliberation of its experiment.

The rows are the ones the deliberation services write for a deliberation played round by round
(seats, the initial ballot and round-0 convictions, every round's turns with their reactions and
flips, vote changes, conviction snapshots and model usage, the final ballot), so a run's
transcript reads like any other at ``/deliberations/<public id>/``. No narration is requested: nobody
listens to an experiment.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime

from deliberation import jury as jury_build
from deliberation.experiments.simulate import RunOutcome
from deliberation.models import (
    BallotKind,
    ConvictionSnapshot,
    Deliberation,
    EndReason,
    Phase,
    PlayerSide,
    RoundStats,
    Seat,
    Turn,
    Vote,
)
from deliberation.services.rounds import flip_votes, round_stats, round_turns
from deliberation.services.rounds import snapshots as round_snapshots
from jurors.models import Persona


def _when(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, tz=UTC)


def store_run(*, experiment_id: int, outcome: RunOutcome, personas: Sequence[Persona]) -> Deliberation:
    """Write one finished run (call inside a transaction); ``personas`` is the shipped jury."""
    state = outcome.final_state
    rounds = outcome.rounds
    end_reason = state.get("end_reason", "")
    deliberation = Deliberation(
        case_id=outcome.job.case_id,
        experiment_id=experiment_id,
        engine=outcome.job.engine,
        seed=outcome.job.seed,
        phase=Phase.VERDICT,
        player_side=PlayerSide.NONE,
        host_plays=False,
        round_number=len(rounds),
        rounds_without_change=int(state.get("rounds_without_change", 0)),
        engine_state=state,
        settings={
            "rules": (state.get("settings") or {}).get("rules", "unanimous"),
            # a model witness's calls, tokens and fallbacks at the run's trial
            **({"trial_witness": outcome.trial_witness} if outcome.trial_witness else {}),
        },
        verdict=outcome.verdict,
        end_reason=end_reason if end_reason in EndReason.values else EndReason.CALLED,
        budget_exhausted=bool(state.get("budget_exhausted", False)),
        started_at=_when(outcome.started),
        finished_at=_when(outcome.finished),
    )
    deliberation.full_clean()
    deliberation.save()

    final_votes = {int(seat): vote for seat, vote in state["votes"].items()}
    final_convictions = {int(seat): m["conviction"] for seat, m in state["memories"].items()}
    spoke = Counter(speech.seat for result in rounds for speech in result.speeches)
    seats = jury_build.new_seats(personas=personas, player_in_seat_7=False)
    for seat in seats:
        seat.deliberation = deliberation
        seat.vote = final_votes[seat.number]
        seat.conviction = round(final_convictions[seat.number], 6)
        seat.turns_taken = spoke[seat.number]
    Seat.objects.bulk_create(seats)

    votes = [
        Vote(deliberation=deliberation, round_number=0, seat_number=seat, value=value, ballot=BallotKind.INITIAL)
        for seat, value in sorted(outcome.initial_votes.items())
    ]
    snapshots = round_snapshots(deliberation, 0, outcome.initial_convictions, outcome.initial_votes)
    turns: list[Turn] = []
    stats: list[RoundStats] = []
    for result in rounds:
        turns.extend(round_turns(deliberation, result, first_sequence=len(turns) + 1))
        votes.extend(flip_votes(deliberation, result))
        snapshots.extend(round_snapshots(deliberation, result.round_number, result.convictions, result.votes))
        stats.append(round_stats(deliberation, result))
    votes.extend(
        Vote(
            deliberation=deliberation,
            round_number=len(rounds),
            seat_number=seat,
            value=value,
            ballot=BallotKind.FINAL,
        )
        for seat, value in sorted(final_votes.items())
    )
    Turn.objects.bulk_create(turns)
    Vote.objects.bulk_create(votes)
    ConvictionSnapshot.objects.bulk_create(snapshots)
    RoundStats.objects.bulk_create(stats)
    return deliberation
