"""Reads of the case library for the home page and the admin: search, filters, order, facets.

Full-text search ranks by relevance: PostgreSQL's ``websearch_to_tsquery`` over the GIN-indexed
``search_vector`` (title weighted above summary), or SQLite's FTS5 ``MATCH`` with ``bm25``
when embedded (see ``cases.search_index``). Only titles and summaries are searched, never a
verdict or the original record. Each page costs a fixed number of queries whatever the size
of the library; the list never loads the cases' long texts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.core.paginator import Paginator
from django.db import connection
from django.db.models import FloatField, Q, QuerySet, Value
from django.db.models.expressions import RawSQL
from django.utils.functional import cached_property

from cases import keyset
from cases.keyset import KeysetPage
from cases.models import Case, ContentNote, HistoricalVerdict, Source
from cases.search_index import FTS_TABLE

SORT_RELEVANCE, SORT_TITLE, SORT_OLDEST, SORT_NEWEST = "relevance", "title", "oldest", "newest"
SORTS = {
    SORT_RELEVANCE: "Best match",
    SORT_TITLE: "Title",
    SORT_OLDEST: "Oldest first",
    SORT_NEWEST: "Newest first",
}
KNOWN_VERDICTS = (HistoricalVerdict.GUILTY, HistoricalVerdict.NOT_GUILTY)
LIST_FIELDS = (
    "slug",
    "title",
    "summary",
    "year",
    "jurisdiction",
    "source",
    "source_id",
    "content_notes",
    "offence_category",
)
MAX_QUERY_WORDS = 12
RESULTS_CAP = 10_000  # counted this far ("More than 10000"); the admin's OFFSET pages reach it
# A search with more matches is listed by title, not ranked: ranking reads every match's text
# vector, about 15 microseconds each, so 2,000 keep a ranked page near 30 ms.
RANK_CAP = 2_000
_WORD = re.compile(r"[\w'’-]+", re.UNICODE)


def offence_label(category: str) -> str:
    """Old Bailey's camelCase categories as words: "violentTheft" -> "Violent theft"."""
    words = re.sub(r"(?<!^)(?=[A-Z])", " ", category).lower()
    return words[:1].upper() + words[1:]


@dataclass(frozen=True)
class LibraryQuery:
    """What a reader asked of the library; unknown values are dropped, never an error."""

    q: str = ""
    offence: str = ""
    decade: int | None = None
    verdict_known: bool = False
    source: str = ""
    exclude: tuple[str, ...] = ()
    sort: str = ""

    @classmethod
    def from_params(cls, params: Any) -> LibraryQuery:
        """From a QueryDict (GET or POST) or a plain dict of strings (lists for ``exclude``)."""

        def one(key: str) -> str:
            value = params.get(key) or ""
            return str(value).replace("\x00", "").strip()  # PostgreSQL text cannot hold NUL

        many = params.getlist("exclude") if hasattr(params, "getlist") else list(params.get("exclude") or [])
        decade = one("decade")
        source = one("source")
        sort = one("sort")
        return cls(
            q=one("q")[:200],
            offence=one("offence")[:60],
            decade=int(decade) // 10 * 10 if decade.isdigit() and 1000 <= int(decade) <= 2100 else None,
            verdict_known=one("verdict") == "known",
            source=source if source in Source.values else "",
            exclude=tuple(note for note in many if note in ContentNote.values),
            sort=sort if sort in SORTS else "",
        )

    @property
    def order(self) -> str:
        """The order asked for; relevance when searching, title otherwise (and never relevance without words)."""
        if self.sort == SORT_RELEVANCE and not self.q:
            return SORT_TITLE
        return self.sort or (SORT_RELEVANCE if self.q else SORT_TITLE)

    @property
    def narrowed(self) -> bool:
        return bool(self.q or self.offence or self.decade or self.verdict_known or self.source or self.exclude)


def _words(text: str) -> list[str]:
    return _WORD.findall(text)[:MAX_QUERY_WORDS]


def _search(cases: QuerySet[Case], text: str) -> QuerySet[Case]:
    """Cases matching every word of ``text``, annotated with ``rank`` (higher is better)."""
    if connection.vendor == "postgresql":
        query = "websearch_to_tsquery('english', %s)"
        return cases.extra(where=[f"cases_case.search_vector @@ {query}"], params=[text]).annotate(
            # float8: a real (ts_rank's type) reads back rounded, and a page's cursor must hold the exact rank
            rank=RawSQL(f"ts_rank(cases_case.search_vector, {query})::float8", [text], output_field=FloatField())
        )
    words = _words(text)
    if not words:
        return cases.none().annotate(rank=Value(0.0, output_field=FloatField()))
    match = " ".join('"' + word.replace('"', '""') + '"' for word in words)
    # bm25 is lower for better matches; the title column weighs ten times the summary.
    ranked = f"SELECT rowid, -bm25({FTS_TABLE}, 10.0, 1.0) AS score FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH %s"
    return cases.filter(pk__in=RawSQL(f"SELECT rowid FROM ({ranked})", [match])).annotate(
        rank=RawSQL(f"(SELECT score FROM ({ranked}) WHERE rowid = cases_case.id)", [match], output_field=FloatField())
    )


