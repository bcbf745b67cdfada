"""What the courtroom shows: the reads and view-models behind the page and its live partials.

Everything a page or a broadcast needs is loaded in a fixed number of queries (the deliberation
with its case, then one query per prefetched relation), however many rounds have been played.
The view-models below only rearrange what was loaded; they never touch the database.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils.text import capfirst

from cases.models import Case
from cases.retrieval import evidence_id, witness_id
from deliberation.engine import ending
from deliberation.engine import rules as jury_rules
from deliberation.engine import summary as engine_summary
from deliberation.engine.discharge import allows_discharge
from deliberation.engine.moves import UNMOVED
from deliberation.engine.strategies import MAX_TEXT
from deliberation.engine.trial.phrases import charge_phrase
from deliberation.game_settings import KEY_NARRATION, KEY_SHOW_METERS
from deliberation.models import (
    Deliberation,
    Narration,
    NarrationStatus,
    Phase,
    RoundStatus,
    Seat,
    SeatKind,
    Turn,
    TurnKind,
)
from deliberation.review.failures import StandIn
from deliberation.rooms.state import current_seat, is_room, lesson_clock, room_of, round_limit, round_now, rules_limit
from deliberation.trial.panel import trial_context


@dataclass(frozen=True)
class StrategyOption:
    id: str
    label: str
    hint: str
    free_text: str = "optional"  # optional | required | none
    needs_target: bool = False


# The spec's six strategies ("Player Input: Strategy + Optional Free Text"), in its order and words.
STRATEGIES: tuple[StrategyOption, ...] = (
    StrategyOption("challenge_evidence", "Challenge Evidence", "Point out weaknesses in a specific piece of evidence"),
    StrategyOption("question_witness", "Question Witness Credibility", "Raise doubts about a witness's reliability"),
    StrategyOption("reasonable_doubt", "Appeal to Reasonable Doubt", "Emphasize the burden of proof", free_text="none"),
    StrategyOption("alternative_theory", "Present Alternative Theory", "Suggest what might have really happened"),
    StrategyOption(
        "address_juror", "Address Specific Juror", "Respond to or persuade a specific juror", needs_target=True
    ),
    StrategyOption("free_argument", "Make Custom Argument", "Say whatever you want", free_text="required"),
)
STRATEGY_LABELS = {option.id: option.label for option in STRATEGIES}
ARGUMENT_LABELS = {
    "evidence": "Evidence",
    "emotional": "Emotional",
    "logical": "Logical",
    "question": "Question",
    "moral": "Moral",
    "narrative": "Narrative",
}
VOTE_LABELS = {"guilty": "Guilty", "not_guilty": "Not guilty", "": "No vote yet"}
MESSAGE_STYLE = {
    TurnKind.SPEECH: "speech",
    TurnKind.PROCESS: "process",
    TurnKind.JUDGE: "judge",
    TurnKind.NOTE: "note",
    TurnKind.PASS: "process",
    TurnKind.TRIAL: "trial",
}


@dataclass(frozen=True)
class Tally:
    guilty: int
    not_guilty: int

    @property
    def leader(self) -> str:
        if self.guilty == self.not_guilty:
            return "split"
        return "guilty" if self.guilty > self.not_guilty else "not_guilty"

    @property
    def label(self) -> str:
        """The spec's form: "7-5 GUILTY" (majority first), "6-6 SPLIT"."""
        high, low = max(self.guilty, self.not_guilty), min(self.guilty, self.not_guilty)
        word = {"guilty": "GUILTY", "not_guilty": "NOT GUILTY", "split": "SPLIT"}[self.leader]
        return f"{high}–{low} {word}"


def tally_of(seats: list[Seat]) -> Tally | None:
    votes = [seat.vote for seat in seats if seat.vote]
    if not votes:
        return None
    return Tally(guilty=votes.count("guilty"), not_guilty=votes.count("not_guilty"))


CALL_SPLIT = (
    "The votes stand at {tally}. Calling the final vote now reads the verdict from them: short of "
    "{required}, the jury is a HUNG JURY, and the game ends without a verdict."
)
CALL_UNANIMOUS = "The votes stand at {tally}. Calling the final vote now gives the verdict: {verdict}."


