"""A person's words are theirs: a free argument is spoken exactly as typed, and a strategy's crafted
part argues only the person's side, as the jury reads it, on every curated case."""

from __future__ import annotations

import asyncio

import pytest

from deliberation.engine.ports import CraftRequest
from deliberation.engine.strategies import ITEM_STRATEGIES, STRATEGIES, own_words, spoken
from deliberation.minds.offline.mind import OfflineMind
from deliberation.minds.offline.reading import read
from tests.deliberation.engine.factories import build_jury
from tests.deliberation.minds.curated import SLUGS, curated_case

JURY = tuple(build_jury(side="defend"))
SEEDS = range(4)
TYPED = (
    "the cctv is way to blurry to see his face tbh",
    "  Nobody saw him do it!!\n\nand the lineup was rigged ",
    "i dont think she was even driving that night, the reciept says 6:52",
    "He confessed to his cellmate. Thats enough for me.",
)


def request_for(slug: str, strategy: str, side: str, *, seed: int, text: str = "", item_id: str = "") -> CraftRequest:
    return CraftRequest(
        player=JURY[6],
        side=side,
        strategy=strategy,
        case=curated_case(slug),
        recent=(),
        passages=(),
        round_number=2,
        tally={"guilty": 7, "not_guilty": 5},
        jury=JURY,
        target_seat=3 if strategy == "address_juror" else None,
        free_text=text,
        seed=seed,
        item_id=item_id,
    )


def crafted_parts(slug: str, strategy: str, side: str) -> list[tuple[str, str]]:
    """(what the jury heard, the crafted part) for each seed, and for each item the strategy may pick."""
    case = curated_case(slug)
    kind = ITEM_STRATEGIES.get(strategy)
    items = [""] + [i.id for i in (case.evidence if kind == "evidence" else case.witnesses if kind else ())]
    found = []
    for item_id in items:
        for seed in SEEDS:
            speech = asyncio.run(
                OfflineMind().craft_argument(request_for(slug, strategy, side, seed=seed, item_id=item_id))
            )
            found.append((speech.content, speech.crafted))
    return found


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("side", ["defend", "prosecute"])
def test_no_crafted_argument_reads_against_the_persons_side(slug: str, side: str) -> None:
    sign = 1 if side == "prosecute" else -1
    against = []
    for strategy in STRATEGIES:
        if strategy == "free_argument":
            continue
        for content, crafted in crafted_parts(slug, strategy, side):
            assert crafted and content == crafted  # nothing typed: the crafted part is the whole speech
            push = read(curated_case(slug), crafted).push
            if push * sign < 0:
                against.append(f"{strategy}: {push:+.3f} {crafted[:90]}")
    assert not against, against


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("text", TYPED)
def test_a_free_argument_is_spoken_and_kept_byte_for_byte_as_typed(slug: str, text: str) -> None:
    for side in ("defend", "prosecute"):
        speech = asyncio.run(OfflineMind().craft_argument(request_for(slug, "free_argument", side, seed=3, text=text)))
        assert speech.content == text
        assert speech.crafted == ""


def test_a_crafted_part_comes_first_and_the_persons_words_follow_unchanged() -> None:
    text = "  and honestly the clerk only saw him for 2 secs "
    for strategy in ("challenge_evidence", "reasonable_doubt", "alternative_theory", "address_juror"):
        request = request_for("kessler-market-robbery", strategy, "defend", seed=1, text=text)
        speech = asyncio.run(OfflineMind().craft_argument(request))
        assert speech.crafted and speech.content == f"{speech.crafted} {text}"
        assert own_words(speech.content, speech.crafted) == text


def test_a_picked_item_is_the_only_item_the_crafted_part_argues() -> None:
    case = curated_case("route-nine-fuel-stop-murder")
    for item in case.evidence:
        for side in ("defend", "prosecute"):
            request = request_for(case.slug, "challenge_evidence", side, seed=2, item_id=item.id)
            speech = asyncio.run(OfflineMind().craft_argument(request))
            assert speech.cited == (item.id,), (item.label, speech.crafted)


@pytest.mark.parametrize(
    ("crafted", "own"),
    [("", "just mine "), ("Crafted.", ""), ("Crafted.", "  mine\n"), ("A. B.", "A. B.")],
)
def test_own_words_take_back_exactly_what_spoken_joined(crafted: str, own: str) -> None:
    assert own_words(spoken(crafted, own), crafted) == (own if own.strip() or not crafted else "")
