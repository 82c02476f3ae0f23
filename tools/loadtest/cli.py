"""`python -m tools.loadtest`: the run from a fresh database to the written reports.

Phases: describe the machine and measure the per-field cost; check the import command; the
bulk-import benchmark (bulk_import.py); the load test (load.py: seed, then every workload
driven by wrk, measure.py); then the reports (report.py). Options: options.py.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import shlex
import sys
import tempfile
import time
import traceback
from collections.abc import Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tools.loadtest import machine, report
from tools.loadtest.bulk_import import run_import_benchmark
from tools.loadtest.console import log
from tools.loadtest.database import Database, server_settings, server_version
from tools.loadtest.fieldcost import FieldCost, measure
from tools.loadtest.generator import GeneratorError, Wrk, find_wrk
from tools.loadtest.importcheck import ImportCli, check_import_cli
from tools.loadtest.load import Inputs, run_load
from tools.loadtest.options import Options, parse_options, server_env
from tools.loadtest.quiet import QuietGate

IMPORT_DATABASE = "carevault_loadtest_import"


async def run_all(options: Options, wrk: Wrk | None) -> dict[str, Any]:
    """Every phase the options ask for; `wrk` is None when the load test is skipped."""
    started = time.perf_counter()
    options.output_dir.mkdir(parents=True, exist_ok=True)
    results = await _header(options, wrk)
    quiet = QuietGate(options.quiet_budget)
    field_cost = await _field_cost(quiet)
    results["field_cost"] = field_cost.as_dict()
    from carevault.crypto import KeyRing

    keyring_json = KeyRing.generate().to_json()
    password = secrets.token_urlsafe(18)
    with tempfile.TemporaryDirectory(prefix="carevault-loadtest-") as scratch:
        work_dir = Path(scratch)
        env = server_env(keyring_json, work_dir / "data", options)
        import_cli = await check_import_cli(env, options.admin_dsn, work_dir, password)
        results["import_cli_problem"] = import_cli.problem
        if import_cli.problem:
            log(f"warning: {import_cli.problem}")
        if not options.skip_import:
            await quiet.wait("import")
            results["import"] = await _import_phase(
                options, env, work_dir, password, field_cost, import_cli, results
            )
        if wrk is not None:
            inputs = Inputs(
                options, keyring_json, work_dir, field_cost, password, import_cli, quiet, wrk
            )
            try:
                results["load"] = await run_load(inputs)
            except Exception:  # keep what was measured (the import) and say what failed
                results["load_error"] = traceback.format_exc()
                log("load: FAILED; the reports keep everything measured before the failure")
    results["quiet_checks"] = quiet.log
    results["duration_seconds"] = round(time.perf_counter() - started, 1)
    return results


async def _header(options: Options, wrk: Wrk | None) -> dict[str, Any]:
    """What was run, when, and on what."""
    info = machine.describe()
    info["postgresql"] = await server_version(options.admin_dsn)
    info["postgresql_settings"] = await server_settings(options.admin_dsn)
    info["load_generator"] = wrk.describe() if wrk else None
    log(f"machine: {info['nproc']} cores, {info['cpu_model']}, PostgreSQL {info['postgresql']}")
    return {
        "tool": "tools.loadtest",
        "schema": 2,
        "mode": "quick" if options.quick else "full",
        "command": "make loadtest"
        if not sys.argv[1:]
        else "python -m tools.loadtest " + shlex.join(sys.argv[1:]),
        "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": info,
        "options": {
            key: (str(value) if isinstance(value, Path) else value)
            for key, value in asdict(options).items()
        },
    }


async def _field_cost(quiet: QuietGate) -> FieldCost:
    await quiet.wait("field cost")
    log("measuring the per-field cost in-process")
    cost = measure()
    log(
        f"field cost: encrypt {cost.encrypt_seconds * 1e6:.2f} µs, "
        f"decrypt {cost.decrypt_seconds * 1e6:.2f} µs at {cost.value_bytes} B"
    )
    return cost


async def _import_phase(
    options: Options,
    env: dict[str, str],
    work_dir: Path,
    password: str,
    field_cost: FieldCost,
    import_cli: ImportCli,
    results: dict[str, Any],
) -> dict[str, Any]:
    db = Database(options.admin_dsn, IMPORT_DATABASE)
    log(f"import: generating {options.import_count:,} clients and importing them")
    try:
        imported = await run_import_benchmark(
            env=env,
            db=db,
            count=options.import_count,
            work_dir=work_dir,
            seed=options.seed,
            password=password,
            field_cost=field_cost,
            nproc=int(results["machine"]["nproc"]),
            preload_models=import_cli.preload_models,
        )
    finally:
        if not options.keep_databases:
            await db.drop()
    log(
        f"import: {imported['records']:,} clients in {imported['seconds']} s = "
        f"{imported['records_per_second']:,} records/s, "
        f"{imported['bytes_per_record']:,} bytes/record on disk"
    )
    return imported


def write_reports(options: Options, results: dict[str, Any]) -> tuple[Path, Path]:
    json_path = options.output_dir / "loadtest.json"
    markdown_path = options.output_dir / "loadtest.md"
    json_path.write_text(json.dumps(results, indent=2, default=str) + "\n")
    markdown_path.write_text(report.render_markdown(results))
    return json_path, markdown_path


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_options(argv)
    wrk = None
    if not options.skip_load:
        try:
            wrk = find_wrk()
        except GeneratorError as exc:
            print(f"loadtest: {exc}", file=sys.stderr)
            return 2
    results = asyncio.run(run_all(options, wrk))
    json_path, markdown_path = write_reports(options, results)
    print()
    print(report.render_summary(results))
    print(f"\nWrote {json_path} and {markdown_path} in {results['duration_seconds']} s.")
    if "load_error" in results:
        print(results["load_error"], file=sys.stderr)
        return 1
    return 0
