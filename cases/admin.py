"""The curator's view of the case library."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.views.main import ChangeList
from django.core.exceptions import ValidationError
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import URLPattern, path
from django.utils.safestring import mark_safe
from django.utils.text import capfirst

from angryagents.forms import MultipleFileField
from cases import curation
from cases.admin_forms import CaseAdminForm, DefendantInlineFormSet, WitnessAdminForm
from cases.admin_import import oldbailey_import_urls
from cases.importers.oldbailey_reasons import UNPLAYABLE_REASONS
from cases.library import CappedPaginator, admin_search, library_facets
from cases.models import Case, Defendant, Evidence, Witness

MESSAGE_DUPLICATED = "Duplicated {count} case(s)."
MESSAGE_IMPORTED = "{name}: {status}."


class DefendantInline(admin.TabularInline):
    model = Defendant
    formset = DefendantInlineFormSet
    extra = 0
    fields = ("name", "gender", "age", "description", "position")


class EvidenceInline(admin.StackedInline):
    model = Evidence
    extra = 0
    fields = (
        ("label", "type", "position"),
        "description",
        ("strength_prosecution", "strength_defense"),
        ("contestable", "contest_reason"),
    )


class WitnessInline(admin.StackedInline):
    model = Witness
    form = WitnessAdminForm
    extra = 0
    fields = (("name", "role", "side", "position"), "testimony_summary", "testimony", "credibility_issues")


class OffenceFilter(admin.SimpleListFilter):
    """Offence categories from the library's cached facets: no pass over every case per page."""

    title = "offence"
    parameter_name = "offence"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[Any, str]]:
        return library_facets()["offences"]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Case]) -> QuerySet[Case]:
        return queryset.filter(offence_category=self.value()) if self.value() else queryset


class DecadeFilter(admin.SimpleListFilter):
    title = "era"
    parameter_name = "decade"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[Any, str]]:
        return library_facets()["decades"]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Case]) -> QuerySet[Case]:
        value = self.value()
        if not value or not value.isdigit():
            return queryset
        return queryset.filter(year__gte=int(value), year__lt=int(value) + 10)


class UnplayableReasonFilter(admin.SimpleListFilter):
    """Unplayable cases by the importer's reason, and those kept unplayable without one."""

    title = "why unplayable"
    parameter_name = "why"
    NONE_GIVEN = "none"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[Any, str]]:
        return [*((reason, capfirst(reason)) for reason in UNPLAYABLE_REASONS), (self.NONE_GIVEN, "No reason given")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Case]) -> QuerySet[Case]:
        value = self.value()
        if not value:
            return queryset
        if value == self.NONE_GIVEN:
            return queryset.filter(playable=False, unplayable_reason="")
        return queryset.filter(unplayable_reason=value).exclude(unplayable_reason="")  # the partial index's rows


class CaseChangeList(ChangeList):
    """The case list, read in three fixed steps however deep the page.

    First the primary keys of the page alone: an index in the list's order (``case_title_id``
    for the default one) gives them without reading the rows an OFFSET skips. Then those rows.
    Then the evidence of the cases shown, counted in one query: a per-row subquery in the page
    would run for every row skipped (over a second at the 200th page of 100,000 cases), so the
    column cannot sort the list, which would count the evidence of every case.
    """

    def get_results(self, request: HttpRequest) -> None:
        super().get_results(request)
        keys = list(self.result_list.values_list("pk", flat=True))
        cases = list(self.queryset.filter(pk__in=keys))
        self.result_list = cases
        counts = dict(
            Evidence.objects.filter(case__in=[case.pk for case in cases])
            .order_by()
            .values("case")
            .annotate(n=Count("pk"))
            .values_list("case", "n")
        )
        for case in cases:
            case.evidence_count = counts.get(case.pk, 0)  # type: ignore[attr-defined]


class CuratedYamlForm(forms.Form):
    files = MultipleFileField(help_text="One or more curated case files (.yaml).")


