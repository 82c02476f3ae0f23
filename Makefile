# Thin wrappers; everything runs from a project virtualenv that the first target creates.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

FRONTEND_STAMP := frontend/node_modules/.installed

.PHONY: install run setup test test-fast lint format clean ui ui-lint ui-test lock sbom release

# Installs exactly what uv.lock names, hash-checked: uv first (requirements/uv.txt, hashed),
# then `uv sync --locked`, which also refuses a lock that no longer matches pyproject.toml.
# The same bytes as CI and the Docker image; `make lock` updates the lock.
$(STAMP): pyproject.toml uv.lock requirements/uv.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "CareVault needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --require-hashes -r requirements/uv.txt
	UV_PROJECT_ENVIRONMENT=$(VENV) $(BIN)/uv sync --quiet --locked --extra dev --group sbom
	@touch $(STAMP)

# `npm install` from the committed lock rather than `npm ci`: npm 11's `ci` insists on lock
# entries for every platform's optional rollup binary, which the registry mirror here omits.
$(FRONTEND_STAMP): frontend/package-lock.json
	cd frontend && npm install --no-audit --no-fund
	@touch $@

install: $(STAMP)

## Run CareVault for development: embedded PostgreSQL, migrations, demo practice, the web UI
## and the API on one port.
run: $(STAMP) ui
	$(BIN)/carevault run

## Build the web UI into frontend/dist (served at /). Without npm, the API runs without it.
ui:
	@if command -v npm >/dev/null; then $(MAKE) --no-print-directory $(FRONTEND_STAMP) \
		&& cd frontend && npm run --silent build; \
	else echo "npm not found: CareVault will serve the API without the web UI"; fi

## Install what the tests need that this machine lacks (Debian packages, as root), or say in
## one line what to install. Nothing to do: silent, a fraction of a second.
setup:
	@PYTHON="$(PYTHON)" scripts/setup-machine.sh

## Lint and type-check everything, then every test: Python against real PostgreSQL (with the
## encryption budgets in quick mode and schemathesis), then the UI's unit and browser tests.
test: setup lint
	$(BIN)/pytest
	cd frontend && npm test
	cd frontend && npm run test:e2e

## The quick loop while coding: unit, integration and API tests on every core, without the
## perf and e2e tests (markers) or lint, with argon2id at its lowest cost and bytecode caches
## (gitignored; each worker would otherwise compile every module again). worksteal: an idle
## worker takes tests queued for the other (with `load`'s chunks, one finished 17 s early).
## The perf and e2e directories (every test there has its marker) are not even collected, so
## neither they nor the plugins only they use (schemathesis, Faker) are imported: 0.4 s a process.
## One worker more than cores: the others work while one waits on a timeout (2 cores,
## alternately: 38.4 and 39.7 s with 3 workers, 44.7 and 44.9 s with 2, 38.0 and 41.3 s
## with 4). README, "Development", says why the databases' server processes are kept from
## one test to the next.
test-fast: $(STAMP)
	env -u PYTHONDONTWRITEBYTECODE CAREVAULT_TEST_FAST_HASHING=1 \
		$(BIN)/pytest -q -n $$(( $$(nproc) + 1 )) --dist worksteal -m "not perf and not e2e" --benchmark-disable \
		--ignore=backend/tests/perf --ignore=backend/tests/e2e -p no:schemathesis -p no:faker

.PHONY: bench
## Encryption benchmarks at full length, budgets checked: reports/bench.json and reports/bench.md.
bench: $(STAMP)
	@mkdir -p reports
	CAREVAULT_BENCH_MODE=full CAREVAULT_BENCH_REPORT=reports/bench.md $(BIN)/pytest backend/tests/perf \
		--benchmark-only --benchmark-json=reports/bench.json \
		--benchmark-max-time=1.0 --benchmark-min-rounds=20 --benchmark-min-time=0.0001 \
		--benchmark-warmup=on --benchmark-warmup-iterations=1000

lint: $(STAMP) ui-lint
	$(BIN)/uv lock --check --quiet || { echo "uv.lock does not match pyproject.toml: run make lock" >&2; exit 1; }
	$(BIN)/ruff check backend tools clients
	$(BIN)/ruff format --check backend tools clients
	$(BIN)/mypy
	$(BIN)/python -m tools.generate_client --check
	$(BIN)/python -m tools.lint_scoping
	$(BIN)/python -m tools.check_docs
	$(BIN)/lint-imports

