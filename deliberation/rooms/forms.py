"""Forms of the room pages (validation of what people type; the services decide the rest)."""

from __future__ import annotations

from django import forms

from cases.picker import CaseChoiceField
from deliberation.engine.rules import DEFAULT_RULES, RULE_SETS
from deliberation.engine.strategies import STRATEGIES
from deliberation.engine.types import ARGUMENT_TYPES
from deliberation.rooms.services import MAX_CONTENT, MAX_NAME, OPENABLE_SEATS
from jurors.models import Persona

ERROR_NO_CASE_CHOSEN = "Choose a case from the list (search by title, offence or era)."
OWN_WORDS = ""  # the strategy choice meaning "my words, verbatim"


class RoomCreateForm(forms.Form):
    # Chosen with the case picker (templates/cases/_case_picker.html), which posts a slug.
    case = CaseChoiceField(
        error_messages={"required": ERROR_NO_CASE_CHOSEN, "invalid_choice": ERROR_NO_CASE_CHOSEN},
    )
    host_plays = forms.BooleanField(
        required=False, initial=True, label="I play in seat 7 (untick to host without playing)"
    )
    open_seats = forms.TypedMultipleChoiceField(
        choices=[(n, f"Seat {n}") for n in OPENABLE_SEATS],
        coerce=int,
        initial=list(OPENABLE_SEATS),
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label="Seats open to students and agents",
    )
    trial = forms.BooleanField(
        label="Hold the trial first: students may take counsel, question the witnesses and object",
        required=False,
    )
    show_convictions = forms.BooleanField(
        required=False, initial=True, label="Agents see the other jurors' conviction scores"
    )
    seed = forms.IntegerField(
        required=False, min_value=0, label="Seed (optional: the same seed replays the same AI jurors)"
    )
    rules = forms.ChoiceField(
        choices=[(rule.name, rule.label) for rule in RULE_SETS.values()],
        initial=DEFAULT_RULES,
        required=False,  # left out: the unanimous jury
        label="Jury rules",
    )

    def clean_rules(self) -> str:
        return self.cleaned_data.get("rules") or DEFAULT_RULES

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        # Name each seat after the AI juror who keeps it when nobody takes it.
        jury = {p.seat_number: p for p in Persona.objects.jury()}
        self.fields["open_seats"].choices = [
            (n, f"{jury[n].emoji} Seat {n}: {jury[n].name}" if n in jury else f"Seat {n}") for n in OPENABLE_SEATS
        ]


class JoinCodeForm(forms.Form):
    code = forms.CharField(max_length=16, label="Room code or seat code")


ERROR_SEAT_GONE = "Seat %(value)s was taken a moment ago. Choose another seat, or any free seat."


class JoinSeatForm(forms.Form):
    seat = forms.TypedChoiceField(
        coerce=int, required=False, empty_value=None, label="Seat", error_messages={"invalid_choice": ERROR_SEAT_GONE}
    )
    name = forms.CharField(max_length=MAX_NAME, required=False, label="Your name (optional)")

    def __init__(self, *args, free_seats: list[tuple[int, str]] = (), **kwargs) -> None:  # type: ignore[assignment]
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = [("", "Any free seat"), *free_seats]


class SpeakForm(forms.Form):
    seat = forms.IntegerField(required=False, widget=forms.HiddenInput)
    strategy = forms.ChoiceField(
        choices=[(OWN_WORDS, "My own words (said exactly as I type them)")]
        + [(s, s.replace("_", " ").capitalize()) for s in STRATEGIES],
        required=False,
    )
    argument_type = forms.ChoiceField(choices=[(t, t.capitalize()) for t in ARGUMENT_TYPES], initial="logical")
    # The browser stops typing at the limit; the service refuses longer text with its own message.
    content = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3, "maxlength": MAX_CONTENT}))
    target = forms.TypedChoiceField(
        coerce=int,
        required=False,
        empty_value=None,
        choices=[("", "The whole jury")] + [(n, f"Seat {n}") for n in range(1, 13)],
    )
    # The item a challenge (evidence) or a question (witness) is about, by its id in the case file.
    evidence = forms.CharField(required=False, max_length=8)
    witness = forms.CharField(required=False, max_length=8)


class VoteForm(forms.Form):
    seat = forms.IntegerField(required=False, widget=forms.HiddenInput)
    vote = forms.ChoiceField(choices=[("guilty", "Guilty"), ("not_guilty", "Not guilty")])
