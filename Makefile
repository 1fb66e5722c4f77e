# Two commands on a fresh machine (see README):
#   make serve   install everything, build the site, serve it on http://127.0.0.1:$(PORT)/
#   make test    install everything, lint, run every tier of tests/ (browser and benchmark included) and the node tests
#   make test-fast   lint, the unit and node tests, and tests/pyodide/ (the sandbox, but second proofs): the loop after an edit
#   make test-unit   tests/unit/ (no Pyodide, no browser, no process but the judge's small Node one) and tests/js/: seconds
#   make setup-grader   what a teacher who only grades needs (`python -m grader`): Python and Node, no Chromium, no sudo
#   make bench   the benchmark (bench/run.py): page start-up against Pyodide's floor, transfer, build scaling
# Set-up steps are stamped, so later runs skip what is already installed.

PY := .venv/bin/python
# Compiled modules, and pytest's rewritten test modules, are kept even where the environment says not to write them
# (the project's machines set PYTHONDONTWRITEBYTECODE=1): each test process, and each command a test starts, would
# otherwise compile the project again, about 3 CPU-seconds a pytest worker. git ignores __pycache__/.
unexport PYTHONDONTWRITEBYTECODE
PORT ?= 8000
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
CHROMIUM := /usr/bin/chromium

.PHONY: setup setup-grader serve build check test test-fast test-unit test-pyodide node-test lint bench clean

setup: setup-grader $(CHROMIUM)

# Grading runs learner code in Pyodide under Node; only the site's tests and benchmark drive Chromium.
setup-grader: .venv/.stamp node_modules/.stamp

.venv/.stamp: pyproject.toml
	python3 -m venv .venv
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

node_modules/.stamp: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

$(CHROMIUM):
	$(SUDO) apt-get update
	$(SUDO) apt-get install -y chromium

build: setup
	$(PY) build.py build

check: setup
	$(PY) build.py check

serve: setup
	$(PY) build.py serve --port $(PORT)

lint: setup
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

# A test's tier is its folder of tests/ (tests/conftest.py, `tier`). `make test` runs on one pytest-xdist worker per core
# (two on the project's machine); --dist loadfile keeps a file's tests, and so its module fixtures (one Pyodide, one
# grader run of the hostile corpus), on one worker. The fast loop runs its two tiers side by side instead, each in one
# process: a worker's start, its collection and its own pool of Pyodide runners cost more CPU than sharing saves
# (docs/performance.md); --output-sync prints each one's report whole when it ends.
test: lint node-test
	$(PY) -m pytest -n auto --dist loadfile

test-fast: lint
	$(MAKE) --no-print-directory -j2 --output-sync=target test-unit test-pyodide

test-unit: setup-grader node-test
	$(PY) -m pytest -p no:xdist tests/unit

# The sandbox's tier alone (its second proofs are left to `make test`).
test-pyodide: setup-grader
	$(PY) -m pytest -p no:xdist tests/pyodide -m "not second_proof"

# The front end's unit tests, its pure modules under Node (tests/js/).
node-test: setup-grader
	node --test tests/js/

bench: setup
	$(PY) bench/run.py

clean:
	rm -rf site .venv node_modules .pytest_cache test-results .cache
