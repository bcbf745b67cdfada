"""Juror personas and the archetypes that shape how arguments move them."""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

ARGUMENT_TYPES = ("evidence", "emotional", "logical", "question", "moral", "narrative")
MODIFIER_MAX = 3.0
UNIT_INTERVAL = [MinValueValidator(0.0), MaxValueValidator(1.0)]
MODIFIER_RANGE = [MinValueValidator(0.0), MaxValueValidator(MODIFIER_MAX)]
PLAYER_SEAT = 7


class Archetype(models.Model):
    slug = models.SlugField(max_length=50, unique=True)
    name = models.CharField(max_length=80)
    description = models.TextField(blank=True)
    modifier_evidence = models.FloatField(default=1.0, validators=MODIFIER_RANGE)
    modifier_emotional = models.FloatField(default=1.0, validators=MODIFIER_RANGE)
    modifier_logical = models.FloatField(default=1.0, validators=MODIFIER_RANGE)
    modifier_question = models.FloatField(default=1.0, validators=MODIFIER_RANGE)
    modifier_moral = models.FloatField(default=1.0, validators=MODIFIER_RANGE)
    modifier_narrative = models.FloatField(default=1.0, validators=MODIFIER_RANGE)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(**{f"modifier_{kind}__gte": 0.0}) & Q(**{f"modifier_{kind}__lte": MODIFIER_MAX}),
                name=f"archetype_modifier_{kind}_range",
            )
            for kind in ARGUMENT_TYPES
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def modifiers(self) -> dict[str, float]:
        return {kind: getattr(self, f"modifier_{kind}") for kind in ARGUMENT_TYPES}


class InitialLean(models.TextChoices):
    NEUTRAL = "neutral", "Neutral: starts near the middle"
    DEFENSE = "defense", "Leans to the defense"
    PROSECUTION = "prosecution", "Leans to the prosecution"
    MAJORITY = "majority", "Follows the expected majority"
    MINORITY = "minority", "Takes the expected minority side"
    FIRST_IMPRESSION = "first_impression", "First impression of the opening evidence"
    GUT_FEELING = "gut_feeling", "Gut feeling about the charge"
    CALCULATED = "calculated", "Weighs all the evidence"
    BEST_STORY = "best_story", "Whichever side tells the better story"
    RANDOM = "random", "Unpredictable"


class PersonaQuerySet(models.QuerySet["Persona"]):
    def active(self) -> PersonaQuerySet:
        return self.filter(active=True)

    def jury(self) -> PersonaQuerySet:
        """The active personas in seat order, with their archetypes."""
        return self.active().select_related("archetype").order_by("seat_number")


class Persona(models.Model):
    key = models.SlugField(max_length=50, unique=True, help_text="Stable id, e.g. juror_1.")
    seat_number = models.PositiveSmallIntegerField(validators=[MinValueValidator(1), MaxValueValidator(12)])
    name = models.CharField(max_length=100)
    emoji = models.CharField(max_length=16)
    archetype = models.ForeignKey(Archetype, on_delete=models.PROTECT, related_name="personas")
    personality_prompt = models.TextField()
    stubbornness = models.FloatField(validators=UNIT_INTERVAL)
    volatility = models.FloatField(validators=UNIT_INTERVAL)
    influence = models.FloatField(validators=UNIT_INTERVAL)
    verbosity = models.FloatField(validators=UNIT_INTERVAL, default=0.5)
    initial_lean = models.CharField(max_length=20, choices=InitialLean.choices, default=InitialLean.NEUTRAL)
    model = models.CharField(
        max_length=200, blank=True, help_text="Optional LiteLLM model string overriding the default for this juror."
    )
    temperature = models.FloatField(null=True, blank=True, validators=[MinValueValidator(0.0), MaxValueValidator(2.0)])
    memory_window = models.PositiveSmallIntegerField(
        default=10, validators=[MinValueValidator(1), MaxValueValidator(100)]
    )
    active = models.BooleanField(default=True)

    objects = PersonaQuerySet.as_manager()

    class Meta:
        ordering = ["seat_number", "name"]
        constraints = [
            models.CheckConstraint(condition=Q(seat_number__gte=1, seat_number__lte=12), name="persona_seat_range"),
            *(
                models.CheckConstraint(condition=Q(**{f"{f}__gte": 0.0, f"{f}__lte": 1.0}), name=f"persona_{f}_unit")
                for f in ("stubbornness", "volatility", "influence", "verbosity")
            ),
            models.CheckConstraint(
                condition=Q(temperature__isnull=True) | Q(temperature__gte=0.0, temperature__lte=2.0),
                name="persona_temperature_range",
            ),
            models.CheckConstraint(
                condition=Q(memory_window__gte=1, memory_window__lte=100), name="persona_memory_window_range"
            ),
            models.CheckConstraint(condition=Q(initial_lean__in=InitialLean.values), name="persona_lean_valid"),
            models.UniqueConstraint(
                fields=["seat_number"], condition=Q(active=True), name="persona_one_active_per_seat"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.emoji} {self.name} (seat {self.seat_number})"

    @property
    def is_stand_in(self) -> bool:
        """The neutral "Juror 7" who sits in the player's seat only when no person does."""
        return self.seat_number == PLAYER_SEAT
