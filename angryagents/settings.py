"""Settings for 12 Angry Agents: one module, embedded defaults, loud failures.

With no environment variables set the app runs embedded: SQLite, an in-memory channel
layer, background work on a thread of the web process, and the offline engine.
``DATABASE_URL`` and ``REDIS_URL`` switch to PostgreSQL, the Redis channel layer and Celery.
"""

from __future__ import annotations

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
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("ANGRY_VAR_DIR", str(BASE_DIR / "var")))

DEBUG = env_bool("DEBUG", True)
_DEV_SECRET_KEY = "django-insecure-development-only-12-angry-agents"
SECRET_KEY = env_str("SECRET_KEY", _DEV_SECRET_KEY if DEBUG else "")
if not DEBUG and (not SECRET_KEY or SECRET_KEY == _DEV_SECRET_KEY):
    raise ImproperlyConfigured("SECRET_KEY must be set to a secret value when DEBUG is off.")

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
        "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
    }
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
SERVICE_MODE = _postgres is not None

# --- Real-time and background work ----------------------------------------------------
REDIS_URL = env_redis("REDIS_URL")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "capacity": 1500, "expiry": 30},
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

# --- The game -------------------------------------------------------------------------
# "offline" is the rule-based engine that needs no network; anything else is a LiteLLM
# model string such as "gemini/gemini-2.5-flash" or "ollama/llama3.1".
ANGRY_LLM_MODEL = env_str("ANGRY_LLM_MODEL", "offline")
ANGRY_LLM_TIMEOUT = env_float("ANGRY_LLM_TIMEOUT", 60.0, minimum=0.1)
ANGRY_LLM_RETRIES = env_int("ANGRY_LLM_RETRIES", 2, minimum=0)
ANGRY_LLM_API_BASE = env_str("ANGRY_LLM_API_BASE", "")
ANGRY_TOKEN_BUDGET = env_int("ANGRY_TOKEN_BUDGET", 0, minimum=0)  # 0: no budget
ANGRY_COST_BUDGET = env_float("ANGRY_COST_BUDGET", 0.0, minimum=0.0)  # US dollars, 0: none
ANGRY_MAX_ROUNDS = env_int("ANGRY_MAX_ROUNDS", 20, minimum=1)
ANGRY_TURN_SECONDS = env_int("ANGRY_TURN_SECONDS", 60, minimum=5)  # a participant's turn, then auto-pass
ANGRY_ROOM_PACE_SECONDS = env_float("ANGRY_ROOM_PACE_SECONDS", 3.0, minimum=0.0)  # between AI rounds in rooms
ANGRY_ROOM_AUTOSTART_SECONDS = env_int("ANGRY_ROOM_AUTOSTART_SECONDS", 120, minimum=1)
ANGRY_MCP_REACTION_WAIT_SECONDS = env_float("ANGRY_MCP_REACTION_WAIT_SECONDS", 20.0, minimum=0.0)
ANGRY_IMPORT_MAX_BYTES = env_int("ANGRY_IMPORT_MAX_BYTES", 50 * 1024 * 1024, minimum=1)
ANGRY_RETRIEVAL = env_str("ANGRY_RETRIEVAL", "bm25")
if ANGRY_RETRIEVAL not in {"bm25", "semantic"}:
    raise ImproperlyConfigured(f"ANGRY_RETRIEVAL must be bm25 or semantic, got {ANGRY_RETRIEVAL!r}.")
ANGRY_INDEX_DIR = Path(env_str("ANGRY_INDEX_DIR", str(VAR_DIR / "index")))

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
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(VAR_DIR / "media")))
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        "LiteLLM": {"level": "WARNING"},
        "httpx": {"level": "WARNING"},
        "daphne": {"level": "WARNING"},
    },
}
