"""Prompt tokens per speech on every curated case, counted as the model-mode bench counts them
(LiteLLM's token counter for gpt-4o-mini): the case index and the whole speaking prompt each stay under
a ceiling pinned per case. ``bench/model_mode.py`` measures the same prompts over a 20-round
deliberation (at most 1,135 prompt tokens a speech on every case, reaction and summary calls
included); these ceilings keep the part that depends on the case from creeping back up."""

import dataclasses
import os

import litellm
import pytest

from deliberation.engine.prompt_words import format_case_index
from deliberation.engine.prompts import build_speak_messages
from deliberation.engine.simple_retriever import SimpleRetriever
from tests.deliberation.minds.curated import SLUGS, curated_case
from tests.deliberation.minds.jury import JURY, speak_request, turn

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
COUNTER_MODEL = "gpt-4o-mini"  # the bench's counting server counts with the same tokenizer

# Measured on 2026-11-23 after the compact index, plus 3 tokens of room for the index and 7 for the
# prompt (the index was 269-319 tokens before it, 45-71 more on every case).
CEILINGS = {  # slug: (case index, speaking prompt)
    "alder-street-hit-and-run": (251, 732),
    "copper-kettle-fire": (234, 729),
    "kessler-market-robbery": (227, 713),
    "pruitt-basement-killing": (239, 735),
    "route-nine-fuel-stop-murder": (259, 751),
}


def tokens(*, text: str = "", messages: list[dict[str, str]] | None = None) -> int:
    if messages is not None:
        return int(litellm.token_counter(model=COUNTER_MODEL, messages=messages))
    return int(litellm.token_counter(model=COUNTER_MODEL, text=text))


def speaking_prompt(slug: str) -> list[dict[str, str]]:
    """A juror's speaking prompt in round 3 of ``slug``: two turns heard, the passages looked up for
    the case's first evidence item, as the engine would build it."""
    case = curated_case(slug)
    heard = (
        turn(2, 3, f"I keep coming back to {case.evidence[0].label.lower()}. It settles nothing for me yet."),
        turn(2, 5, f"And {case.witnesses[0].name} was sure of what she saw, or says she was.", target=3),
    )
    request = dataclasses.replace(
        speak_request(JURY[0], heard, round_number=3),
        case=case,
        passages=tuple(SimpleRetriever(case).lookup(case.evidence[0].label, 3)),
    )
    return build_speak_messages(request)


def test_every_curated_case_has_a_ceiling() -> None:
    assert set(CEILINGS) == set(SLUGS)


@pytest.mark.parametrize("slug", SLUGS)
def test_the_case_index_stays_under_its_ceiling(slug: str) -> None:
    assert tokens(text=format_case_index(curated_case(slug))) <= CEILINGS[slug][0]


@pytest.mark.parametrize("slug", SLUGS)
def test_the_whole_speaking_prompt_stays_under_its_ceiling(slug: str) -> None:
    assert tokens(messages=speaking_prompt(slug)) <= CEILINGS[slug][1]
