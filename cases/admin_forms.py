"""Admin forms for curating cases without JSON: lists are edited one item a line.

Charges, themes, arguments and a witness's credibility issues are stored as JSON lists; the
curator sees a text box with one item per line (blank lines are dropped, spaces trimmed).
Content notes are ticked from the fixed vocabulary. A case marked playable must have what a
game needs: a summary and at least one charge (required of every case) and at least one
defendant (checked by the defendants inline, since the defendants are saved with it).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from cases.models import Case, ContentNote, Witness

ERROR_PLAYABLE_NEEDS_DEFENDANT = "A playable case needs at least one defendant: add one, or untick Playable."
LINES_HELP = "One per line."


class LineListField(forms.CharField):
    """A list of short texts edited as lines of a text box."""

    widget = forms.Textarea

    def __init__(self, *args: Any, rows: int = 4, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("help_text", LINES_HELP)
        kwargs.setdefault("widget", forms.Textarea(attrs={"rows": rows, "cols": 80}))
        super().__init__(*args, **kwargs)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return "\n".join(str(item) for item in value)
        return value

    def to_python(self, value: Any) -> list[str]:  # type: ignore[override]
        if isinstance(value, list | tuple):
            return [str(item).strip() for item in value if str(item).strip()]
        text = super().to_python(value) or ""
        return [line.strip() for line in text.splitlines() if line.strip()]

    def has_changed(self, initial: Any, data: Any) -> bool:
        return self.to_python(initial or []) != self.to_python(data)


def _fit_rows(form: forms.ModelForm) -> None:
    """Each list box tall enough to show every item it holds, long arguments wrapping included."""
    for name, field in form.fields.items():
        if isinstance(field, LineListField):
            items = getattr(form.instance, name, None) or []
            needed = sum(1 + len(str(item)) // 90 for item in items) + 1
            field.widget.attrs["rows"] = max(int(field.widget.attrs.get("rows", 2)), min(needed, 30))


class CaseAdminForm(forms.ModelForm):
    charges = LineListField(rows=3, required=True, help_text="One charge per line.")
    themes = LineListField(rows=3, help_text="One theme per line (e.g. reasonable doubt).")
    content_notes = forms.MultipleChoiceField(
        choices=ContentNote.choices, widget=forms.CheckboxSelectMultiple, required=False
    )
    prosecution_arguments = LineListField(rows=5, help_text="One argument per line.")
    defense_arguments = LineListField(rows=5, help_text="One argument per line.")

    class Meta:
        model = Case
        fields = (
            "title",
            "slug",
            "summary",
            "charges",
            "offence_category",
            "playable",
            "unplayable_reason",
            "difficulty",
            "themes",
            "content_notes",
            "prosecution_arguments",
            "defense_arguments",
            "source",
            "source_id",
            "year",
            "jurisdiction",
            "historical_verdict",
            "historical_punishment",
        )
        widgets = {"unplayable_reason": forms.TextInput(attrs={"size": 70})}  # the importer's reasons run long

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _fit_rows(self)


class WitnessAdminForm(forms.ModelForm):
    credibility_issues = LineListField(rows=2, help_text="One issue per line (e.g. admits having been drinking).")

    class Meta:
        model = Witness
        fields = ("name", "role", "side", "position", "testimony_summary", "testimony", "credibility_issues")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _fit_rows(self)


class DefendantInlineFormSet(forms.BaseInlineFormSet):
    """Refuses to leave a playable case without a defendant (the game opens with the accused).

    The admin lays defendants out as a table whose column headings are not the inputs' labels, so
    each input is named for a screen reader ("Defendant 1: Name")."""

    def add_fields(self, form: forms.Form, index: int | None) -> None:
        super().add_fields(form, index)
        row = "Defendant" if index is None else f"Defendant {index + 1}"
        for field in form.fields.values():
            if not field.widget.is_hidden:
                field.widget.attrs.setdefault("aria-label", f"{row}: {field.label}")

    def clean(self) -> None:
        super().clean()
        if not getattr(self.instance, "playable", False):
            return
        kept = [
            form
            for form in self.forms
            if form.is_valid() and form.cleaned_data.get("name") and not form.cleaned_data.get("DELETE")
        ]
        if not kept:
            raise ValidationError(ERROR_PLAYABLE_NEEDS_DEFENDANT)