## Regenerate the typed Python client (clients/python) from the OpenAPI document; `make lint`
## fails when it is out of date. See docs/reference/api.md#python-client.
.PHONY: client
client: $(STAMP)
	$(BIN)/python -m tools.generate_client

## The UI's type-check and eslint, and a check that its API client matches the backend.
ui-lint: $(STAMP) $(FRONTEND_STAMP)
	cd frontend && npm run lint && npm run check:api

## Fix and format what `make lint` checks: ruff for the Python, Prettier for the UI.
format: $(STAMP) $(FRONTEND_STAMP)
	$(BIN)/ruff check --fix backend tools clients
	$(BIN)/ruff format backend tools clients
	cd frontend && npm run --silent format

## Update uv.lock after a change to pyproject.toml's dependencies (newest versions allowed by
## its ranges for new packages; existing pins kept). `make lock LOCK_ARGS=--upgrade` moves
## every pin forward; commit the lock, run `make test`.
lock:
	@command -v uv >/dev/null || test -x $(BIN)/uv || { echo "make lock needs uv: make install" >&2; exit 1; }
	$(BIN)/uv lock $(LOCK_ARGS)

## CycloneDX bills of materials: the production install (what `carevault serve` runs: uv.lock
## without the demo and dev extras) and the web UI's runtime npm packages, in dist/sbom/.
sbom: $(STAMP)
	@mkdir -p dist/sbom
	$(BIN)/uv export --quiet --frozen --no-dev --no-emit-project --format requirements-txt \
		--output-file dist/sbom/requirements-production.txt
	$(BIN)/cyclonedx-py requirements --output-reproducible --of JSON \
		--pyproject pyproject.toml -o dist/sbom/carevault-python.cdx.json \
		dist/sbom/requirements-production.txt
	cd frontend && npm sbom --sbom-format cyclonedx --omit dev --package-lock-only \
		> ../dist/sbom/carevault-ui.cdx.json
	@echo "SBOMs in dist/sbom/"

## A release from the one version number (carevault.__version__): checks that the UI's
## package.json and CHANGELOG.md agree, builds the wheel with the UI inside, the SBOMs, and
## the image when Docker is there (dist/IMAGE_TAG names it either way). See docs/how-to/releasing.md.
release: $(STAMP) sbom
	@$(BIN)/pytest -q -p no:cacheprovider backend/tests/unit/test_release.py
	$(MAKE) --no-print-directory ui
	rm -rf backend/carevault/web && cp -r frontend/dist backend/carevault/web
	$(BIN)/uv build --wheel --out-dir dist/
	rm -rf backend/carevault/web
	@version=$$($(BIN)/python -c 'import carevault; print(carevault.__version__)'); \
		echo "carevault:$$version" > dist/IMAGE_TAG; \
		if command -v docker >/dev/null; then docker build -t "carevault:$$version" .; \
		else echo "docker not found: build the image with: docker build -t carevault:$$version ."; fi

clean:
	rm -rf $(VENV) dist .pytest_cache .mypy_cache .ruff_cache .hypothesis

## End-to-end load test and the 100,000-client import benchmark on this machine (about
## 10-15 minutes; its own throwaway databases). LOADTEST_ARGS=--quick for a smoke run.
## The load generator is wrk (Debian's package): installed first when missing, as `make setup`
## installs what the tests need, or one line says what to install.
## Writes reports/loadtest.json and reports/loadtest.md; see docs/explanation/performance-end-to-end.md.
.PHONY: loadtest
loadtest: $(STAMP)
	@PYTHON="$(PYTHON)" scripts/setup-machine.sh --loadtest
	$(BIN)/python -m tools.loadtest $(LOADTEST_ARGS)

## Fault injection against real processes (about 10 minutes; its own PostgreSQL, moto and
## `carevault serve --workers 2`, all on loopback): kill -9, database stopped (also under 10
## API-token clients sending back to back: every 5xx a JSON 503 with Retry-After, no
## keep-alive connection closed) and frozen, key provider down + rotation, disk full,
## malformed requests. Every scenario is bounded in time and requests and stops by itself.
## Writes docs/explanation/reliability.md. CHAOS_ARGS=--quick for the CI subset; CHAOS_ARGS='--only
## "database fast stop, 10 token clients" --report FILE' for one scenario.
.PHONY: chaos
chaos: $(STAMP)
	$(BIN)/python -m tools.chaos $(CHAOS_ARGS)
