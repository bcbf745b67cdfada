from django.apps import AppConfig


class JurorsConfig(AppConfig):
    name = "jurors"
    default_auto_field = "django.db.models.BigAutoField"
