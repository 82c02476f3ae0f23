"""A practice's own calendar: "today" and "the future" are decided in its time zone.

A clinician in Auckland records today's session while it is still yesterday in UTC; one in
Honolulu must not record tomorrow's. Each workspace names its IANA zone (`time_zone`, set by
owners; new practices get CAREVAULT_DEFAULT_TIME_ZONE), and every date that may not lie in
the future is checked against today's date there.
"""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.core.time_zones import zone
from carevault.workspaces.models import Workspace


def today_in(name: str, now: datetime | None = None) -> date:
    return (now or datetime.now(UTC)).astimezone(zone(name)).date()


async def practice_time_zone(db: AsyncSession, workspace_id: uuid.UUID) -> str:
    found = await db.scalar(select(Workspace.time_zone).where(Workspace.id == workspace_id))
    return found or "UTC"


async def practice_today(db: AsyncSession, workspace_id: uuid.UUID) -> date:
    return today_in(await practice_time_zone(db, workspace_id))


async def after_practice_today(
    db: AsyncSession, workspace_id: uuid.UUID, value: date | None
) -> date | None:
    """The practice's today when `value` lies after it (so the caller refuses the value and
    can say which day it counted as today); None when `value` is fine."""
    if value is None:
        return None
    today = await practice_today(db, workspace_id)
    return today if value > today else None
