# The two commands a fresh machine needs: `make run` (the main job) and `make test` (the suite).
# Both create the virtual environment on first use from pyproject.toml alone.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test test-slow lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# pip byte-compiles the dependencies one file at a time (about 40 s on 2 cores);
	# compileall does it on every core. The bytecode must be there: with
	# PYTHONDONTWRITEBYTECODE set, every process would compile what it imports again.
	$(BIN)/pip install --quiet --no-compile -e '.[dev]'
	$(BIN)/python -m compileall -q -j 0 $(VENV)/lib >/dev/null
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/gpusim simulate --out runs/default --force

# the suite on every core (at most 4 workers); each test module runs whole on one worker, so its
# module-scoped set-up is built once (tests/conftest.py: the fresh exact cache)
PYTEST_WORKERS ?= -n logical --maxprocesses 4 --dist loadfile

test: $(STAMP)
	$(BIN)/ruff check gpusim tests benchmarks
	$(BIN)/lint-imports
	$(BIN)/mypy gpusim
	$(BIN)/pytest -q $(PYTEST_WORKERS)

test-slow: $(STAMP)
	$(BIN)/pytest -q -m slow $(PYTEST_WORKERS)

lint: $(STAMP)
	$(BIN)/ruff check gpusim tests benchmarks
	$(BIN)/lint-imports
	$(BIN)/mypy gpusim

bench: $(STAMP)
	$(BIN)/python benchmarks/evaluator.py
	$(BIN)/python benchmarks/deal.py

clean:
	rm -rf $(VENV) runs .pytest_cache .mypy_cache
