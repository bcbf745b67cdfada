"""The home page as a library: curated cases first, search and filters, a fixed query count."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cases.models import Case, Defendant
from tests.factories import CaseFactory, DefendantFactory

HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "case-results"}


def _cards(html: str) -> list[str]:
    return re.findall(r"<h3>([^<]+)</h3>", html)


def _case(**fields: object) -> Case:
    case = CaseFactory(**fields)
    DefendantFactory(case=case)
    return case


def _imported(n: int) -> None:
    cases = Case.objects.bulk_create(
        Case(
            slug=f"ob-t1800-{i}",
            title=f"The Crown v. A{i:03d}",
            summary="A theft of linen from a shop.",
            charges=["Theft"],
            source="oldbailey",
            source_id=f"t18000101-{i}",
            year=1800 + i % 100,
            offence_category="theft",
        )
        for i in range(n)
    )
    # a library lists the cases a game can start on: each has a defendant to try
    Defendant.objects.bulk_create(Defendant(case=case, name=f"Prisoner {case.source_id}") for case in cases)


@pytest.mark.django_db
def test_the_library_size_and_filter_choices_follow_an_import_at_once(client, django_capture_on_commit_callbacks):
    from cases.services import oldbailey_import_paths
    from tests.cases.oldbailey_sample import TRIALS

    _case(source="curated", year=2020)
    assert "1 playable case" in client.get("/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        oldbailey_import_paths(paths=[t for t in TRIALS if t.stem == "t18600402-389"])
    html = client.get("/").content.decode()
    assert "2 playable cases" in html
    assert '<option value="1860">1860s</option>' in html


@pytest.mark.django_db
def test_the_curated_cases_come_first_on_the_front_page_however_the_titles_sort(client):
    _imported(30)
    _case(title="Zephyr Street stabbing", source="curated")
    cards = _cards(client.get("/").content.decode())
    assert cards[0] == "Zephyr Street stabbing"
    assert cards[1:] == [f"The Crown v. A{i:03d}" for i in range(12)]


@pytest.mark.django_db
def test_searching_or_filtering_drops_the_featured_strip(client):
    _imported(3)
    _case(title="Zephyr Street stabbing", source="curated", year=1999)
    assert "Featured for the classroom" not in client.get("/?decade=1800").content.decode()
    assert _cards(client.get("/?q=stabbing").content.decode()) == ["Zephyr Street stabbing"]


@pytest.mark.django_db
def test_the_filters_and_the_order_are_on_the_page_and_kept_when_chosen(client):
    _imported(3)
    html = client.get("/?decade=1800&sort=newest&verdict=known&source=oldbailey").content.decode()
    assert '<option value="1800" selected>1800s</option>' in html
    assert '<option value="newest" selected>Newest first</option>' in html
    assert 'name="verdict" value="known" checked' in html
    assert '<option value="oldbailey" selected>' in html


@pytest.mark.django_db
def test_the_home_page_costs_the_same_queries_for_a_small_and_a_large_library(client, django_assert_num_queries):
    def cost(url: str, **headers: str) -> int:
        cache.clear()  # the facets' cache starts cold, as after an import
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url, **headers).status_code == 200
        return len(queries)

    _imported(5)
    _case(source="curated")
    small = [cost("/"), cost("/?q=linen&decade=1800"), cost("/", **HTMX)]
    more = Case.objects.bulk_create(
        Case(slug=f"more-{i}", title=f"More {i}", summary="Linen again.", charges=["Theft"], year=1805)
        for i in range(200)
    )
    Defendant.objects.bulk_create(Defendant(case=case, name="A prisoner") for case in more)
    large = [cost("/"), cost("/?q=linen&decade=1800"), cost("/", **HTMX)]
    assert small == large
    # offences, decades and size of the library (cached), the page, the featured strip, the jury
    cache.clear()
    with django_assert_num_queries(6):
        client.get("/")
    with django_assert_num_queries(3):
        client.get("/")
    with django_assert_num_queries(2):  # a later page has no featured strip
        client.get("/?page=4")
    with django_assert_num_queries(3):  # a search counts its matches
        client.get("/?q=linen")


@pytest.mark.django_db
def test_a_broad_search_counts_and_pages_only_up_to_the_cap(client, monkeypatch):
    monkeypatch.setattr("cases.library.RESULTS_CAP", 13)
    _imported(30)
    html = client.get("/?q=linen").content.decode()
    assert "More than 13 playable cases" in html
    assert "Page 1 of 2" in html
    assert _cards(client.get("/?q=linen&page=99").content.decode())[-1] == "The Crown v. A013"
    narrow = client.get("/?q=linen&decade=1800").content.decode()
    assert "10 playable cases" in narrow


@pytest.mark.django_db
def test_a_search_too_broad_to_rank_is_listed_by_title_and_says_so(client, monkeypatch, django_assert_num_queries):
    monkeypatch.setattr("cases.library.RESULTS_CAP", 13)
    _imported(30)
    best = _case(title="The Crown v. Zachary Linen", summary="Linen stolen from a linen draper.", year=1805)
    assert _cards(client.get("/?q=linen&decade=1800").content.decode())[0] == best.title  # ranked: few matches
    with django_assert_num_queries(3):
        html = client.get("/?q=linen").content.decode()
    assert "More than 13 playable cases, listed by title" in html
    assert _cards(html)[0] == "The Crown v. A000"
