"""The case library at scale: full-text search with ranking, filters, orders, and featured cases.

These run on SQLite (FTS5) by default and on PostgreSQL (tsvector + GIN) in service mode.
"""

from __future__ import annotations

import pytest

from cases.library import LibraryQuery, admin_search, featured_cases, library_cases, library_changed, library_facets
from cases.models import Case
from tests.factories import CaseFactory, DefendantFactory

pytestmark = pytest.mark.django_db


def _case(**fields: object) -> Case:
    """A case a game can start on (a library lists only those): it has a defendant to try."""
    case = CaseFactory(**fields)
    DefendantFactory(case=case)
    return case


GENERIC = "A quarrel in a public house ended in blows; the watch took the prisoner to the compter."


def _titles(**params: object) -> list[str]:
    return [case.title for case in library_cases(LibraryQuery.from_params(params))]


def test_a_search_ranks_a_title_match_above_a_summary_match():
    _case(title="The Crown v. Ann Baker", summary="She took a silver teapot from her mistress.")
    _case(title="The Crown v. John Teapot", summary=GENERIC)
    _case(title="The Crown v. Nobody", summary=GENERIC)
    assert _titles(q="teapot") == ["The Crown v. John Teapot", "The Crown v. Ann Baker"]


def test_a_search_matches_every_word_and_their_other_forms():
    _case(title="Highway robbery on Hounslow Heath", summary="Two robberies with a pistol.")
    _case(title="Pistol found", summary=GENERIC)
    assert _titles(q="robbery pistols") == ["Highway robbery on Hounslow Heath"]


def test_a_search_never_reads_the_original_record_nor_the_real_verdict():
    _case(
        title="Sealed", summary=GENERIC, original_text="Verdict: transported for zanzibar", historical_verdict="guilty"
    )
    assert _titles(q="zanzibar") == []
    assert _titles(q="transported") == []


@pytest.mark.parametrize("text", ['"', "'; DROP TABLE cases_case; --", "NEAR(a b)", "title:*", "AND OR NOT", "-", "é"])
def test_odd_search_text_finds_nothing_rather_than_failing(text):
    _case(summary=GENERIC)
    assert _titles(q=text) == []


def test_filters_by_era_offence_source_and_known_verdict():
    _case(
        title="A",
        year=1801,
        offence_category="theft",
        historical_verdict="guilty",
        source="oldbailey",
        source_id="t18011028-1",
    )
    _case(
        title="B",
        year=1809,
        offence_category="kill",
        historical_verdict="unknown",
        source="oldbailey",
        source_id="t18090101-1",
    )
    _case(title="C", year=1810, offence_category="theft", historical_verdict="not_guilty")
    assert _titles(decade="1800") == ["A", "B"]
    assert _titles(decade="1805") == ["A", "B"]  # any year names its decade
    assert _titles(offence="theft") == ["A", "C"]
    assert _titles(source="curated") == ["C"]
    assert _titles(verdict="known") == ["A", "C"]
    assert _titles(decade="1800", verdict="known", offence="theft") == ["A"]


def test_unknown_filter_values_are_ignored():
    _case(title="A")
    assert (
        LibraryQuery.from_params({"decade": "soon", "source": "x", "sort": "random", "exclude": ["nope"]})
        == LibraryQuery()
    )
    assert _titles(decade="99999") == ["A"]


def test_orders_by_title_by_date_either_way_and_by_relevance_only_when_searching():
    _case(title="B", year=1850)
    _case(title="A", year=1900)
    _case(title="C", year=1800)
    assert _titles() == ["A", "B", "C"]
    assert _titles(sort="oldest") == ["C", "B", "A"]
    assert _titles(sort="newest") == ["A", "B", "C"]
    assert _titles(sort="relevance") == ["A", "B", "C"]  # no words to rank: by title


def test_unplayable_cases_are_not_in_the_library():
    _case(title="Kept for the record", playable=False)
    assert _titles() == []


def test_the_curated_cases_are_the_featured_ones():
    _case(title="Z curated", source="curated")
    _case(title="A imported", source="oldbailey", source_id="t18000101-1")
    assert [c.title for c in featured_cases()] == ["Z curated"]


def test_the_facets_offer_the_offences_and_decades_present():
    _case(year=1801, offence_category="violentTheft")
    _case(year=1912, offence_category="kill")
    _case(year=None, offence_category="")
    facets = library_facets()
    assert facets["offences"] == [("kill", "Kill"), ("violentTheft", "Violent theft")]
    assert facets["decades"] == [(1800, "1800s"), (1910, "1910s")]


def test_the_admin_search_uses_the_index_and_finds_a_trial_by_its_id():
    wanted = _case(title="The Crown v. Mary Biggin", source="oldbailey", source_id="t18600402-389")
    _case(title="Other")
    assert list(admin_search(Case.objects.all(), "biggin")) == [wanted]
    assert list(admin_search(Case.objects.all(), "t18600402-389")) == [wanted]


def test_the_admin_list_costs_the_same_queries_for_a_small_and_a_large_library(admin_client, django_assert_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def cost(url: str) -> int:
        library_changed()  # the facets start cold
        with CaptureQueriesContext(connection) as queries:
            assert admin_client.get(url).status_code == 200
        return len(queries)

    urls = ["/admin/cases/case/", "/admin/cases/case/?q=shopkeeper", "/admin/cases/case/?decade=2020"]
    CaseFactory.create_batch(3)
    small = [cost(url) for url in urls]
    CaseFactory.create_batch(80)
    large = [cost(url) for url in urls]
    assert small == large
    # with the facets cached: session, user, the one count, the page's keys, its rows, their evidence
    with django_assert_num_queries(6):
        admin_client.get("/admin/cases/case/")


def test_the_admin_list_finds_cases_by_words_of_their_summary(admin_client):
    _case(title="Wanted", summary="A stolen greyhound.")
    _case(title="Unwanted", summary=GENERIC)
    html = admin_client.get("/admin/cases/case/?q=greyhounds").content.decode()
    assert "Wanted" in html and "Unwanted" not in html


def test_the_admin_filters_by_era_and_offence(admin_client):
    _case(title="Old theft", year=1851, offence_category="theft")
    _case(title="New theft", year=1901, offence_category="theft")
    _case(title="Old killing", year=1855, offence_category="kill")
    html = admin_client.get("/admin/cases/case/?decade=1850&offence=theft").content.decode()
    assert "Old theft" in html and "New theft" not in html and "Old killing" not in html
    assert "1850s" in html and "Kill" in html


def test_the_admin_search_finds_imported_trials_by_a_prefix_of_their_id_or_by_their_session(admin_client):
    first = _case(title="The Crown v. Ann Lee", source="oldbailey", source_id="t18370918-2033")
    second = _case(title="The Crown v. John Page", source="oldbailey", source_id="t18370918-2101")
    _case(title="A later session", source="oldbailey", source_id="t18371023-1")
    _case(title="Curated, no id")
    for term in ("t18370918", "T18370918-", "18370918", "t1837091"):
        assert set(admin_search(Case.objects.all(), term)) == {first, second}, term
    assert list(admin_search(Case.objects.all(), "T18370918-20")) == [first]
    listed = admin_client.get("/admin/cases/case/", {"q": "t18370918"}).content.decode()
    assert "Ann Lee" in listed and "John Page" in listed and "A later session" not in listed
