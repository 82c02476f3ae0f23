"""Async engine and session factory."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from carevault.db import deadlines as deadlines_module
from carevault.db.deadlines import Deadlines


def create_engine(
    url: str, *, pool_size: int = 10, deadlines: Deadlines | None = None
) -> AsyncEngine:
    """An engine that never logs parameters: they carry PHI and, with pgcrypto, keys.

    The API's engine passes `deadlines` (see carevault.db.deadlines): every wait on the
    database is then bounded. Commands such as `db upgrade` or an import run without them.
    """
    options: dict[str, Any] = {}
    if deadlines is not None:
        options = {"pool_timeout": deadlines.pool, "connect_args": deadlines.connect_args()}
    engine = create_async_engine(
        url,
        pool_size=pool_size,
        pool_pre_ping=True,
        hide_parameters=True,
        **options,
    )
    if deadlines is not None:
        deadlines_module.install(engine, deadlines)
    return engine


def session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)
