"""The trial step by step with a person as counsel: it waits for their moves, and only for theirs."""

from __future__ import annotations

import json

import pytest

from deliberation.engine.initial import new_state
from deliberation.engine.phases import advance as advance_phase
from deliberation.engine.trial import steps as trial_steps
from deliberation.engine.trial.course import TrialState, admitted, new_trial
from deliberation.engine.trial.jury import cast_ballot_after_trial
from tests.deliberation.engine.factories import build_case, build_jury


def _trial(people: list[str], seed: int = 4) -> tuple[TrialState, object]:
    case = build_case()
    state = new_trial(case, seed=seed)
    state.people = people
    return state, case


def _to_next_wait(state: TrialState, case: object) -> trial_steps.Waiting | None:
    trial_steps.advance(state, case, max_steps=500)
    return trial_steps.awaiting(state)


def test_the_defence_counsel_is_asked_for_their_opening_after_the_prosecutions():
    state, case = _trial(["defense"])
    waiting = _to_next_wait(state, case)
    assert waiting == trial_steps.Waiting(side="defense", what=trial_steps.SPEECH, kind="opening")
    assert [e.speaker for e in state.events] == ["Counsel for the prosecution"]
    trial_steps.speak(state, case, side="defense", text="My client was at home, members of the jury.")
    assert state.events[-1].text == "My client was at home, members of the jury."


def test_the_other_sides_question_is_answered_and_then_waits_for_the_persons_objection():
    state, case = _trial(["defense"])
    _to_next_wait(state, case)
    trial_steps.speak(state, case, side="defense")  # AI counsel speaks for them
    waiting = _to_next_wait(state, case)
    assert waiting is not None and waiting.what == trial_steps.REVIEW and waiting.side == "defense"
    assert [e.kind for e in state.events[-2:]] == ["question", "answer"]  # nobody objected for them
    with pytest.raises(ValueError, match="not your turn"):
        trial_steps.put_question(state, case, side="defense", question="Was it dark?")


def _play_as_defence_until(state: TrialState, case: object, wanted) -> None:  # type: ignore[no-untyped-def]
    """Play the defence's moves plainly (AI speeches, no questions, no objections) until ``wanted``."""
    while (waiting := _to_next_wait(state, case)) is not None and not wanted(state, waiting):
        if waiting.what == trial_steps.REVIEW:
            trial_steps.no_objection(state, side="defense")
        elif waiting.what == trial_steps.EXAMINE:
            trial_steps.rest(state, side="defense")
        else:
            trial_steps.speak(state, case, side="defense")


def _leading_in_chief(state: TrialState, waiting: trial_steps.Waiting) -> bool:
    if waiting.what != trial_steps.REVIEW:
        return False
    asked = next(e for e in reversed(state.events) if e.kind == "question")
    return asked.part == "chief" and asked.text.startswith("Isn't it true")


def test_a_persons_sustained_objection_strikes_the_answer_and_it_stays_out_of_the_jurys_memory():
    state, case = _trial(["defense"], seed=28)  # the prosecution leads its own witness at this seed
    _play_as_defence_until(state, case, _leading_in_chief)
    asked, answer = state.events[-2:]
    assert answer.kind == "answer" and not answer.struck
    events = trial_steps.object_to(state, case, side="defense", ground="leading")
    assert [e.kind for e in events] == ["objection", "ruling"] and events[-1].sustained
    assert events[-1].text.startswith("Sustained") and state.events[answer.index].struck
    _play_as_defence_until(state, case, lambda *_: False)
    assert state.finished and state.events[-1].kind == "directions"
    jury = build_jury()
    ballot = new_state(jury=jury, seed=6)
    advance_phase(ballot, "presentation")
    advance_phase(ballot, "initial_vote")
    cast_ballot_after_trial(ballot, case=case, jury=jury, events=state.events)
    memory = json.dumps(ballot.to_dict())
    heard = [turn.content for turn in ballot.memories[1].heard]
    assert f"(at the trial, asked: {asked.text}) {answer.text}" not in heard
    assert len(heard) == len(admitted(state.events))
    assert json.dumps(admitted(state.events)[0].text)[1:-1] in memory


