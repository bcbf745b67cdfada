"""The case library: cases, defendants, evidence and witnesses.

A case's historical verdict and punishment are kept for the record and for the verdict
page; the deliberation engine never receives them.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Exists, OuterRef, Q, Value
from django.db.models.functions import Coalesce

from cases.importers.oldbailey_record import record_url


class Difficulty(models.TextChoices):
    CLEAR_GUILTY = "clear_guilty", "Clear guilty"
    CLEAR_INNOCENT = "clear_innocent", "Clear innocent"
    AMBIGUOUS = "ambiguous", "Ambiguous"


class Source(models.TextChoices):
    CURATED = "curated", "Curated"
    OLDBAILEY = "oldbailey", "Old Bailey Proceedings"
    OTHER = "other", "Other"


FICTION_WORDS = "A fictional case: no real verdict"


class HistoricalVerdict(models.TextChoices):
    GUILTY = "guilty", "Guilty"
    NOT_GUILTY = "not_guilty", "Not guilty"
    UNKNOWN = "unknown", "Unknown"


class ContentNote(models.TextChoices):
    VIOLENCE = "violence", "Violence"
    DEATH = "death", "Death"
    SEXUAL_OFFENCE = "sexual_offence", "Sexual offence"
    DEATH_OF_A_CHILD = "death_of_a_child", "Death of a child"
    WEAPONS = "weapons", "Weapons"
    ANIMAL_HARM = "animal_harm", "Harm to animals"
    CAPITAL_PUNISHMENT = "capital_punishment", "Capital punishment"
    SELF_HARM = "self_harm", "Self-harm"


# The library's date orders, keyed without NULLs so one index serves each (cases.keyset): a
# case without a year comes after every dated one, oldest first or newest first.
YEAR_MISSING_OLDEST, YEAR_MISSING_NEWEST = 10_000, 0
YEAR_OLDEST = Coalesce("year", Value(YEAR_MISSING_OLDEST))
YEAR_NEWEST = Value(-1) * Coalesce("year", Value(YEAR_MISSING_NEWEST))

CONTENT_NOTE_VALUES = frozenset(ContentNote.values)
UNIT_INTERVAL = [MinValueValidator(0.0), MaxValueValidator(1.0)]

ERROR_CHARGES_EMPTY = "A case needs at least one charge."
ERROR_CONTENT_NOTE_UNKNOWN = "Unknown content note {note!r}; choose from: {choices}."
ERROR_LIST_OF_STRINGS = "{field} must be a list of short texts."
ERROR_STRENGTHS = "Evidence strengths must each lie between 0 and 1."
ERROR_CONTEST_REASON = "Contestable evidence needs a contest reason."


def _check_string_list(value: object, field: str) -> None:
    if not isinstance(value, list) or not all(isinstance(item, str) and item.strip() for item in value):
        raise ValidationError({field: ERROR_LIST_OF_STRINGS.format(field=field.replace("_", " ").capitalize())})


class CaseQuerySet(models.QuerySet["Case"]):
    def playable(self) -> CaseQuerySet:
        """Cases a game can start on: marked playable and with a defendant to try."""
        return self.filter(playable=True).filter(Exists(Defendant.objects.filter(case=OuterRef("pk"))))

    def with_file(self) -> CaseQuerySet:
        """Everything the case file shows, in a fixed number of queries."""
        return self.prefetch_related("defendants", "evidence", "witnesses")


class Case(models.Model):
    slug = models.SlugField(max_length=120, unique=True)
    title = models.CharField(max_length=300)
    summary = models.TextField()
    charges = models.JSONField(default=list, blank=True, help_text="A list of charges, one per line in the YAML.")
    offence_category = models.CharField(
        max_length=60, blank=True, db_index=True, help_text="e.g. theft, kill, violentTheft (Old Bailey vocabulary)."
    )
    difficulty = models.CharField(max_length=20, choices=Difficulty.choices, default=Difficulty.AMBIGUOUS)
    themes = models.JSONField(default=list, blank=True)
    year = models.IntegerField(null=True, blank=True, validators=[MinValueValidator(1000), MaxValueValidator(2100)])
    jurisdiction = models.CharField(max_length=200, blank=True)
    source = models.CharField(max_length=20, choices=Source.choices, default=Source.CURATED, db_index=True)
    source_id = models.CharField(max_length=100, blank=True, help_text="For imports, the trial id verbatim.")
    historical_verdict = models.CharField(
        max_length=20, choices=HistoricalVerdict.choices, default=HistoricalVerdict.UNKNOWN
    )
    historical_punishment = models.CharField(max_length=300, blank=True)
    playable = models.BooleanField(default=True, help_text="Unplayable cases are kept for the record only.")
    unplayable_reason = models.CharField(
        "why unplayable",
        max_length=200,
        blank=True,
        default="",
        db_default="",  # rows written by SQL that does not name the column (bench/library_scale.py) get none
        help_text="Why the case is kept for the record only (the importer says why; cleared when it is playable).",
    )
    content_notes = models.JSONField(default=list, blank=True)
    original_text = models.TextField(
        blank=True,
        help_text="The full printed record, verdict and sentence included: shown only after a deliberation's verdict.",
    )
    prosecution_arguments = models.JSONField(default=list, blank=True)
    defense_arguments = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = CaseQuerySet.as_manager()

    class Meta:
        ordering = ["title"]
        indexes = [
            # The library's default order (curated cases first, then by title) and its era filter.
            models.Index(fields=["playable", "title"], name="case_playable_title"),
            models.Index(fields=["playable", "year"], name="case_playable_year"),
            models.Index(fields=["title", "id"], name="case_title_id"),  # the admin list's order
            # The library's keyset pages oldest and newest first (cases.keyset).
            models.Index(YEAR_OLDEST, "title", "id", name="case_oldest"),
            models.Index(YEAR_NEWEST, "title", "id", name="case_newest"),
            # The admin's "why unplayable" filter, in the list's order: only the cases that give a reason.
            models.Index(
                fields=["unplayable_reason", "title", "id"],
                condition=~Q(unplayable_reason=""),
                name="case_unplayable_reason",
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["source", "source_id"], condition=~Q(source_id=""), name="case_source_id_unique"
            ),
            models.CheckConstraint(
                condition=Q(year__isnull=True) | Q(year__gte=1000, year__lte=2100), name="case_year_plausible"
            ),
            models.CheckConstraint(condition=Q(difficulty__in=Difficulty.values), name="case_difficulty_valid"),
            models.CheckConstraint(condition=Q(source__in=Source.values), name="case_source_valid"),
            models.CheckConstraint(
                condition=Q(historical_verdict__in=HistoricalVerdict.values), name="case_historical_verdict_valid"
            ),
            models.CheckConstraint(
                condition=Q(playable=False) | Q(unplayable_reason=""), name="case_reason_only_when_unplayable"
            ),
        ]

    def __str__(self) -> str:
        return self.title

    def clean(self) -> None:
        self.unplayable_reason = "" if self.playable else self.unplayable_reason.strip()
        _check_string_list(self.charges, "charges")
        if not self.charges:
            raise ValidationError({"charges": ERROR_CHARGES_EMPTY})
        for field in ("themes", "prosecution_arguments", "defense_arguments", "content_notes"):
            _check_string_list(getattr(self, field), field)
        for note in self.content_notes:
            if note not in CONTENT_NOTE_VALUES:
                raise ValidationError(
                    {
                        "content_notes": ERROR_CONTENT_NOTE_UNKNOWN.format(
                            note=note, choices=", ".join(ContentNote.values)
                        )
                    }
                )

    @property
    def history_words(self) -> str:
        """What the real jury decided, for a page after a game's verdict: "Historical verdict: Guilty";
        for a curated case without one, "A fictional case: no real verdict"; "" for a real trial
        whose verdict the record does not give (nothing to say)."""
        if self.historical_verdict != HistoricalVerdict.UNKNOWN:
            return f"Historical verdict: {self.get_historical_verdict_display()}"
        return FICTION_WORDS if self.source == Source.CURATED else ""

    @property
    def record_url(self) -> str:
        """The trial's page on Old Bailey Online ("" for other sources)."""
        return record_url(self.source_id) if self.source == Source.OLDBAILEY else ""

    @property
    def content_note_labels(self) -> list[str]:
        return [ContentNote(note).label for note in self.content_notes if note in CONTENT_NOTE_VALUES]


