"""What an app sends to its database, on both of its paths: the engine (SQLAlchemy) and the
direct pool of the hot statements (carevault.db.direct)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from carevault.db import direct

# Called with the statement's SQL and a function giving the server process it goes to.
StatementHook = Callable[[str, Callable[[], int]], None]


@contextmanager
def watching_statements(engine: AsyncEngine, hook: StatementHook) -> Iterator[None]:
    """Call `hook` before each statement the app sends while the block runs."""

    def on_engine(connection: Any, _cursor: Any, statement: str, *_: Any) -> None:
        driver = connection.connection.driver_connection
        hook(statement, driver.get_server_pid)

    def on_direct(connection: Any, statement: str) -> None:
        hook(statement, connection.get_server_pid)

    pool = direct.pool_of(engine)
    event.listen(engine.sync_engine, "before_cursor_execute", on_engine)
    if pool is not None:
        pool.observers.append(on_direct)
    try:
        yield
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", on_engine)
        if pool is not None:
            pool.observers.remove(on_direct)


@asynccontextmanager
async def round_trips(engine: AsyncEngine) -> AsyncIterator[list[str]]:
    """What the app sends while the block runs, one entry per round trip (first words of
    each): its statements on either path (the engine, the direct pool), and the BEGIN,
    COMMIT and ROLLBACK SQLAlchemy's adapter sends through asyncpg directly (seen with
    asyncpg's query logger; the direct pool sends none: carevault.db.direct)."""
    sent: list[str] = []
    drivers: list[Any] = []

    def record(statement: str, _: object) -> None:
        sent.append(" ".join(statement.split())[:60])

    def record_simple_query(query: Any) -> None:
        sent.append(" ".join(query.query.split())[:60])

    def watch(dbapi_connection: Any, *_: Any) -> None:
        driver = dbapi_connection.driver_connection
        driver.add_query_logger(record_simple_query)
        drivers.append(driver)

    event.listen(engine.sync_engine, "checkout", watch)
    try:
        with watching_statements(engine, record):
            yield sent
            await asyncio.sleep(0)  # asyncpg calls its query loggers soon, not at once
    finally:
        event.remove(engine.sync_engine, "checkout", watch)
        for driver in drivers:
            driver.remove_query_logger(record_simple_query)
