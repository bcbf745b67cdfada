"""Reads of a held trial: its events from the stored turns, and the record the JSON and the debrief show.

Pure reads over turns already loaded (no query of its own), so pages keep their query counts.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from deliberation.engine.failures import cause_label
from deliberation.engine.trial.course import TrialEvent, groundedness, non_answers, score_counsel, stood_in
from deliberation.engine.trial.phrases import counted
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
        "non_answers": non_answers(events),  # "I couldn't say" / "I didn't see that", not in groundedness
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


def counsel_scorecard(turns: Iterable[Turn], played_by: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The debrief's rows: each side's counsel, who played it (``counsel_players``) and its counts.

    The counts beside a person's name are her own moves: what AI counsel asked or said in her stead
    (in their own name) is counted apart, in a row of its own."""
    events = trial_events(turns)
    if not events:
        return []
    scores = score_counsel(events, own_only=True)
    played_by = played_by or {}
    rows = []
    for side in ("prosecution", "defense"):
        counted = [(SCORE_LABELS[k], v) for k, v in scores[side].items()]
        stand_ins = sum(1 for e in events if e.side == side and stood_in(e) and e.kind in ("question", "speech"))
        if stand_ins:
            counted.append((STOOD_IN_LABEL, stand_ins))
        rows.append(
            {"side": side, "label": SIDE_LABELS[side], "played_by": played_by.get(side, AI_COUNSEL), "rows": counted}
        )
    return rows


def trial_summary_lines(events: list[TrialEvent]) -> str:
    """The trial's first summary line: answers, objections and struck answers, counted in agreement."""
    rulings = [e for e in events if e.kind == "ruling"]
    answers = sum(1 for e in events if e.kind == "answer")
    struck = sum(1 for e in events if e.struck)
    unanswered = non_answers(events)
    found = f"{groundedness(events):.0%} found in the witness's record"
    if unanswered:  # a witness who could not say gave no answer from its record: counted apart
        found = (
            f"{answers - unanswered} from the witness's record, {groundedness(events):.0%} of them with every "
            "fact in it; "
            f'{unanswered} "I couldn\'t say" or "I didn\'t see that"'
        )
    return (
        f"Trial: {counted(answers, 'witness answer')} ({found}), "
        f"{counted(len(rulings), 'objection')} ({sum(1 for e in rulings if e.sustained)} sustained), "
        f"{counted(struck, 'answer')} struck."
    )


def trial_summary(turns: Iterable[Turn], played_by: dict[str, str] | None = None) -> list[str]:
    """The trial in a few plain lines (the summary export): what the witnesses said and how much of it
    stood, then each side's counsel, who played it and how their questions and objections fared."""
    events = trial_events(turns)
    if not events:
        return []
    lines = [trial_summary_lines(events)]
    for row in counsel_scorecard(turns, played_by):
        counts = "; ".join(f"{label.lower()} {value}" for label, value in row["rows"])
        lines.append(f"{row['label']} ({row['played_by']}): {counts}.")
    return lines
