"""Which cases an experiment runs: ``all``, ``source=<source>`` or a comma-separated list of slugs."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.exceptions import ValidationError

from cases.models import Case, Source

ERROR_SELECTOR_EMPTY = "Name the cases: 'all', 'source=oldbailey' or slugs separated by commas."
ERROR_SOURCE_UNKNOWN = "Unknown source {source!r}; choose from: {choices}."
ERROR_SLUGS_UNKNOWN = "No case with slug(s): {slugs}."
NOTE_UNPLAYABLE = "Skipped {slug}: kept for the record only, not playable."


@dataclass
class Selection:
    cases: list[Case] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def select_cases(selector: str) -> Selection:
    """The playable cases the selector names, in a stable order, and a note per skipped case."""
    text = (selector or "").strip()
    if not text:
        raise ValidationError(ERROR_SELECTOR_EMPTY)
    if text == "all":
        named = list(Case.objects.order_by("source", "slug"))
    elif text.startswith("source="):
        source = text.removeprefix("source=").strip()
        if source not in Source.values:
            raise ValidationError(ERROR_SOURCE_UNKNOWN.format(source=source, choices=", ".join(Source.values)))
        named = list(Case.objects.filter(source=source).order_by("slug"))
    else:
        slugs = list(dict.fromkeys(s.strip() for s in text.split(",") if s.strip()))
        if not slugs:
            raise ValidationError(ERROR_SELECTOR_EMPTY)
        by_slug = {case.slug: case for case in Case.objects.filter(slug__in=slugs)}
        missing = [slug for slug in slugs if slug not in by_slug]
        if missing:
            raise ValidationError(ERROR_SLUGS_UNKNOWN.format(slugs=", ".join(missing)))
        named = [by_slug[slug] for slug in slugs]
    selection = Selection()
    for case in named:
        if case.playable:
            selection.cases.append(case)
        else:
            selection.notes.append(NOTE_UNPLAYABLE.format(slug=case.slug))
    return selection
