"""The form a teacher fills to make a class: the case (the searchable picker), the groups and seats,
the jury's rules and format (who speaks next, what model jurors see), and the rooms' pace."""

from __future__ import annotations

from django import forms

from cases.picker import CaseChoiceField
from deliberation.engine import formats
from deliberation.engine.rules import DEFAULT_RULES, RULE_SETS
from deliberation.game_settings import CONTEXT_SCOPE_LABELS, TURN_MODE_LABELS
from deliberation.rooms.classes import MAX_GROUPS, MAX_NAME, MAX_SEATS, MIN_GROUPS, MIN_SEATS

DEFAULT_GROUPS = 5
DEFAULT_SEATS = 6


class ClassCreateForm(forms.Form):
    case = CaseChoiceField(label="Case")
    groups = forms.IntegerField(
        min_value=MIN_GROUPS, max_value=MAX_GROUPS, initial=DEFAULT_GROUPS, label="Groups (one room each)"
    )
    seats = forms.IntegerField(
        min_value=MIN_SEATS, max_value=MAX_SEATS, initial=DEFAULT_SEATS, label="Students per group (at most)"
    )
    name = forms.CharField(max_length=MAX_NAME, required=False, label="Name of the class (optional)")
    rules = forms.ChoiceField(
        choices=[(rule.name, rule.label) for rule in RULE_SETS.values()],
        initial=DEFAULT_RULES,
        required=False,  # left out: the unanimous jury
        label="Jury rules",
        help_text="Every group's jury decides under these rules.",
    )
    turn_mode = forms.ChoiceField(
        choices=list(TURN_MODE_LABELS.items()),
        initial=formats.DEFAULT_TURN_MODE,
        required=False,
        label="Who speaks next",
    )
    context_scope = forms.ChoiceField(
        choices=list(CONTEXT_SCOPE_LABELS.items()),
        initial=formats.DEFAULT_CONTEXT_SCOPE,
        required=False,
        label="What model jurors see",
    )
    max_rounds = forms.IntegerField(required=False, min_value=1, max_value=100, label="Round limit")
    turn_seconds = forms.IntegerField(required=False, min_value=5, max_value=600, label="Seconds per student turn")
    pace_seconds = forms.FloatField(required=False, min_value=0, max_value=120, label="Seconds between AI rounds")
    seed = forms.IntegerField(required=False, min_value=0, label="Seed (optional: replays the same AI jurors)")

    def clean_rules(self) -> str:
        return self.cleaned_data.get("rules") or DEFAULT_RULES

    def clean_turn_mode(self) -> str:
        return self.cleaned_data.get("turn_mode") or formats.DEFAULT_TURN_MODE

    def clean_context_scope(self) -> str:
        return self.cleaned_data.get("context_scope") or formats.DEFAULT_CONTEXT_SCOPE
