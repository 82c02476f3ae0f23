"""A committed world for the feed: its own migrated database, an engine on it, a practice."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from carevault.db.engine import create_engine
from tests.support import factories
from tests.support.db import NewDatabase, RingHolder


@pytest.fixture
async def feed_engine(new_database: NewDatabase) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(await new_database(), pool_size=5)
    try:
        yield engine
    finally:
        await engine.dispose()


@pytest.fixture
async def practice(feed_engine: AsyncEngine, ring_holder: RingHolder) -> uuid.UUID:
    """A committed practice (its data keys made under `ring_holder`)."""
    async with AsyncSession(feed_engine, expire_on_commit=False) as db:
        space = await factories.workspace(db)
        await db.commit()
    return space.id
