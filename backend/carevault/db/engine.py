"""Async engine and session factory."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from carevault.db import deadlines as deadlines_module
from carevault.db import direct, fastpath
from carevault.db.deadlines import Deadlines
from carevault.db.direct import DirectPool
from carevault.db.pooler import Pooler, configured_pooler
from carevault.db.pooler import connect_args as pooler_connect_args
from carevault.db.routing import RoutingSession

# Connections per worker in the engine's pool (and as many again in its direct pool, see
# carevault.db.direct).
POOL_SIZE = 10


def create_engine(
    url: str,
    *,
    pool_size: int = POOL_SIZE,
    deadlines: Deadlines | None = None,
    pooler: Pooler | None = None,
    fast_path: bool | None = None,
    **options: Any,
) -> AsyncEngine:
    """An engine that never logs parameters: they carry PHI and, with pgcrypto, keys.

    The API's engine passes `deadlines` (see carevault.db.deadlines): every wait on the
    database is then bounded. Commands such as `db upgrade` or an import run without them.
    `pooler` (default: CAREVAULT_DATABASE_POOLER) makes it safe behind a transaction pooler
    (carevault.db.pooler). `fast_path` (default: CAREVAULT_DB_FAST_PATH) lets its statements
    take the fast path (carevault.db.fastpath). Other `options` go to SQLAlchemy
    (`poolclass`, …).
    """
    pooler = configured_pooler() if pooler is None else pooler
    if deadlines is not None:
        options["pool_timeout"] = deadlines.pool
        connect = deadlines.connect_args(pooler)
    else:
        connect = pooler_connect_args(pooler)
    options["connect_args"] = {**connect, **options.get("connect_args", {})}
    if "poolclass" not in options:
        options["pool_size"] = pool_size
    engine = create_async_engine(url, hide_parameters=True, **options)
    fastpath.register(
        engine.sync_engine, fastpath.configured_fast_path() if fast_path is None else fast_path
    )
    event.listen(engine.sync_engine, "checkout", _refuse_closed_connection)
    if deadlines is not None:
        deadlines_module.install(engine, deadlines)
    return engine


async def open_api_engine(
    url: str, deadlines: Deadlines, *, fast_path: bool | None = None
) -> AsyncEngine:
    """The API's engine: every wait bounded by `deadlines`, with the direct pool of the hot
    statements attached (carevault.db.direct) unless the fast path is off (`fast_path`,
    default CAREVAULT_DB_FAST_PATH). Neither connects until it is used."""
    engine = create_engine(url, deadlines=deadlines, fast_path=fast_path)
    if configured_pooler() is Pooler.TRANSACTION:
        # Its statements run alone, outside a transaction, where no SET LOCAL can give them
        # their deadlines: behind a transaction pooler they go through the engine instead.
        return engine
    if not fastpath.enabled(engine.sync_engine):
        return engine  # every statement through SQLAlchemy's public API
    try:
        direct.attach(engine, await DirectPool.open(engine, size=POOL_SIZE, deadlines=deadlines))
    except BaseException:
        await engine.dispose()
        raise
    return engine


async def close_api_engine(engine: AsyncEngine) -> None:
    """Close what `open_api_engine` opened: the direct pool, then the engine's own."""
    pool = direct.detach(engine)
    try:
        if pool is not None:
            await pool.close()
    finally:
        await engine.dispose()


def session_factory(
    engine: AsyncEngine, *, routes_reads: bool = False
) -> async_sessionmaker[AsyncSession]:
    """`routes_reads`: sessions that can send reads to a replica once a route allows it
    (carevault.db.replica); bound to `engine`, the primary, otherwise."""
    if routes_reads:
        return async_sessionmaker(engine, expire_on_commit=False, sync_session_class=RoutingSession)
    return async_sessionmaker(engine, expire_on_commit=False)


def _refuse_closed_connection(dbapi_connection: Any, *_: Any) -> None:
    """A pooled connection the server has closed (restart, idle timeout, terminate) is
    replaced before use. asyncpg learns of the close when the socket does, so this costs
    no round trip, where `pool_pre_ping` sent one on every checkout: a sixth of a note
    read's. A connection cut silently (no FIN) fails its first statement instead, which
    the request's deadlines bound and the pool then discards (see db/deadlines.py)."""
    if dbapi_connection.driver_connection.is_closed():
        raise DisconnectionError("the database closed this pooled connection")
