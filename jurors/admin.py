"""The curator's view of the jury."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from jurors import services
from jurors.models import Archetype, Persona


@admin.register(Archetype)
class ArchetypeAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "slug",
        "modifier_evidence",
        "modifier_emotional",
        "modifier_logical",
        "modifier_question",
        "modifier_moral",
        "modifier_narrative",
    )
    search_fields = ("name", "slug", "description")
    prepopulated_fields = {"slug": ("name",)}

    def save_model(self, request: HttpRequest, obj: Archetype, form: Any, change: bool) -> None:
        services.archetype_save(archetype=obj)


@admin.register(Persona)
class PersonaAdmin(admin.ModelAdmin):
    list_display = ("seat_number", "emoji", "name", "archetype", "stubbornness", "volatility", "influence", "active")
    list_display_links = ("name",)
    list_filter = ("active", "archetype", "initial_lean")
    list_select_related = ("archetype",)
    search_fields = ("name", "key", "personality_prompt")
    autocomplete_fields = ("archetype",)
    fieldsets = (
        (None, {"fields": ("key", "seat_number", "name", "emoji", "archetype", "active")}),
        ("Personality", {"fields": ("personality_prompt", "initial_lean")}),
        ("Behaviour (0 to 1)", {"fields": ("stubbornness", "volatility", "influence", "verbosity", "memory_window")}),
        ("Model override", {"fields": ("model", "temperature")}),
    )

    def save_model(self, request: HttpRequest, obj: Persona, form: Any, change: bool) -> None:
        services.persona_save(persona=obj)
