"""The fast path's contract (carevault.db.fastpath) at its boundary: each assumption it makes
about SQLAlchemy's and asyncpg's internals, checked against the installed versions and a
real PostgreSQL. A failure names the assumption; docs/explanation/architecture.md says what to
do on an upgrade that breaks one. And a broken assumption turns the fast path off by itself, logged
once, so requests go on through SQLAlchemy's public API."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest
import sqlalchemy
from sqlalchemy import Integer, bindparam, cast, literal, select, text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, create_async_engine
from sqlalchemy.types import TypeDecorator

from carevault.db import direct, fastpath
from carevault.db.alone import alone, has_work_to_commit, holds_connection
from carevault.db.deadlines import Deadlines, connection_broken
from carevault.db.engine import close_api_engine, create_engine, open_api_engine
from carevault.db.pooler import connection_class

# What every "broken" message ends with.
_WHAT_TO_DO = (
    "set CAREVAULT_DB_FAST_PATH=false to run without it, and see docs/explanation/architecture.md, "
    '"The fast path and its fence", on upgrading SQLAlchemy or asyncpg'
)


def broken(assumption: str, found: object) -> str:
    return (
        f"assumption {assumption} ({fastpath.ASSUMPTIONS[assumption]}) broken with SQLAlchemy "
        f"{sqlalchemy.__version__} and asyncpg {asyncpg.__version__}: {found}; {_WHAT_TO_DO}"
    )


@pytest.fixture
async def fresh_engine(shared_database_url: str) -> AsyncIterator[AsyncEngine]:
    """An engine of its own, with the fast path on."""
    engine = create_engine(shared_database_url, pool_size=1, fast_path=True)
    yield engine
    await engine.dispose()


@pytest.fixture
def plain_dsn(shared_database_url: str) -> str:
    """The database's URL as asyncpg itself takes it."""
    return make_url(shared_database_url).set(drivername="postgresql").render_as_string(False)


# --- the check that runs at the first engine -----------------------------------------------


@pytest.mark.parametrize(
    "assumption", [name for name in fastpath.ASSUMPTIONS if name not in {"F3", "G3"}]
)
def test_the_start_up_check_finds_the_assumption_holding(assumption: str) -> None:
    problems = fastpath.check(create_async_engine("postgresql+asyncpg://").dialect)
    assert assumption not in problems, broken(assumption, problems.get(assumption))


# --- each assumption's behaviour, on PostgreSQL --------------------------------------------


async def test_f1_the_session_transaction_lists_the_connections_it_checked_out(
    fresh_engine: AsyncEngine,
) -> None:
    async with AsyncSession(fresh_engine) as db:
        before = fastpath.session_connections(db)
        db.sync_session.begin()
        begun = fastpath.session_connections(db)
        connection = await db.connection()
        held = fastpath.session_connections(db)
        assert before == [], broken("F1", f"{before!r} before any transaction")
        assert begun == [], broken("F1", f"{begun!r} before any checkout")
        assert held == [connection.sync_connection], broken("F1", f"{held!r} after a checkout")
        assert holds_connection(db)
        await db.rollback()


async def test_f2_f3_statements_sent_alone_are_transactions_of_their_own(
    fresh_engine: AsyncEngine,
) -> None:
    async with fresh_engine.connect() as connection:
        raw = await connection.get_raw_connection()
        sync_connection = connection.sync_connection
        dbapi_connection: Any = raw.dbapi_connection
        assert sync_connection is not None
        driver = raw.driver_connection
        assert isinstance(driver, asyncpg.Connection), broken("F3", type(driver).__name__)
        with fastpath.statements_alone(dbapi_connection):
            first = await connection.scalar(text("SELECT txid_current()"))
            second = await connection.scalar(text("SELECT txid_current()"))
            in_transaction_alone = fastpath.server_in_transaction(sync_connection)
        third = await connection.scalar(text("SELECT txid_current()"))
        fourth = await connection.scalar(text("SELECT txid_current()"))
        in_transaction_after = fastpath.server_in_transaction(sync_connection)
        autocommit_after = dbapi_connection.autocommit
        await connection.rollback()
    assert first != second, broken("F2", "two statements sent alone shared a transaction")
    assert not in_transaction_alone, broken("F3", "in a transaction after a statement alone")
    assert third == fourth, broken("F2", "after the block, statements ran without BEGIN")
    assert in_transaction_after, broken("F3", "no transaction after BEGIN")
    assert autocommit_after is False, broken("F2", "autocommit stayed on after the block")


class _Doubled(TypeDecorator[int]):
    """A type with both processors, as the PHI types have."""

    impl = Integer
    cache_ok = True

    def process_bind_param(self, value: int | None, dialect: Any) -> int | None:
        return None if value is None else value * 2

    def process_result_value(self, value: int | None, dialect: Any) -> int | None:
        return None if value is None else value // 2


