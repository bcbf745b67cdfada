"""Reads for reviewing deliberations: the filtered list and a transcript assembled in memory.

A transcript is built from one ``deliberations_with_record()`` fetch (a fixed number of
queries), then grouped here by round, so the page costs the same at 2 rounds and at 40.
Who may read what is decided in ``deliberation.access``; every read for a page goes through it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q, QuerySet

from cases.models import Case
from deliberation.access import Viewer, seat_role, visible_to
from deliberation.charts import colour
from deliberation.engine.moves import UNMOVED
from deliberation.models import (
    PASS_WORDS,
    BallotKind,
    ConvictionSnapshot,
    Deliberation,
    Narration,
    NarrationKind,
    RoundStats,
    Seat,
    SeatKind,
    Turn,
    TurnKind,
    Vote,
)
from deliberation.review.failures import FailureView, StandIn, failure_totals, failure_views
from deliberation.review.moments import VoteChange
from deliberation.selectors import deliberations_with_record
from deliberation.trial.record import counsel_seat_by_turn, counsel_work

UNFINISHED = "unfinished"
VOTE_LABELS = {"guilty": "guilty", "not_guilty": "not guilty"}
PER_PAGE = 20


def reviewable() -> QuerySet[Deliberation]:
    """Deliberations reviewed here: everything but experiment runs (listed under their experiment)."""
    return Deliberation.objects.filter(experiment__isnull=True)


# People and agents who took part from outside; the command line's automated player is counted apart.
_JOINED = Q(seats__kind=SeatKind.AGENT) | (
    Q(seats__kind=SeatKind.HUMAN) & (~Q(seats__session_key="") | ~Q(host_session_key=""))
)
_AUTOMATED = Q(seats__kind=SeatKind.HUMAN, seats__session_key="", host_session_key="")


def deliberations_listed(
    *, viewer: Viewer, case: str = "", verdict: str = "", engine: str = ""
) -> QuerySet[Deliberation]:
    """The list page's rows that ``viewer`` may read, newest first, with who took part."""
    rows = (
        visible_to(reviewable(), viewer)
        .select_related("case")
        .annotate(participants=Count("seats", filter=_JOINED), automated=Count("seats", filter=_AUTOMATED))
        .order_by("-created_at", "-pk")
    )
    if case:
        rows = rows.filter(case__slug=case)
    if verdict == UNFINISHED:
        rows = rows.filter(verdict="")
    elif verdict:
        rows = rows.filter(verdict=verdict)
    if engine:
        rows = rows.filter(engine=engine)
    return rows


def list_filter_choices(viewer: Viewer) -> dict[str, list[Any]]:
    """The cases and engines that appear among the deliberations ``viewer`` may read (two queries)."""
    listed = visible_to(reviewable(), viewer)
    cases = list(Case.objects.filter(deliberations__in=listed).distinct().order_by("title").values("slug", "title"))
    engines = sorted(set(listed.values_list("engine", flat=True).distinct()))
    return {"cases": cases, "engines": engines}


def deliberation_for_review(pk: int) -> Deliberation:
    """Any deliberation, for the operator's ``export_deliberation`` command; pages use ``deliberation_visible``."""
    return deliberations_with_record().get(pk=pk)


def deliberation_visible(public_id: str, viewer: Viewer) -> Deliberation:
    """The deliberation if ``viewer`` may read it; DoesNotExist otherwise, exactly as for an unknown id."""
    return visible_to(deliberations_with_record(), viewer).get(public_id=public_id)


def deliberation_shared(token: str) -> Deliberation:
    """The deliberation behind a live share token; a revoked or unknown token raises DoesNotExist."""
    if not token:
        raise Deliberation.DoesNotExist
    return visible_to(deliberations_with_record(), Viewer.holding(token)).get(share_token=token)


@dataclass(frozen=True)
class Flip:
    """A vote that changed (an engine flip or a participant's cast) in a given round."""

    round: int
    seat: int
    to: str


