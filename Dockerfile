# The image of docker-compose.yml's web, worker and beat services (service mode). It carries the
# runtime only (requirements.txt; no tests, benchmarks or docs: see .dockerignore), runs as an
# unprivileged user, and has its static files collected at build time.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    LITELLM_LOCAL_MODEL_COST_MAP=True

# espeak-ng: the judge's offline voice. No other system package is needed (psycopg ships its libpq).
RUN apt-get update \
    && apt-get install -y --no-install-recommends espeak-ng \
    && rm -rf /var/lib/apt/lists/*

RUN groupadd --system --gid 10001 angry \
    && useradd --system --uid 10001 --gid angry --home-dir /app --no-create-home --shell /usr/sbin/nologin angry

WORKDIR /app
COPY requirements.txt .
RUN pip install -r requirements.txt

COPY . .
# Static files are collected now, into the image, owned by root: the app only reads them. The key
# is a throwaway for this one command, so no secret is written into a layer.
RUN SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput -v 0 \
    && mkdir -p var/media var/index \
    && chown angry:angry var var/media var/index

USER angry
EXPOSE 8000
# The web process (docker-compose.yml runs the same image as worker and beat, with their own checks).
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=5 CMD ["python", "-m", "angryagents.healthcheck"]
CMD ["python", "manage.py", "serve", "--host", "0.0.0.0", "--port", "8000"]