async def test_f4_f5_f6_a_compiled_statement_on_plain_asyncpg_answers_as_the_engine_does(
    fresh_engine: AsyncEngine, plain_dsn: str
) -> None:
    statement = select(
        bindparam("number", type_=_Doubled).label("number"),
        (literal(40, Integer) + bindparam("more", type_=Integer)).label("sum"),
        cast(bindparam("document", type_=JSONB), JSONB).label("document"),
    )
    values = {"number": 21, "more": 2, "document": {"notes": ["é", 1]}}
    dialect = fresh_engine.sync_engine.dialect
    compiled = fastpath.compile_for_asyncpg(statement, dialect)
    async with fresh_engine.connect() as connection:
        expected = (await connection.execute(statement, values)).one()
    plain = await asyncpg.connect(plain_dsn)
    try:
        await fastpath.install_json_codecs(plain, dialect)
        records = await plain.fetch(compiled.sql, *compiled.arguments(values))
    finally:
        await plain.close()
    (row,) = compiled.rows(records)
    assert "$1" in compiled.sql, broken("F4", compiled.sql)
    fields = getattr(row, "_fields", None)
    assert fields == tuple(expected._fields), broken("F5", fields)
    assert tuple(row) == tuple(expected), broken("F4", f"{tuple(row)!r} != {tuple(expected)!r}")
    assert row.document == values["document"], broken("F6", json.dumps(row.document))


async def test_g1_a_value_asyncpg_cannot_encode_raises_the_argument_error(
    plain_dsn: str,
) -> None:
    plain = await asyncpg.connect(plain_dsn)
    try:
        with pytest.raises(Exception) as raised:
            await plain.fetchval("SELECT $1::integer", "not a number")
        in_transaction = plain.is_in_transaction()
        still_usable = await plain.fetchval("SELECT 1")
    finally:
        await plain.close()
    assert isinstance(raised.value, fastpath.ARGUMENT_ERRORS), broken(
        "G1", type(raised.value).__name__
    )
    assert not connection_broken(raised.value), broken("G1", "taken for a broken connection")
    assert (in_transaction, still_usable) == (False, 1), broken("G1", "the connection changed")


def test_g2_a_locking_select_is_told_from_a_plain_one() -> None:
    plain = select(literal(1))
    assert not fastpath.locks_rows(plain), broken("G2", "a plain SELECT counts as locking")
    for locking in (plain.with_for_update(), plain.with_for_update(read=True)):
        assert fastpath.locks_rows(locking), broken("G2", "FOR UPDATE/SHARE not seen")


async def test_g3_begin_goes_through_execute_where_the_pooler_adds_its_settings(
    plain_dsn: str,
) -> None:
    pooled = await asyncpg.connect(
        plain_dsn, connection_class=connection_class((("statement_timeout", "1234ms"),))
    )
    try:
        async with pooled.transaction():
            inside = await pooled.fetchval("SHOW statement_timeout")
        outside = await pooled.fetchval("SHOW statement_timeout")
    finally:
        await pooled.close()
    assert inside == "1234ms", broken("G3", f"statement_timeout {inside} inside a transaction")
    assert outside != "1234ms", broken("G3", "the setting outlived its transaction")


# --- a broken assumption: the fast path turns itself off ----------------------------------


@pytest.fixture
def unchecked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fence as at a process's start: nothing checked, nothing found broken."""
    monkeypatch.setattr(fastpath, "_broken", {})
    monkeypatch.setattr(fastpath, "_checked", False)


async def test_an_assumption_broken_at_start_turns_the_fast_path_off_logged_once(
    unchecked: None,
    shared_database_url: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(fastpath, "_probe_adapter_autocommit", lambda: "no such property")
    caplog.set_level(logging.WARNING, logger=fastpath.__name__)
    engine = await open_api_engine(shared_database_url, Deadlines(request=4.0), fast_path=True)
    other = create_engine(shared_database_url, pool_size=1, fast_path=True)
    try:
        assert not fastpath.enabled(engine.sync_engine)
        assert not fastpath.enabled(other.sync_engine)
        assert direct.pool_of(engine) is None
        async with AsyncSession(engine) as db:
            async with alone(db) as (connection, sent_alone):
                await connection.execute(text("SELECT 1"))
            assert sent_alone is False  # in the session's transaction
            assert await has_work_to_commit(db)
            await db.commit()
    finally:
        await close_api_engine(engine)
        await other.dispose()
    warnings = [record for record in caplog.records if record.name == fastpath.__name__]
    assert len(warnings) == 1
    message = warnings[0].getMessage()
    assert "F2 adapter-autocommit" in message and "no such property" in message
    assert str(make_url(shared_database_url).database) not in message  # names, never data


async def test_an_assumption_that_breaks_at_run_time_turns_the_fast_path_off(
    unchecked: None,
    fresh_engine: AsyncEngine,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    def gone(_: object) -> list[Any]:
        raise AttributeError("_connections")

    monkeypatch.setattr(fastpath, "_transaction_connections", gone)
    caplog.set_level(logging.WARNING, logger=fastpath.__name__)
    assert fastpath.enabled(fresh_engine.sync_engine)
    async with AsyncSession(fresh_engine) as db:
        await db.execute(text("SELECT 1"))
        assert holds_connection(db)  # answered from the public API: a transaction began
        assert holds_connection(db)
        assert await has_work_to_commit(db)
        await db.commit()
    assert not fastpath.enabled(fresh_engine.sync_engine)
    assert set(fastpath.broken()) == {"F1"}
    assert len([r for r in caplog.records if r.name == fastpath.__name__]) == 1