@dataclass
class ReactionView:
    seat: Seat | None
    seat_number: int
    delta: float
    thought: str
    persuaded: bool
    active: bool

    @property
    def shift(self) -> str:
        """The conviction change in words: positive deltas lean towards guilty; a change the court
        page shows as 0.00 is unmoved here too, as the reaction's words say."""
        if abs(self.delta) < UNMOVED:
            return "unmoved"
        toward = "guilty" if self.delta > 0 else "not guilty"
        return f"{'+' if self.delta > 0 else '−'}{abs(self.delta):.3f} towards {toward}"

    @property
    def direction(self) -> str:
        return "flat" if abs(self.delta) < UNMOVED else "up" if self.delta > 0 else "down"


@dataclass
class FlipView:
    seat: Seat | None
    seat_number: int
    before: str
    after: str
    reason: str = ""  # why the juror changed their mind (``engine.reflection.flip_reason``)

    @property
    def before_label(self) -> str:
        return VOTE_LABELS.get(self.before, self.before or "no vote")

    @property
    def after_label(self) -> str:
        return VOTE_LABELS.get(self.after, self.after)


@dataclass
class TurnView(StandIn):
    turn: Turn
    speaker: Seat | None
    target: Seat | None
    reactions: list[ReactionView]
    flips: list[FlipView]
    # A line the judge said (a ruling, the directions) that was also read aloud: the reading, for its audio.
    voice: Narration | None = None
    counsel: Seat | None = None  # a move at the trial that was this participant's own, as counsel
    counsel_seat: int | None = None

    @property
    def persuaded_count(self) -> int:
        return sum(1 for r in self.reactions if r.persuaded)

    @property
    def style(self) -> str:
        if self.turn.is_vote:  # a person's vote: hers, not the foreperson's
            return "vote"
        return {
            TurnKind.PROCESS: "foreperson",
            TurnKind.NOTE: "note",
            TurnKind.JUDGE: "judge",
            TurnKind.TRIAL: "trial",
        }.get(self.turn.kind, "speech" if self.turn.kind == TurnKind.SPEECH else "pass")

    @property
    def pass_words(self) -> str:
        """How a person's turn went by without words: "passed", "turn ran out" (she was not there)
        or "turn skipped by the host"; "" for any other turn."""
        return PASS_WORDS.get(self.turn.pass_kind, "")


@dataclass
class RoundView:
    number: int
    turns: list[TurnView] = field(default_factory=list)
    narrations: list[Narration] = field(default_factory=list)
    casts: list[Vote] = field(default_factory=list)
    unmarked_flips: list[FlipView] = field(default_factory=list)  # flips no turn carries
    stats: RoundStats | None = None
    failures: list[FailureView] = field(default_factory=list)  # failed model calls, with their causes
    guilty: int = 0
    not_guilty: int = 0
    flip_count: int = 0

    @property
    def openings(self) -> list[Narration]:
        """Narrations read before the round's talk (the case presentation)."""
        return [n for n in self.narrations if n.kind == NarrationKind.PRESENTATION]

    @property
    def closings(self) -> list[Narration]:
        """Narrations read once the round's votes were in (the tally announcements); not the readings
        of a line the round's record already holds in its place (``TurnView.voice``)."""
        voiced = {t.voice.pk for t in self.turns if t.voice is not None}
        return [n for n in self.narrations if n.kind != NarrationKind.PRESENTATION and n.pk not in voiced]

    @property
    def speeches(self) -> list[TurnView]:
        return [t for t in self.turns if t.turn.kind == TurnKind.SPEECH]

    @property
    def trial_turns(self) -> list[TurnView]:
        """What the court heard before the first ballot (round 0 of a game that held the trial)."""
        return [t for t in self.turns if t.turn.kind == TurnKind.TRIAL]


