from django.apps import AppConfig


class DeliberationConfig(AppConfig):
    name = "deliberation"
    default_auto_field = "django.db.models.BigAutoField"
