"""The Celery application used in service mode (``REDIS_URL`` set)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "angryagents.settings")

app = Celery("angryagents")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.autodiscover_tasks(["deliberation.rooms"])  # the room clock's task
app.autodiscover_tasks(["angryagents"])  # the retention sweep, sent by Celery beat
