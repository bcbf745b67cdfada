"""Reads of a held trial: its events from the stored turns, and the record the JSON and the debrief show.

Pure reads over turns already loaded (no query of its own), so pages keep their query counts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from deliberation.engine.failures import cause_label
from deliberation.engine.trial.course import TrialEvent, groundedness, non_answers, score_counsel, stood_in
from deliberation.engine.trial.phrases import counted
from deliberation.engine.trial.rules import GROUND_WORDS
from deliberation.models import Turn, TurnKind

SCORE_LABELS = {
    "questions": "Questions asked",
    "questions_allowed": "Questions allowed",
    "objections": "Objections made",
    "objections_sustained": "Objections sustained",
    "sustained_against": "Objections sustained against",
    "points_exposed_in_cross": "Points exposed in cross-examination",
    "answers_helped": "Witness answers that helped the side",
}
SIDE_LABELS = {"prosecution": "Counsel for the prosecution", "defense": "Counsel for the defence"}


def trial_events(turns: Iterable[Turn]) -> list[TrialEvent]:
    return [TrialEvent.from_dict(t.trial) for t in turns if t.kind == TurnKind.TRIAL and t.trial]


def _answered_by(turn: Turn) -> dict[str, Any]:
    """Who gave a witness's answer: the model (``engine``), or the offline rule standing in for it."""
    if turn.is_fallback:
        # The cause in words only: the client's own words (a URL, a host) stay in the log and the admin.
        return {"answered_by": "offline", "fallback": cause_label(turn.fallback_cause or "unusable")}
    return {"answered_by": turn.engine or "offline"}


def trial_record(turns: Iterable[Turn]) -> dict[str, Any] | None:
    """The ``trial`` object of ``deliberate --json``: turns, objections, rulings, groundedness, scores,
    and for each answer who gave it (a model witness, or the offline rule, and why it stood in)."""
    held = [t for t in turns if t.kind == TurnKind.TRIAL and t.trial]
    events = [TrialEvent.from_dict(t.trial) for t in held]
    if not events:
        return None
    answers = [t for t in held if t.strategy == "answer"]
    return {
        "turns": [
            {
                "stage": e.stage,
                "kind": e.kind,
                "speaker": e.speaker,
                "side": e.side,
                "witness": e.witness_id,
                "part": e.part,
                "content": e.text,
                "struck": e.struck,
                **({"grounded": e.grounded, **_answered_by(t)} if e.kind == "answer" else {}),
            }
            for e, t in zip(events, held, strict=True)
        ],
        "witness_fallbacks": sum(1 for t in answers if t.is_fallback),
        "objections": [
            {"index": e.index, "side": e.side, "ground": e.ground, "witness": e.witness_id}
            for e in events
            if e.kind == "objection"
        ],
        "rulings": [
            {"index": e.index, "ground": e.ground, "sustained": e.sustained, "reason": e.text}
            for e in events
            if e.kind == "ruling"
        ],
        "answers": sum(1 for e in events if e.kind == "answer"),
        "non_answers": non_answers(events),
        "struck": sum(1 for e in events if e.struck),
        "groundedness": round(groundedness(events), 4),
        "scores": score_counsel(events),
    }


AI_COUNSEL = "AI counsel"


def counsel_players(stored: dict[str, Any] | None, names: dict[int, str]) -> dict[str, str]:
    """Who played each side's counsel, from a deliberation's ``trial_state``: "you" for the player of
    a game, "seat N: name" for a room's participant or agent; a side nobody took is AI counsel's."""
    stored = stored or {}
    people = (stored.get("state") or {}).get("people", [])
    seats: dict[str, int] = stored.get("counsel", {})
    played: dict[str, str] = {}
    for side in people:
        seat = seats.get(side)
        played[side] = "you" if seat is None else f"seat {seat}: {names.get(seat, f'Juror {seat}')}"
    return played


STOOD_IN_LABEL = "Moves AI counsel made in their stead"
BEFORE_LABEL = "Moves AI counsel made before the side was claimed"
MOVES = ("question", "speech", "objection")


