from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.core.phone_regions import region_code
from carevault.core.time_zones import zone
from carevault.crypto import current_cipher
from carevault.workspaces.keys import load_workspace_keys, provision
from carevault.workspaces.models import Workspace
from carevault.workspaces.phones import DEFAULT_PHONE_REGION


async def get_by_name(db: AsyncSession, name: str) -> Workspace | None:
    return (await db.execute(select(Workspace).where(Workspace.name == name))).scalar_one_or_none()


async def get_or_create(
    db: AsyncSession,
    name: str,
    time_zone: str = "UTC",
    phone_region: str = DEFAULT_PHONE_REGION,
) -> tuple[Workspace, bool]:
    existing = await get_by_name(db, name)
    if existing is not None:
        return existing, False
    return await create(db, name, time_zone, phone_region), True


async def create(
    db: AsyncSession, name: str, time_zone: str = "UTC", phone_region: str = DEFAULT_PHONE_REGION
) -> Workspace:
    """A new practice, with its data keys created in the same transaction."""
    zone(time_zone)  # refuses an unknown zone
    workspace = Workspace(name=name, time_zone=time_zone, phone_region=region_code(phone_region))
    db.add(workspace)
    await db.flush()
    await provision(db, current_cipher().ring, [workspace.id])
    await load_workspace_keys(db, workspace.id)
    return workspace


async def get_by_id(db: AsyncSession, workspace_id: object) -> Workspace | None:
    """The practice itself (its name and state; no PHI)."""
    return await db.get(Workspace, workspace_id)
