"""The debrief of a finished deliberation, assembled from its transcript without further queries.

A transcript (``review.selectors.build_transcript``) already holds every stored speech with its
reactions and every vote; the debrief turns them into the pure inputs of ``review.moments`` and
``review.influence`` and lays out what the page and the CSV show. A deliberation has a debrief
only once its own verdict is in (``has_debrief``). ``Debrief.summary`` is the jury in a few
figures, the unit a class page can put side by side for several rooms.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

from deliberation.models import Seat, Turn, TurnKind
from deliberation.review.influence import Drawing, Edge, influence_edges, layout
from deliberation.review.moments import (
    Cause,
    Figures,
    GroupSummary,
    KeyMoment,
    Reaction,
    Speech,
    VoteChange,
    figures,
    group_summary,
    key_moments,
    signed,
    vote_change_causes,
)
from deliberation.review.selectors import VOTE_LABELS, Transcript
from deliberation.trial.record import CounselWork, counsel_players, counsel_scorecard, counsel_work

LISTED_EDGES = 12  # the strongest pushes listed in words beside the drawing
CSV_COLUMNS = (
    "deliberation",
    "seat",
    "name",
    "role",
    "round",
    "strategy",
    "argument_type",
    "text",
    "listeners",
    "mean_change",
    "net_change",
    "total_movement",
    "listeners_persuaded",
    "crafted",  # a person's turn: the part their strategy crafted; "text" is the whole speech
    "own_words",  # ... and their own words, exactly as typed
    # A move of theirs as counsel at the trial (round 0, before the first ballot): "text" is what they
    # said; the jury's reactions to the trial are not measured move by move, so those cells are empty.
    "counsel_for",  # prosecution | defence
    "trial_move",  # opening | question | objection | closing
    "witness",  # the witness questioned (or whose answer an objection was to)
    "outcome",  # a question: answered, answer struck, not answered; an objection: sustained, overruled
)
COUNSEL_FOR = {"prosecution": "prosecution", "defense": "defence"}
# A spreadsheet runs a cell that starts with one of these as a formula: a student's words must not.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def has_debrief(transcript: Transcript) -> bool:
    """Only a deliberation that reached its own verdict has a debrief."""
    return transcript.deliberation.is_finished and bool(transcript.deliberation.verdict)


@dataclass(frozen=True)
class Contribution:
    speech: Speech
    figures: Figures
    reactions: tuple[Reaction, ...]  # largest change first


@dataclass
class SeatDebrief:
    """One seat's part: what they said, what it drew, and how their own vote went."""

    seat: Seat
    role: str
    first_vote: str
    last_vote: str
    contributions: list[Contribution] = field(default_factory=list)
    changes: list[VoteChange] = field(default_factory=list)  # their changes of mind, as every page counts them

    @property
    def moved(self) -> float:
        return sum(c.figures.moved for c in self.contributions)

    @property
    def net(self) -> float:
        return sum(c.figures.net for c in self.contributions)

    @property
    def persuaded(self) -> int:
        return sum(c.figures.persuaded for c in self.contributions)

    @property
    def net_change(self) -> str:
        return signed(self.net)

    @property
    def movement(self) -> str:
        return f"{self.moved:.3f}"

    @property
    def changed_vote(self) -> bool:
        return bool(self.changes)

    @property
    def first_vote_label(self) -> str:
        """The vote they changed from first (a person's first own vote, not the empty seat's)."""
        first = self.changes[0].before if self.changes else self.first_vote
        return VOTE_LABELS.get(first, "no vote")

    @property
    def last_vote_label(self) -> str:
        return VOTE_LABELS.get(self.last_vote, "no vote")


@dataclass
class Debrief:
    transcript: Transcript
    speeches: list[Speech]
    changes: list[VoteChange]
    causes: list[Cause]
    moments: list[KeyMoment]
    edges: list[Edge]
    drawing: Drawing
    seats: list[SeatDebrief]
    summary: GroupSummary
    counsel: list[dict[str, Any]] = field(default_factory=list)  # the trial's scorecard, when a trial was held
    counsel_work: dict[int, CounselWork] = field(default_factory=dict)  # each seat's own moves as counsel

    @property
    def listed_edges(self) -> list[Edge]:
        return self.edges[:LISTED_EDGES]

    def name(self, seat: int) -> str:
        found = self.transcript.seats.get(seat)
        return found.display_name if found else f"Seat {seat}"


def _side(transcript: Transcript, turn: Turn) -> str:
    """The side a speech argued: the engine's record of it, else (a person's typed speech, stored
    without one) the speaker's vote as the round began."""
    if turn.position:
        return turn.position
    before = transcript.snapshots.get(turn.round_number - 1, {}).get(turn.seat_number)
    return before.vote if before is not None and before.vote else ""


