"""Keyset ("seek") pages of the library: a page starts after the last case the reader saw.

A page deep in 100,000 cases costs what the first one costs: the query seeks in an index to the
key of the last case shown (``WHERE (key...) > (...) ORDER BY key... LIMIT n``) instead of reading
and throwing away every case before it (``OFFSET``). Each order has a unique key ending in the
primary key, and every part of it ascends, so one row comparison serves it and the indexes of
``Case.Meta`` (``case_title_id``, ``case_oldest``, ``case_newest``) can be read forwards (next
page) or backwards (previous page). Years are keyed with their missing values last
(``YEAR_OLDEST``/``YEAR_NEWEST``), so no key is ever NULL.

The "next" and "previous" links carry the key in ``?cursor=``: URL-safe base64 of a small JSON
list (the order, the direction, the page's number and the key). A cursor that does not decode,
belongs to another order or holds values of the wrong type is ignored: the reader gets the first
page, never an error.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from dataclasses import dataclass, field
from typing import Any

from django.core.paginator import Paginator
from django.db.models import BooleanField, Expression, F, QuerySet, Value

from cases.models import YEAR_MISSING_NEWEST, YEAR_MISSING_OLDEST, YEAR_NEWEST, YEAR_OLDEST, Case

CURSOR_PARAM = "cursor"
NEXT, PREVIOUS = "n", "p"
MAX_CURSOR_CHARS = 1_000
MAX_PAGE_NUMBER = 1_000_000

# The parts of each order's key, in order; "-rank" is the search rank negated (best first).
TITLE, OLDEST, NEWEST, RELEVANCE = "title", "oldest", "newest", "relevance"
ORDER_KEYS: dict[str, tuple[str, ...]] = {
    TITLE: ("title", "pk"),
    OLDEST: ("year_oldest", "title", "pk"),
    NEWEST: ("year_newest", "title", "pk"),
    RELEVANCE: ("-rank", "title", "pk"),
}
KEY_TYPES: dict[str, type] = {"title": str, "pk": int, "year_oldest": int, "year_newest": int, "-rank": float}


def key_expression(part: str) -> Expression | F:
    """The SQL of one part of a key: the same expressions ``Case.Meta.indexes`` are built on."""
    if part == "year_oldest":
        return YEAR_OLDEST
    if part == "year_newest":
        return YEAR_NEWEST
    if part == "-rank":
        return Value(-1.0) * F("rank")
    return F(part)


def order_by(cases: QuerySet[Case], order: str) -> QuerySet[Case]:
    """``cases`` in ``order`` (one of ``ORDER_KEYS``), ascending on every part of its key."""
    return cases.order_by(*(key_expression(part).asc() for part in ORDER_KEYS[order]))


def _key_value(case: Case, part: str) -> Any:
    if part == "year_oldest":
        return YEAR_MISSING_OLDEST if case.year is None else case.year
    if part == "year_newest":
        return -(YEAR_MISSING_NEWEST if case.year is None else case.year)
    if part == "-rank":
        return -float(case.rank)  # type: ignore[attr-defined]
    return case.pk if part == "pk" else getattr(case, part)


class RowCompare(Expression):
    """``(a, b, c) > (%s, %s, %s)``: one condition an index on (a, b, c) can seek to."""

    output_field = BooleanField()
    conditional = True

    def __init__(self, parts: list[Any], values: list[Any], operator: str) -> None:
        super().__init__()
        self.parts = parts
        self.values = [Value(v) for v in values]
        self.operator = operator

    def get_source_expressions(self) -> list[Any]:
        return [*self.parts, *self.values]

    def set_source_expressions(self, exprs: list[Any]) -> None:
        self.parts, self.values = list(exprs[: len(self.parts)]), list(exprs[len(self.parts) :])

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, list[Any]]:
        sides: list[str] = []
        params: list[Any] = []
        for side in (self.parts, self.values):
            sqls = []
            for expression in side:
                sql, more = compiler.compile(expression)
                sqls.append(sql)
                params.extend(more)
            sides.append("(" + ", ".join(sqls) + ")")
        return f"{sides[0]} {self.operator} {sides[1]}", params


@dataclass(frozen=True)
class Cursor:
    order: str
    direction: str  # NEXT: the cases after ``key``; PREVIOUS: the cases before it
    number: int  # the number of the page it leads to, for "Page 3 of 40"
    key: tuple[Any, ...]

    def encode(self) -> str:
        raw = json.dumps([self.order, self.direction, self.number, list(self.key)], separators=(",", ":"))
        return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")

    @classmethod
    def decode(cls, text: str | None, *, order: str) -> Cursor | None:
        """The cursor in ``text`` if it is one for ``order``; None for anything else."""
        if not text or len(text) > MAX_CURSOR_CHARS:
            return None
        try:
            raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
            data = json.loads(raw)
        except (ValueError, binascii.Error, UnicodeDecodeError):
            return None
        if not isinstance(data, list) or len(data) != 4:
            return None
        cursor_order, direction, number, key = data
        parts = ORDER_KEYS.get(order, ())
        if cursor_order != order or direction not in (NEXT, PREVIOUS) or not isinstance(key, list):
            return None
        if type(number) is not int or not 1 <= number <= MAX_PAGE_NUMBER or len(key) != len(parts):
            return None
        values = []
        for part, value in zip(parts, key, strict=True):
            wanted = KEY_TYPES[part]
            if wanted is float and type(value) is int:
                value = float(value)
            if type(value) is not wanted or (wanted is float and not math.isfinite(value)):
                return None
            if wanted is str and len(value) > Case._meta.get_field("title").max_length:  # type: ignore[union-attr]
                return None
            if wanted is str and "\x00" in value:  # no title holds it, and PostgreSQL text cannot
                return None
            values.append(value)
        return cls(order=order, direction=direction, number=number, key=tuple(values))


@dataclass
class KeysetPage:
    """One page of cases with the cursors of its neighbours ("" for the first page itself)."""

    object_list: list[Case]
    number: int
    paginator: Paginator
    has_next: bool = False
    has_previous: bool = False
    next_cursor: str = ""
    previous_cursor: str = ""
    numbered: bool = field(default=True)

    def __iter__(self) -> Any:
        return iter(self.object_list)

    def __len__(self) -> int:
        return len(self.object_list)


def keyset_page(
    cases: QuerySet[Case], *, order: str, cursor: Cursor | None, per_page: int, paginator: Paginator
) -> KeysetPage:
    """The page ``cursor`` leads to (the first without one) in one query, whatever its depth.

    ``cases`` is already filtered; ``paginator`` only gives the count shown beside the pages. A
    "previous" page read backwards that comes up short (cases were added or removed meanwhile)
    is the first page: it is read again from the start, the one case with a second query.
    """
    parts = ORDER_KEYS[order]
    expressions = [key_expression(part) for part in parts]
    if cursor is None:
        rows = list(order_by(cases, order)[: per_page + 1])
        return _page(rows, order=order, number=1, per_page=per_page, before=False, paginator=paginator)
    if cursor.direction == NEXT:
        after = cases.filter(RowCompare(expressions, list(cursor.key), ">"))
        rows = list(order_by(after, order)[: per_page + 1])
        return _page(rows, order=order, number=cursor.number, per_page=per_page, before=True, paginator=paginator)
    before = cases.filter(RowCompare(expressions, list(cursor.key), "<"))
    rows = list(before.order_by(*(e.desc() for e in expressions))[: per_page + 1])
    if len(rows) <= per_page or cursor.number <= 1:
        return keyset_page(cases, order=order, cursor=None, per_page=per_page, paginator=paginator)
    rows = rows[:per_page][::-1]
    page = _page(rows, order=order, number=cursor.number, per_page=per_page, before=True, paginator=paginator)
    page.has_next = True  # the page it was reached from
    page.next_cursor = Cursor(order, NEXT, cursor.number + 1, case_key(rows[-1], order)).encode()
    return page


def case_key(case: Case, order: str) -> tuple[Any, ...]:
    """``case``'s key in ``order``: what a cursor after (or before) it holds."""
    return tuple(_key_value(case, part) for part in ORDER_KEYS[order])


def _page(
    rows: list[Case], *, order: str, number: int, per_page: int, before: bool, paginator: Paginator
) -> KeysetPage:
    shown = rows[:per_page]
    page = KeysetPage(object_list=shown, number=number, paginator=paginator, has_previous=before)
    if len(rows) > per_page:
        page.has_next = True
        page.next_cursor = Cursor(order, NEXT, number + 1, case_key(shown[-1], order)).encode()
    if before and number > 2 and shown:
        page.previous_cursor = Cursor(order, PREVIOUS, number - 1, case_key(shown[0], order)).encode()
    return page
