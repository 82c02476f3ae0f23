"""What checking for a shred costs PostgreSQL (docs/explanation/performance-requests.md, issue 23).

- A one-row `UPDATE` of `clients` sent alone (as an autosave is), with the shred fence's
  trigger (migration 0017) on and off; the client list's own trigger is off throughout so
  that only the fence is compared.
- The API-token lookup as the app sends it (with the practice's `shredded_at`) and the same
  statement without the join.

Rounds are interleaved; the medians are printed. Makes and drops a database of its own:

    PYTHONPATH=backend python -m tools.shred_fence_bench [ADMIN_DSN]
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time
import uuid
from collections.abc import Awaitable, Callable

import asyncpg

from carevault.auth import service
from carevault.db.engine import create_engine
from carevault.db.migrate import upgrade_async

ROUNDS = 9


async def _per_call(call: Callable[[], Awaitable[object]], count: int) -> float:
    started = time.perf_counter()
    for _ in range(count):
        await call()
    return (time.perf_counter() - started) / count * 1e6


async def _measure(connection: asyncpg.Connection, with_join: str) -> None:
    workspace, client, user, token = (uuid.uuid4() for _ in range(4))
    digest = os.urandom(32)
    await connection.execute(
        "INSERT INTO workspaces (id, name, created_at, updated_at, time_zone, phone_region) "
        "VALUES ($1, 'bench', now(), now(), 'UTC', 'US')",
        workspace,
    )
    await connection.execute(
        "INSERT INTO clients (id, workspace_id, first_name, last_name, created_at, updated_at) "
        "VALUES ($1, $2, '\\x03'::bytea, '\\x03'::bytea, now(), now())",
        client,
        workspace,
    )
    await connection.execute(
        "INSERT INTO users (id, workspace_id, email, display_name, password_hash, role, "
        "must_change_password, created_at, updated_at) "
        "VALUES ($1, $2, 'bench@example.test', 'b', 'x', 'owner', false, now(), now())",
        user,
        workspace,
    )
    await connection.execute(
        "INSERT INTO api_tokens (id, workspace_id, user_id, name, token_hash, prefix, "
        "created_at, scopes) VALUES ($1, $2, $3, 'bench', $4, 'p', now(), ARRAY['clients:read'])",
        token,
        workspace,
        user,
        digest,
    )
    await connection.execute("ALTER TABLE clients DISABLE TRIGGER clients_list_changed_update")
    update = await connection.prepare("UPDATE clients SET notes = $2 WHERE id = $1")
    value = os.urandom(400)
    without_join = with_join.replace(
        ", workspaces.shredded_at AS workspace_shredded_at", ""
    ).replace(" JOIN workspaces ON workspaces.id = users.workspace_id", "")
    lookups = {
        "token lookup with the join": await connection.prepare(with_join),
        "token lookup without it": await connection.prepare(without_join),
    }
    results: dict[str, list[float]] = {}
    for _ in range(ROUNDS):
        for fenced in (True, False):
            state = "ENABLE" if fenced else "DISABLE"
            await connection.execute(
                f"ALTER TABLE clients {state} TRIGGER clients_refuse_shredded_update"
            )
            name = f"one-row UPDATE, fence {'on' if fenced else 'off'}"
            results.setdefault(name, []).append(
                await _per_call(lambda: update.fetch(client, value), 2000)
            )
        for name, lookup in lookups.items():
            results.setdefault(name, []).append(
                await _per_call(lambda lookup=lookup: lookup.fetch(digest), 3000)  # type: ignore[misc]
            )
    for name, values in results.items():
        print(f"{name:32s} {statistics.median(values):7.1f} µs (min {min(values):.1f})")


async def main(admin_dsn: str) -> None:
    name = f"cv_shred_bench_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(admin_dsn)
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        base = admin_dsn.rsplit("/", 1)[0]
        engine = create_engine(f"{base.replace('postgresql:', 'postgresql+asyncpg:')}/{name}")
        try:
            await upgrade_async(engine)
            with_join = str(service._TOKEN_ROW.compile(dialect=engine.sync_engine.dialect))
        finally:
            await engine.dispose()
        connection = await asyncpg.connect(f"{base}/{name}")
        try:
            # No WAL flush per statement: what is compared is the statements' own work.
            await connection.execute("SET synchronous_commit = off")
            await _measure(connection, with_join)
        finally:
            await connection.close()
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


if __name__ == "__main__":
    asyncio.run(
        main(sys.argv[1] if len(sys.argv) > 1 else "postgresql://postgres@127.0.0.1/postgres")
    )
