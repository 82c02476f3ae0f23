"""The hottest statements, sent with asyncpg directly on a pool of their own.

A statement that runs alone (carevault.db.alone) needs none of what SQLAlchemy's session,
pool and cursor adapter add around it, and on the note read and the autosave those layers
cost the server more CPU than the statement itself: measured in process, a checkout of the
engine's pool, the session's bookkeeping and the adapted execute came to about 0.45 ms
per statement, against 0.08 ms for the same SELECT on an asyncpg pool
(docs/explanation/performance-history.md, "Third step").

So an app's engine can carry a `DirectPool`: asyncpg connections opened with the engine's
own settings (its deadlines' timeouts, its type codecs). A statement is still written with
SQLAlchemy (its columns' types, the PHI backend's SQL) and compiled once per pool; sending
it only binds values, applies the types' bind and result processors, and maps the rows. The
statement runs alone: committed when it ends, its commit fence inside it when it writes
(see carevault.audit.service.AuditedRows).

Used only where it cannot change what the statement means: `pool_for(db)` answers None when
the session holds a transaction or changes a statement must see or join, and on engines
without a pool (commands, most tests), so callers fall back to the session. Compiling for
asyncpg reads SQLAlchemy's compiler internals, through carevault.db.fastpath; with the fast
path off (CAREVAULT_DB_FAST_PATH=false, or one of its assumptions broken) no pool is opened
and `pool_for` answers None.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

import asyncpg
from asyncpg.pool import PoolConnectionProxy
from sqlalchemy import inspect
from sqlalchemy.engine import Engine
from sqlalchemy.engine.interfaces import Dialect
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession
from sqlalchemy.orm import make_transient_to_detached

from carevault.db import fastpath
from carevault.db.alone import alone, has_pending_changes, holds_connection
from carevault.db.base import Base
from carevault.db.deadlines import Deadlines, check_deadline
from carevault.db.routing import READ_BIND, reads_only

T = TypeVar("T", bound=Base)


class DirectPool:
    """asyncpg connections beside an engine's pool, for statements that run alone."""

    def __init__(self, pool: asyncpg.Pool, dialect: Dialect):
        self._pool = pool
        self._dialect = dialect
        self._compiled: dict[int, fastpath.AsyncpgStatement] = {}
        # Called with the connection and the SQL of each statement before it is sent (tests
        # count round trips and stop the database mid-statement).
        self.observers: list[Callable[[PoolConnectionProxy[Any], str], None]] = []

    @classmethod
    async def open(
        cls, engine: AsyncEngine, *, size: int, deadlines: Deadlines | None
    ) -> DirectPool:
        url = engine.url.set(drivername="postgresql")
        dialect = engine.sync_engine.dialect

        async def codecs(connection: asyncpg.Connection) -> None:
            # The engine's own json and jsonb codecs: a value binds and reads the same on
            # either pool.
            await fastpath.install_json_codecs(connection, dialect)

        pool = await asyncpg.create_pool(
            url.render_as_string(hide_password=False),
            # Opened on demand: a floor to keep would be refilled (and logged, with a
            # traceback) while the database is down.
            min_size=0,
            max_size=size,
            init=codecs,
            # Statements here run alone: a connection comes back with no transaction open
            # and no session state set, so the default reset (a round trip per release) has
            # nothing to undo. One that failed mid-statement is closed instead (fetch).
            reset=_nothing_to_reset,
            **(deadlines.connect_args(direct=True) if deadlines is not None else {}),
        )
        return cls(pool, dialect)

    async def close(self) -> None:
        await self._pool.close()

    def _compile(self, statement: Any) -> fastpath.AsyncpgStatement:
        found = self._compiled.get(id(statement))
        if found is None:
            found = self._compiled[id(statement)] = fastpath.compile_for_asyncpg(
                statement, self._dialect
            )
        return found

    async def fetch(self, statement: Any, values: Mapping[str, Any]) -> list[Any]:
        """The rows of `statement` for `values`, as named tuples with the columns' types
        applied; the statement commits as it ends."""
        compiled = self._compile(statement)
        arguments = compiled.arguments(values)
        check_deadline()
        async with self._pool.acquire() as connection:
            try:
                for observe in self.observers:
                    observe(connection, compiled.sql)
                records = await connection.fetch(compiled.sql, *arguments)
            except BaseException:
                # Timed out, cancelled or failed: whatever the connection's state, it is not
                # handed out again.
                connection.terminate()
                raise
        return compiled.rows(records)


async def _nothing_to_reset(connection: asyncpg.Connection) -> None:
    if connection.is_in_transaction():  # never, by construction; closed if it ever were
        connection.terminate()


_POOLS: WeakKeyDictionary[Engine, DirectPool] = WeakKeyDictionary()


def attach(engine: AsyncEngine, pool: DirectPool) -> None:
    _POOLS[engine.sync_engine] = pool


def detach(engine: AsyncEngine) -> DirectPool | None:
    return _POOLS.pop(engine.sync_engine, None)


def pool_of(engine: AsyncEngine) -> DirectPool | None:
    return _POOLS.get(engine.sync_engine)


def pool_for(db: AsyncSession, statement: Any = None) -> DirectPool | None:
    """The direct pool of `db`'s engine, if a statement sent on it means what it would mean
    sent alone on `db`: `db` holds no transaction (whose changes it should see, or which it
    should join) and no changes waiting to be flushed. A read (`statement`) that `db` sends
    to a replica (carevault.db.replica) goes to the replica's pool: no transaction of the
    request's is there to see or join."""
    if statement is not None:
        replica = db.sync_session.info.get(READ_BIND)
        if replica is not None and reads_only(statement):
            if not fastpath.enabled(replica):
                return None
            return _POOLS.get(replica)  # None: through the session, to the replica still
    if holds_connection(db) or has_pending_changes(db):
        return None
    bind = db.get_bind()
    if not isinstance(bind, Engine) or not fastpath.enabled(bind):
        return None  # the fast path turned off since the pool was opened: the session
    return _POOLS.get(bind)


async def rows_alone(db: AsyncSession, statement: Any, values: Mapping[str, Any]) -> list[Any]:
    """The rows of a statement that may run alone: on the direct pool when `pool_for(db)`
    allows it, else through `db` (carevault.db.alone: a transaction of its own, or the one
    `db` holds). Rows have the same named columns either way."""
    pool = pool_for(db, statement)
    if pool is not None:
        return await pool.fetch(statement, values)
    async with alone(db, statement):
        return list((await db.execute(statement, values)).all())


# --- ORM instances from a direct statement ------------------------------------------------


def columns_of(model: type[Any], prefix: str) -> list[Any]:
    """Every mapped column of `model`, labelled `prefix` + attribute name, for a statement
    whose rows `entity` turns back into instances."""
    return [
        attribute.columns[0].label(prefix + attribute.key)
        for attribute in inspect(model).column_attrs
    ]


@cache
def _labels(model: type[Any], prefix: str) -> tuple[tuple[str, str], ...]:
    return tuple(
        (attribute.key, prefix + attribute.key) for attribute in inspect(model).column_attrs
    )


def entity(db: AsyncSession, row: Any, model: type[T], prefix: str) -> T:
    """The `model` instance in `row` (see `columns_of`), added to `db` as if `db` had loaded
    it: persistent and unchanged, so a change made to it later is flushed as an UPDATE."""
    instance = model(**{key: getattr(row, label) for key, label in _labels(model, prefix)})
    make_transient_to_detached(instance)
    db.add(instance)
    return instance
