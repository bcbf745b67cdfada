"""The Celery application used in service mode (``REDIS_URL`` set)."""

import os

from celery import Celery
from celery.signals import worker_process_init, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "angryagents.settings")

app = Celery("angryagents")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.autodiscover_tasks(["deliberation.rooms"])  # the room clock's task
app.autodiscover_tasks(["angryagents"])  # the retention sweep, sent by Celery beat


# Warm up (angryagents.warm) on a thread of each process that runs tasks, so the worker is ready at
# once (it may have a dead worker's round to take over) and the libraries load meanwhile: each pool
# process of the default prefork pool as it starts, the worker itself with the solo pool. Never in
# a prefork parent, which forks new pool processes later (a fork during an import is unsafe).


@worker_process_init.connect
def _warm_pool_process(**_: object) -> None:
    from angryagents.warm import warm_in_background  # Django's settings are ready only in a started worker

    warm_in_background()


@worker_ready.connect
def _warm_solo_worker(sender: object = None, **_: object) -> None:
    if "solo" in type(getattr(sender, "pool", None)).__module__:  # once per process (warm_in_background)
        from angryagents.warm import warm_in_background  # as above

        warm_in_background()
