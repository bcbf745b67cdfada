"""Service mode under a whole class: bounded database connections, tasks that outlive a dead
worker, and a Redis client that lets idle websockets be."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVICE = {"DATABASE_URL": "postgresql://u@127.0.0.1:5432/x", "REDIS_URL": "redis://127.0.0.1:6379/0"}


def _service_settings(**overrides: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "ANGRY_TASKS"}}
    env.update(SERVICE, **overrides)
    code = (
        "import django, json, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'angryagents.settings'; django.setup()\n"
        "from django.conf import settings as s\n"
        "print(json.dumps({'db': s.DATABASES['default'], 'layer': s.CHANNEL_LAYERS['default']['CONFIG'],"
        " 'backend': s.CHANNEL_LAYERS['default']['BACKEND'],"
        " 'acks_late': s.CELERY_TASK_ACKS_LATE, 'reject_lost': s.CELERY_TASK_REJECT_ON_WORKER_LOST,"
        " 'transport': s.CELERY_BROKER_TRANSPORT_OPTIONS, 'autostart': s.ANGRY_ROOM_AUTOSTART_SECONDS,"
        " 'turn': s.ANGRY_TURN_SECONDS}, default=str))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_no_connection_outlives_its_request_and_each_process_borrows_from_a_bounded_pool():
    loaded = _service_settings(DATABASE_POOL_SIZE="5")
    assert loaded["db"]["CONN_MAX_AGE"] == 0
    assert loaded["db"]["OPTIONS"]["pool"]["max_size"] == 5


def test_a_pool_size_of_zero_opens_a_plain_connection_per_request():
    loaded = _service_settings(DATABASE_POOL_SIZE="0")
    assert loaded["db"]["CONN_MAX_AGE"] == 0 and "pool" not in loaded["db"].get("OPTIONS", {})


def test_tasks_are_acknowledged_late_and_come_back_from_a_lost_worker_only_after_every_task_could_finish():
    from deliberation.tasks import NARRATION_TIME_LIMIT, ROUND_TIME_LIMIT

    loaded = _service_settings()
    assert loaded["acks_late"] and loaded["reject_lost"]
    longest_wait = max(loaded["autostart"], loaded["turn"])  # the longest countdown a room sets
    # A shorter timeout would hand a task that is still running (or waiting) to a second worker.
    assert loaded["transport"]["visibility_timeout"] > max(ROUND_TIME_LIMIT, NARRATION_TIME_LIMIT) + longest_wait


def test_the_redis_client_reads_longer_than_the_channel_layer_blocks_for_a_message():
    from channels_redis.core import RedisChannelLayer

    [host] = _service_settings()["layer"]["hosts"]
    assert host["address"] == SERVICE["REDIS_URL"]
    assert float(host["socket_timeout"]) > RedisChannelLayer.brpop_timeout


def test_by_default_a_rooms_update_is_published_once_for_every_web_process():
    loaded = _service_settings()
    assert loaded["backend"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    [host] = loaded["layer"]["hosts"]
    assert host["max_connections"] >= 400 and float(host["socket_timeout"]) > 5


def test_the_list_based_channel_layer_when_chosen_holds_a_classrooms_messages_for_a_school_day():
    loaded = _service_settings(CHANNEL_LAYER="core")
    assert loaded["backend"] == "channels_redis.core.RedisChannelLayer"
    layer = loaded["layer"]
    assert layer["capacity"] >= 1000  # channels-redis's 100 is shared by every socket of a web process
    assert layer["expiry"] >= 30 and layer["group_expiry"] >= 8 * 60 * 60
    [host] = layer["hosts"]
    assert host["max_connections"] >= 400  # redis-py's 100 failed a class's sockets closing at once


def test_the_channel_layers_bounds_come_from_the_environment():
    layer = _service_settings(
        CHANNEL_LAYER="core",
        CHANNEL_LAYER_CAPACITY="8000",
        CHANNEL_LAYER_EXPIRY="90",
        CHANNEL_LAYER_GROUP_EXPIRY="3600",
    )["layer"]
    assert (layer["capacity"], layer["expiry"], layer["group_expiry"]) == (8000, 90, 3600)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DATABASE_POOL_SIZE", "-1"),
        ("REDIS_SOCKET_TIMEOUT", "5"),
        ("CHANNEL_LAYER_CAPACITY", "lots"),
        ("CHANNEL_LAYER_CAPACITY", "10"),
        ("CHANNEL_LAYER_EXPIRY", "0"),
        ("CHANNEL_LAYER", "rabbitmq"),
    ],
)
def test_a_bound_that_cannot_work_is_refused_with_its_name(name, value):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "ANGRY_TASKS"}}
    env.update(SERVICE, **{name: value})
    code = "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'angryagents.settings'; django.setup()"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and name in done.stderr
