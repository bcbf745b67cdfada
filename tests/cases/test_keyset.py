"""Keyset pages of the library: cursors that round-trip, refuse what is not one, and seek by key."""

from __future__ import annotations

import pytest

from cases.keyset import NEXT, PREVIOUS, Cursor, case_key, keyset_page
from cases.library import CappedPaginator, LibraryQuery, library_cases
from cases.models import Case
from tests.factories import CaseFactory, DefendantFactory, EvidenceFactory

pytestmark = pytest.mark.django_db


def _case(**fields: object) -> Case:
    case = CaseFactory(**fields)
    DefendantFactory(case=case)
    return case


@pytest.mark.parametrize(
    "cursor",
    [
        Cursor("title", NEXT, 2, ("The Crown v. Ann O’Brien & “others”", 17)),
        Cursor("oldest", PREVIOUS, 9, (10_000, "Undated", 3)),
        Cursor("newest", NEXT, 3, (-1850, "A", 1)),
        Cursor("relevance", NEXT, 4, (-0.0607927106320858, "B", 5)),
    ],
)
def test_a_cursor_reads_back_as_it_was_written(cursor):
    text = cursor.encode()
    assert text.isascii() and "=" not in text and "+" not in text and "/" not in text
    assert Cursor.decode(text, order=cursor.order) == cursor


def test_a_cursor_is_refused_for_another_order_or_with_a_title_longer_than_a_title():
    assert Cursor.decode(Cursor("title", NEXT, 2, ("A", 1)).encode(), order="oldest") is None
    assert Cursor.decode(Cursor("title", NEXT, 2, ("A" * 301, 1)).encode(), order="title") is None
    assert Cursor.decode(Cursor("title", NEXT, 2, ("A", True)).encode(), order="title") is None  # a bool is no key
    assert Cursor.decode(None, order="title") is None


def test_a_page_after_a_key_starts_with_the_next_case_even_among_equal_titles_and_years():
    same = [_case(title="The Crown v. Smith", year=1850) for _ in range(5)]
    query = LibraryQuery.from_params({"sort": "oldest"})
    cases = library_cases(query)
    paginator = CappedPaginator(cases, 2)
    first = keyset_page(cases, order="oldest", cursor=None, per_page=2, paginator=paginator)
    assert [c.pk for c in first.object_list] == [c.pk for c in same[:2]]
    after = Cursor.decode(first.next_cursor, order="oldest")
    assert after is not None and after.key == case_key(same[1], "oldest") == (1850, "The Crown v. Smith", same[1].pk)
    second = keyset_page(cases, order="oldest", cursor=after, per_page=2, paginator=paginator)
    assert [c.pk for c in second.object_list] == [c.pk for c in same[2:4]]
    assert second.number == 2 and second.has_previous and second.previous_cursor == ""  # page 1 needs no cursor


def test_the_admin_list_pages_read_the_right_cases_with_their_own_evidence_counts(admin_client, monkeypatch):
    from cases.admin import CaseAdmin

    monkeypatch.setattr(CaseAdmin, "list_per_page", 3)
    cases = [CaseFactory(title=f"Case {i:02d}") for i in range(7)]
    for n, case in enumerate(cases):
        EvidenceFactory.create_batch(n, case=case)
    paginator = CappedPaginator(Case.objects.order_by("title", "id"), 3)
    assert [c.title for c in paginator.page(3)] == ["Case 06"]
    html = admin_client.get("/admin/cases/case/?p=2").content.decode()  # the second page
    for case in cases[3:6]:
        assert case.title in html
    assert cases[2].title not in html and cases[6].title not in html
    assert '<td class="field-n_evidence">4</td>' in html
