"""A listener's reaction reads as the move the court page shows beside it: a clear move towards the
speaker as persuaded (or agreeing), a small one as "a little", none as unmoved, a move away as
pushed back; over many seeded reactions of whole offline rounds."""

from __future__ import annotations

import asyncio
import re

import pytest
from django.template.defaultfilters import floatformat

from deliberation.court.courtroom import Reaction
from deliberation.engine.moves import Thought
from deliberation.engine.results import ReactionRecord
from deliberation.engine.rounds import run_round
from deliberation.minds.offline import voices
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.stand_ins import argued_points
from tests.deliberation.engine.factories import build_case
from tests.deliberation.engine.helpers import deadlocked


def _pattern(template: str) -> re.Pattern[str]:
    text = re.sub(r"\\\[([^|\]]+)\\\|([^\]]+)\\\]", r"(?:\1|\2)", re.escape(template))
    for slot in (r"\{name\}", r"\{short\}", r"\{Short\}"):
        text = text.replace(slot, ".+?")
    return re.compile(text + "$")


POOLS = {
    "clear": [_pattern(t) for t in (*voices.THOUGHT_PERSUADED, *voices.THOUGHT_AGREE, *voices.THOUGHT_GRANTED)],
    "little": [_pattern(t) for t in voices.THOUGHT_A_LITTLE],
    "unmoved": [_pattern(t) for t in (*voices.THOUGHT_UNMOVED, *voices.THOUGHT_UNMOVED_TURNING)],
    "away": [_pattern(t) for t in voices.THOUGHT_PUSHED_BACK],
}
# Words that say the listener's view stands: never beside a vote that turns in the same round.
STANDING = [
    _pattern(t)
    for t in (*voices.THOUGHT_AGREE, *voices.THOUGHT_UNMOVED, *voices.THOUGHT_PUSHED_BACK)
    if t not in voices.THOUGHT_UNMOVED_TURNING and t not in voices.THOUGHT_PUSHED_BACK_TURNING
]


def _as_the_page_shows_it(delta: float, speaker_side: str) -> str:
    """The move as the court page shows it: its direction, and its size to two decimals."""
    stored = round(delta, 4)
    direction = Reaction(name="", emoji="", delta=stored, thought="", persuaded=False).direction
    if direction == "unmoved":
        return "unmoved"
    if direction != f"towards {speaker_side.replace('_', ' ')}":
        return "away"
    return "clear" if abs(float(floatformat(stored, 2))) >= 0.05 else "little"


def _reactions(seeds: range, rounds: int, turned: set | None = None) -> list[tuple[ReactionRecord, str]]:
    """Every reaction of ``rounds`` rounds of each seed's game, with its speaker's side; ``turned``
    collects (seed, round, seat) of each listener whose vote turned in that round."""
    found = []
    for seed in seeds:
        state, jury = deadlocked(seed)
        for _ in range(rounds):
            result = asyncio.run(
                run_round(
                    state,
                    case=build_case(),
                    jury=jury,
                    mind=OfflineMind(),
                    fallback=OfflineMind(),
                    reader=argued_points,
                )
            )
            found += [(r, result.speeches[r.speech_index].position or "") for r in result.reactions]
            if turned is not None:
                turned |= {(seed, result.round_number, r) for r in result.reactions if _flipped(result, r.seat)}
    return found


def _flipped(result, seat: int) -> bool:  # type: ignore[no-untyped-def]
    return any(flip.seat == seat for flip in result.flips)


def test_every_reaction_reads_as_the_move_shown_beside_it() -> None:
    reactions = _reactions(range(8), 5)
    kinds = {_as_the_page_shows_it(r.delta, side) for r, side in reactions}
    assert len(reactions) > 800 and kinds == {"clear", "little", "unmoved", "away"}  # every kind is met
    wrong = [
        f"{r.thought!r} beside {r.delta:+.3f} (speaker {side})"
        for r, side in reactions
        if not any(p.match(r.thought) for p in POOLS[_as_the_page_shows_it(r.delta, side)])
    ]
    assert not wrong, wrong[:5]


def test_a_listener_whose_vote_turns_never_says_its_view_stood_in_that_round() -> None:
    """ "Heard it before. Still unmoved." or "Exactly what I thought" beside a vote that turns when the
    round closes reads as a contradiction: that listener's words grant the point or take issue with
    the speaker instead, still reading as the move shown beside them."""
    turned: set = set()
    reactions = _reactions(range(30), 6, turned)
    flipping = {id(r) for _, _, r in turned}
    turning = [(r, side) for r, side in reactions if id(r) in flipping]
    assert len(turning) > 200  # many turned votes, each with a reaction to every speech of its round
    standing = [f"{r.thought!r} ({r.delta:+.3f})" for r, _ in turning if any(p.match(r.thought) for p in STANDING)]
    assert not standing, standing[:5]
    wrong = [
        r.thought
        for r, side in turning
        if not any(p.match(r.thought) for p in POOLS[_as_the_page_shows_it(r.delta, side)])
    ]
    assert not wrong, wrong[:5]


def test_a_reaction_is_shown_persuaded_only_beside_a_clear_move_towards_the_speaker() -> None:
    reactions = _reactions(range(30), 6)
    persuaded = [(r, side) for r, side in reactions if r.persuaded]
    assert persuaded
    wrong = [
        f"{r.thought!r} {r.delta:+.3f}" for r, side in persuaded if _as_the_page_shows_it(r.delta, side) != "clear"
    ]
    assert not wrong, wrong[:5]


@pytest.mark.parametrize(
    ("delta", "words"),
    [(0.12, "persuaded"), (0.02, "a little"), (0.004, "unmoved"), (-0.13, "pushed back"), (-0.005, "pushed back")],
)
def test_a_thought_takes_the_words_of_the_move_the_engine_computed(delta: float, words: str) -> None:
    thought = Thought(
        "unmoved",
        words={"clear": "persuaded", "little": "a little", "unmoved": "unmoved", "away": "pushed back"},
        towards=1,
    )
    assert ReactionRecord(1, 0, 0.0, delta, thought, False, True).thought == words


def test_a_models_own_words_stay_as_they_were() -> None:
    assert ReactionRecord(1, 0, 0.3, -0.2, "Strong point, but no.", True, True).thought == "Strong point, but no."
