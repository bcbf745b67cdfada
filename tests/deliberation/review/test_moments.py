"""Key moments, causes of vote changes and per-speech figures, from plain speeches and reactions."""

from __future__ import annotations

import pytest

from deliberation.review.moments import (
    Reaction,
    Speech,
    VoteChange,
    figures,
    group_summary,
    key_moments,
    vote_change_causes,
)


def speech(sequence: int, seat: int, *reactions: Reaction, round: int = 1) -> Speech:
    return Speech(
        sequence=sequence, round=round, seat=seat, name=f"Juror {seat}", text=f"speech {sequence}", reactions=reactions
    )


def test_a_speechs_figures_sum_and_average_its_listeners_deltas():
    s = speech(1, 8, Reaction(1, 0.10), Reaction(2, -0.30, persuaded=True), Reaction(3, 0.05))
    f = figures(s)
    assert f.listeners == 3 and f.persuaded == 1
    assert f.net == pytest.approx(-0.15)
    assert f.mean == pytest.approx(-0.05)
    assert f.moved == pytest.approx(0.45)
    assert f.direction == "not_guilty"


def test_a_speech_nobody_reacted_to_has_zero_figures_and_no_direction():
    f = figures(speech(1, 8))
    assert (f.listeners, f.net, f.mean, f.moved, f.persuaded) == (0, 0.0, 0.0, 0.0, 0)
    assert f.direction == "flat"


def test_a_change_of_vote_is_caused_by_the_speech_that_pushed_that_juror_hardest_towards_it():
    weak = speech(1, 8, Reaction(3, -0.05), Reaction(4, -0.40))
    strong = speech(2, 9, Reaction(3, -0.20))
    wrong_way = speech(3, 10, Reaction(3, 0.50))
    (cause,) = vote_change_causes([weak, strong, wrong_way], [VoteChange(1, 3, "guilty", "not_guilty")])
    assert cause.speech is strong
    assert cause.push == pytest.approx(0.20)


def test_a_change_towards_guilty_looks_for_positive_deltas_and_only_in_its_own_round():
    earlier = speech(1, 8, Reaction(3, 0.9), round=1)
    same_round = speech(2, 9, Reaction(3, 0.1), round=2)
    (cause,) = vote_change_causes([earlier, same_round], [VoteChange(2, 3, "not_guilty", "guilty")])
    assert cause.speech is same_round


def test_a_change_no_speech_pushed_towards_has_no_cause():
    (cause,) = vote_change_causes([speech(1, 8, Reaction(3, 0.2))], [VoteChange(1, 3, "guilty", "not_guilty")])
    assert cause.speech is None and cause.push == 0.0


def test_key_moments_are_the_speeches_that_moved_most_with_the_changes_they_caused():
    quiet = speech(1, 1, Reaction(2, 0.01))
    loud = speech(2, 8, Reaction(3, -0.30), Reaction(4, -0.20), Reaction(5, 0.0))
    middling = speech(3, 9, Reaction(3, 0.10), Reaction(6, -0.10))
    silent = speech(4, 10, Reaction(3, 0.0))
    changes = [VoteChange(1, 3, "guilty", "not_guilty")]
    moments = key_moments(
        [quiet, loud, middling, silent], vote_change_causes([quiet, loud, middling, silent], changes), limit=2
    )
    assert [m.speech.sequence for m in moments] == [2, 3]
    assert moments[0].changes == (changes[0],)
    assert moments[1].changes == ()
    assert [r.seat for r in moments[0].most_moved] == [3, 4]  # the unmoved listener is left out


def test_key_moments_break_ties_by_order_of_speaking_and_leave_out_speeches_that_moved_nobody():
    first, second = speech(1, 1, Reaction(2, 0.2)), speech(2, 2, Reaction(1, -0.2))
    moments = key_moments([second, first, speech(3, 3, Reaction(1, 0.0))], [])
    assert [m.speech.sequence for m in moments] == [1, 2]


def test_a_group_summary_counts_its_jury_and_keeps_its_most_moving_arguments():
    speeches = [speech(n, n, Reaction(12, 0.01 * n)) for n in range(1, 6)]
    summary = group_summary(
        deliberation_id=4,
        label="Room A",
        verdict="guilty",
        end_reason="unanimous",
        rounds=3,
        speeches=speeches,
        changes=[VoteChange(1, 12, "not_guilty", "guilty")],
        limit=2,
    )
    assert (summary.rounds, summary.vote_changes, summary.speeches) == (3, 1, 5)
    assert [m.speech.seat for m in summary.moving] == [5, 4]
    assert summary.moving[0].changes == (VoteChange(1, 12, "not_guilty", "guilty"),)


def test_a_change_is_credited_only_to_a_speech_that_argued_the_new_vote_and_a_backfire_is_kept_apart():
    """A guilty argument that pushed a juror towards not guilty harder than any not-guilty argument
    did is no cause of their turn to not guilty: it backfired."""
    for_it = Speech(1, 1, 8, "Maya", "nobody saw it was her car", side="not_guilty", reactions=(Reaction(3, -0.07),))
    against = Speech(2, 1, 9, "Jaxon", "three cars, one dent", side="guilty", reactions=(Reaction(3, -0.10),))
    (cause,) = vote_change_causes([for_it, against], [VoteChange(1, 3, "guilty", "not_guilty")])
    assert cause.speech is for_it and cause.push == pytest.approx(0.07)
    assert cause.backfire is against and cause.backfire_push == pytest.approx(0.10)
    (alone,) = vote_change_causes([against], [VoteChange(1, 3, "guilty", "not_guilty")])
    assert alone.speech is None and alone.backfire is against
    (weaker,) = vote_change_causes(
        [Speech(3, 1, 9, "Jaxon", "...", side="guilty", reactions=(Reaction(3, -0.01),)), for_it],
        [VoteChange(1, 3, "guilty", "not_guilty")],
    )
    assert weaker.speech is for_it and weaker.backfire is None  # a smaller push the other way is no backfire


def test_a_key_moment_whose_listeners_moved_away_from_its_side_says_so():
    backwards = Speech(
        1, 1, 2, "Maya", "nobody saw it", side="not_guilty", reactions=(Reaction(1, 0.3), Reaction(3, 0.2))
    )
    forwards = Speech(2, 1, 4, "Jaxon", "her car", side="guilty", reactions=(Reaction(1, 0.1),))
    unknown = Speech(3, 1, 5, "Seat 5", "...", reactions=(Reaction(1, -0.1),))
    moments = {m.speech.sequence: m for m in key_moments([backwards, forwards, unknown], [])}
    assert moments[1].against_side and moments[1].speech.side_label == "not guilty"
    assert not moments[2].against_side and not moments[3].against_side