def library_cases(query: LibraryQuery) -> QuerySet[Case]:
    """Playable cases matching ``query``, in its order, with only the fields a list shows."""
    cases = Case.objects.playable().only(*LIST_FIELDS)
    if query.q:
        cases = _search(cases, query.q)
    if query.offence:
        cases = cases.filter(offence_category=query.offence)
    if query.decade is not None:
        cases = cases.filter(year__gte=query.decade, year__lt=query.decade + 10)
    if query.verdict_known:
        cases = cases.filter(historical_verdict__in=KNOWN_VERDICTS)
    if query.source:
        cases = cases.filter(source=query.source)
    for note in query.exclude:
        # JSON text match works on SQLite and PostgreSQL alike ("contains" does not on SQLite).
        cases = cases.exclude(content_notes__icontains=f'"{note}"')
    # Every order ends in the primary key and has an index (cases.keyset): pages seek, never skip.
    return keyset.order_by(cases, query.order)


def featured_cases() -> QuerySet[Case]:
    """The curated cases, written for the classroom: shown first on the library's front page."""
    return Case.objects.playable().filter(source=Source.CURATED).only(*LIST_FIELDS).order_by("title", "pk")


class CappedPaginator(Paginator):
    """Counts at most ``cap`` results (``capped`` says if there are more), so a broad search or
    filter over 100,000 cases never counts all of them. The admin's case list uses it too (its
    signature is Django's ``Paginator``'s).

    ``reordered`` says a search too broad to rank is listed by title (``library_page``)."""

    def __init__(
        self,
        object_list: QuerySet[Case],
        per_page: int,
        orphans: int = 0,
        allow_empty_first_page: bool = True,
        *,
        cap: int | None = None,
    ) -> None:
        super().__init__(object_list, per_page, orphans, allow_empty_first_page)
        self.cap = RESULTS_CAP if cap is None else cap
        self.reordered = False

    @cached_property
    def count(self) -> int:
        # Only the keys: annotations (a search's rank, the admin's evidence count) are not computed.
        return self.object_list.order_by().values("pk")[: self.cap + 1].count()

    @property
    def capped(self) -> bool:
        return self.count > self.cap


def library_page(
    query: LibraryQuery, *, cursor: str | None, per_page: int, total: int | None = None, cap: int | None = None
) -> KeysetPage:
    """One page of the library for ``query``, after the case ``cursor`` names (first page without).

    Costs the count, up to ``cap`` (``RESULTS_CAP`` by default; none when ``total``, the
    library's known size, is given), and one query for the page, however deep.

    Ranking by relevance sorts every match: over 100,000 cases a common word ("theft") matches
    most of them, and ranking them all takes most of a second, while a page in title order is
    read from an index. So a search with more than ``RANK_CAP`` matches is listed by title, and
    says so (``paginator.reordered``) to ask the reader to narrow it.
    """
    paginator = CappedPaginator(library_cases(query), per_page, cap=cap)
    if total is not None:
        paginator.count = min(total, paginator.cap + 1)  # type: ignore[misc]
    order = query.order
    if order == SORT_RELEVANCE and paginator.count > min(RANK_CAP, paginator.cap):
        order, paginator.reordered = SORT_TITLE, True
    return keyset.keyset_page(
        paginator.object_list,
        order=order,
        cursor=keyset.Cursor.decode(cursor, order=order),
        per_page=per_page,
        paginator=paginator,
    )


FACETS_CACHE_KEY = "cases:library-facets:v1"
FACETS_SECONDS = 600


def library_facets() -> dict[str, Any]:
    """The filters' choices (offences and decades present) and the number of playable cases.

    Each takes a pass over the whole library, so they are cached (10 minutes at most) and
    forgotten whenever a case is saved or deleted or an import commits a file.
    """
    cached = cache.get(FACETS_CACHE_KEY)
    if cached is not None:
        return dict(cached)
    playable = Case.objects.playable().order_by()
    offences = playable.exclude(offence_category="").values_list("offence_category", flat=True).distinct()
    years = playable.exclude(year=None).values_list("year", flat=True).distinct()
    facets = {
        "offences": [(c, offence_label(c)) for c in sorted(offences)],
        "decades": [(d, f"{d}s") for d in sorted({year // 10 * 10 for year in years})],
        "sorts": list(SORTS.items()),
        "sources": list(Source.choices),
        "total": playable.count(),
    }
    cache.set(FACETS_CACHE_KEY, facets, FACETS_SECONDS)
    return facets


def library_changed() -> None:
    """Forget the cached facets (called on every case save or delete and after each imported file)."""
    cache.delete(FACETS_CACHE_KEY)


# An Old Bailey id or the start of one: a trial ("t18370918-2033"), its session ("t18370918", or
# the session's date alone, "18370918"), or any prefix of those from the year on.
ID_PREFIX = re.compile(r"^(?P<kind>[a-z]?)(?P<digits>\d{4,8})(?P<rest>-\d*)?$", re.IGNORECASE)


def id_prefix(term: str) -> str:
    """The start of an imported trial's id that ``term`` names, or "" if it does not look like one.
    A session's date alone is the start of its trials' ids ("t" + the date)."""
    found = ID_PREFIX.match(term)
    if found is None:
        return ""
    return (found["kind"] or "t").lower() + found["digits"] + (found["rest"] or "")


def admin_search(cases: QuerySet[Case], text: str) -> QuerySet[Case]:
    """The admin's search box: an exact slug or trial id if one matches, then the imported trials
    whose id starts with it (a session's trials by the session's id), else the full-text index.

    The search is applied to ``cases`` itself, never as a subquery: the PostgreSQL condition names
    the ``cases_case`` table, which a subquery would alias.
    """
    term = text.strip()
    if " " in term:
        return _search(cases, term)
    exact = cases.filter(Q(slug=term) | Q(source_id=term))
    if exact.exists():
        return exact
    prefix = id_prefix(term)
    if prefix:
        started = cases.filter(source=Source.OLDBAILEY, source_id__startswith=prefix)
        if started.exists():
            return started
    return _search(cases, term)