@dataclass
class BoxSeat:
    seat: Seat
    vote: str
    conviction: float
    flipped: bool
    role: str

    @property
    def colour(self) -> str:
        """The colour of this juror's line on the conviction chart."""
        return colour(self.seat.number)

    @property
    def charted(self) -> bool:
        """Only AI jurors have a conviction the engine moves; a participant has only their vote."""
        return not self.seat.is_participant


@dataclass
class Transcript:
    deliberation: Deliberation
    seats: dict[int, Seat]
    rounds: list[RoundView]
    final_votes: list[Vote]
    verdict_narrations: list[Narration]
    snapshots: dict[int, dict[int, ConvictionSnapshot]]  # round -> seat -> snapshot
    flips: list[Flip]
    totals: dict[str, Any]
    changes: list[VoteChange] = field(default_factory=list)  # the changes of mind (``vote_changes``)

    @property
    def last_round(self) -> int:
        return self.rounds[-1].number if self.rounds else 0

    def round(self, number: int) -> RoundView | None:
        return next((r for r in self.rounds if r.number == number), None)

    def snapshots_up_to(self, number: int) -> list[ConvictionSnapshot]:
        """The conviction chart's points as they stood once round ``number`` was stored."""
        return [snap for r in sorted(self.snapshots) if r <= number for snap in self.snapshots[r].values()]

    def names(self) -> dict[int, str]:
        return {number: seat.display_name for number, seat in self.seats.items()}

    def participants(self) -> set[int]:
        """Seats held by people, agents or the automated player: their votes are theirs, not a conviction."""
        return {number for number, seat in self.seats.items() if seat.is_participant}

    def role(self, seat: Seat) -> str:
        return seat_role(seat, self.deliberation)

    def jury_box(self, number: int) -> list[BoxSeat]:
        """Every seat's vote and conviction as they stood once round ``number`` was stored."""
        taken = [n for n in self.snapshots if n <= number]
        at = self.snapshots[max(taken)] if taken else {}
        flipped = {f.seat for f in self.flips if f.round == number}
        box = []
        for seat in self.seats.values():
            snap = at.get(seat.number)
            box.append(
                BoxSeat(
                    seat=seat,
                    vote=snap.vote if snap else "",
                    conviction=snap.conviction if snap else seat.conviction,
                    flipped=seat.number in flipped,
                    role=self.role(seat),
                )
            )
        return box


def _holder(vote: Vote, seat: Seat | None) -> str:
    """Whose vote a ballot was: "person", "juror" or "" for nobody's. A person's seat holds the AI
    juror's ballots from before she sat down (that juror's own), then hers; what the engine kept for
    her seat once she was there (a stand-in while she was away) was nobody's vote."""
    if vote.ballot == BallotKind.CAST:
        return "person"
    if seat is None or not seat.is_participant:
        return "juror"
    if seat.joined_at is not None and vote.created_at < seat.joined_at:
        return "juror"
    return "person" if vote.ballot == BallotKind.INITIAL else ""  # her first-ballot vote, or no flip of hers


def vote_changes(votes: list[Vote], seats: dict[int, Seat], turns: list[Turn] | None = None) -> list[VoteChange]:
    """Every change of mind, in order: the one count the transcript, its exports, the debrief and
    the class debrief all show.

    A change is a vote going from one side to the other, both the same voter's own: an AI juror's
    flip, or a person casting a vote against the last one she cast. A first vote is no change; nor
    is a run-out turn settling a person's ballot as an abstention, or her ballot reopening when she
    is back (neither leaves a ballot: her last own vote stands through both); nor anything the
    engine kept for her seat (``_holder``). ``turns`` give the engine's reason for a flip."""
    reasons = {
        (turn.round_number, int(flip["seat"]), flip.get("to", "")): flip.get("reason", "")
        for turn in turns or []
        for flip in turn.flips or []
    }
    held: dict[tuple[int, str], str] = {}  # (seat, whose) -> the last vote of their own
    out: list[VoteChange] = []
    for vote in sorted(votes, key=lambda v: (v.round_number, v.id)):
        seat = seats.get(vote.seat_number)
        whose = _holder(vote, seat) if vote.ballot != BallotKind.FINAL else ""
        if not whose:
            continue
        before = held.get((vote.seat_number, whose), "")
        held[(vote.seat_number, whose)] = vote.value
        if not before or before == vote.value:
            continue
        out.append(
            VoteChange(
                round=vote.round_number,
                seat=vote.seat_number,
                before=before,
                after=vote.value,
                name=seat.display_name if seat else f"Seat {vote.seat_number}",
                reason=reasons.get((vote.round_number, vote.seat_number, vote.value), ""),
            )
        )
    return out


