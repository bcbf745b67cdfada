"""Reads for a class: every room at a glance, a teacher's rooms and classes, the groups' debriefs.

Each read costs a fixed number of queries however many turns the rooms have played: a room's card
needs only the room row and its seats (phase, round, the room's state with whose turn it is, the
tally and who is seated all live there); turns are read only by the debrief, in one prefetch.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, Q, QuerySet

from deliberation.access import Viewer, classes_visible_to
from deliberation.models import BallotKind, ClassSession, Deliberation, Phase, Seat, SeatKind
from deliberation.review.debrief import CSV_COLUMNS, Debrief, SeatDebrief, build_debrief, contributions_csv, has_debrief
from deliberation.review.selectors import VOTE_LABELS, build_transcript
from deliberation.rooms.selectors import next_speaker, tally
from deliberation.rooms.stage import TrialTurn, ai_counsel_hold, stage_words, trial_stage_words, trial_turn
from deliberation.rooms.state import STAGE_WAITING, clock_of, lesson_clock, room_of, round_limit, rules_limit
from deliberation.selectors import deliberations_with_record


@dataclass(frozen=True)
class SeatedPerson:
    number: int
    name: str
    kind: str  # "Person" or "External agent"


@dataclass(frozen=True)
class RoomCard:
    """One room as the class page shows it (and the broadcaster re-renders it)."""

    group: int
    deliberation: Deliberation
    tally: dict[str, int]
    turn: dict[str, Any]
    seated: tuple[SeatedPerson, ...]
    open_seats: int
    max_rounds: int
    waiting: bool
    clock: dict[str, Any] = field(default_factory=dict)  # the turn's clock (``state.clock_of``)
    ai_only: bool = False  # started with nobody in it, on the teacher's word (``classes.class_start``), nobody since
    lesson: dict[str, Any] = field(default_factory=dict)  # the lesson's time left (``state.lesson_clock``)
    trial_stage: str = ""  # where the trial stands, in words (``stage.trial_stage_words``)
    stage: str = ""  # where the room stands: the trial's stage, then the deliberation's round
    trial_turn: TrialTurn | None = None  # the counsel's move the trial waits for, with its clock
    # The jury rules cap the rounds below the room's own limit (the Old Bailey's ten): a lesson's card
    # says that limit beside the bell's minutes, as the room's page does; a lesson plan's cap it leaves unsaid.
    rules_limit: bool = False

    @property
    def code(self) -> str:
        return self.deliberation.room_code or ""

    @property
    def free_seats(self) -> int:
        return self.open_seats - len(self.seated)

    @property
    def finished(self) -> bool:
        return self.deliberation.phase == Phase.VERDICT

    @property
    def holds_trial(self) -> bool:
        return bool((self.deliberation.settings or {}).get("trial"))

    @property
    def paused(self) -> bool:
        return bool(self.clock.get("paused"))

    @property
    def steerable(self) -> bool:
        """Whether the teacher's pause, more time and skip apply: at the trial or in deliberation."""
        return bool(self.stage) and self.deliberation.phase in (Phase.TRIAL, Phase.DELIBERATION)

    @property
    def extendable(self) -> bool:
        """A person has the floor or a counsel's move is awaited: more time gives it more seconds."""
        return self.turn.get("who") == "participant" or self.trial_turn is not None

    @property
    def skippable(self) -> bool:
        """More time applies, counsel are still being chosen, or AI counsel hold the trial (the next step)."""
        return self.extendable or self.choosing_counsel or self.ai_trial

    @property
    def ai_trial(self) -> bool:
        """AI counsel hold both sides of the trial: skip plays their next step at once."""
        return ai_counsel_hold(self.deliberation)

    @property
    def choosing_counsel(self) -> bool:
        return self.deliberation.phase == Phase.TRIAL and not (self.deliberation.trial_state or {}).get("opened", True)

    @property
    def skip_words(self) -> str:
        if self.trial_turn is not None:
            return f"End this move: {self.trial_turn.words.lower()}; AI counsel or the next step take over"
        if self.choosing_counsel:
            return "Open the trial now"
        if self.ai_trial:
            return "AI counsel's next step of the trial now"
        return "Pass the turn of whoever has the floor"


def room_card(deliberation: Deliberation, seats: list[Seat], group: int) -> RoomCard:
    """A room's card from its row and its seats (no query)."""
    room = room_of(deliberation)
    seated = tuple(
        SeatedPerson(number=s.number, name=s.display_name, kind=str(s.get_kind_display()))
        for s in seats
        if s.kind in (SeatKind.HUMAN, SeatKind.AGENT) and not s.is_host
    )
    return RoomCard(
        group=group,
        deliberation=deliberation,
        tally=tally(seats),
        turn=next_speaker(deliberation, room, seats),
        seated=seated,
        open_seats=len(room.get("open_seats") or []),
        max_rounds=round_limit(deliberation),
        rules_limit=rules_limit(deliberation),
        waiting=deliberation.phase == Phase.PRESENTATION and room.get("stage") == STAGE_WAITING,
        clock=clock_of(room),
        ai_only=bool(room.get("ai_only")) and not seated,  # until a late student takes a seat in it
        lesson=lesson_clock(room),
        trial_stage=trial_stage_words(deliberation),
        stage=stage_words(deliberation),
        trial_turn=trial_turn(deliberation),
    )


def _rooms(session: ClassSession) -> QuerySet[Deliberation]:
    return session.rooms.select_related(None).order_by("pk")


def class_cards(session: ClassSession) -> list[RoomCard]:
    """Every room of the class, in the order they were made (two queries: rooms, seats)."""
    rooms = _rooms(session).prefetch_related(Prefetch("seats", queryset=Seat.objects.order_by("number")))
    return [room_card(room, list(room.seats.all()), index + 1) for index, room in enumerate(rooms)]


