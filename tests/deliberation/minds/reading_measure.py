"""Measuring what one argument does to a seeded room, against a control speech that says nothing.

The room's own drift (majority pressure, noise, the AI jurors' speeches) is as large as a weak
argument's effect, so an argument is never measured alone: the same room (case, jury, seed) runs
its first round once with the argument and once with ``CONTROL`` in its place, spoken from the same
seat, and the effect is the difference of the eleven AI jurors' mean conviction after that round.

Two rooms: the *listening* room (``full=False``, the default) gives the round to the argument
alone, so argument and control rooms draw the same numbers and the difference is the argument's
own effect on the eleven listeners; the *full* room lets one to three AI jurors speak after it, as
in a game, and their answers (which differ when what they answer differs) add noise that only
many seeds average out.
"""

from __future__ import annotations

import asyncio
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from deliberation.engine.rounds import run_round
from deliberation.engine.session import begin
from deliberation.engine.state import EngineSettings
from deliberation.engine.types import Speech
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.offline.reading import read
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import build_jury
from tests.deliberation.minds.curated import curated_case
from tests.deliberation.minds.reading_set import ARGUMENTS, PAIRS, Argument, Pair

CONTROL = "I'd like to hear what the rest of you think before I say anything."
SPEAKER_SEAT = 7
SEEDS = tuple(range(6))


@cache
def _room_after(slug: str, text: str, seed: int, full: bool) -> tuple[float, float]:
    case = curated_case(slug)
    jury = build_jury(side="defend", seven_kind="agent")
    settings = EngineSettings() if full else EngineSettings(min_speakers=1, max_speakers=1)
    state = begin(case=case, jury=jury, seed=seed, player_side="defend", settings=settings)
    speech = Speech(seat=SPEAKER_SEAT, speaker_name="You", content=text, argument_type="logical")
    result = asyncio.run(
        run_round(
            state,
            case=case,
            jury=jury,
            mind=OfflineMind(),
            injected=(speech,),
            fallback=OfflineMind(),
            reader=argued_points,
        )
    )
    after = statistics.fmean(m.conviction for seat, m in state.memories.items() if seat != SPEAKER_SEAT)
    own = statistics.fmean(result.deltas_for(0).values())
    return after, own


def effect(slug: str, text: str, seeds: tuple[int, ...] = SEEDS, *, full: bool = False, own: bool = False) -> float:
    """Mean over ``seeds`` of (room's mean conviction after ``text``) - (after ``CONTROL``); with ``own``,
    of the listeners' mean move on hearing ``text`` itself - on hearing ``CONTROL``, before any AI
    juror answers it."""
    part = 1 if own else 0
    return statistics.fmean(
        _room_after(slug, text, seed, full)[part] - _room_after(slug, CONTROL, seed, full)[part] for seed in seeds
    )


def signed(side: str, value: float) -> float:
    """An effect counted in the labelled direction (positive = the way it should push)."""
    return value if side == "guilty" else -value


@dataclass(frozen=True)
class Figures:
    directed: int
    directed_right: int
    pairs: int
    pairs_right: int
    strong_mean: float  # mean |effect| of strong arguments
    off_topic_mean: float  # mean |effect| of off-topic text (salad included)
    salad_mean: float
    wrong: tuple[str, ...]  # the arguments and pairs read the wrong way

    @property
    def off_topic_ratio(self) -> float:
        return self.off_topic_mean / self.strong_mean if self.strong_mean else float("inf")

    @property
    def salad_ratio(self) -> float:
        return self.salad_mean / self.strong_mean if self.strong_mean else float("inf")


def measure_direct(arguments: tuple[Argument, ...] = ARGUMENTS, pairs: tuple[Pair, ...] = PAIRS) -> Figures:
    """The same figures from the reading's push alone (``Reading.push``), without any room."""
    return _figures(arguments, pairs, lambda slug, text: read(curated_case(slug), text).push)


def measure(
    arguments: tuple[Argument, ...] = ARGUMENTS,
    pairs: tuple[Pair, ...] = PAIRS,
    seeds: tuple[int, ...] = SEEDS,
    *,
    full: bool = False,
    own: bool = False,
) -> Figures:
    return _figures(arguments, pairs, lambda slug, text: effect(slug, text, seeds, full=full, own=own))


def _figures(
    arguments: tuple[Argument, ...], pairs: tuple[Pair, ...], effect_of: Callable[[str, str], float]
) -> Figures:
    strong: list[float] = []
    loose: list[float] = []
    salad: list[float] = []
    right = directed = 0
    wrong: list[str] = []
    for argument in arguments:
        value = effect_of(argument.case, argument.text)
        if argument.grade in {"strong", "weak"}:
            directed += 1
            if signed(argument.side, value) > 0:
                right += 1
            else:
                wrong.append(f"{argument.case} {argument.side} {argument.grade}: {value:+.4f} {argument.text[:60]}")
            if argument.grade == "strong":
                strong.append(abs(value))
        else:
            loose.append(abs(value))
            if argument.grade == "salad":
                salad.append(abs(value))
    pairs_right = 0
    for pair in pairs:
        guilty = effect_of(pair.case, pair.guilty)
        doubt = effect_of(pair.case, pair.not_guilty)
        if guilty > 0 > doubt:
            pairs_right += 1
        else:
            wrong.append(f"pair {pair.case} {pair.about}: {guilty:+.4f} / {doubt:+.4f}")
    return Figures(
        directed=directed,
        directed_right=right,
        pairs=len(pairs),
        pairs_right=pairs_right,
        strong_mean=statistics.fmean(strong) if strong else 0.0,
        off_topic_mean=statistics.fmean(loose) if loose else 0.0,
        salad_mean=statistics.fmean(salad) if salad else 0.0,
        wrong=tuple(wrong),
    )