def seat_label(seat: Seat | None, number: int) -> str:
    return f"{seat.display_name} (seat {number})" if seat else f"Seat {number}"


def _flip_views(raw: list[dict[str, Any]], seats: dict[int, Seat]) -> list[FlipView]:
    return [
        FlipView(
            seat=seats.get(f["seat"]),
            seat_number=f["seat"],
            before=f.get("from", ""),
            after=f.get("to", ""),
            reason=f.get("reason", ""),
        )
        for f in raw
    ]


def _turn_view(turn: Turn, seats: dict[int, Seat]) -> TurnView:
    """A turn as the review shows it. Its listeners are the AI jurors: a seat a person holds is no
    listener, even where the engine moved its AI juror while she was away (``Turn.heard_by_jurors``)."""
    people = {number for number, seat in seats.items() if seat.is_participant}
    reactions = [
        ReactionView(
            seat=seats.get(r["seat"]),
            seat_number=r["seat"],
            delta=float(r.get("delta", 0.0)),
            thought=r.get("thought", ""),
            persuaded=bool(r.get("persuaded")),
            active=bool(r.get("active")),
        )
        for r in turn.heard_by_jurors(people)
    ]
    return TurnView(
        turn=turn,
        speaker=seats.get(turn.seat_number) if turn.seat_number else None,
        target=seats.get(turn.target_seat) if turn.target_seat else None,
        reactions=reactions,
        flips=_flip_views(turn.flips or [], seats),
    )


def _closing_tally(snapshot: dict[int, ConvictionSnapshot], casts: list[Vote]) -> tuple[int, int]:
    """Guilty and not guilty as the round closed: the votes its snapshot stored, with the votes
    people cast once the jury had spoken (the judge's count of them, read in the same round). A
    round with no snapshot has no tally."""
    if not snapshot:
        return 0, 0
    votes = {number: snap.vote for number, snap in snapshot.items()}
    for cast in casts:  # in the order cast: her last vote of the round stands
        votes[cast.seat_number] = cast.value
    counted = list(votes.values())
    return counted.count("guilty"), counted.count("not_guilty")


def _said(text: str) -> str:
    return " ".join(text.split())


def _voice(view: RoundView, narration: Narration) -> None:
    """The judge's lines (a ruling, the directions at the trial or in a round, a juror discharged)
    are stored as turns and read aloud as narrations of the same words: the reading goes with the
    first turn of the round that said them and has no reading yet, so the transcript says each line
    once, where it was said."""
    for turn_view in view.turns:
        turn = turn_view.turn
        if (
            turn_view.voice is None
            and turn.kind in (TurnKind.JUDGE, TurnKind.TRIAL)
            and _said(turn.content) == narration.text
        ):
            turn_view.voice = narration
            return


def _attribute_counsel(deliberation: Deliberation, rounds: Iterable[RoundView], seats: dict[int, Seat]) -> None:
    """Mark each move at the trial that a participant made as counsel with their seat."""
    views = [v for r in rounds for v in r.turns if v.turn.kind == TurnKind.TRIAL]
    if not views or not (deliberation.trial_state or {}).get("counsel"):
        return
    by_turn = counsel_seat_by_turn(counsel_work([v.turn for v in views], deliberation.trial_state))
    for view in views:
        number = by_turn.get(view.turn.sequence)
        if number is not None:
            view.counsel_seat, view.counsel = number, seats.get(number)


