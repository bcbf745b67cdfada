"""The form a teacher fills to make a class: the case (the searchable picker), the groups and seats,
and the rooms' pace."""

from __future__ import annotations

from django import forms

from cases.picker import CaseChoiceField
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
    trial = forms.BooleanField(
        required=False,
        label="Hold the trial first in every room: students may take counsel, question the witnesses and object",
    )
    max_rounds = forms.IntegerField(required=False, min_value=1, max_value=100, label="Round limit")
    turn_seconds = forms.IntegerField(required=False, min_value=5, max_value=600, label="Seconds per student turn")
    pace_seconds = forms.FloatField(required=False, min_value=0, max_value=120, label="Seconds between AI rounds")
    seed = forms.IntegerField(required=False, min_value=0, label="Seed (optional: replays the same AI jurors)")
