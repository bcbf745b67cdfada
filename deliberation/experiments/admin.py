"""Starting experiments from the admin: an add form that starts the experiment, a progress
column, a link to its page and an action that starts pending experiments.

``deliberation.admin.ExperimentAdmin`` mixes ``ExperimentAdminMixin`` in; every write goes
through ``experiments.services``.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from deliberation.engine.rules import DEFAULT_RULES, RULE_SETS
from deliberation.experiments import services
from deliberation.experiments.selection import select_cases
from deliberation.models import Experiment

ADD_FIELDS = ("name", "case_selector", "runs_per_case", "engine", "seed", "rules")
SHOWN_FIELDS = (
    *ADD_FIELDS,
    *("status", "progress", "page", "notes", "error", "wall_seconds", "created_at", "finished_at"),
)
MESSAGE_STARTED = "Experiment {pk} started: {total} runs. Its page shows the progress."
MESSAGE_STARTED_MANY = "{count} experiment(s) started."
MESSAGE_NOT_PENDING = "Experiment {pk} was not started: it is not pending."


class ExperimentAddForm(forms.ModelForm):
    class Meta:
        model = Experiment
        fields = ADD_FIELDS
        help_texts = {
            "case_selector": "'all', 'source=oldbailey' or case slugs separated by commas.",
            "engine": "'offline' or a LiteLLM model string.",
            "seed": "Runs use seeds seed, seed + 1, ... seed + runs per case - 1.",
            "rules": "The jury rule set every run follows; the page compares rule sets run on the same cases.",
        }
        widgets = {"rules": forms.Select(choices=[(rule.name, rule.label) for rule in RULE_SETS.values()])}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["rules"].required = False  # left out: the unanimous jury of today

    def clean_rules(self) -> str:
        rules = self.cleaned_data.get("rules") or DEFAULT_RULES
        if rules not in RULE_SETS:
            raise ValidationError(services.ERROR_RULES_UNKNOWN)
        return rules

    def clean_case_selector(self) -> str:
        selector = self.cleaned_data["case_selector"].strip()
        selection = select_cases(selector)  # raises the selector's own ValidationError
        if not selection.cases:
            raise ValidationError(services.ERROR_NOTHING_TO_RUN)
        return selector

    def clean_runs_per_case(self) -> int:
        runs = self.cleaned_data["runs_per_case"]
        if not 1 <= runs <= services.MAX_RUNS_PER_CASE:
            raise ValidationError(services.ERROR_RUNS)
        return runs


class ExperimentAdminMixin:
    """Add form, progress and page link for ``ExperimentAdmin``."""

    actions = ("start_pending",)

    def get_list_display(self, request: HttpRequest) -> tuple[str, ...]:
        return (*super().get_list_display(request), "progress", "page")  # type: ignore[misc]

    def get_form(self, request: HttpRequest, obj: Experiment | None = None, **kwargs: Any) -> type[forms.ModelForm]:
        if obj is None:
            kwargs["form"] = ExperimentAddForm
        return super().get_form(request, obj, **kwargs)  # type: ignore[misc]

    def get_fields(self, request: HttpRequest, obj: Experiment | None = None) -> tuple[str, ...]:
        return ADD_FIELDS if obj is None else SHOWN_FIELDS

    def get_readonly_fields(self, request: HttpRequest, obj: Experiment | None = None) -> tuple[str, ...]:
        if obj is None:
            return ()
        return tuple(field for field in SHOWN_FIELDS if field != "name")

    def save_model(self, request: HttpRequest, obj: Experiment, form: forms.ModelForm, change: bool) -> None:
        if change:
            Experiment.objects.filter(pk=obj.pk).update(name=obj.name)  # the only editable field
            return
        created = services.experiment_create(
            case_selector=obj.case_selector,
            runs_per_case=obj.runs_per_case,
            engine=obj.engine,
            seed=obj.seed,
            name=obj.name,
            rules=obj.rules,
        )
        services.experiment_start(experiment_id=created.pk)
        obj.pk = created.pk
        obj._state.adding = False
        obj.refresh_from_db()
        messages.info(request, MESSAGE_STARTED.format(pk=created.pk, total=created.progress_total))

    @admin.display(description="Progress")
    def progress(self, obj: Experiment) -> str:
        if not obj.progress_total:
            return "-"
        return f"{obj.progress_done} / {obj.progress_total} ({100 * obj.progress_done // obj.progress_total}%)"

    @admin.display(description="Page")
    def page(self, obj: Experiment) -> str:
        if not obj.pk:
            return "-"
        return format_html('<a href="{}">figures and runs</a>', reverse("experiments:detail", args=[obj.pk]))

    @admin.action(description="Start the selected pending experiments")
    def start_pending(self, request: HttpRequest, queryset: QuerySet[Experiment]) -> None:
        started = 0
        for experiment in queryset:
            if experiment.status != Experiment.Status.PENDING:
                messages.warning(request, MESSAGE_NOT_PENDING.format(pk=experiment.pk))
                continue
            services.experiment_start(experiment_id=experiment.pk)
            started += 1
        if started:
            messages.info(request, MESSAGE_STARTED_MANY.format(count=started))