def test_an_objection_that_does_not_hold_is_overruled_and_the_answer_stands():
    state, case = _trial(["defense"], seed=4)
    _play_as_defence_until(state, case, lambda _s, waiting: waiting.what == trial_steps.REVIEW)
    events = trial_steps.object_to(state, case, side="defense", ground="leading")
    assert events[-1].sustained is False and events[-1].text.startswith("Overruled")
    assert state.events[-3].kind == "answer" and not state.events[-3].struck


def test_the_prosecutor_questions_their_witness_in_free_text_and_the_defence_ai_objects_by_the_rules():
    state, case = _trial(["prosecution"])
    trial_steps.speak(state, case, side="prosecution", text="The evidence will show Hale did it.")
    waiting = _to_next_wait(state, case)
    assert waiting.what == trial_steps.EXAMINE and waiting.part == "chief"
    events = trial_steps.put_question(state, case, side="prosecution", question="What happened at the shop?")
    assert events[0].kind == "question" and events[0].text == "What happened at the shop?"
    assert any(e.kind == "answer" and e.grounded for e in events)
    events = trial_steps.put_question(
        state, case, side="prosecution", question="Isn't it true you saw Thomas Hale leave the shop?"
    )
    assert [e.kind for e in events] == ["question", "objection", "ruling"] and events[-1].sustained
    assert events[1].side == "defense" and events[-1].ground == "leading"
    assert trial_steps.awaiting(state) == waiting  # the person still has the witness


def test_no_further_questions_moves_on_past_the_rest_of_the_persons_questions():
    state, case = _trial(["prosecution"])
    trial_steps.speak(state, case, side="prosecution")
    waiting = _to_next_wait(state, case)
    trial_steps.rest(state, side="prosecution")
    following = state.plan[state.cursor]
    assert not (following["side"] == "prosecution" and following.get("witness") == waiting.witness_id)
    assert not any(e.kind == "question" and e.side == "prosecution" for e in state.events)


def test_a_saved_trial_waits_for_the_same_move_after_a_reload():
    state, case = _trial(["defense"])
    _to_next_wait(state, case)
    trial_steps.speak(state, case, side="defense")
    waiting = _to_next_wait(state, case)
    reloaded = TrialState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert trial_steps.awaiting(reloaded) == waiting and reloaded.people == ["defense"]
    trial_steps.no_objection(reloaded, side="defense")
    trial_steps.no_objection(state, side="defense")
    trial_steps.advance(reloaded, case, max_steps=5)
    trial_steps.advance(state, case, max_steps=5)
    assert [e.to_dict() for e in reloaded.events] == [e.to_dict() for e in state.events]


def test_a_trial_closed_early_keeps_what_was_said_and_ends_with_the_judges_directions():
    state, case = _trial(["defense"])
    _to_next_wait(state, case)
    trial_steps.speak(state, case, side="defense", text="My client was at home.")
    waiting = _to_next_wait(state, case)
    assert waiting is not None and waiting.what == trial_steps.REVIEW  # a question of theirs to review
    trial_steps.object_to(state, case, side="defense", ground="relevance")
    before = [e.to_dict() for e in state.events]

    closing = trial_steps.close_early(state, case)

    assert [e.to_dict() for e in state.events[: len(before)]] == before  # nothing said is lost or unstruck
    assert [(e.speaker, e.text) for e in closing[:1]] == [("The judge", trial_steps.CLOSED_EARLY)]
    assert closing[-1].kind == "directions" and state.finished
    assert trial_steps.awaiting(state) is None and trial_steps.close_early(state, case) == []


def test_ai_counsel_standing_in_does_not_ask_for_a_line_the_witness_has_already_given():
    state, case = _trial(["prosecution"])
    trial_steps.speak(state, case, side="prosecution")
    waiting = _to_next_wait(state, case)
    planned = state.plan[state.cursor]
    # The person asks the planned question in her own words first: the witness gives its line.
    mine = trial_steps.put_question(state, case, side="prosecution", question=planned["question"])
    given = {line for e in mine if e.kind == "answer" for line in e.quoted}
    assert planned["line"] in given
    events = trial_steps.let_ai_ask(state, case, side="prosecution")
    asked = [e for e in events if e.kind == "question"]
    answers = [e for e in events if e.kind == "answer"]
    assert not asked or asked[0].text != planned["question"]
    assert not any(e.text.startswith("As I said") for e in answers)
    if not asked:  # nothing more to ask this witness: the examination moved on
        assert trial_steps.awaiting(state) != waiting
