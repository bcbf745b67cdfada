"""A deliberation and everything it leaves behind: seats, turns, votes, convictions, figures.

All writes go through ``deliberation.services``; reads for pages through ``selectors``.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection
from typing import Any

from django.conf import settings as django_settings
from django.core.files.storage import default_storage
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from cases.models import Case
from deliberation.engine.failures import CAUSE_LABELS
from deliberation.engine.rules import DEFAULT_RULES, RULE_SETS, RuleSet, verdict_detail_of, verdict_phrase_of
from deliberation.engine.strategies import own_words
from deliberation.engine.summary import summary_of
from deliberation.public_ids import new_public_id
from jurors.models import Persona


class Phase(models.TextChoices):
    SETUP = "setup", "Setup"
    PRESENTATION = "presentation", "Case presentation"
    SIDE_SELECTION = "side_selection", "Side selection"
    TRIAL = "trial", "The trial"
    INITIAL_VOTE = "initial_vote", "Initial vote"
    DELIBERATION = "deliberation", "Deliberation"
    FINAL_VOTE = "final_vote", "Final vote"
    VERDICT = "verdict", "Verdict"


class PlayerSide(models.TextChoices):
    DEFEND = "defend", "Defend (not guilty)"
    PROSECUTE = "prosecute", "Prosecute (guilty)"
    NONE = "none", "No side (AI juror in seat 7)"


class VoteValue(models.TextChoices):
    GUILTY = "guilty", "Guilty"
    NOT_GUILTY = "not_guilty", "Not guilty"


class Verdict(models.TextChoices):
    GUILTY = "guilty", "Guilty"
    NOT_GUILTY = "not_guilty", "Not guilty"
    HUNG = "hung", "Hung jury"


class EndReason(models.TextChoices):
    UNANIMOUS = "unanimous", "Unanimous"
    STABLE = "stable", "Votes stable"
    ROUND_LIMIT = "round_limit", "Round limit"
    CALLED = "called", "Vote called"
    MAJORITY = "majority", "Majority verdict"
    NO_NEW_ARGUMENTS = "no_new_arguments", "No new arguments"
    DEADLOCK = "deadlock", "Second deadlock"
    TIME = "time", "Lesson time up"


class RoundStatus(models.TextChoices):
    IDLE = "idle", "Idle"
    RUNNING = "running", "Running"


def new_share_token() -> str:
    return secrets.token_urlsafe(24)


class Experiment(models.Model):
    """A batch of AI-only deliberations held against real juries (see ``experiments``)."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    name = models.CharField(max_length=200, blank=True)
    case_selector = models.CharField(max_length=500)
    runs_per_case = models.PositiveIntegerField(default=5, validators=[MinValueValidator(1)])
    engine = models.CharField(max_length=200, default="offline")
    seed = models.BigIntegerField(default=0)
    trial = models.BooleanField(default=False, help_text="Every run holds the trial before its first ballot.")
    rules = models.CharField(
        max_length=30, default="unanimous", help_text="The jury rule set every run follows (engine.rules)."
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    progress_done = models.PositiveIntegerField(default=0)
    progress_total = models.PositiveIntegerField(default=0)
    measures = models.JSONField(default=dict, blank=True)
    settings = models.JSONField(
        default=dict, blank=True, help_text="Engine options of every run: turn_mode, context_scope."
    )
    notes = models.JSONField(default=list, blank=True)
    error = models.TextField(blank=True)
    wall_seconds = models.FloatField(default=0.0)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name or f"Experiment {self.pk}"


class Deliberation(models.Model):
    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="deliberations")
    experiment = models.ForeignKey(
        Experiment, on_delete=models.CASCADE, null=True, blank=True, related_name="deliberations"
    )
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    room_code = models.CharField(max_length=12, unique=True, null=True, blank=True)
    phase = models.CharField(max_length=20, choices=Phase.choices, default=Phase.SETUP)
    round_number = models.PositiveIntegerField(default=0)
    round_status = models.CharField(max_length=10, choices=RoundStatus.choices, default=RoundStatus.IDLE)
    # Who is playing the deliberation's AI work and whether it lives (services.claims): a round while
    # round_status is running; during the trial (status idle), AI counsel's steps.
    round_claimed_at = models.DateTimeField(null=True, blank=True)
    # Refreshed while the engine thinks; a round (or a trial's step) whose heartbeat is stale lost its process.
    round_heartbeat_at = models.DateTimeField(null=True, blank=True)
    rounds_without_change = models.PositiveIntegerField(default=0)
    seed = models.BigIntegerField(default=0)
    engine = models.CharField(max_length=200, default="offline", help_text="'offline' or a LiteLLM model string.")
    player_side = models.CharField(max_length=10, choices=PlayerSide.choices, null=True, blank=True)
    player_seat = models.PositiveSmallIntegerField(default=7)
    settings = models.JSONField(default=dict, blank=True, help_text="max_rounds, speakers, budgets, room options.")
    engine_state = models.JSONField(default=dict, blank=True, help_text="The engine's memory between rounds.")
    engine_summary = models.JSONField(
        default=dict,
        blank=True,
        editable=False,
        help_text="What pages read of the engine state (engine.summary): written with it, on every save.",
    )
    trial_state = models.JSONField(
        default=dict, blank=True, help_text="A trial played step by step: its plan, cursor and what it waits for."
    )
    pending = models.JSONField(
        default=list, blank=True, help_text="Participants' moves and speeches waiting for the next round."
    )
    verdict = models.CharField(max_length=12, choices=Verdict.choices, blank=True)
    end_reason = models.CharField(max_length=20, choices=EndReason.choices, blank=True)
    budget_exhausted = models.BooleanField(default=False)
    host_session_key = models.CharField(max_length=64, blank=True)
    host_plays = models.BooleanField(default=True)
    share_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    owner = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="deliberations"
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["phase", "round_status"])]
        constraints = [
            models.CheckConstraint(condition=Q(phase__in=Phase.values), name="deliberation_phase_valid"),
            models.CheckConstraint(condition=Q(player_seat__gte=1, player_seat__lte=12), name="deliberation_seat"),
        ]

    def __str__(self) -> str:
        return f"Deliberation {self.pk} on {self.case_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Every service that stores the engine state stores its summary with it, here, so the two
        never disagree: pages read the summary and load the row without the state
        (``.defer("engine_state")``). A row loaded without its state does not save it, nor the summary."""
        fields = kwargs.get("update_fields")
        if "engine_state" not in self.get_deferred_fields() and (fields is None or "engine_state" in fields):
            self.engine_summary = summary_of(self.engine_state or {})
            if fields is not None:
                kwargs["update_fields"] = [*fields, "engine_summary"]
        super().save(*args, **kwargs)

    @property
    def jury_rules(self) -> RuleSet:
        """The jury rule set this deliberation follows (``settings["rules"]``; unanimous by default)."""
        return RULE_SETS.get((self.settings or {}).get("rules", DEFAULT_RULES), RULE_SETS[DEFAULT_RULES])

    @property
    def end_reason_words(self) -> str:
        """How the deliberation ended, where its verdict's words do not say it already ("" where they
        do: "unanimously", "by a majority", "when the lesson's time was up", "deadlocked twice")."""
        said = {EndReason.UNANIMOUS, EndReason.MAJORITY, EndReason.TIME}
        if self.verdict == "hung":
            said.add(EndReason.DEADLOCK)
        return "" if not self.end_reason or self.end_reason in said else self.get_end_reason_display()

    @property
    def verdict_words(self) -> str:
        """The verdict naming the rule it was taken under ("Hung jury: it could not reach a verdict
        of at least 10 to 2 (rules: ...)"); "" before the verdict."""
        if not self.verdict:
            return ""
        name = (self.settings or {}).get("rules", DEFAULT_RULES)
        return verdict_phrase_of(self.engine_summary or {}, name, self.verdict, self.end_reason or "")

    @property
    def verdict_detail(self) -> str:
        """``verdict_words`` without the verdict itself ("by a majority of 10 to 2 (rules: ...)")."""
        if not self.verdict:
            return ""
        name = (self.settings or {}).get("rules", DEFAULT_RULES)
        return verdict_detail_of(self.engine_summary or {}, name, self.verdict, self.end_reason or "")

    @property
    def is_finished(self) -> bool:
        return self.phase == Phase.VERDICT


class SeatKind(models.TextChoices):
    AI = "ai", "AI juror"
    HUMAN = "human", "Person"
    AGENT = "agent", "External agent"


PERSON_FACE = "👤"
EVERYMAN_FACE = "🙂"  # Juror 7's persona (jurors.yaml); a room made when it wore a person's face shows this


class Seat(models.Model):
    deliberation = models.ForeignKey(Deliberation, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(validators=[MinValueValidator(1), MaxValueValidator(12)])
    kind = models.CharField(max_length=10, choices=SeatKind.choices, default=SeatKind.AI)
    persona = models.ForeignKey(Persona, on_delete=models.PROTECT, null=True, blank=True, related_name="seats")
    display_name = models.CharField(max_length=100)
    emoji = models.CharField(max_length=16, default="👤")
    archetype_name = models.CharField(max_length=80, blank=True)
    is_open = models.BooleanField(default=False, help_text="Open for a person or an agent to take.")
    is_host = models.BooleanField(default=False)
    session_key = models.CharField(max_length=64, blank=True)
    token_hash = models.CharField(max_length=128, blank=True)
    joined_at = models.DateTimeField(null=True, blank=True)
    vote = models.CharField(max_length=12, choices=VoteValue.choices, blank=True)
    conviction = models.FloatField(default=0.5, validators=[MinValueValidator(0.0), MaxValueValidator(1.0)])
    turns_taken = models.PositiveIntegerField(default=0)
    # A person's way back to this seat from another device (``deliberation.rooms.seat_codes``).
    seat_code = models.CharField(max_length=16, blank=True, db_index=True)
    # Since when nobody has held this participant's seat: meanwhile its AI juror plays it.
    away_since = models.DateTimeField(null=True, blank=True)
    discharged_round = models.PositiveIntegerField(
        null=True, blank=True, help_text="The round before which the judge discharged this juror (illness)."
    )

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["deliberation", "number"], name="seat_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1, number__lte=12), name="seat_number_range"),
            models.CheckConstraint(condition=Q(conviction__gte=0.0, conviction__lte=1.0), name="seat_conviction_unit"),
        ]

    def __str__(self) -> str:
        return f"Seat {self.number}: {self.display_name}"

    @property
    def is_participant(self) -> bool:
        return self.kind in (SeatKind.HUMAN, SeatKind.AGENT)

    @property
    def face(self) -> str:
        """The emoji a page shows for the seat: a person sitting in a juror's seat is a person, not
        the AI juror whose seat it was (that juror's emoji stays with the seat for when it plays)."""
        if self.kind == SeatKind.HUMAN:
            return PERSON_FACE
        # an AI juror never wears a person's face, so no AI seat looks like another student
        return EVERYMAN_FACE if self.kind == SeatKind.AI and self.emoji == PERSON_FACE else self.emoji


class TurnKind(models.TextChoices):
    SPEECH = "speech", "Speech"
    PROCESS = "process", "Foreperson"
    JUDGE = "judge", "Judge"
    PASS = "pass", "Pass"
    NOTE = "note", "Note"
    TRIAL = "trial", "Trial"


# The line a PASS turn keeps says why the turn went by without words (``Turn.pass_kind``).
PASS_LINE = "{name} passes."
TIMEOUT_LINE = "{name}'s time ran out; the turn passes."
SKIP_LINE = "The host skipped {name}'s turn."
PASSED, RAN_OUT, SKIPPED = "passed", "ran_out", "skipped"
PASS_WORDS = {PASSED: "passed", RAN_OUT: "turn ran out", SKIPPED: "turn skipped by the host"}


class Turn(models.Model):
    deliberation = models.ForeignKey(Deliberation, on_delete=models.CASCADE, related_name="turns")
    round_number = models.PositiveIntegerField()
    sequence = models.PositiveIntegerField(help_text="Order within the deliberation.")
    kind = models.CharField(max_length=10, choices=TurnKind.choices, default=TurnKind.SPEECH)
    seat_number = models.PositiveSmallIntegerField(null=True, blank=True)
    speaker_name = models.CharField(max_length=100)
    target_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    argument_type = models.CharField(max_length=20, blank=True)
    strategy = models.CharField(max_length=30, blank=True)
    position = models.CharField(max_length=12, blank=True)
    reasoning = models.TextField(blank=True)
    content = models.TextField(help_text="The whole speech as the jury heard it.")
    crafted = models.TextField(
        blank=True,
        help_text="A person's turn: the part a strategy crafted before their own words (content is this, then "
        "their words exactly as typed). Empty when the words are all theirs.",
    )
    reactions = models.JSONField(default=list, blank=True, help_text="[{seat, delta, thought, persuaded}]")
    flips = models.JSONField(default=list, blank=True, help_text="[{seat, from, to}] caused by this turn's round.")
    is_fallback = models.BooleanField(default=False)
    stood_in = models.BooleanField(
        default=False, help_text="Spoken by the AI juror playing a person's seat while it stood empty: not theirs."
    )
    fallback_cause = models.CharField(
        max_length=20,
        choices=list(CAUSE_LABELS.items()),
        blank=True,
        help_text="Why the offline engine spoke instead: timeout, rate limit, server error, unusable answer, budget…",
    )
    fallback_reason = models.CharField(max_length=300, blank=True, help_text="Why the model's answer was replaced.")
    engine = models.CharField(max_length=200, blank=True)
    trial = models.JSONField(
        default=dict, blank=True, help_text="For trial turns: the event (stage, kind, witness, ground, ruling, struck)."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # A message the host hid: it stays in the record, shown to nobody but the host's transcript.
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.CharField(max_length=100, blank=True)

    class Meta:
        ordering = ["sequence"]
        constraints = [models.UniqueConstraint(fields=["deliberation", "sequence"], name="turn_unique_sequence")]
        indexes = [models.Index(fields=["deliberation", "round_number"])]

    def __str__(self) -> str:
        return f"{self.speaker_name} (round {self.round_number})"

    @property
    def own_words(self) -> str:
        """What the person said in their own words, exactly as typed ("" when the turn is all crafted)."""
        return own_words(self.content, self.crafted)

    @property
    def is_vote(self) -> bool:
        """A person's vote in the record (``services.lifecycle``): a process line in her own seat,
        not the foreperson's."""
        return self.kind == TurnKind.PROCESS and self.seat_number is not None

    @property
    def pass_kind(self) -> str:
        """Why a person's turn went by without words: she passed (``PASSED``), her time ran out
        (``RAN_OUT``: she did not pass, she was not there), or the host skipped it (``SKIPPED``).
        The record says which in the line it keeps; "" for a turn that is no pass."""
        if self.kind != TurnKind.PASS:
            return ""
        if self.content == TIMEOUT_LINE.format(name=self.speaker_name):
            return RAN_OUT
        if self.content == SKIP_LINE.format(name=self.speaker_name):
            return SKIPPED
        return PASSED

    def heard_by_jurors(self, people: Collection[int]) -> list[dict[str, Any]]:
        """The reactions of the AI jurors who listened: none from a seat a person holds (``people``).
        Her seat is no listener the engine models: while she is away its AI juror is moved in her
        seat's place, but that is neither her reaction nor anyone persuading her."""
        return [r for r in self.reactions or [] if r.get("seat") not in people]


class BallotKind(models.TextChoices):
    INITIAL = "initial", "Initial vote"
    FLIP = "flip", "Vote change"
    CAST = "cast", "Cast by a participant"
    FINAL = "final", "Final vote"


class Vote(models.Model):
    deliberation = models.ForeignKey(Deliberation, on_delete=models.CASCADE, related_name="votes")
    round_number = models.PositiveIntegerField()
    seat_number = models.PositiveSmallIntegerField()
    value = models.CharField(max_length=12, choices=VoteValue.choices)
    previous = models.CharField(max_length=12, choices=VoteValue.choices, blank=True)
    ballot = models.CharField(max_length=10, choices=BallotKind.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round_number", "id"]
        constraints = [models.CheckConstraint(condition=Q(value__in=VoteValue.values), name="vote_value_valid")]

    def __str__(self) -> str:
        return f"Seat {self.seat_number}: {self.value} (round {self.round_number})"


class ConvictionSnapshot(models.Model):
    deliberation = models.ForeignKey(Deliberation, on_delete=models.CASCADE, related_name="snapshots")
    round_number = models.PositiveIntegerField()
    seat_number = models.PositiveSmallIntegerField()
    conviction = models.FloatField()
    vote = models.CharField(max_length=12, choices=VoteValue.choices)

    class Meta:
        ordering = ["round_number", "seat_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["deliberation", "round_number", "seat_number"], name="snapshot_unique_round_seat"
            ),
            models.CheckConstraint(condition=Q(conviction__gte=0.0, conviction__lte=1.0), name="snapshot_unit"),
        ]

    def __str__(self) -> str:
        return f"Seat {self.seat_number} at {self.conviction:.2f} (round {self.round_number})"


class RoundStats(models.Model):
    deliberation = models.ForeignKey(Deliberation, on_delete=models.CASCADE, related_name="round_stats")
    round_number = models.PositiveIntegerField()
    engine = models.CharField(max_length=200)
    llm_calls = models.PositiveIntegerField(default=0)
    prompt_tokens = models.PositiveIntegerField(default=0)
    cached_prompt_tokens = models.PositiveIntegerField(
        default=0, help_text="Of the prompt tokens, those the provider served from its prompt cache."
    )
    completion_tokens = models.PositiveIntegerField(default=0)
    cost_usd = models.FloatField(default=0.0)
    latency_ms = models.PositiveIntegerField(default=0)
    failed_calls = models.PositiveIntegerField(default=0, help_text="Calls the offline engine answered instead.")
    failures = models.JSONField(default=list, blank=True, help_text="[{kind, cause, detail, seat}] per failed call.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round_number"]
        verbose_name_plural = "round stats"
        constraints = [models.UniqueConstraint(fields=["deliberation", "round_number"], name="roundstats_unique")]

    def __str__(self) -> str:
        return f"Round {self.round_number}: {self.llm_calls} calls, {self.prompt_tokens} prompt tokens"


class NarrationKind(models.TextChoices):
    PRESENTATION = "presentation", "Case presentation"
    VOTE = "vote", "Vote announcement"
    VERDICT = "verdict", "Verdict"
    LINE = "line", "Other line"


class NarrationStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    READY = "ready", "Ready"
    TEXT_ONLY = "text_only", "Text only"
    FAILED = "failed", "Failed"


class Narration(models.Model):
    deliberation = models.ForeignKey(
        Deliberation, on_delete=models.CASCADE, null=True, blank=True, related_name="narrations"
    )
    round_number = models.PositiveIntegerField(default=0)
    kind = models.CharField(max_length=15, choices=NarrationKind.choices, default=NarrationKind.LINE)
    text = models.TextField()
    status = models.CharField(max_length=10, choices=NarrationStatus.choices, default=NarrationStatus.PENDING)
    engine = models.CharField(max_length=20, blank=True, help_text="elevenlabs, espeak or text")
    voice = models.CharField(max_length=100, blank=True)
    cache_key = models.CharField(max_length=64, blank=True, db_index=True)
    audio = models.FileField(upload_to="narration/", blank=True)
    duration_seconds = models.FloatField(null=True, blank=True)
    attempts = models.JSONField(default=list, blank=True, help_text="[{engine, ok, error}] in the order tried.")
    pieces = models.JSONField(
        default=list, blank=True, help_text="[{audio, duration, start, end}]: the line's pieces, voiced as it renders."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    rendered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.text[:40]}"

    @property
    def is_speaking(self) -> bool:
        """Still rendering, with its first pieces ready to play."""
        return self.status == NarrationStatus.PENDING and bool(self.pieces)

    @property
    def playlist(self) -> list[dict[str, Any]]:
        """What the courtroom plays, in order: the pieces as they were voiced, else the whole line."""
        if self.pieces:
            return [
                {"index": i, "url": default_storage.url(p["audio"]), "start": p["start"], "end": p["end"]}
                for i, p in enumerate(self.pieces)
            ]
        if self.audio:
            return [{"index": 0, "url": self.audio.url, "start": 0, "end": len(self.text)}]
        return []


from deliberation.rooms.class_models import ClassSession  # noqa: E402, F401 (a class of rooms, its own module)
