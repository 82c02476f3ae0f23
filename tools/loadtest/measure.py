"""The measuring phase: each workload at each concurrency, driven by wrk, with what the
server, PostgreSQL, the generator and the rest of the machine did meanwhile."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil

from tools.loadtest import api, machine
from tools.loadtest.activity import ActivitySampler
from tools.loadtest.console import log
from tools.loadtest.database import Database
from tools.loadtest.fieldcost import FieldCost
from tools.loadtest.generator import GeneratorRun, Wrk, run_wrk, versions_after
from tools.loadtest.options import Options
from tools.loadtest.processes import MemorySampler, ServerProcess, cpu_seconds_of, tree
from tools.loadtest.quiet import QuietGate
from tools.loadtest.scenarios import Scenario, Workload
from tools.loadtest.server_metrics import EncryptionEstimate, delta, estimate_encryption
from tools.loadtest.stats import RunSummary, summarize

WARMUP_SECONDS = 30.0
WARMUP_CONCURRENCY = 10


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
    wrk: Wrk
    work_dir: Path
    runs: int = 0  # wrk runs so far: each gets its own directory and random seed
    results: list[dict[str, Any]] = field(default_factory=list)


async def measure_scenario(context: LoadContext, scenario: Scenario) -> dict[str, Any]:
    """Warm up, then one measured run per concurrency level (or why the scenario cannot run)."""
    entry = _entry(context, scenario)
    reason = await _unavailable(context, scenario)
    if reason:
        entry.update(available=False, unavailable_reason=reason)
        log(f"{scenario.name}: {reason}")
        return entry
    await context.quiet.wait(scenario.name)
    context.memory.phase = f"warm-up: {scenario.name}"
    warm = await drive(
        context,
        scenario,
        concurrency=min(WARMUP_CONCURRENCY, max(context.options.concurrency)),
        budget=context.options.warmup_requests,
        seconds=WARMUP_SECONDS,
    )
    entry["warmup"] = summarize(warm.samples, warm.wall_seconds, warm.cut_off).as_dict()
    for concurrency in context.options.concurrency:
        entry["runs"].append(await measure_run(context, scenario, concurrency))
    return entry


def _entry(context: LoadContext, scenario: Scenario) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "name": scenario.name,
        "title": scenario.title,
        "request": scenario.request,
        "available": True,
        "runs": [],
    }
    if scenario.name == "read_note_practices":
        practices = context.workload.practices
        entry["title"] = f"Read a session note, {len(practices)} practices"
        entry["request"] = f"GET /sessions/{{id}}, users spread over {len(practices)} workspaces"
    return entry


async def _unavailable(context: LoadContext, scenario: Scenario) -> str | None:
    reason = scenario.skip_reason(context.workload) if scenario.skip_reason else None
    if reason or scenario.probe is None:
        return reason
    headers = {"Authorization": f"Bearer {context.token}"}
    async with httpx.AsyncClient(
        base_url=context.server.base_url, headers=headers, timeout=30
    ) as client:
        status = await api.route_status(client, scenario.probe(context.workload))
    return f"not available ({status})" if status in (404, 405) else None


async def drive(
    context: LoadContext, scenario: Scenario, *, concurrency: int, budget: int, seconds: float
) -> GeneratorRun:
    """One wrk run of the scenario; autosave carries the versions it saw to the next run."""
    context.runs += 1
    workload = context.workload
    run = await asyncio.to_thread(
        run_wrk,
        context.wrk,
        context.server.base_url,
        scenario.mix(workload, context.token),
        api=api.API,
        concurrency=concurrency,
        budget=budget,
        seconds=seconds,
        seed=context.options.seed + context.runs,
        work_dir=context.work_dir / f"wrk-{context.runs:02d}-{scenario.name}-{concurrency}",
    )
    workload.versions = versions_after(workload.versions, run)
    return run


@dataclass(frozen=True)
class CpuTimes:
    """CPU seconds of the server's processes and of this tool, and the machine's busy and
    total time, at one moment."""

    server: float
    tool: float
    system_busy: float
    system_total: float

    @classmethod
    def take(cls, server_processes: list[psutil.Process]) -> CpuTimes:
        times = psutil.cpu_times()
        total = sum(times)
        idle = times.idle + getattr(times, "iowait", 0.0)
        own = psutil.Process().cpu_times()
        return cls(
            cpu_seconds_of(server_processes), float(own.user + own.system), total - idle, total
        )


async def measure_run(context: LoadContext, scenario: Scenario, concurrency: int) -> dict[str, Any]:
    budget = context.options.request_budget(concurrency)
    metrics_before = await api.scrape_workers(context.server.base_url, context.options.workers)
    audit_before = await _audit_high_water(context.db)
    activity = ActivitySampler(context.db.dsn)
    await activity.start()
    server_processes = tree(context.server.pid)
    cpu_before = CpuTimes.take(server_processes)
    context.memory.take_window_peak()
    context.memory.phase = f"{scenario.name} at concurrency {concurrency}"

    run = await drive(
        context,
        scenario,
        concurrency=concurrency,
        budget=budget,
        seconds=context.options.max_seconds,
    )

    rss_peak = context.memory.take_window_peak()
    cpu_after = CpuTimes.take(server_processes)
    await activity.stop()
    metrics_after = await api.scrape_workers(context.server.base_url, context.options.workers)
    audit_after = await _audit_high_water(context.db)

    summary = summarize(run.samples, run.wall_seconds, run.cut_off)
    change = delta(metrics_before, metrics_after)
    encryption = estimate_encryption(
        change,
        encrypt_seconds=context.field_cost.encrypt_seconds,
        decrypt_seconds=context.field_cost.decrypt_seconds,
        workers=context.options.workers,
    )
    cpu = _cpu(cpu_before, cpu_after, run, activity.backend_cpu_seconds())
    result: dict[str, Any] = {
        "concurrency": concurrency,
        "request_budget": budget,
        "time_budget_seconds": context.options.max_seconds,
        "stopped_by": run.stopped_by,
        "peak_in_flight": run.peak_in_flight,
        **summary.as_dict(),
        "encryption": encryption.as_dict(),
        "server_routes": {
            route: {"requests": int(v["requests"]), "seconds": round(v["seconds"], 4)}
            for route, v in change.by_route.items()
        },
        "cpu": cpu,
        "generator": _generator(context.wrk, run),
        "audit_events_per_request": round(
            (audit_after - audit_before) / max(len(run.samples), 1), 3
        ),
        "database_activity": activity.summary(),
        "server_peak_rss_bytes": rss_peak,
    }
    if scenario.name == "autosave":
        result["refetches"] = (
            summarize(run.refetches, run.wall_seconds).as_dict() if run.refetches else None
        )
    _log_run(scenario, concurrency, summary, encryption, cpu)
    return result


def _cpu(before: CpuTimes, after: CpuTimes, run: GeneratorRun, postgres: float) -> dict[str, float]:
    """CPU per completed request and in cores, by whom. `tool`: this Python process while wrk
    runs (its pg_stat_activity and RSS sampling), apart from the generator's own."""
    completed = max(len(run.samples), 1)
    wall = max(run.wall_seconds, 1e-9)
    server = after.server - before.server
    tool = after.tool - before.tool
    generator = run.cpu_seconds
    system_total = after.system_total - before.system_total
    busy_share = (after.system_busy - before.system_busy) / system_total if system_total else 0.0
    busy_cores = busy_share * machine.nproc()
    ours = (server + postgres + generator + tool) / wall
    return {
        "server_ms_per_request": round(server / completed * 1000, 3),
        "postgres_ms_per_request": round(postgres / completed * 1000, 3),
        "generator_ms_per_request": round(generator / completed * 1000, 3),
        "tool_ms_per_request": round(tool / completed * 1000, 3),
        "server_cores": round(server / wall, 2),
        "postgres_cores": round(postgres / wall, 2),
        "generator_cores": round(generator / wall, 2),
        "tool_cores": round(tool / wall, 2),
        "machine_busy_cores": round(busy_cores, 2),
        "other_processes_cores": round(max(0.0, busy_cores - ours), 2),
    }