def speeches_of(transcript: Transcript) -> list[Speech]:
    """Every stored speech by a seat, in the order it was said, with its listeners' reactions."""
    return [
        Speech(
            sequence=view.turn.sequence,
            round=view.turn.round_number,
            seat=view.turn.seat_number,
            name=view.speaker.display_name if view.speaker and not view.turn.stood_in else view.turn.speaker_name,
            text=view.turn.content,
            crafted=view.turn.crafted,
            strategy=view.turn.strategy,
            argument_type=view.turn.argument_type,
            stood_in=view.turn.stood_in,
            side=_side(transcript, view.turn),
            reactions=tuple(
                Reaction(
                    seat=r.seat_number,
                    delta=r.delta,
                    persuaded=r.persuaded,
                    thought=r.thought,
                    name=r.seat.display_name if r.seat else f"Seat {r.seat_number}",
                )
                for r in view.reactions
            ),
        )
        for round_view in transcript.rounds
        for view in round_view.turns
        if view.turn.kind == TurnKind.SPEECH and view.turn.seat_number
    ]


def changes_of(transcript: Transcript) -> list[VoteChange]:
    """The jury's changes of mind, as the transcript counts them (``review.selectors.vote_changes``)."""
    return transcript.changes


def _seat_debriefs(transcript: Transcript, speeches: list[Speech], changes: list[VoteChange]) -> list[SeatDebrief]:
    """People and agents first (they are who a teacher asks about), then the AI jurors who spoke."""
    ordered = sorted(transcript.snapshots)
    first = transcript.snapshots[ordered[0]] if ordered else {}
    last = transcript.snapshots[ordered[-1]] if ordered else {}
    final = {v.seat_number: v.value for v in transcript.final_votes}  # votes cast after the last round count
    by_seat: dict[int, SeatDebrief] = {}
    for number, seat in transcript.seats.items():
        by_seat[number] = SeatDebrief(
            seat=seat,
            role=transcript.role(seat),
            first_vote=first[number].vote if number in first else "",
            last_vote=final.get(number, seat.vote) if final else last[number].vote if number in last else seat.vote,
            changes=[c for c in changes if c.seat == number],
        )
    for speech in speeches:
        if speech.seat in by_seat and not speech.stood_in:  # what a seat's AI juror said for it is not the person's
            reactions = tuple(sorted(speech.reactions, key=lambda r: (-abs(r.delta), r.seat)))
            by_seat[speech.seat].contributions.append(
                Contribution(speech=speech, figures=figures(speech), reactions=reactions)
            )
    shown = [d for d in by_seat.values() if d.seat.is_participant or d.contributions]
    return sorted(shown, key=lambda d: (not d.seat.is_participant, d.seat.number))


def build_debrief(transcript: Transcript) -> Debrief:
    """The debrief of a transcript built with ``build_transcript``: pure arithmetic, no query."""
    deliberation = transcript.deliberation
    speeches = speeches_of(transcript)
    changes = changes_of(transcript)
    causes = vote_change_causes(speeches, changes)
    edges = influence_edges(speeches)
    return Debrief(
        transcript=transcript,
        speeches=speeches,
        changes=changes,
        causes=causes,
        moments=key_moments(speeches, causes),
        edges=edges,
        drawing=layout(transcript.names(), edges, participants=frozenset(transcript.participants())),
        seats=_seat_debriefs(transcript, speeches, changes),
        summary=group_summary(
            deliberation_id=deliberation.pk,
            label=deliberation.case.title,
            verdict=deliberation.verdict,
            end_reason=deliberation.end_reason,
            rounds=deliberation.round_number,
            speeches=speeches,
            changes=changes,
        ),
        counsel=counsel_scorecard(
            (view.turn for round_view in transcript.rounds for view in round_view.turns),
            counsel_players(deliberation.trial_state, transcript.names()),
            deliberation.trial_state,
        ),
        counsel_work=counsel_work(
            (view.turn for round_view in transcript.rounds for view in round_view.turns), deliberation.trial_state
        ),
    )


def _cell(text: str) -> str:
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def contributions_csv(debrief: Debrief) -> str:
    """One row per contribution of each seat shown in the debrief, seat by seat, in speaking order:
    a person's moves as counsel at the trial first (``trial_move`` names each), then their speeches."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    public_id = debrief.transcript.deliberation.public_id  # the id in the deliberation's URLs
    blank = ("",) * 4  # the trial columns of a speech in the deliberation
    for part in debrief.seats:
        work = debrief.counsel_work.get(part.seat.number) if part.seat.is_participant else None
        for move in work.moves if work else []:
            writer.writerow(
                [
                    public_id,
                    move.seat,
                    _cell(part.seat.display_name),
                    part.role,
                    0,
                    "",
                    "",
                    _cell(move.text),
                    *("",) * 7,
                    COUNSEL_FOR.get(move.side, move.side),
                    move.kind,
                    _cell(move.witness),
                    move.outcome,
                ]
            )
        for c in part.contributions:
            s, f = c.speech, c.figures
            writer.writerow(
                [
                    public_id,
                    s.seat,
                    _cell(part.seat.display_name),
                    part.role,
                    s.round,
                    s.strategy,
                    s.argument_type,
                    _cell(s.text),
                    f.listeners,
                    f"{f.mean:.4f}",
                    f"{f.net:.4f}",
                    f"{f.moved:.4f}",
                    f.persuaded,
                    _cell(s.crafted),
                    _cell(s.own_words),
                    *blank,
                ]
            )
    return out.getvalue()
