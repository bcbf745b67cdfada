"""A class session: one teacher, one case, several rooms (groups) deliberating it at once.

Kept in its own module (imported at the end of ``deliberation.models``, which it never imports: the
rooms are named by their model's label) so the class is one idea in
one place. The rooms are ordinary rooms hosted by the teacher's browser; the class only groups
them, so every room page, socket and debrief keeps working as it does for a lone room.
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models

from deliberation.public_ids import new_public_id


class ClassSession(models.Model):
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    name = models.CharField(max_length=80, blank=True)
    case = models.ForeignKey("cases.Case", on_delete=models.PROTECT, related_name="class_sessions")
    # The teacher: the browser that created it (``angryagents.identity.browser_key``), and the
    # logged-in account if there was one (it opens the class from any browser).
    teacher_session_key = models.CharField(max_length=64, blank=True)
    owner = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="class_sessions",
    )
    rooms = models.ManyToManyField("deliberation.Deliberation", related_name="class_sessions", blank=True)
    settings = models.JSONField(default=dict, blank=True, help_text="What every room of the class was made with.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "deliberation"
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.name or f"Class {self.public_id}"
