"""What an app sends to its database, on both of its paths: the engine (SQLAlchemy) and the
direct pool of the hot statements (carevault.db.direct)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
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
