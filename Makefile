# Two commands on a fresh machine (see README):
#   make serve   install everything, build the site, serve it on http://127.0.0.1:$(PORT)/
#   make test    install everything, lint, run the whole test suite (browser and benchmark tests included)
#   make test-fast   lint and every test but the browser, benchmark and second-proof ones: the loop to run after an edit
#   make test-unit   the tests that start no Pyodide or browser (tests/conftest.py, `tier`; the judge's one small Node process aside): seconds
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

.PHONY: setup setup-grader serve build check test test-fast test-unit lint bench clean

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

# One pytest-xdist worker per core (two on the project's machine); --dist loadfile keeps a file's tests, and so its module
# fixtures (one Pyodide, one grader run of the hostile corpus), on one worker.
test: lint
	$(PY) -m pytest -n auto --dist loadfile

test-fast: lint
	$(PY) -m pytest -n auto --dist loadfile -m "not browser and not bench and not second_proof"

# The browser tests are never unit tests: left uncollected, their modules are not even imported.
test-unit: setup-grader
	$(PY) -m pytest -n auto --dist loadfile -m unit --ignore=tests/browser

bench: setup
	$(PY) bench/run.py

clean:
	rm -rf site .venv node_modules .pytest_cache test-results .cache
