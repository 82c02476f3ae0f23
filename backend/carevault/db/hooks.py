"""Work a request schedules for the end of its transaction, just before the commit."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from sqlalchemy.ext.asyncio import AsyncSession

_KEY = "carevault.before_commit"


def before_commit(db: AsyncSession, action: Callable[[], Awaitable[None]]) -> None:
    db.info.setdefault(_KEY, []).append(action)


async def run_before_commit(db: AsyncSession) -> None:
    """Run (and forget) what was scheduled; the caller commits afterwards."""
    while db.info.get(_KEY):
        await db.info[_KEY].pop(0)()
