PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck bench clean

# requirements.lock pins the engine, the `bench` extra (matplotlib) and the `dev` tools alike,
# so make installs all three; `pip install dualtrace` alone brings the engine only.
$(STAMP): requirements.lock pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -r requirements.lock
	$(BIN)/pip install -q --no-deps -e .
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/dualtrace demo

test: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy src
	$(BIN)/lint-imports
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python bench/ingest_search.py --turns 10000

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
