"""A game's settings, in one place: what a person may choose before a deliberation starts.

``GameSettings`` is the typed value; ``GameSettingsForm`` is how a page asks for it (the start
page, room creation, a class); ``GameSettings.to_settings()`` gives the keys stored in
``Deliberation.settings``, and ``GameSettings.of(deliberation)`` reads them back for the engine,
the pages and the transcript. Every setting reaches the engine or the page through this module:

* ``max_rounds``: the round limit (``EngineSettings.max_rounds``);
* ``speakers``: AI speakers per round, 1 to 4, or None for the engine's own draw (1 to 4);
* ``turn_seconds``: a participant's turn in a room (``settings["room"]["turn_seconds"]``);
* ``engine``: "offline" or one of the models the operator lists (``ANGRY_LLM_MODELS``,
  ``ANGRY_LLM_MODEL``); no page accepts a model string or a key;
* ``narration``: the judge speaks (``Narration`` rows) or stays silent;
* ``show_meters``: the conviction meters in the jury box are shown or hidden;
* ``turn_mode`` and ``context_scope``: how the AI speakers are chosen and what a model juror's
  prompt carries (``engine.formats``);
* ``discharge_round``: a juror falls ill and the judge discharges them before this round (None:
  nobody does; ``services.discharge.scheduled_discharge``), under the rules that allow it;
* ``summary_every`` and ``poll``: the foreperson sums up the argument every N rounds (0: never;
  ``EngineSettings.foreperson_summary_every``) and polls the jury by show of hands (names) or
  secret ballot (counts only; ``EngineSettings.poll``).

Adding a setting (the jury ``rules``, a ``trial`` phase): add a field to ``GameSettings`` with its
default, a form field in ``GameSettingsForm``, its key in ``to_settings``/``of`` and a line in
``lines``; or, for a quick start, put it in ``extra`` (stored as it is, under its own key).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.conf import settings

from deliberation.engine import formats
from deliberation.engine.discharge import NO_DISCHARGE_RULES
from deliberation.minds.factory import OFFLINE

MIN_ROUNDS, MAX_ROUNDS = 1, 100
MIN_SPEAKERS, MAX_SPEAKERS = 1, 4
MIN_TURN_SECONDS, MAX_TURN_SECONDS = 15, 600
SPEAKERS_VARY = ""  # the form's choice for "the engine draws 1 to 4 each round"

ERROR_ROUNDS = f"The round limit must be a whole number between {MIN_ROUNDS} and {MAX_ROUNDS}."
ERROR_SPEAKERS = f"AI speakers per round must be between {MIN_SPEAKERS} and {MAX_SPEAKERS}, or vary."
ERROR_TURN_SECONDS = f"A turn lasts between {MIN_TURN_SECONDS} and {MAX_TURN_SECONDS} seconds."
ERROR_ENGINE = "Choose one of the engines listed; this server offers: {engines}."
ERROR_DISCHARGE_ROUND = f"A juror can fall ill before a round between 2 and {MAX_ROUNDS}, or never (leave it empty)."
MAX_SUMMARY_EVERY = 20
DEFAULT_SUMMARY_EVERY = 5
ERROR_SUMMARY_EVERY = f"The foreperson sums up every 1 to {MAX_SUMMARY_EVERY} rounds, or never (0)."
ERROR_POLL = "The foreperson polls by show of hands or by secret ballot."

# Keys in Deliberation.settings (top level; a room's turn length lives in settings["room"]).
KEY_SPEAKERS = "speakers"
KEY_NARRATION = "narration"
KEY_SHOW_METERS = "show_meters"
KEY_TURN_MODE = "turn_mode"
KEY_CONTEXT_SCOPE = "context_scope"
KEY_DISCHARGE_ROUND = "discharge_round"
KEY_SUMMARY_EVERY = "foreperson_summary_every"  # the engine's own names (services.ballot.RULE_OPTIONS)
KEY_POLL = "poll"
POLL_LABELS = {"hands": "By show of hands (names)", "secret": "By secret ballot (counts only)"}

TURN_MODE_LABELS = {
    "weighted": "Weighted (the quiet and the addressed first)",
    "round-robin": "Round-robin (in seat order)",
    "random": "Random",
    "reply-chain": "Reply chain (each answers the one before)",
}
CONTEXT_SCOPE_LABELS = {
    "window-and-summary": "Recent turns and the minutes",
    "full-log": "The full log",
    "last-n": f"The last {formats.DEFAULT_LAST_N} turns",
    "summary-only": "The minutes only",
    "persona-only": "Their persona only",
}


def engines_offered() -> list[str]:
    """The engines a page may offer: offline, the operator's default model, and ANGRY_LLM_MODELS."""
    names = [OFFLINE, settings.ANGRY_LLM_MODEL, *getattr(settings, "ANGRY_LLM_MODELS", [])]
    return list(dict.fromkeys(name.strip() for name in names if name.strip()))


