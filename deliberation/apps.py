from django.apps import AppConfig


class DeliberationConfig(AppConfig):
    name = "deliberation"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Services enqueue background work by task name (angryagents.background); the task modules
        # sit on top of the services they call, so they can be imported only once the models are.
        from deliberation import tasks  # noqa: F401 (registers the round, trial, narration tasks)
        from deliberation.experiments import tasks as experiment_tasks  # noqa: F401
        from deliberation.rooms import tasks as room_tasks  # noqa: F401
