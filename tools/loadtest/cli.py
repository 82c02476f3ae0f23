"""Options, and the run from a fresh database to the written reports."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import shlex
import sys
import tempfile
import time
import traceback
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import psutil

from tools.loadtest import api, machine, report
from tools.loadtest.activity import ActivitySampler
from tools.loadtest.bulk_import import run_import_benchmark
from tools.loadtest.database import (
    DEFAULT_ADMIN_DSN,
    Database,
    server_settings,
    server_version,
)
from tools.loadtest.fieldcost import FieldCost, measure
from tools.loadtest.importcheck import ImportCli, check_import_cli
from tools.loadtest.processes import (
    MemorySampler,
    ServerProcess,
    cpu_seconds_of,
    run_carevault,
    tree,
)
from tools.loadtest.quiet import QuietGate
from tools.loadtest.scenarios import SCENARIOS, Scenario, Workload
from tools.loadtest.scheduler import run_bounded
from tools.loadtest.seed import Seeded, seed_practice, seed_practices
from tools.loadtest.server_metrics import delta, estimate_encryption
from tools.loadtest.stats import summarize

LOAD_DATABASE = "carevault_loadtest"
IMPORT_DATABASE = "carevault_loadtest_import"
WORKSPACE = "Load Test Practice"
OWNER_EMAIL = "owner@loadtest.invalid"
ROOT = Path(__file__).resolve().parents[2]
PROBE_WEEK = ("2000-01-03T00:00:00Z", "2000-01-10T00:00:00Z")


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
    parser = argparse.ArgumentParser(
        prog="python -m tools.loadtest",
        description="End-to-end load test and bulk-import benchmark of CareVault on this "
        "machine. Creates and drops its own databases (carevault_loadtest*), starts the real "
        "server on a free loopback port, writes reports/loadtest.json and reports/loadtest.md.",
    )
    parser.add_argument("--quick", action="store_true", help="a short smoke run (small counts)")
    parser.add_argument("--workers", type=int, help="server worker processes (default 2)")
    parser.add_argument(
        "--concurrency", help="comma-separated virtual-user counts (default 1,10,50)"
    )
    parser.add_argument("--duration", type=float, help="time limit of each run, seconds")
    parser.add_argument("--max-requests", type=int, help="request limit of each run")
    parser.add_argument("--import-count", type=int, help="clients in the import benchmark")
    parser.add_argument(
        "--practices",
        type=int,
        help="extra practices for the multi-practice read scenario (default 10; 0: none)",
    )
    parser.add_argument("--skip-import", action="store_true", help="no bulk import benchmark")
    parser.add_argument("--skip-load", action="store_true", help="no load test")
    parser.add_argument(
        "--scenarios", help=f"comma-separated subset of {','.join(s.name for s in SCENARIOS)}"
    )
    parser.add_argument(
        "--admin-dsn", default=DEFAULT_ADMIN_DSN, help=f"PostgreSQL (default {DEFAULT_ADMIN_DSN})"
    )
    parser.add_argument("--output-dir", type=Path, help="where reports go (default reports/)")
    parser.add_argument(
        "--keep-databases", action="store_true", help="leave the databases for inspection"
    )
    parser.add_argument(
        "--quiet-budget",
        type=float,
        help="seconds to wait in all for other processes to leave the CPU idle before "
        "measuring (default 300; --quick: 0)",
    )
    parser.add_argument("--server-log-level", default="info", help="CAREVAULT_LOG_LEVEL")
    args = parser.parse_args(argv)
    values: dict[str, Any] = dict(QUICK) if args.quick else {}
    values["quick"] = args.quick
    if args.workers is not None:
        values["workers"] = args.workers
    if args.concurrency:
        values["concurrency"] = tuple(int(c) for c in args.concurrency.split(","))
    if args.duration is not None:
        values["max_seconds"] = args.duration
    if args.max_requests is not None:
        values["max_requests"] = args.max_requests
        values["min_requests"] = min(args.max_requests, values.get("min_requests", 300))
    if args.quiet_budget is not None:
        values["quiet_budget"] = args.quiet_budget
    if args.practices is not None:
        values["practices"] = args.practices
    if args.import_count is not None:
        values["import_count"] = args.import_count
    if args.scenarios:
        wanted = tuple(args.scenarios.split(","))
        unknown = set(wanted) - {s.name for s in SCENARIOS}
        if unknown:
            parser.error(f"unknown scenarios: {', '.join(sorted(unknown))}")
        values["scenarios"] = wanted
    if args.output_dir is not None:
        values["output_dir"] = args.output_dir
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


def log(message: str) -> None:
    print(f"[loadtest {datetime.now().strftime('%H:%M:%S')}] {message}", flush=True)


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


@dataclass
class Cpu:
    generator: float
    server: float
    postgres: float
    system_busy: float
    system_total: float


def _system_cpu() -> tuple[float, float]:
    times = psutil.cpu_times()
    total = sum(times)
    idle = times.idle + getattr(times, "iowait", 0.0)
    return total - idle, total


def _own_cpu() -> float:
    times = psutil.Process().cpu_times()
    return float(times.user + times.system)


@dataclass
class LoadContext:
    options: Options
    server: ServerProcess
    db: Database
    token: str
    workload: Workload
    field_cost: FieldCost
    memory: MemorySampler
    quiet: QuietGate
    results: list[dict[str, Any]] = field(default_factory=list)


async def _audit_high_water(db: Database) -> int:
    connection = await db.connect()
    try:
        return int(await connection.fetchval("SELECT coalesce(max(id), 0) FROM audit_events"))
    finally:
        await connection.close()


async def measure_scenario(context: LoadContext, scenario: Scenario) -> dict[str, Any]:
    options = context.options
    headers = {"Authorization": f"Bearer {context.token}"}
    entry: dict[str, Any] = {
        "name": scenario.name,
        "title": scenario.title,
        "request": scenario.request,
        "available": True,
        "runs": [],
    }
    base = context.server.base_url
    if scenario.name == "read_note_practices":
        practices = context.workload.practices
        entry["title"] = f"Read a session note, {len(practices)} practices"
        entry["request"] = f"GET /sessions/{{id}}, users spread over {len(practices)} workspaces"
    reason = scenario.skip_reason(context.workload) if scenario.skip_reason else None
    if reason:
        entry.update(available=False, unavailable_reason=reason)
        log(f"{scenario.name}: {reason}")
        return entry
    if scenario.probe is not None:
        async with httpx.AsyncClient(base_url=base, headers=headers, timeout=30) as client:
            status = await api.route_status(client, scenario.probe(context.workload))
        if status in (404, 405):
            entry.update(available=False, unavailable_reason=f"not available ({status})")
            log(f"{scenario.name}: not available ({status}); skipped")
            return entry
    await context.quiet.wait(scenario.name)
    largest = max(options.concurrency)
    limits = httpx.Limits(max_connections=largest, max_keepalive_connections=largest)
    async with httpx.AsyncClient(
        base_url=base, headers=headers, timeout=30, limits=limits
    ) as client:
        operation = scenario.operation(client, context.workload)
        context.memory.phase = f"warm-up: {scenario.name}"
        warm = await run_bounded(
            operation,
            concurrency=min(10, largest),
            max_requests=options.warmup_requests,
            max_seconds=30,
        )
        entry["warmup"] = summarize(warm.samples, warm.wall_seconds, warm.cut_off).as_dict()
        for concurrency in options.concurrency:
            entry["runs"].append(await measure_run(context, client, scenario, concurrency))
    return entry


async def measure_run(
    context: LoadContext, client: httpx.AsyncClient, scenario: Scenario, concurrency: int
) -> dict[str, Any]:
    options = context.options
    workers = options.workers
    budget = options.request_budget(concurrency)
    before = await api.scrape_workers(context.server.base_url, workers)
    audit_before = await _audit_high_water(context.db)
    context.workload.refetches.clear()
    activity = ActivitySampler(context.db.dsn)
    await activity.start()
    server_processes = tree(context.server.pid)
    cpu_before = Cpu(_own_cpu(), cpu_seconds_of(server_processes), 0.0, *_system_cpu())
    context.memory.take_window_peak()
    context.memory.phase = f"{scenario.name} at concurrency {concurrency}"

    run = await run_bounded(
        scenario.operation(client, context.workload),
        concurrency=concurrency,
        max_requests=budget,
        max_seconds=options.max_seconds,
    )

    rss_peak = context.memory.take_window_peak()
    busy, total = _system_cpu()
    own, server_cpu = _own_cpu(), cpu_seconds_of(server_processes)
    await activity.stop()
    cpu_after = Cpu(own, server_cpu, activity.backend_cpu_seconds(), busy, total)
    after = await api.scrape_workers(context.server.base_url, workers)
    audit_after = await _audit_high_water(context.db)

    summary = summarize(run.samples, run.wall_seconds, run.cut_off)
    change = delta(before, after)
    estimate = estimate_encryption(
        change,
        encrypt_seconds=context.field_cost.encrypt_seconds,
        decrypt_seconds=context.field_cost.decrypt_seconds,
        workers=workers,
    )
    completed = max(len(run.samples), 1)
    wall = max(run.wall_seconds, 1e-9)
    system_busy = cpu_after.system_busy - cpu_before.system_busy
    system_total = cpu_after.system_total - cpu_before.system_total
    ncpu = machine.nproc()
    generator = cpu_after.generator - cpu_before.generator
    server = cpu_after.server - cpu_before.server
    postgres = cpu_after.postgres - cpu_before.postgres
    busy_cores = system_busy / system_total * ncpu if system_total else 0.0
    result: dict[str, Any] = {
        "concurrency": concurrency,
        "request_budget": budget,
        "time_budget_seconds": options.max_seconds,
        "stopped_by": run.stopped_by,
        "peak_in_flight": run.peak_in_flight,
        **summary.as_dict(),
        "encryption": estimate.as_dict(),
        "server_routes": {
            route: {"requests": int(v["requests"]), "seconds": round(v["seconds"], 4)}
            for route, v in change.by_route.items()
        },
        "cpu": {
            "server_ms_per_request": round(server / completed * 1000, 3),
            "postgres_ms_per_request": round(postgres / completed * 1000, 3),
            "generator_ms_per_request": round(generator / completed * 1000, 3),
            "server_cores": round(server / wall, 2),
            "postgres_cores": round(postgres / wall, 2),
            "generator_cores": round(generator / wall, 2),
            "machine_busy_cores": round(busy_cores, 2),
            "other_processes_cores": round(
                max(0.0, busy_cores - (server + postgres + generator) / wall), 2
            ),
        },
        "audit_events_per_request": round((audit_after - audit_before) / completed, 3),
        "database_activity": activity.summary(),
        "server_peak_rss_bytes": rss_peak,
    }
    if scenario.name == "autosave":
        refetches = list(context.workload.refetches)
        result["refetches"] = (
            summarize(refetches, run.wall_seconds).as_dict() if refetches else None
        )
    log(
        f"{scenario.name:<14} c={concurrency:<3} {summary.requests:>5} req "
        f"{summary.rps:>7.1f} req/s  p50 {summary.p50_ms:7.2f} ms  p95 {summary.p95_ms:7.2f} ms  "
        f"p99 {summary.p99_ms:7.2f} ms  errors {summary.errors}  409 {summary.conflicts}  "
        f"enc {100 * (estimate.share or 0):.2f}%"
    )
    return result


async def run_load(
    options: Options,
    keyring_json: str,
    work_dir: Path,
    field_cost: FieldCost,
    password: str,
    import_cli: ImportCli,
    quiet: QuietGate,
) -> dict[str, Any]:
    db = Database(options.admin_dsn, LOAD_DATABASE)
    log(f"load: recreating database {db.name}, migrations, owner")
    await db.recreate()
    env = server_env(keyring_json, work_dir / "data", options)
    env["CAREVAULT_DATABASE_URL"] = db.sqlalchemy_url
    # The generator drives one token far past a person's pace: no request limit in its way.
    env["CAREVAULT_API_RATE_LIMIT_PER_MINUTE"] = "1000000"
    run_carevault(["db", "upgrade"], env)
    run_carevault(
        ["users", "create", "--workspace", WORKSPACE, "--email", OWNER_EMAIL, "--role", "owner"],
        env,
        stdin=password + "\n",
    )
    server = ServerProcess(env, options.workers, options.output_dir / "loadtest-server.log")
    log(f"load: starting `carevault serve --workers {options.workers} --port {server.port}`")
    server.start()
    memory = MemorySampler(server.pid, interval=0.2)
    memory.start()
    try:
        found = await api.scrape_workers(server.base_url, options.workers, attempts=100)
        if len(found) < options.workers:
            log(f"warning: only {len(found)} of {options.workers} workers answered /metrics")
        baseline_rss = memory.peak_bytes
        memory.phase = "seeding (sign-ins, notes, appointments)"
        token = await api.api_token(server.base_url, api.Credentials(OWNER_EMAIL, password))
        probe_headers = {"Authorization": f"Bearer {token}"}
        async with httpx.AsyncClient(
            base_url=server.base_url, headers=probe_headers, timeout=30
        ) as client:
            appointments_status = await api.route_status(
                client, f"{api.API}/appointments?start={PROBE_WEEK[0]}&end={PROBE_WEEK[1]}"
            )
        log(
            f"load: seeding {options.clients} clients (importer), {options.appointments} "
            f"appointments and {options.notes} notes (API)"
        )
        seeded: Seeded = await seed_practice(
            env=env,
            db=db,
            workspace=WORKSPACE,
            base_url=server.base_url,
            token=token,
            clients=options.clients,
            appointments=options.appointments,
            notes=options.notes,
            work_dir=work_dir,
            seed=options.seed,
            appointments_available=appointments_status not in (404, 405),
            preload_models=import_cli.preload_models,
        )
        from tools.loadtest.fakedata import PracticeData

        workload = Workload(
            note_ids=seeded.note_ids,
            draft_ids=seeded.note_ids,
            client_count=len(seeded.client_ids),
            week_start=seeded.week_start,
            week_end=seeded.week_end,
            data=PracticeData(options.seed + 2),
            versions=dict(seeded.note_versions),
        )
        if options.practices and "read_note_practices" in options.scenarios:
            log(f"load: seeding {options.practices} more practices")
            workload.practices = await seed_practices(
                env=env,
                db=db,
                base_url=server.base_url,
                count=options.practices,
                clients=options.practice_clients,
                notes=options.practice_notes,
                password=password,
                work_dir=work_dir,
                seed=options.seed,
                preload_models=import_cli.preload_models,
            )
        context = LoadContext(options, server, db, token, workload, field_cost, memory, quiet)
        scenarios = []
        for scenario in SCENARIOS:
            if scenario.name in options.scenarios:
                scenarios.append(await measure_scenario(context, scenario))
        try:
            diagnostics = await _diagnostics(db)
        except Exception as exc:  # facts for the reader; never worth losing the results
            diagnostics = {"error": f"{type(exc).__name__}: {exc}"}
    finally:
        memory.stop()
        server.stop()
        if not options.keep_databases:
            await db.drop()
    return {
        "server": {
            "command": "python -m carevault serve "
            f"--workers {options.workers} --port {server.port}",
            "workers": options.workers,
            "settings": "CAREVAULT_ENV=production, key ring from CAREVAULT_KEYRING_JSON "
            f"(throwaway), log level {options.server_log_level}, "
            "database pool: the product default (10 + 10 overflow per worker)",
            "auth": "API token (Authorization: Bearer), created through a signed-in session",
        },
        "seed": {
            "clients": len(seeded.client_ids),
            "appointments": seeded.appointments,
            "appointments_skipped": seeded.appointments_skipped,
            "notes": len(seeded.note_ids),
            "extra_practices": {
                "count": len(workload.practices),
                "clients_each": options.practice_clients,
                "notes_each": options.practice_notes,
            },
            "week": [seeded.week_start.isoformat(), seeded.week_end.isoformat()],
            "seconds": seeded.seconds,
        },
        "scenarios": scenarios,
        "memory": {
            "peak_rss_bytes": memory.peak_bytes,
            "peak_rss_by_process": [
                {"role": role, "rss_bytes": size} for role, size in memory.peak_processes
            ],
            "after_start_rss_bytes": baseline_rss,
            "peak_phase": memory.peak_phase,
            "peak_during_measured_runs_bytes": max(
                (
                    run["server_peak_rss_bytes"]
                    for scenario in scenarios
                    for run in scenario.get("runs", [])
                ),
                default=0,
            ),
            "samples": memory.samples,
            "interval_seconds": memory.interval,
            "timeline": memory.timeline,
            "what": "sum of RSS over the server's process tree (uvicorn supervisor, its "
            "workers, multiprocessing helper); shared pages are counted once per process",
        },
        "diagnostics": diagnostics,
    }


async def _diagnostics(db: Database) -> dict[str, Any]:
    """Facts about the audit trail after the load, for reading the results: its size and how
    far the background sealer was behind when the load stopped."""
    connection = await db.connect()
    try:
        events = await connection.fetchval("SELECT count(*) FROM audit_events")
        # Events are sealed after the fact (issue 10): how far the sealer was behind.
        seals = await connection.fetchval("SELECT count(*) FROM audit_seals")
        unsealed = await connection.fetchval(
            "SELECT count(*) FROM audit_events WHERE txid >= "
            "(SELECT coalesce(max(txid_to), 0) FROM audit_seals)"
        )
        size = await connection.fetchval("SELECT pg_total_relation_size('audit_events'::regclass)")
        index_size = await connection.fetchval("SELECT pg_indexes_size('audit_events'::regclass)")
        actions = await connection.fetch(
            "SELECT action, count(*) AS events, avg(pg_column_size(e.*))::int AS row_bytes "
            "FROM audit_events e GROUP BY action ORDER BY count(*) DESC"
        )
    finally:
        await connection.close()
    return {
        "audit_events": int(events),
        "audit_events_bytes": int(size),
        "audit_index_bytes_per_event": round(int(index_size) / max(int(events), 1), 1),
        "audit_events_by_action": {
            str(row["action"]): {"events": int(row["events"]), "row_bytes": int(row["row_bytes"])}
            for row in actions
        },
        "audit_seals": int(seals),
        "audit_unsealed_after_load": int(unsealed),
    }


async def run_all(options: Options) -> dict[str, Any]:
    from carevault.crypto import KeyRing

    started = time.perf_counter()
    started_at = datetime.now(UTC)
    options.output_dir.mkdir(parents=True, exist_ok=True)
    info = machine.describe()
    info["postgresql"] = await server_version(options.admin_dsn)
    info["postgresql_settings"] = await server_settings(options.admin_dsn)
    log(f"machine: {info['nproc']} cores, {info['cpu_model']}, PostgreSQL {info['postgresql']}")
    password = secrets.token_urlsafe(18)
    quiet = QuietGate(options.quiet_budget)
    await quiet.wait("field cost")
    log("measuring the per-field cost in-process")
    field_cost = measure()
    log(
        f"field cost: encrypt {field_cost.encrypt_seconds * 1e6:.2f} µs, "
        f"decrypt {field_cost.decrypt_seconds * 1e6:.2f} µs at {field_cost.value_bytes} B"
    )
    keyring_json = KeyRing.generate().to_json()
    results: dict[str, Any] = {
        "tool": "tools.loadtest",
        "schema": 1,
        "mode": "quick" if options.quick else "full",
        "command": "make loadtest"
        if not sys.argv[1:]
        else "python -m tools.loadtest " + shlex.join(sys.argv[1:]),
        "started_at": started_at.isoformat(timespec="seconds"),
        "machine": info,
        "options": {
            key: (str(value) if isinstance(value, Path) else value)
            for key, value in asdict(options).items()
        },
        "field_cost": field_cost.as_dict(),
    }
    with tempfile.TemporaryDirectory(prefix="carevault-loadtest-") as scratch:
        work_dir = Path(scratch)
        import_cli = await check_import_cli(
            server_env(keyring_json, work_dir / "data", options),
            options.admin_dsn,
            work_dir,
            password,
        )
        results["import_cli_problem"] = import_cli.problem
        if import_cli.problem:
            log(f"warning: {import_cli.problem}")
        if not options.skip_import:
            await quiet.wait("import")
            db = Database(options.admin_dsn, IMPORT_DATABASE)
            log(f"import: generating {options.import_count:,} clients and importing them")
            try:
                results["import"] = await run_import_benchmark(
                    env={
                        **server_env(keyring_json, work_dir / "data", options),
                    },
                    db=db,
                    count=options.import_count,
                    work_dir=work_dir,
                    seed=options.seed,
                    password=password,
                    field_cost=field_cost,
                    nproc=int(info["nproc"]),  # type: ignore[call-overload]
                    preload_models=import_cli.preload_models,
                )
            finally:
                if not options.keep_databases:
                    await db.drop()
            imported = results["import"]
            log(
                f"import: {imported['records']:,} clients in {imported['seconds']} s = "
                f"{imported['records_per_second']:,} records/s, "
                f"{imported['bytes_per_record']:,} bytes/record on disk"
            )
        if not options.skip_load:
            try:
                results["load"] = await run_load(
                    options, keyring_json, work_dir, field_cost, password, import_cli, quiet
                )
            except Exception:  # keep what was measured (the import) and say what failed
                results["load_error"] = traceback.format_exc()
                log("load: FAILED; the reports keep everything measured before the failure")
    results["quiet_checks"] = quiet.log
    results["duration_seconds"] = round(time.perf_counter() - started, 1)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_options(argv)
    results = asyncio.run(run_all(options))
    json_path = options.output_dir / "loadtest.json"
    markdown_path = options.output_dir / "loadtest.md"
    json_path.write_text(json.dumps(results, indent=2, default=str) + "\n")
    markdown_path.write_text(report.render_markdown(results))
    print()
    print(report.render_summary(results))
    print(f"\nWrote {json_path} and {markdown_path} in {results['duration_seconds']} s.")
    if "load_error" in results:
        print(results["load_error"], file=sys.stderr)
        return 1
    return 0
