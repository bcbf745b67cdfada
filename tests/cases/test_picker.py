"""The case picker: the library's search by title, offence and era, curated cases first, and the
chosen case kept first whatever is searched next."""

from __future__ import annotations

import pytest
from django.test import Client

from cases.library import library_facets
from cases.models import Source
from cases.picker import PICKER_LIMIT, picker_context
from tests.factories import CaseFactory, DefendantFactory

pytestmark = pytest.mark.django_db


def _case(**fields: object):  # type: ignore[no-untyped-def]
    case = CaseFactory(**fields)
    DefendantFactory(case=case)
    return case


def _slugs(**params: str) -> list[str]:
    return [c.slug for c in picker_context(params)["picker_cases"]]


def test_curated_cases_come_first_when_nothing_is_searched():
    _case(slug="aaa-bailey", title="Aaron Abbot, theft", source=Source.OLDBAILEY)
    _case(slug="zz-curated", title="The State v. Zed", source=Source.CURATED)
    assert _slugs()[0] == "zz-curated"


def test_a_search_by_title_offence_and_era_narrows_the_list():
    _case(slug="teapot", title="The Crown v. John Teapot", offence_category="theft", year=1785)
    _case(slug="pistol", title="Highway robbery with a pistol", offence_category="violentTheft", year=1820)
    assert _slugs(q="teapot") == ["teapot"]
    assert _slugs(offence="violentTheft") == ["pistol"]
    assert _slugs(decade="1780") == ["teapot"]


def test_the_chosen_case_stays_first_whatever_is_searched():
    _case(slug="teapot", title="The Crown v. John Teapot")
    _case(slug="pistol", title="Highway robbery with a pistol")
    assert _slugs(q="pistol", case="teapot") == ["teapot", "pistol"]


def test_the_list_is_capped_and_says_so(client: Client):
    for n in range(PICKER_LIMIT + 3):
        _case(slug=f"case-{n:02}", title=f"The Crown v. Number {n:02}")
    html = client.get("/cases/pick/", {"q": "Crown"}).content.decode()
    assert html.count('class="picker-case') == PICKER_LIMIT
    assert f"Showing the first {PICKER_LIMIT}" in html


def test_a_search_too_broad_to_rank_is_listed_by_title_in_a_fixed_number_of_queries(
    monkeypatch, django_assert_num_queries
):
    for n in range(4):
        _case(slug=f"linen-{n}", title=f"The Crown v. Number {n}", summary="A theft of linen.")
    _case(slug="linen-best", title="The Crown v. Zachary Linen", summary="Linen stolen from a linen draper.")
    library_facets()  # cached, as after the first page of a session
    assert _slugs(q="linen")[0] == "linen-best"  # five matches: ranked, the best first
    monkeypatch.setattr("cases.library.RANK_CAP", 3)
    with django_assert_num_queries(2):  # the matches counted, the page
        slugs = _slugs(q="linen")
    assert slugs == ["linen-0", "linen-1", "linen-2", "linen-3", "linen-best"]  # more than the cap: by title
