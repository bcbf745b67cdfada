from django.apps import AppConfig


class CasesConfig(AppConfig):
    name = "cases"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Connects the signals that rebuild a case's evidence index when the case changes.
        from cases import retrieval  # noqa: F401
