"""Migration 0007 on a trail written before it: ids become uuid[], and the old events are
sealed in bounded rounds."""

from __future__ import annotations

import uuid

import asyncpg
from sqlalchemy import text

from carevault.audit.sealing import seal_round
from carevault.audit.verify import verify
from carevault.crypto.keyring import new_key_material
from carevault.db.engine import create_engine
from carevault.db.migrate import upgrade_async
from tests.support.db import PgServer, admin_execute


async def test_0007_converts_and_seals_a_trail_written_before_it(pg_server: PgServer) -> None:
    name = f"cv_audit_0007_{uuid.uuid4().hex[:8]}"
    await admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    await admin_execute(pg_server, f'CREATE DATABASE "{name}"')
    engine = create_engine(pg_server.url(name), pool_size=2)
    try:
        await upgrade_async(engine, "0004")
        connection = await asyncpg.connect(pg_server.dsn(name))
        try:
            await connection.execute(
                "INSERT INTO audit_events (action, resource_ids, prev_hash, hash) "
                "SELECT 'client.read', jsonb_build_array(gen_random_uuid()::text, 'not-an-id'), "
                "'\\x00', '\\x01' FROM generate_series(1, 25000)"
            )
        finally:
            await connection.close()
        await upgrade_async(engine)
        key = new_key_material()
        rounds = []
        async with engine.connect() as check:
            converted = await check.scalar(
                text("SELECT count(*) FROM audit_events WHERE cardinality(resource_ids) = 1")
            )
            groups = await check.scalar(text("SELECT count(DISTINCT txid) FROM audit_events"))
        assert converted == 25000 and groups == 3  # ids 1-9999, 10000-19999, 20000-25000
        for _ in range(10):  # bounded
            async with engine.begin() as sealing:
                result = await seal_round(sealing, key, limit=12000)
            rounds.append(result.events)
            if not result.more:
                break
        assert sum(rounds) == 25000 and max(rounds) <= 12000
        async with engine.connect() as reading, reading.begin():
            report = await verify(reading, key, checkpoint=None)
        assert report.ok and report.events == 25000
    finally:
        await engine.dispose()
        await admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
