# Crónica: `make run` serves the demo site, `make test` runs the whole suite.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PORT ?= 8000
# The test run's throwaway PostgreSQL cluster lives in memory where there is a tmpfs: the
# flush that ends each browser test (TRUNCATE, new files for every table) took 144-465 ms
# on disk, 132-177 ms there. Benchmarks keep theirs on disk (/tmp), as a server would.
PG_DATA_PARENT ?= $(if $(wildcard /dev/shm/.),/dev/shm,/tmp)
WORKERS ?= auto
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
# The interpreter named in .python-version: through pyenv when it is on PATH, else from
# pyenv's folder, else any python3.12 on PATH.
PYTHON_VERSION := $(shell cat .python-version)
BASE_PYTHON := $(or \
	$(shell command -v pyenv >/dev/null && pyenv which python 2>/dev/null), \
	$(lastword $(wildcard $(HOME)/.pyenv/versions/$(PYTHON_VERSION)*/bin/python$(PYTHON_VERSION))), \
	$(shell command -v python$(PYTHON_VERSION)))
APT_GET := DEBIAN_FRONTEND=noninteractive apt-get
# Python keeps compiled modules (and pytest its rewritten tests) in __pycache__. A machine
# that sets PYTHONDONTWRITEBYTECODE has every process compile them again: about 15 s of
# each test worker's start, and of each `manage.py` a test runs.
unexport PYTHONDONTWRITEBYTECODE
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: help run test test-fast lint system-deps messages clean

help:
	@echo "make run   - install, migrate, load demo data and serve http://127.0.0.1:$(PORT)"
	@echo "make test  - install test dependencies and run the whole suite on SQLite and PostgreSQL"
	@echo "make test-fast - lint, then the suite on SQLite without slow statistical or browser tests"

# uv installs the pinned packages (from PyPI, as pip would) in 4 s where pip took 25 s.
$(VENV)/.installed: pyproject.toml constraints.txt build-constraints.txt
	@test -n "$(BASE_PYTHON)" || { echo "Python 3.12 not found (pyenv install 3.12)"; exit 1; }
	test -x $(PY) || $(BASE_PYTHON) -m venv $(VENV)
	$(PIP) install --quiet -c constraints.txt uv
	$(VENV)/bin/uv pip install --quiet --python $(PY) --build-constraint build-constraints.txt \
		-c constraints.txt -e ".[test]"
	touch $@

# msgfmt compiles translations; Chromium's headless shell, PostgreSQL 15 and Redis are only
# needed by the tests.
system-deps:
	@missing=""; \
	command -v msgfmt >/dev/null || missing="$$missing gettext"; \
	if [ "$(WITH_TEST_DEPS)" = 1 ]; then \
	  [ -x /usr/bin/chromium-headless-shell ] || missing="$$missing chromium-headless-shell"; \
	  [ -x /usr/lib/postgresql/15/bin/initdb ] || missing="$$missing postgresql-15"; \
	  command -v redis-server >/dev/null || missing="$$missing redis-server"; \
	fi; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) $(APT_GET) update -qq && $(SUDO) $(APT_GET) install -y -qq $$missing; \
	fi

messages: $(VENV)/.installed system-deps
	DJANGO_DEBUG=1 $(PY) manage.py compilemessages --ignore=.venv -v0

run: $(VENV)/.installed messages
	DJANGO_DEBUG=$${DJANGO_DEBUG:-1} $(PY) manage.py migrate --noinput -v0
	DJANGO_DEBUG=$${DJANGO_DEBUG:-1} $(PY) manage.py seed_demo
	@echo "Crónica at http://127.0.0.1:$(PORT)/"
	DJANGO_DEBUG=$${DJANGO_DEBUG:-1} $(VENV)/bin/uvicorn config.asgi:application --host 127.0.0.1 \
		--port $(PORT) --no-server-header --no-proxy-headers --lifespan off

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# Every test runs on SQLite but the browser's; on PostgreSQL, every test that uses the
# database, the browser's included (the others cannot depend on the database: pytest-django
# refuses them any access). Both runs spread over the cores (pytest-xdist).
test: WITH_TEST_DEPS = 1
test: $(VENV)/.installed system-deps messages lint
	rm -rf test-results
	@echo "== SQLite: all but the browser tests =="
	$(VENV)/bin/pytest -m "not e2e" -n $(WORKERS) --dist worksteal $(PYTEST_ARGS)
	@echo "== PostgreSQL 15, fragments in Redis: the database tests, browser tests included =="
	PG_DATA_PARENT=$(PG_DATA_PARENT) scripts/with-postgres.sh scripts/with-redis.sh \
		$(VENV)/bin/pytest --database-only -n $(WORKERS) --dist worksteal $(PYTEST_ARGS)

# The quick developer loop: no Monte Carlo tests (marked slow), no browser, no PostgreSQL.
test-fast: $(VENV)/.installed messages lint
	$(VENV)/bin/pytest -m "not slow and not e2e" -n $(WORKERS) --dist worksteal $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache test-results
