PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run demo test lint typecheck bench clean

# requirements.lock pins the engine, the `bench` extra (matplotlib) and the `dev` tools alike,
# so make installs all three; `pip install dualtrace` alone brings the engine only.
$(STAMP): requirements.lock pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -r requirements.lock
	$(BIN)/pip install -q --no-deps -e .
	touch $(STAMP)

# The service on the default store ($$DUALTRACE_HOME/memory.db) in dev mode (loopback, no
# keys), seeded with the demo conversation on first start; Ctrl-C stops it. On another port
# than 8765 (or $$DUALTRACE_PORT): `make run PORT=8877`. A busy port is refused before
# anything is seeded or printed.
run: $(STAMP)
	$(BIN)/dualtrace serve --dev --seed-demo $(if $(PORT),--port $(PORT))

# The console demo: a fresh store, the demo conversation, its questions answered.
demo: $(STAMP)
	$(BIN)/dualtrace demo

test: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy src
	$(BIN)/lint-imports
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python bench/ingest_search.py --turns 10000

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