def counsel_since(stored: dict[str, Any] | None) -> dict[str, int]:
    """Where each side's moves become the person's who claimed it once the trial had opened (the
    index of its first event after the claim, ``counsel_from``); a side claimed before, from 0."""
    return {side: int(index) for side, index in ((stored or {}).get("counsel_from") or {}).items()}


def counsel_scorecard(
    turns: Iterable[Turn], played_by: dict[str, str] | None = None, stored: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """The debrief's rows: each side's counsel, who played it (``counsel_players``) and its counts.

    The counts beside a person's name are her own moves: what AI counsel asked or said in her stead
    (in their own name), and what AI counsel did for the side before she claimed it (``stored``: the
    room's ``trial_state``, ``counsel_since``), are counted apart, each in a row of its own."""
    events = trial_events(turns)
    if not events:
        return []
    played_by = played_by or {}
    since = {side: index for side, index in counsel_since(stored).items() if side in played_by}
    scores = score_counsel(events, own_only=True, since=since)
    rows = []
    for side in ("prosecution", "defense"):
        counted = [(SCORE_LABELS[k], v) for k, v in scores[side].items()]
        stand_ins = sum(1 for e in events if e.side == side and stood_in(e) and e.kind in ("question", "speech"))
        if stand_ins:
            counted.append((STOOD_IN_LABEL, stand_ins))
        before = sum(1 for e in events if e.side == side and e.kind in MOVES and e.index < since.get(side, 0))
        if before:
            counted.append((BEFORE_LABEL, before))
        rows.append(
            {"side": side, "label": SIDE_LABELS[side], "played_by": played_by.get(side, AI_COUNSEL), "rows": counted}
        )
    return rows


def trial_summary_lines(events: list[TrialEvent]) -> str:
    """The trial's first summary line: answers from the record, non-answers ("I couldn't say") apart,
    objections and struck answers, counted in agreement."""
    rulings = [e for e in events if e.kind == "ruling"]
    silent = non_answers(events)
    answers = sum(1 for e in events if e.kind == "answer") - silent
    struck = sum(1 for e in events if e.struck)
    return (
        f"Trial: {counted(answers, 'witness answer')} ({groundedness(events):.0%} found in the witness's record) "
        f'and {counted(silent, "non-answer")} ("I couldn\'t say"), '
        f"{counted(len(rulings), 'objection')} ({sum(1 for e in rulings if e.sustained)} sustained), "
        f"{counted(struck, 'answer')} struck."
    )


def trial_summary(
    turns: Iterable[Turn], played_by: dict[str, str] | None = None, stored: dict[str, Any] | None = None
) -> list[str]:
    """The trial in a few plain lines (the summary export): what the witnesses said and how much of it
    stood, then each side's counsel, who played it and how their questions and objections fared."""
    events = trial_events(turns)
    if not events:
        return []
    lines = [trial_summary_lines(events)]
    for row in counsel_scorecard(turns, played_by, stored):
        counts = "; ".join(f"{label.lower()} {value}" for label, value in row["rows"])
        lines.append(f"{row['label']} ({row['played_by']}): {counts}.")
    return lines


# What a person did as counsel, move by move: what the teacher's view, the debrief's sheet and the
# exports show as theirs. A move made in AI counsel's name in their stead (``stood_in``), a witness
# called (AI counsel call the plan's witnesses for either side) and what AI counsel did for the side
# before the person took it are not theirs.
MOVE_WORDS = {
    "opening": "Opening speech",
    "closing": "Closing speech",
    "question": "Question",
    "objection": "Objection",
}
PART_WORDS = {"chief": "examination in chief", "cross": "cross-examination"}


@dataclass(frozen=True)
class CounselMove:
    """One move a person made as counsel: ``kind`` is opening | closing | question | objection."""

    seat: int
    side: str
    kind: str
    text: str
    sequence: int  # the stored turn's sequence (the transcript's anchor)
    witness: str = ""  # the witness questioned (or whose answer was objected to), by name
    part: str = ""  # chief | cross
    ground: str = ""  # an objection's ground
    outcome: str = ""  # "answered", "answer struck", "not answered: objection sustained"; "sustained", "overruled"

    @property
    def label(self) -> str:
        """ "Question to Anjali Mehta (cross-examination)", "Objection: hearsay", "Opening speech"."""
        if self.kind == "question":
            to = f" to {self.witness}" if self.witness else ""
            part = f" ({PART_WORDS[self.part]})" if self.part in PART_WORDS else ""
            return f"Question{to}{part}"
        if self.kind == "objection":
            return f"Objection: {GROUND_WORDS.get(self.ground, self.ground).lower()}" if self.ground else "Objection"
        return MOVE_WORDS.get(self.kind, self.kind)


@dataclass
class CounselWork:
    """A seat's work as counsel at the trial: the side, its own moves in order, and how many moves AI
    counsel made for that side in its stead (a turn that ran out, or "let the AI ...")."""

    seat: int
    side: str
    moves: list[CounselMove] = field(default_factory=list)
    stood_in: int = 0

    @property
    def label(self) -> str:
        return SIDE_LABELS.get(self.side, self.side)

    def count(self, kind: str) -> int:
        return sum(1 for m in self.moves if m.kind == kind)


def _witness_names(events: list[TrialEvent], stored: dict[str, Any]) -> dict[str, str]:
    plan = (stored.get("state") or {}).get("plan") or []
    names = {step["witness"]: step.get("name", "") for step in plan if step.get("kind") == "call"}
    for event in events:
        if event.kind == "answer" and event.witness_id and not names.get(event.witness_id):
            names[event.witness_id] = event.speaker
    return names


def _question_outcome(events: list[TrialEvent], index: int) -> str:
    """What came of the question at ``index``: answered, its answer struck, or not answered."""
    for event in events[index + 1 :]:
        if event.kind == "answer":
            return "answer struck" if event.struck else "answered"
        if event.kind == "ruling" and event.sustained:
            return "not answered: objection sustained"
        if event.kind in ("question", "speech", "call", "directions"):
            break
    return "not answered"


def _ruling_after(events: list[TrialEvent], index: int) -> str:
    ruling = next((e for e in events[index + 1 :] if e.kind == "ruling"), None)
    if ruling is None or ruling.sustained is None:
        return ""
    return "sustained" if ruling.sustained else "overruled"


def counsel_work(turns: Iterable[Turn], stored: dict[str, Any] | None) -> dict[int, CounselWork]:
    """Each seat's work as counsel, by seat number, from a room's stored trial turns and its
    ``trial_state`` (who holds which side, and from which move on: ``counsel_from``). Empty for a
    game without a trial or where nobody took counsel. No query: the turns are loaded."""
    stored = stored or {}
    seats: dict[str, int] = stored.get("counsel") or {}
    if not seats:
        return {}
    held = [t for t in turns if t.kind == TurnKind.TRIAL and t.trial]
    events = [TrialEvent.from_dict(t.trial) for t in held]
    since = counsel_since(stored)
    names = _witness_names(events, stored)
    work = {seat: CounselWork(seat=seat, side=side) for side, seat in seats.items()}
    for turn, event in zip(held, events, strict=True):
        seat = seats.get(event.side)
        if seat is None or event.index < since.get(event.side, 0):
            continue
        if stood_in(event):
            if event.kind in ("question", "speech"):
                work[seat].stood_in += 1
            continue
        if event.kind == "speech":
            kind = "closing" if event.stage == "closings" else "opening"
            work[seat].moves.append(CounselMove(seat, event.side, kind, event.text, turn.sequence))
        elif event.kind == "question":
            outcome = _question_outcome(events, event.index)
            witness = names.get(event.witness_id, "")
            work[seat].moves.append(
                CounselMove(seat, event.side, "question", event.text, turn.sequence, witness, event.part, "", outcome)
            )
        elif event.kind == "objection":
            witness = names.get(event.witness_id, "")
            outcome = _ruling_after(events, event.index)
            work[seat].moves.append(
                CounselMove(
                    seat, event.side, "objection", event.text, turn.sequence, witness, event.part, event.ground, outcome
                )
            )
    return work


def counsel_seat_by_turn(work: dict[int, CounselWork]) -> dict[int, int]:
    """The seat whose own move each trial turn was (by the turn's sequence), for the transcript."""
    return {move.sequence: seat for seat, done in work.items() for move in done.moves}