def card_for_broadcast(deliberation_id: int) -> tuple[ClassSession, RoomCard] | None:
    """The class a room belongs to and the room's fresh card, or None for a room in no class.

    One query for a deliberation in no class (every single-player event pays only this); three more
    for a class's room (the room's row, its seats, its place among the class's rooms)."""
    link = (
        ClassSession.rooms.through.objects.filter(deliberation_id=deliberation_id)
        .select_related("classsession")
        .first()
    )
    if link is None:
        return None
    session = link.classsession
    deliberation = Deliberation.objects.defer("engine_state").get(pk=deliberation_id)
    seats = list(Seat.objects.filter(deliberation_id=deliberation_id).order_by("number"))
    group = _rooms(session).filter(pk__lte=deliberation_id).count()
    return session, room_card(deliberation, seats, group)


@dataclass
class ClassRow:
    """A class in "My rooms": its rooms' codes and how many have reached a verdict."""

    session: ClassSession
    rooms: list[Deliberation] = field(default_factory=list)

    @property
    def finished(self) -> int:
        return sum(1 for r in self.rooms if r.phase == Phase.VERDICT)

    @property
    def is_open(self) -> bool:
        return self.finished < len(self.rooms)


def my_rooms(viewer: Viewer, *, user_id: int | None = None) -> dict[str, Any]:
    """The classes this teacher made and the rooms they host outside any class, open ones first
    (three queries: classes, their rooms, lone rooms)."""
    classes = list(
        # Staff see every class through its page; here, as anyone, only the classes they made.
        classes_visible_to(
            ClassSession.objects.select_related("case"), Viewer(session_key=viewer.session_key), user_id=user_id
        ).prefetch_related(Prefetch("rooms", queryset=Deliberation.objects.select_related(None).order_by("pk")))
    )
    rows = [ClassRow(session=c, rooms=list(c.rooms.all())) for c in classes]
    rooms: list[Deliberation] = []
    hosted = Q(pk__in=[])
    if viewer.session_key:
        hosted |= Q(host_session_key=viewer.session_key)
    if user_id is not None:
        hosted |= Q(owner_id=user_id)  # made while logged in: listed in any browser of that account
    if viewer.session_key or user_id is not None:
        rooms = list(
            Deliberation.objects.select_related("case")
            .filter(hosted, room_code__isnull=False, class_sessions__isnull=True)
            .exclude(room_code="")
            .order_by("-created_at", "-pk")
        )
    return {
        "open_classes": [r for r in rows if r.is_open],
        "finished_classes": [r for r in rows if not r.is_open],
        "open_rooms": [r for r in rooms if r.phase != Phase.VERDICT],
        "finished_rooms": [r for r in rooms if r.phase == Phase.VERDICT],
    }


@dataclass(frozen=True)
class GroupDebrief:
    group: int
    deliberation: Deliberation
    debrief: Debrief | None  # None until this room's verdict is in

    @property
    def heading(self) -> str:
        return f"Group {self.group}"

    @property
    def has_students(self) -> bool:
        """Whether anyone sits in this group (the seats come prefetched with the record)."""
        return any(s.is_participant and not s.is_host for s in self.deliberation.seats.all())

    @property
    def counted(self) -> bool:
        """Whether this group is one of the class's juries: a group nobody joined is not, whether it
        still waits or the teacher started it as an AI-only jury."""
        return self.has_students

    @property
    def ai_only(self) -> bool:
        return not self.has_students and self.deliberation.phase != Phase.PRESENTATION

    @property
    def students(self) -> list[StudentLine]:
        """The people and agents of this group: what their words did to the jury, and the votes they
        cast themselves (not the AI juror's vote their seat had before they sat down)."""
        if self.debrief is None:
            return []
        casts = sorted(
            (v for v in self.deliberation.votes.all() if v.ballot == BallotKind.CAST),
            key=lambda v: (v.round_number, v.id),
        )
        return [
            StudentLine(
                part=part,
                votes=tuple(VOTE_LABELS.get(v.value, v.value) for v in casts if v.seat_number == part.seat.number),
            )
            for part in self.debrief.seats
            if part.seat.is_participant
        ]


@dataclass(frozen=True)
class StudentLine:
    part: SeatDebrief
    votes: tuple[str, ...]  # the ballots they cast, in order


def class_debriefs(session: ClassSession) -> list[GroupDebrief]:
    """Every group's debrief (a room without its verdict yet has none), from one prefetched fetch
    of all the class's rooms with their records: a fixed number of queries."""
    rooms = deliberations_with_record().filter(class_sessions=session).order_by("pk")
    out = []
    for index, room in enumerate(rooms):
        transcript = build_transcript(room)
        out.append(
            GroupDebrief(
                group=index + 1,
                deliberation=room,
                debrief=build_debrief(transcript) if has_debrief(transcript) else None,
            )
        )
    return out


def class_contributions_csv(groups: list[GroupDebrief]) -> str:
    """Every student's contributions across the class in one sheet: the single debrief's columns
    (``review.debrief.CSV_COLUMNS``) after ``group`` and ``room``, people and agents only (the AI
    jurors' speeches are in each group's own debrief): their moves as counsel at the trial, then
    their speeches."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(("group", "room", *CSV_COLUMNS))
    for g in groups:
        if g.debrief is None:
            continue
        students = {part.seat.number for part in g.debrief.seats if part.seat.is_participant}
        rows = csv.reader(io.StringIO(contributions_csv(g.debrief)))
        next(rows)  # the header, written once above
        for row in rows:
            if int(row[CSV_COLUMNS.index("seat")]) in students:
                writer.writerow((g.group, g.deliberation.room_code, *row))
    return out.getvalue()