def _generator(wrk: Wrk, run: GeneratorRun) -> dict[str, Any]:
    return {
        "tool": wrk.describe(),
        "cpu_seconds": round(run.cpu_seconds, 4),
        "requests_started": run.started,
        "refetches": len(run.refetches),
        "socket_errors": run.socket_errors,
    }


def _log_run(
    scenario: Scenario,
    concurrency: int,
    summary: RunSummary,
    encryption: EncryptionEstimate,
    cpu: dict[str, float],
) -> None:
    log(
        f"{scenario.name:<14} c={concurrency:<3} {summary.requests:>5} req "
        f"{summary.rps:>7.1f} req/s  p50 {summary.p50_ms:7.2f} ms  p95 {summary.p95_ms:7.2f} ms  "
        f"p99 {summary.p99_ms:7.2f} ms  errors {summary.errors}  409 {summary.conflicts}  "
        f"enc {100 * (encryption.share or 0):.2f}%  CPU ms/req: server "
        f"{cpu['server_ms_per_request']:.2f}, generator {cpu['generator_ms_per_request']:.3f}"
    )


async def _audit_high_water(db: Database) -> int:
    connection = await db.connect()
    try:
        return int(await connection.fetchval("SELECT coalesce(max(id), 0) FROM audit_events"))
    finally:
        await connection.close()