class Gender(models.TextChoices):
    MALE = "male", "Male"
    FEMALE = "female", "Female"
    OTHER = "other", "Other"
    UNKNOWN = "unknown", "Unknown"


class Defendant(models.Model):
    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="defendants")
    name = models.CharField(max_length=200)
    gender = models.CharField(max_length=10, choices=Gender.choices, default=Gender.UNKNOWN)
    age = models.PositiveSmallIntegerField(null=True, blank=True, validators=[MaxValueValidator(120)])
    description = models.TextField(blank=True)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(age__isnull=True) | Q(age__lte=120), name="defendant_age_plausible"),
            models.CheckConstraint(condition=Q(gender__in=Gender.values), name="defendant_gender_valid"),
        ]

    def __str__(self) -> str:
        return self.name


class EvidenceType(models.TextChoices):
    PHYSICAL = "physical", "Physical"
    TESTIMONIAL = "testimonial", "Testimonial"
    DOCUMENTARY = "documentary", "Documentary"
    FORENSIC = "forensic", "Forensic"


class Evidence(models.Model):
    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="evidence")
    label = models.CharField(max_length=200)
    type = models.CharField(max_length=20, choices=EvidenceType.choices)
    description = models.TextField()
    strength_prosecution = models.FloatField(validators=UNIT_INTERVAL, default=0.5)
    strength_defense = models.FloatField(validators=UNIT_INTERVAL, default=0.5)
    contestable = models.BooleanField(default=False)
    contest_reason = models.TextField(blank=True)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]
        verbose_name_plural = "evidence"
        constraints = [
            models.CheckConstraint(
                condition=Q(strength_prosecution__gte=0.0, strength_prosecution__lte=1.0),
                name="evidence_strength_prosecution_unit",
            ),
            models.CheckConstraint(
                condition=Q(strength_defense__gte=0.0, strength_defense__lte=1.0),
                name="evidence_strength_defense_unit",
            ),
            models.CheckConstraint(condition=Q(type__in=EvidenceType.values), name="evidence_type_valid"),
        ]

    def __str__(self) -> str:
        return self.label

    def clean(self) -> None:
        if self.contestable and not self.contest_reason.strip():
            raise ValidationError({"contest_reason": ERROR_CONTEST_REASON})