@admin.register(Case)
class CaseAdmin(admin.ModelAdmin):
    form = CaseAdminForm
    list_display = (
        "title",
        "source",
        "source_id",
        "year",
        "difficulty",
        "historical_verdict",
        "playable",
        "why_unplayable",
        "n_evidence",
    )
    list_filter = (
        "source",
        "difficulty",
        "historical_verdict",
        "playable",
        UnplayableReasonFilter,
        OffenceFilter,
        DecadeFilter,
    )
    ordering = ("title", "id")  # served by an index; the default adds "-pk", which sorts the whole table
    show_full_result_count = False  # one count per page, not two, over a library of 100,000
    paginator = CappedPaginator  # and that count stops at 10,000 (pages reach that far; narrow to go further)
    search_fields = ("title",)  # the box searches the full-text index (get_search_results)
    search_help_text = "Words of the title or summary (full-text), an exact slug, or a trial id or its start: t18370918"
    prepopulated_fields = {"slug": ("title",)}
    readonly_fields = ("created_at", "updated_at", "original_record")
    inlines = (DefendantInline, EvidenceInline, WitnessInline)
    actions = ("duplicate_cases", "export_yaml")
    list_per_page = 50
    change_list_template = "admin/cases/case/change_list.html"
    fieldsets = (
        (
            None,
            {"fields": ("title", "slug", "summary", "charges", "offence_category", ("playable", "unplayable_reason"))},
        ),
        ("Classroom", {"fields": ("difficulty", "themes", "content_notes")}),
        ("Arguments", {"fields": ("prosecution_arguments", "defense_arguments")}),
        ("Source", {"fields": ("source", "source_id", "year", "jurisdiction")}),
        ("History (never shown to the jurors)", {"fields": ("historical_verdict", "historical_punishment")}),
        ("Original record (never shown to the jurors)", {"fields": ("original_record",), "classes": ("collapse",)}),
        ("Record", {"fields": ("created_at", "updated_at")}),
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Case]:
        cases = super().get_queryset(request)
        if request.resolver_match and request.resolver_match.url_name == "cases_case_changelist":
            return cases.defer("original_text", "summary", "defense_arguments", "prosecution_arguments")
        return cases

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return CaseChangeList

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Case], search_term: str
    ) -> tuple[QuerySet[Case], bool]:
        if not search_term.strip():
            return queryset, False
        return admin_search(queryset, search_term), False

    @admin.display(description="Why unplayable")
    def why_unplayable(self, obj: Case) -> str:
        return capfirst(obj.unplayable_reason)

    @admin.display(description="Evidence")
    def n_evidence(self, obj: Case) -> int:
        return getattr(obj, "evidence_count", 0)

    @admin.display(description="Original record")
    def original_record(self, obj: Case) -> str:
        # Rendered by an autoescaped template, so safe; on one line so the admin adds no <br>.
        return mark_safe(render_to_string("cases/_original_record.html", {"case": obj}).replace("\n", " "))

    def save_model(self, request: HttpRequest, obj: Case, form: Any, change: bool) -> None:
        curation.case_save(case=obj)

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        children = formset.save(commit=False)
        for obj in formset.deleted_objects:
            curation.case_child_delete(obj=obj)
        for child in children:
            curation.case_child_save(obj=child)
        formset.save_m2m()

    @admin.action(description="Duplicate selected cases")
    def duplicate_cases(self, request: HttpRequest, queryset: QuerySet[Case]) -> None:
        for case in queryset:
            curation.case_duplicate(case=case)
        self.message_user(request, MESSAGE_DUPLICATED.format(count=queryset.count()), messages.SUCCESS)

    @admin.action(description="Export selected cases as curated YAML")
    def export_yaml(self, request: HttpRequest, queryset: QuerySet[Case]) -> HttpResponse:
        documents = [
            curation.case_to_yaml(case) for case in queryset.prefetch_related("defendants", "evidence", "witnesses")
        ]
        response = HttpResponse("---\n".join(documents), content_type="application/x-yaml; charset=utf-8")
        filename = f"{queryset.first().slug}.yaml" if len(documents) == 1 else "cases.yaml"  # type: ignore[union-attr]
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response

    def get_urls(self) -> list[URLPattern]:
        extra = [
            *oldbailey_import_urls(self.admin_site),
            path(
                "import-yaml/",
                self.admin_site.admin_view(self.import_yaml_view),
                name="cases_case_import_yaml",
            ),
        ]
        return extra + super().get_urls()

    def import_yaml_view(self, request: HttpRequest) -> HttpResponse:
        form = CuratedYamlForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            for upload in form.cleaned_data["files"]:
                name = upload.name or "upload.yaml"
                try:
                    text = upload.read().decode("utf-8")
                    for document in text.split("\n---\n"):
                        data = curation.parse_case_yaml(document, name=name)
                        case, status = curation.case_save_from_data(data=data, name=name)
                        self.message_user(request, MESSAGE_IMPORTED.format(name=case.title, status=status))
                except (ValidationError, UnicodeDecodeError) as exc:
                    problem = " ".join(exc.messages) if isinstance(exc, ValidationError) else f"{name}: not UTF-8 text."
                    self.message_user(request, problem, messages.ERROR)
            return redirect("admin:cases_case_changelist")
        context = {
            **self.admin_site.each_context(request),
            "form": form,
            "title": "Import curated cases (YAML)",
            "opts": self.model._meta,
        }
        return render(request, "admin/cases/case/import_yaml.html", context)
