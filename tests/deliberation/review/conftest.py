"""Deliberations to review: real ones run by the offline engine, and ones written row by row."""

from __future__ import annotations

import pytest

from deliberation import services
from deliberation.models import (
    BallotKind,
    ConvictionSnapshot,
    Deliberation,
    Experiment,
    Narration,
    NarrationKind,
    NarrationStatus,
    Phase,
    RoundStats,
    Seat,
    SeatKind,
    Turn,
    TurnKind,
    Vote,
)
from tests.factories import CaseFactory

# Content a transcript must carry exactly: Markdown and HTML specials, a long line, newlines, tabs.
SPECIAL = (
    "# Not a heading\n"
    "<script>alert('x')</script> & <b>bold</b> **stars** _under_ `tick` | pipe | [link](http://x)\n"
    "\n" + "A long line that no export may wrap. " * 12 + "\n\tindented after a tab > quote-like\n"
    "last line, no newline after"
)


@pytest.fixture
def finished(robbery) -> Deliberation:
    """A real deliberation run to its verdict by the offline engine (seed 3: flips in rounds 1 and 2)."""
    deliberation = services.deliberation_start(case=robbery, seed=3, player_side="none", host_plays=False)
    while deliberation.phase == Phase.DELIBERATION:
        assert services.round_run(deliberation_id=deliberation.pk)
        deliberation.refresh_from_db()
    return deliberation


def write_deliberation(
    *,
    rounds: int,
    case=None,
    engine: str = "offline",
    verdict: str = "guilty",
    experiment: Experiment | None = None,
    participants: int = 0,
    host_session_key: str = "",
    sessions: dict[int, str] | None = None,
    tokens: dict[int, str] | None = None,
) -> Deliberation:
    """A finished deliberation written row by row: a foreperson line and two speeches per round,
    one seat changing its vote every round, snapshots, figures and a judge's line per round.

    Seats 1..``participants`` are held by people: by the browser sessions in ``sessions`` (seat ->
    session key) or agent tokens in ``tokens`` (seat -> token hash); a person's seat with neither,
    in a run with no ``host_session_key``, is the command line's automated player."""
    sessions, tokens = sessions or {}, tokens or {}
    case = case or CaseFactory()
    deliberation = Deliberation.objects.create(
        case=case,
        engine=engine,
        seed=7,
        phase=Phase.VERDICT if verdict else Phase.DELIBERATION,
        round_number=rounds,
        verdict=verdict,
        end_reason="round_limit" if verdict else "",
        experiment=experiment,
        player_side="none",
        host_plays=False,
        host_session_key=host_session_key,
    )
    Seat.objects.bulk_create(
        Seat(
            deliberation=deliberation,
            number=n,
            kind=(SeatKind.AGENT if n in tokens else SeatKind.HUMAN) if n <= participants else SeatKind.AI,
            session_key=sessions.get(n, ""),
            token_hash=tokens.get(n, ""),
            display_name=f"Juror Name {n}",
            emoji="🙂",
            archetype_name="Everyman",
            vote="guilty",
            conviction=0.7,
        )
        for n in range(1, 13)
    )
    votes = {n: "guilty" if n <= 8 else "not_guilty" for n in range(1, 13)}
    turns, ballots, snapshots, stats, lines = [], [], [], [], []
    ballots += [
        Vote(deliberation=deliberation, round_number=0, seat_number=n, value=v, ballot=BallotKind.INITIAL)
        for n, v in votes.items()
    ]
    snapshots += [
        ConvictionSnapshot(deliberation=deliberation, round_number=0, seat_number=n, conviction=0.5, vote=v)
        for n, v in votes.items()
    ]
    sequence = 0
    for number in range(1, rounds + 1):
        flipper = (number - 1) % 12 + 1
        before = votes[flipper]
        votes[flipper] = "not_guilty" if before == "guilty" else "guilty"
        sequence += 1
        turns.append(
            Turn(
                deliberation=deliberation,
                round_number=number,
                sequence=sequence,
                kind=TurnKind.PROCESS,
                speaker_name="Foreperson",
                content=f"Round {number}: who is next?",
            )
        )
        for speaker in (flipper % 12 + 1, (flipper + 1) % 12 + 1):
            sequence += 1
            turns.append(
                Turn(
                    deliberation=deliberation,
                    round_number=number,
                    sequence=sequence,
                    kind=TurnKind.SPEECH,
                    seat_number=speaker,
                    speaker_name=f"Juror Name {speaker}",
                    target_seat=flipper,
                    argument_type="evidence",
                    content=f"Speech in round {number} by seat {speaker}.",
                    reactions=[
                        {
                            "seat": n,
                            "delta": 0.01 * n,
                            "thought": f"Thought of seat {n}",
                            "persuaded": n == flipper,
                            "active": True,
                        }
                        for n in range(1, 13)
                        if n != speaker
                    ],
                )
            )
        turns[-1].flips = [{"seat": flipper, "from": before, "to": votes[flipper]}]
        ballots.append(
            Vote(
                deliberation=deliberation,
                round_number=number,
                seat_number=flipper,
                value=votes[flipper],
                previous=before,
                ballot=BallotKind.FLIP,
            )
        )
        snapshots += [
            ConvictionSnapshot(
                deliberation=deliberation,
                round_number=number,
                seat_number=n,
                conviction=0.7 if v == "guilty" else 0.3,
                vote=v,
            )
            for n, v in votes.items()
        ]
        stats.append(
            RoundStats(
                deliberation=deliberation,
                round_number=number,
                engine=engine,
                llm_calls=3,
                prompt_tokens=100 * number,
                completion_tokens=10,
                latency_ms=5,
            )
        )
        lines.append(
            Narration(
                deliberation=deliberation,
                round_number=number,
                kind=NarrationKind.VOTE,
                text=f"After round {number} the vote stands.",
                status=NarrationStatus.TEXT_ONLY,
            )
        )
    Turn.objects.bulk_create(turns)
    Vote.objects.bulk_create(ballots)
    if verdict:
        Vote.objects.bulk_create(
            Vote(deliberation=deliberation, round_number=rounds, seat_number=n, value=v, ballot=BallotKind.FINAL)
            for n, v in votes.items()
        )
    ConvictionSnapshot.objects.bulk_create(snapshots)
    RoundStats.objects.bulk_create(stats)
    Narration.objects.bulk_create(lines)
    return deliberation