def engine_choice_label(engine: str) -> str:
    return "Offline (rule-based jurors, no network)" if engine == OFFLINE else engine


@dataclass(frozen=True)
class GameSettings:
    max_rounds: int
    speakers: int | None
    turn_seconds: int
    engine: str
    narration: bool = True
    show_meters: bool = True
    turn_mode: str = formats.DEFAULT_TURN_MODE
    context_scope: str = formats.DEFAULT_CONTEXT_SCOPE
    discharge_round: int | None = None
    summary_every: int = DEFAULT_SUMMARY_EVERY
    poll: str = "hands"
    extra: Mapping[str, Any] = field(default_factory=dict)  # settings other features add (rules, trial)

    @classmethod
    def defaults(cls) -> GameSettings:
        return cls(
            max_rounds=settings.ANGRY_MAX_ROUNDS,
            speakers=None,
            turn_seconds=settings.ANGRY_TURN_SECONDS,
            engine=settings.ANGRY_LLM_MODEL,
        )

    @classmethod
    def of(cls, deliberation: Any) -> GameSettings:
        """The settings a deliberation was started with (defaults for what it did not set)."""
        stored: Mapping[str, Any] = deliberation.settings or {}
        base = cls.defaults()
        speakers = stored.get(KEY_SPEAKERS)
        room = stored.get("room") or {}
        return cls(
            max_rounds=int(stored.get("max_rounds") or base.max_rounds),
            speakers=int(speakers) if speakers else None,
            turn_seconds=int(room.get("turn_seconds") or base.turn_seconds),
            engine=deliberation.engine or base.engine,
            narration=bool(stored.get(KEY_NARRATION, True)),
            show_meters=bool(stored.get(KEY_SHOW_METERS, True)),
            turn_mode=str(stored.get(KEY_TURN_MODE) or formats.DEFAULT_TURN_MODE),
            context_scope=str(stored.get(KEY_CONTEXT_SCOPE) or formats.DEFAULT_CONTEXT_SCOPE),
            discharge_round=int(stored[KEY_DISCHARGE_ROUND]) if stored.get(KEY_DISCHARGE_ROUND) else None,
            summary_every=int(stored.get(KEY_SUMMARY_EVERY, DEFAULT_SUMMARY_EVERY)),
            poll=str(stored.get(KEY_POLL) or "hands"),
            extra={"rules": stored["rules"]} if stored.get("rules") else {},
        )

    def to_settings(self) -> dict[str, Any]:
        """The keys stored in ``Deliberation.settings`` (the engine and a room's turn length are
        passed to the services on their own: ``engine=``, ``turn_seconds=``)."""
        stored: dict[str, Any] = {
            **self.extra,
            "max_rounds": self.max_rounds,
            KEY_NARRATION: self.narration,
            KEY_SHOW_METERS: self.show_meters,
            KEY_TURN_MODE: self.turn_mode,
            KEY_CONTEXT_SCOPE: self.context_scope,
            KEY_SUMMARY_EVERY: self.summary_every,
            KEY_POLL: self.poll,
        }
        if self.speakers:
            stored[KEY_SPEAKERS] = self.speakers
        if self.discharge_round:
            stored[KEY_DISCHARGE_ROUND] = self.discharge_round
        return stored

    def speaker_range(self) -> tuple[int, int] | None:
        """(min, max) AI speakers for ``EngineSettings``, or None for the engine's defaults."""
        return (self.speakers, self.speakers) if self.speakers else None

    def lines(self, *, room: bool = False) -> list[tuple[str, str]]:
        """The settings in words, for the transcript and its exports."""
        out = [
            ("Engine", engine_choice_label(self.engine)),
            ("Round limit", str(self.max_rounds)),
            ("AI speakers per round", str(self.speakers) if self.speakers else "1 to 4 (varies)"),
        ]
        if room:
            out.append(("Turn length", f"{self.turn_seconds} s"))
        out += [
            ("Narration", "on" if self.narration else "off"),
            ("Conviction meters", "shown" if self.show_meters else "hidden"),
            ("Turn mode", TURN_MODE_LABELS.get(self.turn_mode, self.turn_mode)),
            ("Model jurors see", CONTEXT_SCOPE_LABELS.get(self.context_scope, self.context_scope)),
            ("A juror falls ill", self.discharge_words()),
            ("The foreperson sums up", f"every {self.summary_every} rounds" if self.summary_every else "never"),
            ("The foreperson polls", POLL_LABELS.get(self.poll, self.poll)),
        ]
        return out

    def discharge_words(self) -> str:
        if not self.discharge_round:
            return "never"
        if self.extra.get("rules") in NO_DISCHARGE_RULES:
            return f"before round {self.discharge_round}, but these rules allow no discharge"
        return f"before round {self.discharge_round}: the judge discharges one AI juror"


