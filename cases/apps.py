from django.apps import AppConfig


class CasesConfig(AppConfig):
    name = "cases"
    default_auto_field = "django.db.models.BigAutoField"
