"""The load test's phases: a fresh database and server, the seeded practice, every workload
measured (measure.py), then the facts collected for the report."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from tools.loadtest import api
from tools.loadtest.console import log
from tools.loadtest.database import Database
from tools.loadtest.fakedata import PracticeData
from tools.loadtest.fieldcost import FieldCost
from tools.loadtest.generator import Wrk
from tools.loadtest.importcheck import ImportCli
from tools.loadtest.measure import LoadContext, measure_scenario
from tools.loadtest.options import Options, server_env
from tools.loadtest.processes import MemorySampler, ServerProcess, run_carevault
from tools.loadtest.quiet import QuietGate
from tools.loadtest.scenarios import SCENARIOS, Workload
from tools.loadtest.seed import Seeded, seed_practice, seed_practices

LOAD_DATABASE = "carevault_loadtest"
WORKSPACE = "Load Test Practice"
OWNER_EMAIL = "owner@loadtest.invalid"
PROBE_WEEK = ("2000-01-03T00:00:00Z", "2000-01-10T00:00:00Z")


@dataclass(frozen=True)
class Inputs:
    """What the run as a whole hands the load test."""

    options: Options
    keyring_json: str
    work_dir: Path
    field_cost: FieldCost
    password: str
    import_cli: ImportCli
    quiet: QuietGate
    wrk: Wrk


async def run_load(inputs: Inputs) -> dict[str, Any]:
    options = inputs.options
    db = Database(options.admin_dsn, LOAD_DATABASE)
    env = await prepare_database(inputs, db)
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
        token, seeded, workload = await seed(inputs, env, db, server)
        context = LoadContext(
            options=options,
            server=server,
            db=db,
            token=token,
            workload=workload,
            field_cost=inputs.field_cost,
            memory=memory,
            quiet=inputs.quiet,
            wrk=inputs.wrk,
            work_dir=inputs.work_dir,
        )
        scenarios = [
            await measure_scenario(context, scenario)
            for scenario in SCENARIOS
            if scenario.name in options.scenarios
        ]
        diagnostics = await collect_diagnostics(db)
    finally:
        memory.stop()
        server.stop()
        if not options.keep_databases:
            await db.drop()
    return {
        "server": _server_facts(options, server),
        "generator": inputs.wrk.describe(),
        "seed": _seed_facts(options, seeded, workload),
        "scenarios": scenarios,
        "memory": _memory_facts(memory, baseline_rss, scenarios),
        "diagnostics": diagnostics,
    }


async def prepare_database(inputs: Inputs, db: Database) -> dict[str, str]:
    """A fresh database at the latest migration with one owner; the server's environment."""
    log(f"load: recreating database {db.name}, migrations, owner")
    await db.recreate()
    env = server_env(inputs.keyring_json, inputs.work_dir / "data", inputs.options)
    env["CAREVAULT_DATABASE_URL"] = db.sqlalchemy_url
    # The generator drives one token far past a person's pace: no request limit in its way.
    env["CAREVAULT_API_RATE_LIMIT_PER_MINUTE"] = "1000000"
    env["CAREVAULT_API_RATE_LIMIT_PER_PRACTICE_PER_MINUTE"] = "10000000"
    run_carevault(["db", "upgrade"], env)
    run_carevault(
        ["users", "create", "--workspace", WORKSPACE, "--email", OWNER_EMAIL, "--role", "owner"],
        env,
        stdin=inputs.password + "\n",
    )
    return env


async def seed(
    inputs: Inputs, env: dict[str, str], db: Database, server: ServerProcess
) -> tuple[str, Seeded, Workload]:
    """The practice the load runs against (and the extra practices), and an API token."""
    options = inputs.options
    token = await api.api_token(server.base_url, api.Credentials(OWNER_EMAIL, inputs.password))
    async with httpx.AsyncClient(
        base_url=server.base_url, headers={"Authorization": f"Bearer {token}"}, timeout=30
    ) as client:
        appointments_status = await api.route_status(
            client, f"{api.API}/appointments?start={PROBE_WEEK[0]}&end={PROBE_WEEK[1]}"
        )
    log(
        f"load: seeding {options.clients} clients (importer), {options.appointments} "
        f"appointments and {options.notes} notes (API)"
    )
    seeded = await seed_practice(
        env=env,
        db=db,
        workspace=WORKSPACE,
        base_url=server.base_url,
        token=token,
        clients=options.clients,
        appointments=options.appointments,
        notes=options.notes,
        work_dir=inputs.work_dir,
        seed=options.seed,
        appointments_available=appointments_status not in (404, 405),
        preload_models=inputs.import_cli.preload_models,
    )
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
            password=inputs.password,
            work_dir=inputs.work_dir,
            seed=options.seed,
            preload_models=inputs.import_cli.preload_models,
        )
    return token, seeded, workload


async def collect_diagnostics(db: Database) -> dict[str, Any]:
    """Facts about the audit trail after the load, for reading the results: its size and how
    far the background sealer was behind when the load stopped. Never worth losing the
    results for: a failure is reported in their place."""
    try:
        return await _audit_facts(db)
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}


async def _audit_facts(db: Database) -> dict[str, Any]:
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


def _server_facts(options: Options, server: ServerProcess) -> dict[str, Any]:
    return {
        "command": f"python -m carevault serve --workers {options.workers} --port {server.port}",
        "workers": options.workers,
        "settings": "CAREVAULT_ENV=production, key ring from CAREVAULT_KEYRING_JSON "
        f"(throwaway), log level {options.server_log_level}, "
        "database pool: the product default (10 + 10 overflow per worker)",
        "auth": "API token (Authorization: Bearer), created through a signed-in session",
    }


def _seed_facts(options: Options, seeded: Seeded, workload: Workload) -> dict[str, Any]:
    return {
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
    }


def _memory_facts(
    memory: MemorySampler, baseline_rss: int, scenarios: list[dict[str, Any]]
) -> dict[str, Any]:
    return {
        "peak_rss_bytes": memory.peak_bytes,
        "peak_rss_by_process": [
            {"role": role, "rss_bytes": size} for role, size in memory.peak_processes
        ],
        "after_start_rss_bytes": baseline_rss,
        "peak_phase": memory.peak_phase,
        "peak_during_measured_runs_bytes": max(
            (run["server_peak_rss_bytes"] for scenario in scenarios for run in scenario["runs"]),
            default=0,
        ),
        "samples": memory.samples,
        "interval_seconds": memory.interval,
        "timeline": memory.timeline,
        "what": "sum of RSS over the server's process tree (uvicorn supervisor, its "
        "workers, multiprocessing helper); shared pages are counted once per process",
    }
