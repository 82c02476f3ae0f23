"""The tool's options: the defaults of a full run, the --quick sizes, the command line, and
the environment of the servers and commands it starts."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.loadtest import api
from tools.loadtest.database import DEFAULT_ADMIN_DSN
from tools.loadtest.scenarios import SCENARIOS

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Options:
    quick: bool = False
    workers: int = 2
    concurrency: tuple[int, ...] = (1, 10, 50)
    max_seconds: float = 20.0
    requests_per_user: int = 150
    min_requests: int = 300
    max_requests: int = 6000
    warmup_requests: int = 60
    clients: int = 2000
    appointments: int = 150
    notes: int = 500
    practices: int = 10
    practice_clients: int = 100
    practice_notes: int = 30
    import_count: int = 100_000
    skip_import: bool = False
    skip_load: bool = False
    scenarios: tuple[str, ...] = tuple(s.name for s in SCENARIOS)
    admin_dsn: str = DEFAULT_ADMIN_DSN
    output_dir: Path = ROOT / "reports"
    keep_databases: bool = False
    server_log_level: str = "info"
    quiet_budget: float = 300.0
    seed: int = 20261123

    def request_budget(self, concurrency: int) -> int:
        """Requests per run: enough for stable percentiles at every level, bounded."""
        return max(self.min_requests, min(self.max_requests, self.requests_per_user * concurrency))


QUICK = {
    "max_seconds": 3.0,
    "requests_per_user": 10,
    "min_requests": 30,
    "max_requests": 300,
    "warmup_requests": 10,
    "clients": 200,
    "appointments": 30,
    "notes": 60,
    "practices": 3,
    "practice_clients": 20,
    "practice_notes": 10,
    "import_count": 2000,
    "quiet_budget": 0.0,
}


def parse_options(argv: Sequence[str] | None = None) -> Options:
    parser = _parser()
    args = parser.parse_args(argv)
    values: dict[str, Any] = dict(QUICK) if args.quick else {}
    values["quick"] = args.quick
    for argument, option in OVERRIDES.items():
        if getattr(args, argument) is not None:
            values[option] = getattr(args, argument)
    if args.concurrency:
        values["concurrency"] = tuple(int(c) for c in args.concurrency.split(","))
    if args.max_requests is not None:
        values["min_requests"] = min(args.max_requests, values.get("min_requests", 300))
    if args.scenarios:
        wanted = tuple(args.scenarios.split(","))
        unknown = set(wanted) - {s.name for s in SCENARIOS}
        if unknown:
            parser.error(f"unknown scenarios: {', '.join(sorted(unknown))}")
        values["scenarios"] = wanted
    values.update(
        skip_import=args.skip_import,
        skip_load=args.skip_load,
        admin_dsn=args.admin_dsn,
        keep_databases=args.keep_databases,
        server_log_level=args.server_log_level,
    )
    options = Options(**values)
    if options.workers < 1 or any(c < 1 for c in options.concurrency):
        parser.error("--workers and --concurrency must be positive")
    return options


# Command-line arguments that, when given, replace an Options field of another name.
OVERRIDES = {
    "workers": "workers",
    "duration": "max_seconds",
    "max_requests": "max_requests",
    "quiet_budget": "quiet_budget",
    "practices": "practices",
    "import_count": "import_count",
    "output_dir": "output_dir",
}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tools.loadtest",
        description="End-to-end load test and bulk-import benchmark of CareVault on this "
        "machine. Creates and drops its own databases (carevault_loadtest*), starts the real "
        "server on a free loopback port, drives it with wrk, writes reports/loadtest.json and "
        "reports/loadtest.md.",
    )
    add = parser.add_argument
    add("--quick", action="store_true", help="a short smoke run (small counts)")
    add("--workers", type=int, help="server worker processes (default 2)")
    add("--concurrency", help="comma-separated virtual-user counts (default 1,10,50)")
    add("--duration", type=float, help="time limit of each run, seconds")
    add("--max-requests", type=int, help="request limit of each run")
    add("--import-count", type=int, help="clients in the import benchmark")
    add(
        "--practices",
        type=int,
        help="extra practices for the multi-practice read scenario (default 10; 0: none)",
    )
    add("--skip-import", action="store_true", help="no bulk import benchmark")
    add("--skip-load", action="store_true", help="no load test")
    add("--scenarios", help=f"comma-separated subset of {','.join(s.name for s in SCENARIOS)}")
    add("--admin-dsn", default=DEFAULT_ADMIN_DSN, help=f"PostgreSQL (default {DEFAULT_ADMIN_DSN})")
    add("--output-dir", type=Path, help="where reports go (default reports/)")
    add("--keep-databases", action="store_true", help="leave the databases for inspection")
    add(
        "--quiet-budget",
        type=float,
        help="seconds to wait in all for other processes to leave the CPU idle before "
        "measuring (default 300; --quick: 0)",
    )
    add("--server-log-level", default="info", help="CAREVAULT_LOG_LEVEL")
    return parser


def server_env(keyring_json: str, data_dir: Path, options: Options) -> dict[str, str]:
    """Production settings, keys from the environment (a throwaway ring), and a key-ring
    refresh interval longer than the run so each worker's load time identifies it."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("CAREVAULT_") and not key.startswith("AWS_")
    }
    env.update(
        CAREVAULT_ENV="production",
        CAREVAULT_KEY_PROVIDER="env",
        CAREVAULT_KEYRING_JSON=keyring_json,
        CAREVAULT_KEY_CACHE_TTL_SECONDS="86400",
        CAREVAULT_DATA_DIR=str(data_dir),
        CAREVAULT_LOG_LEVEL=options.server_log_level,
        CAREVAULT_METRICS_TOKEN=api.METRICS_TOKEN,
    )
    return env
