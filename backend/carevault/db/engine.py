"""Async engine and session factory."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)


def create_engine(url: str, *, pool_size: int = 10) -> AsyncEngine:
    """An engine that never logs parameters: they carry PHI and, with pgcrypto, keys."""
    return create_async_engine(
        url,
        pool_size=pool_size,
        pool_pre_ping=True,
        hide_parameters=True,
    )


def session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)
