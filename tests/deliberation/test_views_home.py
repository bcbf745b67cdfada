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


def _link(html: str, rel: str) -> str | None:
    """The URL of the page's "next" or "prev" link, as a browser would follow it."""
    found = re.search(rf'rel="{rel}" href="([^"]*)"', html)
    return "/" + found.group(1).replace("&amp;", "&") if found else None


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
    second = _link(client.get("/").content.decode(), "next")
    with django_assert_num_queries(2):  # a later page has no featured strip
        client.get(second)
    with django_assert_num_queries(3):  # a search counts its matches
        client.get("/?q=linen")


@pytest.mark.django_db
def test_a_broad_search_counts_and_pages_only_up_to_the_cap(client, monkeypatch):
    monkeypatch.setattr("cases.library.RESULTS_CAP", 13)
    _imported(30)
    html = client.get("/?q=linen").content.decode()
    assert "More than 13 playable cases" in html
    assert "Page 1<" in html  # no "of ...": the pages are not counted past the cap
    second = client.get(_link(html, "next")).content.decode()
    assert _cards(second)[0] == "The Crown v. A012"
    assert "Page 2<" in second
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


def _walk(client, url: str, rel: str = "next") -> tuple[list[list[str]], str]:
    """Every page from ``url`` on, following the ``rel`` links; and the last page's URL."""
    pages = []
    while True:
        html = client.get(url).content.decode()
        pages.append([card for card in _cards(html) if card != "Zephyr Street stabbing"])
        following = _link(html, rel)
        if following is None:
            return pages, url
        url = following


@pytest.mark.django_db
@pytest.mark.parametrize("sort", ["title", "oldest", "newest", "relevance"])
def test_next_and_previous_walk_every_case_once_in_order_in_each_sort(client, sort):
    _imported(30)
    undated = _case(title="The Crown v. Undated", summary="A theft of linen.", year=None, source="other")
    url = f"/?q=linen&sort={sort}" if sort == "relevance" else f"/?sort={sort}"
    forward, last = _walk(client, url)
    backward, first = _walk(client, last, rel="prev")
    listed = [title for page in forward for title in page]
    expected = list(Case.objects.playable().order_by("title", "pk").values_list("title", flat=True))
    assert sorted(listed) == sorted(expected) and len(set(listed)) == len(listed)
    assert [len(page) for page in forward[:-1]] == [12] * (len(forward) - 1)
    assert backward[::-1] == forward
    assert first == "/?" + url.removeprefix("/?")  # the first page again, without a cursor
    years = dict(Case.objects.values_list("title", "year"))
    if sort == "oldest":
        assert [years[t] for t in listed[:-1]] == sorted(years[t] for t in listed[:-1])
    if sort == "newest":
        assert [years[t] for t in listed[:-1]] == sorted((years[t] for t in listed[:-1]), reverse=True)
    if sort in ("oldest", "newest"):
        assert listed[-1] == undated.title  # a case without a year comes last either way


@pytest.mark.django_db
def test_a_deep_page_costs_the_queries_of_the_second(client, django_assert_num_queries):
    _imported(60)
    pages = []
    url = _link(client.get("/?sort=oldest").content.decode(), "next")
    while url:
        pages.append(url)
        url = _link(client.get(url).content.decode(), "next")
    assert len(pages) == 4
    for url in (pages[0], pages[-1]):
        with django_assert_num_queries(2):  # the page, the jury
            assert client.get(url).status_code == 200
    assert "Page 5 of 5" in client.get(pages[-1]).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "cursor",
    [
        "not-a-cursor!",
        "%00%ff",
        "W10",  # []
        "eyJhIjoxfQ",  # {"a":1}
        "WyJ0aXRsZSIsIm4iLDIsWzEsMl1d",  # the title order with a number for a title
        "WyJ0aXRsZSIsIm4iLDIsWyJBIiwiMSJdXQ",  # a text for a primary key
        "WyJ0aXRsZSIsIngiLDIsWyJBIiwxXV0",  # an unknown direction
        "WyJ0aXRsZSIsIm4iLC0xLFsiQSIsMV1d",  # a negative page number
        "WyJvbGRlc3QiLCJuIiwyLFsxODAwLCJBIiwxXV0",  # a cursor of another order
        "WyJ0aXRsZSIsIm4iLDIsWyJBIiwxLDJdXQ",  # one value too many
        "x" * 5000,
    ],
)
def test_a_cursor_that_is_not_one_gives_the_first_page(client, cursor):
    _imported(15)
    response = client.get(f"/?cursor={cursor}")
    assert response.status_code == 200
    assert _cards(response.content.decode())[0] == "The Crown v. A000"


@pytest.mark.django_db
def test_a_relevance_cursor_with_an_infinite_rank_gives_the_first_page(client):
    from cases.keyset import Cursor

    _imported(15)
    forged = Cursor("relevance", "n", 2, (float("inf"), "A", 1)).encode()
    response = client.get(f"/?q=linen&cursor={forged}")
    assert response.status_code == 200
    assert "Page 1 of 2" in response.content.decode()


@pytest.mark.django_db
def test_a_search_with_more_matches_than_are_ranked_is_counted_and_listed_by_title(client, monkeypatch):
    monkeypatch.setattr("cases.library.RANK_CAP", 5)
    _imported(30)
    best = _case(title="The Crown v. Zachary Linen", summary="Linen stolen from a linen draper.", year=1805)
    html = client.get("/?q=linen").content.decode()
    assert "31 playable cases, listed by title: narrow the search to see them ranked by best match" in html
    assert _cards(html)[0] == "The Crown v. A000"
    monkeypatch.setattr("cases.library.RANK_CAP", 50)
    assert _cards(client.get("/?q=linen").content.decode())[0] == best.title  # ranked again: the best first


@pytest.mark.django_db
def test_a_forged_cursor_or_search_with_a_nul_character_gives_the_first_page_not_an_error(client):
    """PostgreSQL text cannot hold NUL: such a value must never reach a query."""
    from cases.keyset import Cursor

    _imported(15)
    forged = Cursor("title", "n", 2, ("A\x00", 1)).encode()
    response = client.get(f"/?cursor={forged}")
    assert response.status_code == 200
    assert _cards(response.content.decode())[0] == "The Crown v. A000"
    assert client.get("/?q=lin%00en").status_code == 200
