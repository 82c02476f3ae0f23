"""Measure the audit trail: sealing and verification throughput, and bytes per event.

    .venv/bin/python -m tools.audit_bench [--events 300000] [--workspaces 20] [--seal-format 2]

Creates and drops its own database (carevault_auditbench_*) on the local server, fills it
with events like a note read's, seals them, writes a checkpoint to a temporary file, then
times a full and an incremental `verify`. CPU is counted for this process and for the
PostgreSQL backend serving it (from /proc), so events per second per core can be given.
Bytes per event are compared with the layout before issue 10 (JSON-string resource ids and
two SHA-256 columns) on a copy of the same events. `--seal-format 1` seals in the format
written before migration 0015, to measure how trails sealed then verify now.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import tempfile
import time
import uuid
from pathlib import Path

import asyncpg
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from carevault.audit.background import AuditSealer
from carevault.audit.checkpoints import FileStore, write_checkpoint
from carevault.audit.sealing import CURRENT_FORMAT, SEAL_FORMATS, measure_lag, seal_all
from carevault.audit.verify import VerifyReport, verify
from carevault.db.engine import create_engine
from carevault.db.migrate import upgrade_async

ADMIN_DSN = "postgresql://postgres@127.0.0.1:5432/postgres"
BATCH = 2_000  # events per inserting transaction


def cpu_of(pid: int) -> float:
    """utime + stime of a process, in seconds (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def fill(dsn: str, events: int, workspaces: int) -> None:
    connection = await asyncpg.connect(dsn)
    try:
        spaces = [uuid.uuid4() for _ in range(workspaces)]
        for space in spaces:
            await connection.execute(
                "INSERT INTO workspaces (id, name) VALUES ($1, $2)", space, f"bench {space}"
            )
            await connection.execute(
                "INSERT INTO users (id, workspace_id, email, display_name, password_hash, role) "
                "VALUES (gen_random_uuid(), $1, $2, 'Bench', 'x', 'clinician')",
                space,
                f"{space}@bench.example",
            )
        for start in range(0, events, BATCH):
            # Like a note read: one actor, one resource id, an IP, a small details object.
            await connection.execute(
                """
                INSERT INTO audit_events (workspace_id, occurred_at, actor_user_id, action,
                                          resource_type, resource_ids, ip_address, details)
                SELECT u.workspace_id, now(), u.id, 'session.read', 'session',
                       ARRAY[gen_random_uuid()], '203.0.113.7', '{"version": 3}'::jsonb
                FROM generate_series(1, $1) AS g
                JOIN LATERAL (SELECT id, workspace_id FROM users OFFSET (g % $2) LIMIT 1) AS u
                  ON true
                """,
                min(BATCH, events - start),
                workspaces,
            )
    finally:
        await connection.close()


async def timed_verify(
    connection: AsyncConnection, key: bytes, store: FileStore, database: str, incremental: bool
) -> tuple[VerifyReport, tuple[float, float]]:
    """The report, and the CPU seconds of this process and of its PostgreSQL backend."""
    backend = int(await connection.scalar(text("SELECT pg_backend_pid()")))
    client_before, backend_before = time.process_time(), cpu_of(backend)
    report = await verify(
        connection, key, checkpoint=store.latest(database), since_checkpoint=incremental
    )
    return report, (time.process_time() - client_before, cpu_of(backend) - backend_before)


async def lag_under_load(url: str, key: bytes, seconds: float, writers: int) -> None:
    """Writers append events in their own transactions (like requests) while the app's
    background sealer runs every 0.5 s (the default); the lag is sampled four times a second."""
    engine = create_engine(url, pool_size=writers + 2)
    sealer = AuditSealer(
        engine, lambda: key, None, interval_seconds=0.5, checkpoint_interval_seconds=300.0
    )
    written = 0
    stop = time.monotonic() + seconds

    async def write() -> None:
        nonlocal written
        while time.monotonic() < stop:
            async with engine.begin() as connection:
                await connection.execute(
                    text("INSERT INTO audit_events (action) VALUES ('session.read')")
                )
            written += 1

    async def sample() -> list[float]:
        lags = []
        while time.monotonic() < stop:
            await asyncio.sleep(0.25)
            async with engine.connect() as connection:
                lags.append((await measure_lag(connection, key)).oldest_unsealed_seconds)
        return lags

    sealer.start()
    try:
        sampler = asyncio.ensure_future(sample())
        await asyncio.gather(sampler, *(write() for _ in range(writers)))
    finally:
        await sealer.stop()
        await engine.dispose()
    lags = sorted(sampler.result())
    print(
        f"sealing lag with {writers} writers ({written / seconds:,.0f} events/s for "
        f"{seconds:g} s, sealer every 0.5 s): median {lags[len(lags) // 2]:.2f} s, "
        f"p95 {lags[int(len(lags) * 0.95)]:.2f} s, max {lags[-1]:.2f} s"
    )


async def sizes(dsn: str) -> dict[str, float]:
    connection = await asyncpg.connect(dsn)
    try:
        # The same events in the layout before issue 10.
        await connection.execute(
            """
            CREATE TABLE old_events AS
            SELECT id, workspace_id, occurred_at, actor_user_id, actor_token_id, action,
                   resource_type, to_jsonb(resource_ids::text[]) AS resource_ids, ip_address,
                   details, sha256(id::text::bytea) AS prev_hash, sha256(id::text::bytea) AS hash
            FROM audit_events
            """
        )
        await connection.execute("ALTER TABLE old_events ADD PRIMARY KEY (id)")
        for columns in ("workspace_id", "workspace_id, occurred_at", "workspace_id, id"):
            await connection.execute(f"CREATE INDEX ON old_events ({columns})")
        await connection.execute("VACUUM ANALYZE old_events")
        await connection.execute("VACUUM ANALYZE audit_events")
        await connection.execute("VACUUM ANALYZE audit_seals")
        count = int(await connection.fetchval("SELECT count(*) FROM audit_events"))
        figures = {}
        for label, table in (("before", "old_events"), ("after", "audit_events")):
            figures[f"{label}_row_bytes"] = float(
                await connection.fetchval(f"SELECT avg(pg_column_size(t.*)) FROM {table} t")  # noqa: S608
            )
            figures[f"{label}_total_bytes"] = (
                int(await connection.fetchval(f"SELECT pg_total_relation_size('{table}')")) / count
            )
        figures["seal_bytes"] = (
            int(await connection.fetchval("SELECT pg_total_relation_size('audit_seals')")) / count
        )
        # A calendar week naming 150 appointments, both ways.
        week = await connection.fetchrow(
            """
            WITH ids AS (SELECT array_agg(gen_random_uuid()) AS a FROM generate_series(1, 150))
            SELECT pg_column_size(to_jsonb(a::text[])) AS json_bytes,
                   pg_column_size(a) AS uuid_bytes FROM ids
            """
        )
        assert week is not None  # one row: an aggregate without GROUP BY
        figures["week_json_bytes"] = float(week["json_bytes"])
        figures["week_uuid_bytes"] = float(week["uuid_bytes"])
        return figures
    finally:
        await connection.close()


async def main(events: int, workspaces: int, admin_dsn: str, keep: bool, seal_format: int) -> None:
    name = f"carevault_auditbench_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(admin_dsn)
    await admin.execute(f'CREATE DATABASE "{name}"')
    dsn = admin_dsn.rsplit("/", 1)[0] + f"/{name}"
    url = dsn.replace("postgresql://", "postgresql+asyncpg://", 1)
    engine = create_engine(url, pool_size=2)
    key = secrets.token_bytes(32)
    try:
        await upgrade_async(engine)
        started = time.perf_counter()
        await fill(dsn, events, workspaces)
        print(f"inserted {events} events in {time.perf_counter() - started:.1f} s")

        # One pooled connection, so that its backend's CPU can be read too.
        sealer_engine = create_engine(url, pool_size=1)
        try:
            async with sealer_engine.connect() as connection:
                backend = int(await connection.scalar(text("SELECT pg_backend_pid()")))
            started, cpu = time.perf_counter(), time.process_time()
            backend_cpu = cpu_of(backend)
            sealed = await seal_all(sealer_engine, key, wait_for_lock=True, seal_format=seal_format)
            elapsed = time.perf_counter() - started
            backend_cpu = cpu_of(backend) - backend_cpu
        finally:
            await sealer_engine.dispose()
        print(
            f"sealed {sealed} events (format {seal_format}) in {elapsed:.1f} s "
            f"({sealed / elapsed:,.0f} events/s; sealer CPU {time.process_time() - cpu:.1f} s, "
            f"its PostgreSQL backend {backend_cpu:.1f} s)"
        )
        with tempfile.TemporaryDirectory() as folder:
            store = FileStore(Path(folder) / "checkpoints.jsonl")
            async with engine.begin() as connection:
                await write_checkpoint(connection, store, key)
            for incremental in (False, False, True):
                if incremental:
                    await fill(dsn, 10_000, workspaces)
                    await seal_all(engine, key, wait_for_lock=True, seal_format=seal_format)
                async with engine.connect() as connection:
                    connection = await connection.execution_options(
                        isolation_level="REPEATABLE READ"
                    )
                    async with connection.begin():
                        report, (client_cpu, server_cpu) = await timed_verify(
                            connection, key, store, name, incremental
                        )
                        cpu = client_cpu + server_cpu
                kind = "incremental" if incremental else "full"
                problems = [str(f) for f in report.findings if f.severity != "WARNING"]
                print(
                    f"{kind} verify: {report.events} events, {report.seals} seals in "
                    f"{report.seconds:.2f} s = {report.events_per_second:,.0f} events/s wall; "
                    f"CPU {cpu:.2f} s (client {client_cpu:.2f} + backend {server_cpu:.2f}) = "
                    f"{report.events / cpu:,.0f} events "
                    f"per CPU-second; problems: {problems or 'none'}"
                )
        await lag_under_load(url, key, seconds=20.0, writers=20)
        figures = await sizes(dsn)
        print(
            "bytes per event (row, pg_column_size): before {before_row_bytes:.0f}, after "
            "{after_row_bytes:.0f}; with indexes (pg_total_relation_size / events): before "
            "{before_total_bytes:.0f}, after {after_total_bytes:.0f}, plus seals "
            "{seal_bytes:.0f}; a 150-id calendar week's ids: JSON strings {week_json_bytes:.0f}"
            ", uuid[] {week_uuid_bytes:.0f}".format(**figures)
        )
    finally:
        await engine.dispose()
        if not keep:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=300_000)
    parser.add_argument("--workspaces", type=int, default=20)
    parser.add_argument("--admin-dsn", default=ADMIN_DSN)
    parser.add_argument("--keep", action="store_true", help="keep the database")
    parser.add_argument("--seal-format", type=int, choices=SEAL_FORMATS, default=CURRENT_FORMAT)
    options = parser.parse_args()
    asyncio.run(
        main(
            options.events, options.workspaces, options.admin_dsn, options.keep, options.seal_format
        )
    )
