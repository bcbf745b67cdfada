from django.apps import AppConfig


class DeliberationConfig(AppConfig):
    name = "deliberation"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # These modules sit on top of the models and services, so they are imported once the models
        # are loaded. Services enqueue background work by task name (angryagents.background): the
        # tasks modules register the tasks.
        from deliberation import tasks  # noqa: F401 (the round, trial and narration tasks)
        from deliberation.court import live
        from deliberation.experiments import tasks as experiment_tasks  # noqa: F401
        from deliberation.rooms import class_live
        from deliberation.rooms import tasks as room_tasks  # noqa: F401
        from deliberation.services import broadcast

        # The one broadcaster pushes what the pages render; the pages sit above the services.
        broadcast.register_renderers(event=live.render_event, chunk=live.render_chunk, card=class_live.render_card)