def call_outcome(tally: Tally | None, *, engine_state: dict[str, Any] | None = None, rules: str = "") -> str:
    """What calling the final vote would give right now under the jury's rules, for the confirmation."""
    if tally is None:
        return ""
    state = engine_state or {}
    name = rules or jury_rules.DEFAULT_RULES
    progress = jury_rules.RuleProgress.from_dict(state.get("rule_progress"))
    size = 12 - len(state.get("discharged") or [])
    votes = dict(enumerate(["guilty"] * tally.guilty + ["not_guilty"] * tally.not_guilty))
    found = jury_rules.valid_verdict(votes, rules=jury_rules.rule_set(name), progress=progress)
    if found is None or len(votes) < size:
        required = jury_rules.required_verdict(name, size=size, direction_given=bool(progress.direction_round))
        return CALL_SPLIT.format(tally=tally.label, required=required)
    return CALL_UNANIMOUS.format(tally=tally.label, verdict="GUILTY" if found == "guilty" else "NOT GUILTY")


def item_choices(case: Case) -> dict[str, list[tuple[str, str]]]:
    """The evidence a challenge and the witnesses a question may pick, by their case-file ids.

    Only the labels and names are read: every participant's controls show these, and whole rows
    (descriptions, testimony) were most of a controls fetch's database work."""
    return {
        "evidence_choices": [
            (evidence_id(i), label) for i, label in enumerate(case.evidence.values_list("label", flat=True))
        ],
        "witness_choices": [
            (witness_id(i), name) for i, name in enumerate(case.witnesses.values_list("name", flat=True))
        ],
    }


def witness_roles(case: Case) -> dict[str, tuple[str, str]]:
    """Case-file id -> (name, role) of each witness, for the on-the-stand panel."""
    return {witness_id(i): (w.name, w.role) for i, w in enumerate(case.witnesses.all())}


def outlook(deliberation: Deliberation, seats: list[Seat]) -> str:
    """How close the jury is to ending on its own (``ending.verdict_outlook``), for the people in it.
    Read from the state's summary (``engine.summary``), never the whole state."""
    summary = deliberation.engine_summary or {}
    if deliberation.phase != Phase.DELIBERATION or not summary:
        return ""
    engine_settings = engine_summary.settings_of(summary)
    participants = [seat.number for seat in seats if seat.kind != SeatKind.AI]
    sitting = [seat for seat in seats if not seat.discharged_round]
    return ending.verdict_outlook(
        rules=engine_settings.rules,
        progress=jury_rules.RuleProgress.from_dict(summary.get("rule_progress")),
        size=len(sitting),
        votes={seat.number: seat.vote for seat in seats if seat.vote},
        round_number=deliberation.round_number,
        max_rounds=jury_rules.round_limit_of(summary, engine_settings.max_rounds),
        rounds_without_change=int(summary.get("rounds_without_change", 0)),
        stability_rounds=engine_settings.stability_rounds,
        waiting=engine_summary.waiting_in(summary, participants),
        turns_needed=engine_settings.turns_before_verdict,
    )


@dataclass(frozen=True)
class Reaction:
    name: str
    emoji: str
    delta: float
    thought: str
    persuaded: bool

    @property
    def direction(self) -> str:
        if abs(self.delta) < UNMOVED:  # shown as 0.00; the reaction's words say unmoved too
            return "unmoved"
        return "towards guilty" if self.delta > 0 else "towards not guilty"


@dataclass(frozen=True)
class Flip:
    name: str
    before: str
    after: str


@dataclass
class Message(StandIn):
    turn: Turn
    style: str
    emoji: str = ""
    target_name: str = ""
    strategy_label: str = ""
    argument_label: str = ""
    is_player: bool = False
    reactions: list[Reaction] = field(default_factory=list)
    flips: list[Flip] = field(default_factory=list)
    stood_in_for: str = ""  # the person whose empty seat the speaking AI juror played (``Turn.stood_in``)


def face(seat: Seat | None, turn: Turn) -> str:
    """A chat message's emoji: the seat's face; the AI juror speaking in an away person's empty seat
    shows its own face, not a person's; the judge's scales."""
    if seat is None:
        return "⚖️" if turn.kind == TurnKind.JUDGE else ""
    return seat.emoji if turn.stood_in else seat.face


