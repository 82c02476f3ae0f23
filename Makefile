# Thin wrappers; everything runs from a project virtualenv that the first target creates.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test lint format clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "CareVault needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

## Run CareVault for development: embedded PostgreSQL, migrations, demo practice, one port.
run: $(STAMP)
	$(BIN)/carevault run

## Lint, type-check, then the whole test suite against real PostgreSQL.
test: lint
	$(BIN)/pytest

lint: $(STAMP)
	$(BIN)/ruff check backend
	$(BIN)/ruff format --check backend
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff check --fix backend
	$(BIN)/ruff format backend

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