class WitnessSide(models.TextChoices):
    PROSECUTION = "prosecution", "Prosecution"
    DEFENSE = "defense", "Defense"
    NEUTRAL = "neutral", "Neutral"


class Witness(models.Model):
    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="witnesses")
    name = models.CharField(max_length=200)
    role = models.CharField(max_length=100, help_text="eyewitness, expert, character, victim...")
    testimony_summary = models.TextField()
    testimony = models.TextField(
        "testimony in the witness's own words",
        blank=True,
        default="",
        db_default="",
        help_text=(
            "What the witness says on the stand at a trial, in the first person, using only facts the case file "
            "already holds. A line 'Cross-examined.' starts what they concede to the other side. Empty: the "
            "witness answers from the summary."
        ),
    )
    credibility_issues = models.JSONField(default=list, blank=True)
    side = models.CharField(max_length=20, choices=WitnessSide.choices, default=WitnessSide.NEUTRAL)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]
        verbose_name_plural = "witnesses"
        constraints = [
            models.CheckConstraint(condition=Q(side__in=WitnessSide.values), name="witness_side_valid"),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        _check_string_list(self.credibility_issues, "credibility_issues")


class ImportedFile(models.Model):
    """A file whose import committed: a re-run of the same import skips it (the import resumes).

    Keyed by the file's SHA-256 and the importer's own fingerprint, so a changed file or a
    changed importer is read again.
    """

    sha256 = models.CharField(max_length=64)
    importer = models.CharField(max_length=64, help_text="Fingerprint of the importer's code.")
    name = models.CharField(max_length=500)
    trial_ids = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["sha256", "importer"], name="importedfile_unique")]

    def __str__(self) -> str:
        return self.name


class ImportStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class ImportJob(models.Model):
    """One admin upload of Old Bailey files, imported in the background with its progress."""

    status = models.CharField(max_length=10, choices=ImportStatus.choices, default=ImportStatus.PENDING)
    files = models.JSONField(default=list, help_text="Stored paths under MEDIA_ROOT/imports/.")
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    summary = models.TextField(blank=True)
    errors = models.JSONField(default=list, blank=True)
    created_by = models.ForeignKey("auth.User", null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=ImportStatus.values), name="importjob_status_valid"),
        ]

    def __str__(self) -> str:
        return f"Import #{self.pk} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in {ImportStatus.DONE, ImportStatus.FAILED}
