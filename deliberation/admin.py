"""The curator's view of deliberations and narrations."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from deliberation.experiments.admin import ExperimentAdminMixin
from deliberation.models import Deliberation, Experiment, Narration, Seat
from deliberation.narration.engines import engine_status
from deliberation.services import review


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "kind", "display_name", "vote", "conviction", "turns_taken")
    readonly_fields = fields
    can_delete = False


@admin.register(Deliberation)
class DeliberationAdmin(admin.ModelAdmin):
    """A deliberation is a record: curators read and delete it; the game writes it."""

    list_display = ("id", "case", "engine", "phase", "round_number", "verdict", "experiment", "created_at")
    list_filter = ("phase", "verdict", "engine", "case__source")
    list_select_related = ("case", "experiment")
    search_fields = ("case__title", "room_code")
    inlines = (SeatInline,)
    readonly_fields = ("failed_model_calls",)

    @admin.display(description="Failed model calls (what the client said)")
    def failed_model_calls(self, obj: Deliberation) -> SafeString | str:
        """Each failed call with the model client's own words (status, URL, the provider's message):
        pages and exports name only the cause; the full detail is for the operator here and in the log."""
        rows = [
            (stats.round_number, f"{failure.get('kind')}, {failure.get('cause')}", failure.get("detail") or "")
            for stats in obj.round_stats.order_by("round_number")
            for failure in stats.failures or []
        ]
        rows += [
            (turn.round_number, f"stand-in turn {turn.sequence}, {turn.fallback_cause}", turn.fallback_reason)
            for turn in obj.turns.filter(is_fallback=True).order_by("sequence")
        ]
        if not rows:
            return "none"
        return format_html_join("", "<p>Round {}: {}: {}</p>", rows)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def delete_model(self, request: HttpRequest, obj: Deliberation) -> None:
        try:
            review.deliberation_delete(deliberation_id=obj.pk)
        except ValidationError as exc:
            self.message_user(request, " ".join(exc.messages), messages.ERROR)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Deliberation]) -> None:
        for pk in queryset.values_list("pk", flat=True):
            try:
                review.deliberation_delete(deliberation_id=pk)
            except ValidationError as exc:
                self.message_user(request, f"#{pk}: {' '.join(exc.messages)}", messages.ERROR)


@admin.register(Narration)
class NarrationAdmin(admin.ModelAdmin):
    """Narrations are rendered by the game; the changelist names the judge's active voice."""

    list_display = ("id", "kind", "status", "engine", "duration_seconds", "created_at")
    list_filter = ("status", "engine", "kind")
    list_select_related = ("deliberation",)
    search_fields = ("text",)
    readonly_fields = (
        "deliberation",
        "round_number",
        "kind",
        "text",
        "status",
        "engine",
        "voice",
        "cache_key",
        "audio",
        "duration_seconds",
        "attempts",
        "created_at",
        "rendered_at",
    )
    change_list_template = "admin/deliberation/narration/change_list.html"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        return super().changelist_view(request, {**(extra_context or {}), "judge_voice": engine_status()})


@admin.register(Experiment)
class ExperimentAdmin(ExperimentAdminMixin, admin.ModelAdmin):
    list_display = ("id", "name", "case_selector", "runs_per_case", "engine", "status", "created_at")
    list_filter = ("status", "engine")