def messages_for(turns: list[Turn], seats: dict[int, Seat], *, player_seat: int | None) -> list[Message]:
    """Turns as the chat shows them: names resolved from the seats already loaded; messages the host
    hid are shown to nobody."""

    def name(number: int | None) -> str:
        seat = seats.get(number) if number is not None else None
        return seat.display_name if seat else (f"Juror {number}" if number else "")

    people = {number for number, seat in seats.items() if seat.is_participant}  # no listeners: ``heard_by_jurors``
    out = []
    for turn in turns:
        if turn.hidden_at is not None:
            continue
        seat = seats.get(turn.seat_number) if turn.seat_number else None
        out.append(
            Message(
                turn=turn,
                style=MESSAGE_STYLE.get(turn.kind, "note"),
                emoji=face(seat, turn),
                stood_in_for=(seat.display_name or "a participant") if seat and turn.stood_in else "",
                target_name=name(turn.target_seat),
                strategy_label=STRATEGY_LABELS.get(turn.strategy, ""),
                argument_label=ARGUMENT_LABELS.get(turn.argument_type, turn.argument_type.capitalize()),
                is_player=player_seat is not None and turn.seat_number == player_seat,
                reactions=[
                    Reaction(
                        name=name(r.get("seat")),
                        emoji=seats[r["seat"]].face if r.get("seat") in seats else "",
                        delta=float(r.get("delta", 0.0)),
                        thought=str(r.get("thought", "")),
                        persuaded=bool(r.get("persuaded")),
                    )
                    for r in turn.heard_by_jurors(people)
                    if r.get("thought") or abs(float(r.get("delta", 0.0))) >= UNMOVED
                ],
                flips=[
                    Flip(
                        name=name(f.get("seat")),
                        before=VOTE_LABELS.get(f.get("from", ""), ""),
                        after=VOTE_LABELS.get(f.get("to", ""), ""),
                    )
                    for f in turn.flips
                ],
            )
        )
    return out


def court_queryset() -> QuerySet[Deliberation]:
    """A deliberation with everything the courtroom page shows (a fixed number of queries)."""
    return Deliberation.objects.select_related("case").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.order_by("number")),
        Prefetch("turns", queryset=Turn.objects.order_by("sequence")),
        Prefetch("narrations", queryset=Narration.objects.order_by("created_at", "id")),
        "case__defendants",
        "case__evidence",
        "case__witnesses",
    )


def judge_narration(narrations: list[Narration]) -> Narration | None:
    """The judge's latest line that can be heard or read: ready, text only, or already speaking
    its first pieces while the rest renders."""
    for narration in reversed(narrations):
        if narration.status != NarrationStatus.PENDING or narration.pieces:
            return narration
    return narrations[-1] if narrations else None


def latest_narration(deliberation_id: int) -> Narration | None:
    return judge_narration(list(Narration.objects.filter(deliberation_id=deliberation_id).order_by("created_at", "id")))


def is_host(deliberation: Deliberation, session_key: str | None) -> bool:
    """The person who started the deliberation holds seat 7 and the controls; others watch."""
    return bool(deliberation.host_plays and session_key and deliberation.host_session_key == session_key)


PHASE_RANK = {
    Phase.SETUP: 0,
    Phase.PRESENTATION: 0,
    Phase.SIDE_SELECTION: 0,
    Phase.TRIAL: 0,
    Phase.INITIAL_VOTE: 1,
    Phase.DELIBERATION: 1,
    Phase.FINAL_VOTE: 2,
    Phase.VERDICT: 2,
}


def stamp(deliberation: Deliberation) -> int:
    """A number that only grows as a deliberation moves on (phase, round, round under way).

    Fragments carry it so a browser can refuse an older fragment arriving after a newer one
    (an HTTP answer racing the websocket, say).
    """
    running = 1 if deliberation.round_status == RoundStatus.RUNNING else 0
    if deliberation.phase == Phase.TRIAL:  # grows with every step of the trial (below the first ballot's)
        return 50_000 + int((deliberation.trial_state or {}).get("stored", 0)) * 2 + running
    return PHASE_RANK.get(deliberation.phase, 0) * 100_000 + deliberation.round_number * 2 + running


