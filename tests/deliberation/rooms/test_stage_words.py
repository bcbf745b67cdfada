"""The trial's stage as the teacher reads it on the class page and the teacher's view."""

from __future__ import annotations

from types import SimpleNamespace

from deliberation.models import Phase
from deliberation.rooms.stage import trial_stage_words


def _room(plan: list[dict], events: list[dict], *, review: str = "") -> SimpleNamespace:
    state = {"plan": plan, "cursor": len([e for e in events if e["kind"] == "question"]), "events": events}
    state["review"] = review
    return SimpleNamespace(phase=Phase.TRIAL, trial_state={"opened": True, "state": state})


PLAN = [
    {"kind": "question", "side": "prosecution", "witness": "W1", "part": "chief", "stage": "prosecution_case"},
    {"kind": "question", "side": "defense", "witness": "W1", "part": "cross", "stage": "prosecution_case"},
]
ASKED = [
    {"kind": "question", "witness_id": "W1", "part": "chief", "stage": "prosecution_case", "speaker": "Counsel"},
    {"kind": "answer", "witness_id": "W1", "part": "chief", "stage": "prosecution_case", "speaker": "Ms Hale"},
]


def test_while_the_last_answer_in_chief_awaits_an_objection_the_stage_is_still_the_examination_in_chief() -> None:
    words = trial_stage_words(_room(PLAN, ASKED, review="defense"))
    assert words == "The prosecution's witness Ms Hale: examination in chief"


def test_once_the_answer_stands_the_next_question_is_the_cross_examination() -> None:
    assert trial_stage_words(_room(PLAN, ASKED)) == "The prosecution's witness Ms Hale: cross-examination"


def test_a_witness_is_named_from_the_moment_it_is_called_before_it_has_answered() -> None:
    plan = [
        {"kind": "call", "side": "defense", "witness": "W2", "name": "Tasha Hale", "stage": "defence_case"},
        {"kind": "question", "side": "defense", "witness": "W2", "part": "chief", "stage": "defence_case"},
    ]
    called = [{"kind": "call", "witness_id": "W2", "stage": "defence_case", "speaker": "Counsel for the defence"}]
    state = {"plan": plan, "cursor": 1, "events": called, "review": ""}
    room = SimpleNamespace(phase=Phase.TRIAL, trial_state={"opened": True, "state": state})
    assert trial_stage_words(room) == "The defence's witness Tasha Hale: examination in chief"
