from django.apps import AppConfig
from django.db.models.signals import post_migrate


class CasesConfig(AppConfig):
    name = "cases"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Connects the signals that rebuild a case's evidence index when the case changes.
        # Services enqueue background work by task name (angryagents.background): register the tasks.
        from cases import (
            retrieval,  # noqa: F401
            tasks,  # noqa: F401
        )
        from cases.search_index import on_post_migrate

        # SQLite drops a table's triggers when a migration rebuilds it; put the search index back.
        post_migrate.connect(on_post_migrate, sender=self, dispatch_uid="cases.search_index")