def box_context(deliberation: Deliberation, seats: list[Seat]) -> dict[str, Any]:
    """What the jury box, its seats, the tally and a chat message need: no query of its own, so a
    pushed vote (one seat, the tally, the vote in the chat) costs only what it shows."""
    by_number = {seat.number: seat for seat in seats}
    room = is_room(deliberation)
    # In a room the same broadcast goes to every participant, so no seat is "you" on the server:
    # each page marks its own seat in the browser (static/js/room.js).
    player_seat = deliberation.player_seat if deliberation.host_plays and not room else None
    return {
        "deliberation": deliberation,
        "stamp": stamp(deliberation),
        "seats": seats,
        "seat_by_number": by_number,
        "player_seat": player_seat,
        "tally": tally_of(seats),
        "running": deliberation.round_status == RoundStatus.RUNNING,
        "show_meters": bool((deliberation.settings or {}).get(KEY_SHOW_METERS, True)),
        "is_room": room,
        "turn_seat": current_seat(room_of(deliberation)) if room else None,
        "withdrawn_seats": engine_summary.withdrawn_of(deliberation.engine_summary or {}),
    }


def discharge_choices(deliberation: Deliberation, seats: Iterable[Seat]) -> list[tuple[int, str]]:
    """The AI jurors the judge may discharge now, as (seat, name), for a host's control: none
    outside deliberation or under rules that allow no discharge. The engine still checks the
    minimum jury when one is chosen (``engine.discharge``)."""
    if deliberation.phase != Phase.DELIBERATION or not allows_discharge(deliberation.jury_rules.name):
        return []
    return [(s.number, s.display_name) for s in seats if s.kind == SeatKind.AI and not s.discharged_round]


def base_context(deliberation: Deliberation, seats: list[Seat]) -> dict[str, Any]:
    """What the banner, jury box, tally and controls need (shared by page and broadcasts)."""
    context = box_context(deliberation, seats)
    player_seat, tally = context["player_seat"], context["tally"]
    you = context["seat_by_number"].get(player_seat) if player_seat else None
    return {
        **context,
        "case": deliberation.case,
        # Each charge as a court says it: "Robbery with violence", not the record's "Violent theft: robbery".
        "charges_said": [capfirst(charge_phrase(charge)) for charge in deliberation.case.charges],
        "your_vote": VOTE_LABELS.get(you.vote, "") if you and you.vote else "",
        "your_vote_value": you.vote if you else "",
        "outlook": outlook(deliberation, seats),
        "call_outcome": call_outcome(
            tally, engine_state=deliberation.engine_summary, rules=(deliberation.settings or {}).get("rules", "")
        ),
        "max_text": MAX_TEXT,
        # the round under way and the limit it plays under, as the teacher's view and the class card
        # give them (``rooms.state``): the rules' own limit (the Old Bailey's ten rounds) is shown
        # beside a lesson's minutes; a plan's cap is not
        "round_now": round_now(deliberation),
        "max_rounds": round_limit(deliberation),
        "rules_limit": rules_limit(deliberation),
        # a room with a lesson's bell counts its time in the lesson's minutes, not the round limit
        "lesson_clock": lesson_clock(room_of(deliberation)) if is_room(deliberation) else {},
        # the host's pause, in the phase pill at the top of the page (on a phone the room's banner is screens below)
        "room_paused": is_room(deliberation) and bool(room_of(deliberation).get("paused")),
        "narrated": bool((deliberation.settings or {}).get(KEY_NARRATION, True)),
        "deliberating": deliberation.phase == Phase.DELIBERATION,
        **trial_context(deliberation, witness_roles(deliberation.case), host=True),
        "trial_on": bool((deliberation.settings or {}).get("trial")),
        "choosing_side": deliberation.phase in (Phase.PRESENTATION, Phase.SIDE_SELECTION)
        and not deliberation.player_side,
        "finished": deliberation.phase == Phase.VERDICT,
        "strategies": STRATEGIES,
        "targets": [s for s in seats if s.number != player_seat and s.kind == SeatKind.AI],
        "discharge_choices": discharge_choices(deliberation, seats),
        **item_choices(deliberation.case),
    }


def page_context(deliberation: Deliberation, *, session_key: str | None) -> dict[str, Any]:
    """The whole courtroom, from a deliberation loaded with ``court_queryset``."""
    seats = list(deliberation.seats.all())
    context = base_context(deliberation, seats)
    context.update(
        host=is_host(deliberation, session_key),
        messages_list=messages_for(
            list(deliberation.turns.all()), context["seat_by_number"], player_seat=context["player_seat"]
        ),
        narration=judge_narration(list(deliberation.narrations.all())),
        defendants=list(deliberation.case.defendants.all()),
        evidence=list(deliberation.case.evidence.all()),
        witnesses=list(deliberation.case.witnesses.all()),
    )
    return context
