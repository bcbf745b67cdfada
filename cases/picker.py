"""The case picker: a searchable list of playable cases wherever a case is chosen (room creation,
a class), built on the library's own search (``cases.library``) with the curated cases first.

The picker is a template partial (``templates/cases/_case_picker.html``) posting ``case`` as a
slug; its list refreshes from ``case_pick`` as a person types. The case already chosen stays at the
top of the list whatever the search, so a new search never loses it.
"""

from __future__ import annotations

from typing import Any

from django import forms

from cases import library
from cases.library import LibraryQuery, featured_cases, library_facets, library_page, offence_label
from cases.models import Case

PICKER_LIMIT = 20


def picker_context(params: Any, *, selected: str = "") -> dict[str, Any]:
    """What ``_case_picker.html`` needs: the query, its facets and at most ``PICKER_LIMIT`` cases
    (the chosen one first, then the curated ones when nothing is searched, then the matches).
    A fixed number of queries: the chosen case, the curated cases, the matches counted up to the
    library's cap when searching or filtering (a search with more is listed by title, not ranked:
    ranking them all would take most of a second at 100,000 cases), one page of matches."""
    query = LibraryQuery.from_params(params)
    selected = selected or str(params.get("case") or "")
    chosen = Case.objects.playable().filter(slug=selected).first() if selected else None
    cases: list[Case] = [chosen] if chosen else []
    if not query.narrowed:
        cases += [c for c in featured_cases() if c.slug != selected]
    seen = {c.slug for c in cases}
    facets = library_facets()
    # The library's first page: a search too broad to rank is listed by title (cases.library_page).
    matches = library_page(  # the picker shows no count: counting up to the ranking's cap is enough
        query,
        cursor=None,
        per_page=PICKER_LIMIT + len(seen),
        total=None if query.narrowed else facets["total"],
        cap=library.RANK_CAP,
    )
    for case in matches.object_list:
        if case.slug not in seen and len(cases) < PICKER_LIMIT:
            cases.append(case)
            seen.add(case.slug)
    for case in cases:
        case.offence_words = offence_label(case.offence_category) if case.offence_category else ""  # type: ignore[attr-defined]
    return {
        "picker_query": query,
        "picker_cases": cases,
        "picker_selected": chosen.slug if chosen else "",
        "picker_offences": facets["offences"],
        "picker_decades": facets["decades"],
        "picker_limit": PICKER_LIMIT,
    }


class CaseChoiceField(forms.ModelChoiceField):
    """A playable case by slug (what the picker posts) or by primary key (older forms, tests)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("queryset", Case.objects.playable())
        kwargs.setdefault("empty_label", None)
        kwargs.setdefault("to_field_name", "slug")
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> Case | None:
        text = str(value or "").strip()
        if text.isdigit() and not self.queryset.filter(slug=text).exists():  # type: ignore[union-attr]
            case = self.queryset.filter(pk=int(text)).first()  # type: ignore[union-attr]
            if case is None:
                raise forms.ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
            return case
        return super().to_python(value)
