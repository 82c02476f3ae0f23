"""Bounded clean-up on the request path: expired rows go a batch at a time."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, delete, select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute


async def delete_batch(
    db: AsyncSession,
    key: tuple[InstrumentedAttribute[Any], ...],
    condition: ColumnElement[bool],
    limit: int,
) -> None:
    """Delete at most `limit` rows matching `condition`, chosen by their primary `key`
    (PostgreSQL has no DELETE … LIMIT), so a request never does a long delete."""
    chosen = select(*key).where(condition).limit(limit)
    matched = key[0].in_(chosen.scalar_subquery()) if len(key) == 1 else tuple_(*key).in_(chosen)
    await db.execute(delete(key[0].class_).where(matched))
