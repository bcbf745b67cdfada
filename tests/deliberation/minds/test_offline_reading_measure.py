"""The offline jury reads arguments, measured: every argument of the test set against a
control speech that says nothing, in the same seeded room (``reading_measure``)."""

from __future__ import annotations

import asyncio
from collections import Counter

from deliberation.engine.results import PlayerMove
from deliberation.engine.rounds import run_round
from deliberation.engine.session import begin, finish
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import build_jury
from tests.deliberation.minds.curated import curated_case
from tests.deliberation.minds.reading_measure import measure
from tests.deliberation.minds.reading_set import ARGUMENTS, PAIRS

SHARE = 0.9  # of on-topic arguments, and of pairs, that must move the room the labelled way
SEEDS = tuple(range(24))  # as the bench: over fewer, the AI juror's answer decides weak arguments either way


def test_the_test_set_covers_every_curated_case_both_ways() -> None:
    cases = {argument.case for argument in ARGUMENTS}
    assert len(cases) == 5
    for case in cases:
        grades = Counter((a.side, a.grade) for a in ARGUMENTS if a.case == case)
        assert grades[("guilty", "strong")] == grades[("not_guilty", "strong")] == 2
        assert grades[("guilty", "weak")] == grades[("not_guilty", "weak")] == 2
        assert sum(n for (_, grade), n in grades.items() if grade in {"salad", "off_topic"}) == 3
        assert sum(1 for pair in PAIRS if pair.case == case) == 3


def test_arguments_move_the_room_the_way_they_argue_and_off_topic_text_barely_moves_it() -> None:
    figures = measure(seeds=SEEDS)
    assert figures.directed_right >= SHARE * figures.directed, figures.wrong
    assert figures.pairs_right >= SHARE * figures.pairs, figures.wrong
    assert figures.off_topic_mean <= figures.strong_mean / 3
    assert figures.salad_mean <= figures.strong_mean / 3


def _clicking_doubt(seed: int) -> str:
    case = curated_case("kessler-market-robbery")
    jury = build_jury(side="defend")
    state = begin(case=case, jury=jury, seed=seed, player_side="defend")
    while not state.end_reason:
        move = PlayerMove(seat=7, side="defend", strategy="reasonable_doubt")
        asyncio.run(
            run_round(
                state,
                case=case,
                jury=jury,
                mind=OfflineMind(),
                injected=(move,),
                fallback=OfflineMind(),
                reader=argued_points,
            )
        )
    return finish(state)


def test_clicking_reasonable_doubt_with_no_text_every_round_rarely_acquits_the_clear_guilty_robbery() -> None:
    verdicts = Counter(_clicking_doubt(seed) for seed in range(20))
    assert verdicts["not_guilty"] <= 5, verdicts  # 8 of 20 before the reading; 2 when the player says nothing
