"""The form a teacher fills to make a class: the case (the searchable picker), the groups and seats,
the jury rules and the rooms' pace. The game settings every room is played with (round limit, AI
speakers, turn length, engine, narration, meters...) come from ``GameSettingsForm(room=True)``,
the room form's own, shown beside it."""

from __future__ import annotations

from django import forms

from cases.picker import CaseChoiceField
from deliberation.engine.rules import DEFAULT_RULES, RULE_SETS
from deliberation.rooms.classes import MAX_GROUPS, MAX_NAME, MAX_SEATS, MIN_GROUPS, MIN_SEATS
from deliberation.rooms.lesson import MAX_MINUTES, MIN_MINUTES

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
        label="Jury rules (every room)",
    )
    trial = forms.BooleanField(
        required=False,
        label=(
            "Hold the trial first: students may take counsel, question the witnesses and object "
            "(at the start you may choose it group by group)"
        ),
    )
    lesson_minutes = forms.IntegerField(
        required=False,
        min_value=MIN_MINUTES,
        max_value=MAX_MINUTES,
        label="Minutes the class has (optional: 30, 45, 60 or any number)",
        help_text=(
            "Counted from the start. The trial's length, the turns and the round limit are chosen to fit, "
            "and the judge directs every jury to its verdict before the time is up."
        ),
        widget=forms.NumberInput(attrs={"list": "lesson-choices", "inputmode": "numeric"}),
    )
    pace_seconds = forms.FloatField(required=False, min_value=0, max_value=120, label="Seconds between AI rounds")
    seed = forms.IntegerField(required=False, min_value=0, label="Seed (optional: replays the same AI jurors)")

    def clean_rules(self) -> str:
        return self.cleaned_data.get("rules") or DEFAULT_RULES
