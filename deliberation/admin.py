"""The curator's view of deliberations and narrations."""

from __future__ import annotations

from django.contrib import admin

from deliberation.experiments.admin import ExperimentAdminMixin
from deliberation.models import Deliberation, Experiment, Narration, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "kind", "display_name", "vote", "conviction", "turns_taken")
    readonly_fields = fields
    can_delete = False


@admin.register(Deliberation)
class DeliberationAdmin(admin.ModelAdmin):
    list_display = ("id", "case", "engine", "phase", "round_number", "verdict", "created_at")
    list_filter = ("phase", "verdict", "engine", "case__source")
    list_select_related = ("case",)
    search_fields = ("case__title", "room_code")
    readonly_fields = ("engine_state", "seed", "created_at", "started_at", "finished_at")
    inlines = (SeatInline,)
    raw_id_fields = ("case", "experiment", "owner")


@admin.register(Narration)
class NarrationAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "status", "engine", "duration_seconds", "created_at")
    list_filter = ("status", "engine", "kind")
    search_fields = ("text",)
    raw_id_fields = ("deliberation",)


@admin.register(Experiment)
class ExperimentAdmin(ExperimentAdminMixin, admin.ModelAdmin):
    list_display = ("id", "name", "case_selector", "runs_per_case", "engine", "status", "created_at")
    list_filter = ("status", "engine")