def build_transcript(deliberation: Deliberation, *, show_hidden: bool = False) -> Transcript:
    """Group a deliberation fetched with ``deliberations_with_record`` by round; no further queries.

    Messages the host hid are left out, except with ``show_hidden`` (the host's own transcript,
    which marks them)."""
    seats = {s.number: s for s in deliberation.seats.all()}
    rounds: dict[int, RoundView] = {n: RoundView(number=n) for n in range(deliberation.round_number + 1)}

    def at(number: int) -> RoundView:
        return rounds.setdefault(number, RoundView(number=number))

    for turn in deliberation.turns.all():
        if turn.hidden_at is None or show_hidden:
            at(turn.round_number).turns.append(_turn_view(turn, seats))
    snapshots: dict[int, dict[int, ConvictionSnapshot]] = defaultdict(dict)
    for snap in deliberation.snapshots.all():
        snapshots[snap.round_number][snap.seat_number] = snap
    flips: list[Flip] = []
    final_votes: list[Vote] = []
    flip_votes: dict[int, list[Vote]] = defaultdict(list)
    for vote in sorted(deliberation.votes.all(), key=lambda v: (v.round_number, v.id)):
        if vote.ballot == BallotKind.FINAL:
            final_votes.append(vote)
        elif vote.ballot in (BallotKind.FLIP, BallotKind.CAST):
            flips.append(Flip(round=vote.round_number, seat=vote.seat_number, to=vote.value))
            if vote.ballot == BallotKind.CAST:
                at(vote.round_number).casts.append(vote)
            else:
                flip_votes[vote.round_number].append(vote)
    for number, votes in flip_votes.items():
        view = at(number)
        if not any(t.flips for t in view.turns):
            view.unmarked_flips = [
                FlipView(seat=seats.get(v.seat_number), seat_number=v.seat_number, before=v.previous, after=v.value)
                for v in votes
            ]
    for stats in deliberation.round_stats.all():
        at(stats.round_number).stats = stats
        at(stats.round_number).failures = failure_views(stats, seats)
    verdict_narrations: list[Narration] = []
    for narration in sorted(deliberation.narrations.all(), key=lambda n: (n.created_at, n.id)):
        if narration.kind == NarrationKind.VERDICT:
            verdict_narrations.append(narration)
        else:
            at(narration.round_number).narrations.append(narration)
            if narration.kind == NarrationKind.LINE:
                _voice(at(narration.round_number), narration)
    _attribute_counsel(deliberation, rounds.values(), seats)
    for number, view in rounds.items():
        view.guilty, view.not_guilty = _closing_tally(snapshots.get(number, {}), view.casts)
    changes = vote_changes(list(deliberation.votes.all()), seats, list(deliberation.turns.all()))
    for number in {c.round for c in changes}:
        at(number).flip_count = sum(1 for c in changes if c.round == number)
    stats_rows = [r.stats for r in rounds.values() if r.stats]
    totals = {
        "llm_calls": sum(s.llm_calls for s in stats_rows),
        "prompt_tokens": sum(s.prompt_tokens for s in stats_rows),
        "cached_prompt_tokens": sum(s.cached_prompt_tokens for s in stats_rows),
        "completion_tokens": sum(s.completion_tokens for s in stats_rows),
        "cost_usd": sum(s.cost_usd for s in stats_rows),
        "latency_ms": sum(s.latency_ms for s in stats_rows),
        "engines": sorted({s.engine for s in stats_rows}),
        **failure_totals(stats_rows),
        "vote_changes": len(changes),
    }
    return Transcript(
        deliberation=deliberation,
        seats=seats,
        rounds=[rounds[n] for n in sorted(rounds)],
        final_votes=final_votes,
        verdict_narrations=verdict_narrations,
        snapshots=dict(snapshots),
        flips=flips,
        totals=totals,
        changes=changes,
    )
