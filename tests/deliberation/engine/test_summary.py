"""The engine state's summary: what pages read, without the jurors' memories."""

from __future__ import annotations

import json

from deliberation.engine.ending import cast_vote, record_turn, waiting_for
from deliberation.engine.rules import ballot_of, round_limit_of
from deliberation.engine.summary import HEAVY_KEYS, settings_of, summary_of, waiting_in, withdrawn_of
from tests.deliberation.engine.helpers import deadlocked


def test_a_summary_keeps_everything_but_the_memories_and_the_random_generator() -> None:
    state, _jury = deadlocked(seed=3, turns_before_verdict=2)
    stored = state.to_dict()
    summary = summary_of(stored)
    assert not HEAVY_KEYS & summary.keys()
    assert {key: summary[key] for key in stored if key not in HEAVY_KEYS} == {
        key: value for key, value in stored.items() if key not in HEAVY_KEYS
    }
    assert len(json.dumps(summary)) < len(json.dumps(stored)) / 3


def test_a_summary_names_the_jurors_who_withdrew() -> None:
    state, _jury = deadlocked(seed=3)
    state.memories[4].withdrawn = state.memories[9].withdrawn = True
    assert withdrawn_of(summary_of(state.to_dict())) == frozenset({4, 9})
    assert withdrawn_of(summary_of({})) == frozenset()


def test_pages_read_the_same_limits_and_ballot_from_the_summary_as_from_the_state() -> None:
    state, _jury = deadlocked(seed=5, max_rounds=7)
    stored = state.to_dict()
    summary = summary_of(stored)
    assert round_limit_of(summary, 20) == round_limit_of(stored, 20) == 7
    assert ballot_of(summary) == ballot_of(stored)
    assert settings_of(summary) == state.settings


def test_the_summary_waits_for_the_same_participants_as_the_engine() -> None:
    state, _jury = deadlocked(seed=5, turns_before_verdict=1)
    seen = []
    for step in (lambda: None, lambda: cast_vote(state, seat=2, value="guilty"), lambda: record_turn(state, seat=2)):
        step()
        waiting = waiting_in(summary_of(state.to_dict()), [2])
        assert waiting == bool(waiting_for(state, [2]))
        seen.append(waiting)
    assert seen == [True, True, False]
