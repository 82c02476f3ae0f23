"""The bulk import benchmark: `carevault import clients FILE` end to end at 100,000 clients,
then what the rows cost on disk, compared with a PII vault's published figures."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import psutil

from tools.loadtest.activity import ActivitySampler
from tools.loadtest.database import Database, table_sizes
from tools.loadtest.fakedata import write_clients_csv
from tools.loadtest.fieldcost import FieldCost
from tools.loadtest.processes import run_carevault

WORKSPACE = "Import Benchmark Practice"
OWNER_EMAIL = "owner@import.loadtest.invalid"

# docs.databunker.org "Performance & benchmarks" (see ../shared/reference/): UserCreateBulk,
# 120-field profiles, 4,000 records per request, m6i.2xlarge (8 vCPU), PostgreSQL co-located.
DATABUNKER_RECORDS_PER_SECOND = 1700
DATABUNKER_BYTES_PER_RECORD = 5.4 * 1024
DATABUNKER_VCPUS = 8
DATABUNKER_FIELDS = 120
DATABUNKER = {
    "records_per_second": DATABUNKER_RECORDS_PER_SECOND,
    "bytes_per_record": DATABUNKER_BYTES_PER_RECORD,
    "vcpus": DATABUNKER_VCPUS,
    "fields_per_record": DATABUNKER_FIELDS,
    "host": "AWS m6i.2xlarge, 8 vCPU Ice Lake, 32 GB, PostgreSQL on the same host",
}


def _in_process_breakdown(csv_path: Path) -> dict[str, float]:
    """Parse and validate the same file in this process, timed, to split the importer's
    wall time into reading+validation and the rest (encryption, inserts, commit)."""
    from carevault.clients import importing

    text = csv_path.read_text(encoding="utf-8-sig")
    started = time.perf_counter()
    records = importing.validate(importing.read_rows(text, "csv"), phone_region="US")
    return {"parse_and_validate_seconds": time.perf_counter() - started, "records": len(records)}


async def run_import_benchmark(
    *,
    env: Mapping[str, str],
    db: Database,
    count: int,
    work_dir: Path,
    seed: int,
    password: str,
    field_cost: FieldCost,
    nproc: int,
    preload_models: bool = False,
) -> dict[str, Any]:
    await db.recreate()
    env = {**env, "CAREVAULT_DATABASE_URL": db.sqlalchemy_url}
    run_carevault(["db", "upgrade"], env)
    run_carevault(
        ["users", "create", "--workspace", WORKSPACE, "--email", OWNER_EMAIL, "--role", "owner"],
        env,
        stdin=password + "\n",
    )
    csv_path = work_dir / f"import-{count}-clients.csv"
    started = time.perf_counter()
    stats = write_clients_csv(csv_path, count, seed)
    generate_seconds = time.perf_counter() - started

    activity = ActivitySampler(db.dsn)
    await activity.start()
    busy_before = psutil.cpu_times()
    try:
        completed = await asyncio.to_thread(
            run_carevault,
            ["import", "clients", str(csv_path), "--workspace", WORKSPACE],
            env,
            sample_memory=True,
            timeout=1800,
            preload_models=preload_models,
        )
    finally:
        await activity.stop()
    busy_after = psutil.cpu_times()
    total_cpu = sum(busy_after) - sum(busy_before)
    idle_cpu = busy_after.idle - busy_before.idle
    machine_busy = (total_cpu - idle_cpu) / total_cpu * nproc if total_cpu > 0 else 0.0
    importer_cpu = completed.cpu_seconds
    postgres_cpu = activity.backend_cpu_seconds()
    breakdown = _in_process_breakdown(csv_path)

    connection = await db.connect()
    try:
        await connection.execute("VACUUM (ANALYZE) clients")
        audit_bytes = await connection.fetchval(
            "SELECT pg_total_relation_size('audit_events'::regclass)"
        )
        stored_field_bytes = await connection.fetchval(
            """
            SELECT coalesce(sum(
                coalesce(octet_length(first_name), 0) + coalesce(octet_length(last_name), 0)
              + coalesce(octet_length(email), 0) + coalesce(octet_length(phone), 0)
              + coalesce(octet_length(date_of_birth), 0) + coalesce(octet_length(address), 0)
              + coalesce(octet_length(emergency_contact_name), 0)
              + coalesce(octet_length(emergency_contact_phone), 0)
              + coalesce(octet_length(medical_history), 0) + coalesce(octet_length(notes), 0)
            ), 0) FROM clients
            """
        )
    finally:
        await connection.close()
    sizes = await table_sizes(db, "clients")
    rows = sizes["rows"]
    per_second = rows / completed.seconds
    encrypted_fields = stats.fields_per_row * rows
    encryption_seconds = encrypted_fields * field_cost.encrypt_seconds
    parse_seconds = breakdown["parse_and_validate_seconds"]
    bytes_per_record = sizes["total_bytes"] / rows if rows else 0.0
    return {
        "records": rows,
        "file": {
            "format": "csv",
            "bytes": stats.file_bytes,
            "plaintext_bytes_per_record": round(stats.plaintext_bytes_per_row, 1),
            "non_empty_fields_per_record": round(stats.fields_per_row, 2),
            "generate_seconds": round(generate_seconds, 2),
        },
        "command": f"carevault import clients {csv_path.name} --workspace '{WORKSPACE}'",
        "seconds": round(completed.seconds, 2),
        "records_per_second": round(per_second, 1),
        "records_per_second_per_core": round(per_second / nproc, 1),
        "importer_peak_rss_bytes": completed.peak_rss_bytes,
        "cpu": {
            "importer_cpu_seconds": round(importer_cpu, 2),
            "postgres_cpu_seconds": round(postgres_cpu, 2),
            "machine_busy_cores": round(machine_busy, 2),
            "other_processes_cores": round(
                max(0.0, machine_busy - (importer_cpu + postgres_cpu) / completed.seconds), 2
            ),
            "database_activity": activity.summary(),
        },
        "breakdown_estimate": {
            "parse_and_validate_seconds": round(parse_seconds, 2),
            "field_encryption_seconds": round(encryption_seconds, 2),
            "rest_seconds": round(completed.seconds - parse_seconds - encryption_seconds, 2),
            "note": "parse+validate timed on the same file in the tool's process; encryption "
            "= fields x per-field encrypt cost; rest = process start, blind indexes, "
            "asyncpg's binary COPY of 1,000-row batches, the audit event, commit",
        },
        "sizes": sizes,
        "bytes_per_record": round(bytes_per_record, 1),
        "stored_encrypted_field_bytes_per_record": round(int(stored_field_bytes) / rows, 1)
        if rows
        else 0.0,
        "audit_events_bytes": int(audit_bytes),
        "databunker": DATABUNKER,
        "comparison": {
            "records_per_second_ratio": round(per_second / DATABUNKER_RECORDS_PER_SECOND, 2),
            "per_core_ratio": round(
                (per_second / nproc) / (DATABUNKER_RECORDS_PER_SECOND / DATABUNKER_VCPUS), 2
            ),
            "bytes_per_record_ratio": round(bytes_per_record / DATABUNKER_BYTES_PER_RECORD, 3),
            "bytes_per_field_carevault": round(bytes_per_record / 10, 1),
            "bytes_per_field_databunker": round(DATABUNKER_BYTES_PER_RECORD / DATABUNKER_FIELDS, 1),
        },
    }
