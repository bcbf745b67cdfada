"""The debrief's "Counsel at the trial": beside a student's name, only her own moves count."""

from __future__ import annotations

from deliberation.engine.trial.counsel import side_name, stand_in_name
from deliberation.engine.trial.course import score_counsel
from deliberation.engine.trial.events import TrialEvent
from deliberation.models import Turn, TurnKind
from deliberation.trial.record import SCORE_LABELS, STOOD_IN_LABEL, counsel_scorecard, trial_events


def _turns(events: list[TrialEvent]) -> list[Turn]:
    return [
        Turn(
            round_number=0,
            sequence=e.index + 1,
            kind=TurnKind.TRIAL,
            speaker_name=e.speaker,
            strategy=e.kind,
            content=e.text,
            trial=e.to_dict(),
        )
        for e in events
    ]


def _examination() -> list[TrialEvent]:
    """Maya asks two questions for the prosecution; her third move ran out and AI counsel asked in
    her stead, in their own name. Every answer helped the prosecution."""
    said: list[tuple[str, str, str]] = [
        ("question", side_name("prosecution"), "prosecution"),
        ("answer", "Anjali Mehta", "witness"),
        ("question", stand_in_name("prosecution"), "prosecution"),
        ("answer", "Anjali Mehta", "witness"),
        ("question", side_name("prosecution"), "prosecution"),
        ("answer", "Anjali Mehta", "witness"),
    ]
    return [
        TrialEvent(
            index=i,
            stage="examination",
            kind=kind,
            speaker=speaker,
            side=side,
            text=f"{kind} {i}",
            witness_id="W1",
            part="chief",
            helps="prosecution" if kind == "answer" else "",
            grounded=True if kind == "answer" else None,
        )
        for i, (kind, speaker, side) in enumerate(said)
    ]


def test_a_question_ai_counsel_asked_in_her_stead_is_not_counted_as_hers():
    turns = _turns(_examination())
    rows = counsel_scorecard(turns, {"prosecution": "seat 3: maya r"})
    prosecution = dict(next(r for r in rows if r["side"] == "prosecution")["rows"])
    assert prosecution[SCORE_LABELS["questions"]] == 2  # she typed two
    assert prosecution[SCORE_LABELS["questions_allowed"]] == 2
    assert prosecution[SCORE_LABELS["answers_helped"]] == 2  # the third answered AI counsel's question
    assert prosecution[STOOD_IN_LABEL] == 1  # AI counsel's move, counted apart
    defence = dict(next(r for r in rows if r["side"] == "defense")["rows"])
    assert STOOD_IN_LABEL not in defence


def test_the_sides_record_in_the_json_still_counts_every_move_made_for_the_side():
    scores = score_counsel(trial_events(_turns(_examination())))
    assert scores["prosecution"]["questions"] == 3 and scores["prosecution"]["answers_helped"] == 3