class GameSettingsForm(forms.Form):
    """The settings a person chooses; ``room=False`` leaves out the turn length (single game).

    Reused by the start page, room creation and class creation: render it with
    ``{% include "deliberation/_game_settings.html" with settings_form=form %}``.
    """

    max_rounds = forms.IntegerField(
        label="Round limit",
        min_value=MIN_ROUNDS,
        max_value=MAX_ROUNDS,
        error_messages=dict.fromkeys(("invalid", "min_value", "max_value"), ERROR_ROUNDS),
        help_text="The jury must decide by this round.",
    )
    speakers = forms.TypedChoiceField(
        label="AI speakers per round",
        choices=[(SPEAKERS_VARY, "Varies (1 to 4)")] + [(n, str(n)) for n in range(MIN_SPEAKERS, MAX_SPEAKERS + 1)],
        coerce=int,
        empty_value=None,
        required=False,
        error_messages={"invalid_choice": ERROR_SPEAKERS},
    )
    turn_seconds = forms.IntegerField(
        label="Turn length (seconds)",
        min_value=MIN_TURN_SECONDS,
        max_value=MAX_TURN_SECONDS,
        error_messages={
            "invalid": ERROR_TURN_SECONDS,
            "min_value": ERROR_TURN_SECONDS,
            "max_value": ERROR_TURN_SECONDS,
        },
        help_text="A student's time to speak or pass before the turn passes on its own.",
    )
    engine = forms.ChoiceField(label="Jurors' engine")
    narration = forms.BooleanField(label="The judge narrates", required=False)
    show_meters = forms.BooleanField(label="Show conviction meters", required=False)
    turn_mode = forms.ChoiceField(
        label="Who speaks next",
        choices=list(TURN_MODE_LABELS.items()),
        help_text="How the AI speakers of a round are chosen.",
    )
    context_scope = forms.ChoiceField(
        label="What model jurors see",
        choices=list(CONTEXT_SCOPE_LABELS.items()),
        help_text="What a model juror's prompt carries of the discussion (the offline jurors are unaffected).",
    )
    discharge_round = forms.IntegerField(
        label="A juror falls ill before round",
        min_value=2,
        max_value=MAX_ROUNDS,
        required=False,
        error_messages=dict.fromkeys(("invalid", "min_value", "max_value"), ERROR_DISCHARGE_ROUND),
        help_text="The judge discharges one AI juror; the jury goes on with eleven (not under the Old Bailey "
        "rules). Empty: never.",
    )
    summary_every = forms.IntegerField(
        label="The foreperson sums up every (rounds)",
        min_value=0,
        max_value=MAX_SUMMARY_EVERY,
        error_messages=dict.fromkeys(("invalid", "min_value", "max_value"), ERROR_SUMMARY_EVERY),
        help_text="The state of the argument for the room: the poll, the main points each way, who is "
        "undecided. 0: only at a deadlock.",
    )
    poll = forms.ChoiceField(
        label="The foreperson polls",
        choices=list(POLL_LABELS.items()),
        error_messages={"invalid_choice": ERROR_POLL},
    )
    # Other features' settings (the jury rules, a trial phase) go here, with a key in GameSettings.

    def __init__(self, *args: Any, room: bool = False, form_id: str = "", **kwargs: Any) -> None:
        defaults = GameSettings.defaults()
        kwargs.setdefault(
            "initial",
            {
                "max_rounds": defaults.max_rounds,
                "speakers": SPEAKERS_VARY,
                "turn_seconds": defaults.turn_seconds,
                "engine": defaults.engine,
                "narration": True,
                "show_meters": True,
                "turn_mode": formats.DEFAULT_TURN_MODE,
                "context_scope": formats.DEFAULT_CONTEXT_SCOPE,
                "discharge_round": None,
                "summary_every": DEFAULT_SUMMARY_EVERY,
                "poll": "hands",
            },
        )
        super().__init__(*args, **kwargs)
        offered = engines_offered()
        engine_field = self.fields["engine"]
        assert isinstance(engine_field, forms.ChoiceField)
        engine_field.choices = [(name, engine_choice_label(name)) for name in offered]
        engine_field.error_messages["invalid_choice"] = ERROR_ENGINE.format(
            engines=", ".join(engine_choice_label(name) for name in offered)
        )
        self.room = room
        if not room:
            del self.fields["turn_seconds"]
        self.form_id = form_id  # fields attached to a form elsewhere on the page (the start page)
        for name, form_field in self.fields.items():
            if form_id:
                form_field.widget.attrs["form"] = form_id
            form_field.widget.attrs.setdefault("id", f"id_settings_{name}")

    @classmethod
    def submitted(cls, data: Mapping[str, Any], *, room: bool = False, form_id: str = "") -> GameSettingsForm:
        """A bound form in which fields absent from ``data`` keep their defaults (an older page or
        a plain "Start" button posts only the case: it still starts with sensible settings)."""
        blank = cls(room=room)
        merged = {name: blank.initial.get(name) for name in blank.fields}
        for name in ("narration", "show_meters"):
            merged[name] = "on" if merged[name] else ""
        if "settings_sent" in data:  # the form was on the page: an unticked box means off
            merged.update({name: "" for name in ("narration", "show_meters")})
        merged.update({name: data[name] for name in blank.fields if name in data})
        return cls(merged, room=room, form_id=form_id)

    def game_settings(self) -> GameSettings:
        data = self.cleaned_data
        return GameSettings(
            max_rounds=data["max_rounds"],
            speakers=data["speakers"],
            turn_seconds=data.get("turn_seconds") or settings.ANGRY_TURN_SECONDS,
            engine=data["engine"],
            narration=data["narration"],
            show_meters=data["show_meters"],
            turn_mode=data["turn_mode"],
            context_scope=data["context_scope"],
            discharge_round=data.get("discharge_round") or None,
            summary_every=data["summary_every"],
            poll=data["poll"],
        )

    def to_settings(self) -> dict[str, Any]:
        return self.game_settings().to_settings()
