"""CAREVAULT_DATABASE_POOLER=transaction on a plain PostgreSQL (PgBouncer itself: the e2e
test tests/e2e/test_pgbouncer.py): the deadlines ride on every BEGIN and never on the
session, statements meant to run alone run in a transaction, no statement is prepared under
a name, and the API's engine opens no direct pool."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.db import direct
from carevault.db.alone import alone
from carevault.db.deadlines import Deadlines
from carevault.db.engine import close_api_engine, create_engine, open_api_engine
from carevault.db.pooler import Pooler
from tests.support.db import NewDatabase


async def test_deadlines_hold_per_transaction_and_leave_the_session_alone(
    new_database: NewDatabase,
) -> None:
    url = await new_database()
    engine = create_engine(
        url, pool_size=1, deadlines=Deadlines(request=4.0), pooler=Pooler.TRANSACTION
    )
    try:
        async with engine.connect() as connection:
            raw = await connection.get_raw_connection()
            driver = raw.driver_connection
            assert driver is not None
            in_transaction = await connection.scalar(text("SHOW statement_timeout"))
            idle = await connection.scalar(text("SHOW idle_in_transaction_session_timeout"))
            await connection.commit()
            # Outside any transaction, on the same server session: the server's defaults.
            session_value = await driver.fetchval("SHOW statement_timeout")
            prepared = await driver.fetchval("SELECT count(*) FROM pg_prepared_statements")
    finally:
        await engine.dispose()
    assert (in_transaction, idle) == ("2s", "4s")
    assert session_value == "0"
    assert prepared == 0


async def test_statements_meant_to_run_alone_run_in_a_transaction(
    new_database: NewDatabase,
) -> None:
    url = await new_database()
    engine = create_engine(
        url, pool_size=1, deadlines=Deadlines(request=4.0), pooler=Pooler.TRANSACTION
    )
    try:
        async with AsyncSession(engine) as db:
            async with alone(db) as (connection, sent_alone):
                timeout = await connection.scalar(text("SHOW statement_timeout"))
            await db.commit()
    finally:
        await engine.dispose()
    assert sent_alone is False
    assert timeout == "2s"


async def test_the_api_engine_opens_no_direct_pool_behind_a_pooler(
    new_database: NewDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = await new_database()
    monkeypatch.setenv("CAREVAULT_DATABASE_POOLER", "transaction")
    engine = await open_api_engine(url, Deadlines(request=4.0))
    try:
        assert direct.pool_of(engine) is None
    finally:
        await close_api_engine(engine)
    monkeypatch.delenv("CAREVAULT_DATABASE_POOLER")
    engine = await open_api_engine(url, Deadlines(request=4.0))
    try:
        assert direct.pool_of(engine) is not None
    finally:
        await close_api_engine(engine)
