"""Key-lifecycle tests: a workspace of clients to re-encrypt, what the stored values' headers
say, and the values as a freshly started process would read them."""

from __future__ import annotations

import uuid
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from carevault.clients.models import Client
from carevault.crypto import KeyRing, LocalFileProvider, current_cipher
from carevault.lifecycle import reencrypt as job
from carevault.workspaces import service as workspace_service
from carevault.workspaces.keys import load_workspace_keys
from tests.support.db import RingHolder

CLIENTS = 120


async def seed(engine: AsyncEngine, count: int = CLIENTS) -> tuple[uuid.UUID, dict[uuid.UUID, str]]:
    """A new workspace with `count` clients; its id and each client's last name."""
    names: dict[uuid.UUID, str] = {}
    async with AsyncSession(engine, expire_on_commit=False) as db, db.begin():
        space = await workspace_service.create(db, f"Practice {uuid.uuid4().hex[:8]}")
        for index in range(count):
            client = Client(
                workspace_id=space.id,
                first_name=f"First{index}",
                last_name=f"Last{index}",
                medical_history=f"History {index}",
            )
            db.add(client)
            await db.flush()
            names[client.id] = f"Last{index}"
    return space.id, names


async def headers(engine: AsyncEngine) -> dict[tuple[int, int], int]:
    """How many stored values carry each (format byte, key version)."""
    async with AsyncSession(engine) as db:
        counts = await job.count_values(db)
    totals: dict[tuple[int, int], int] = {}
    for found in counts:
        key = (found.format_byte, found.version)
        totals[key] = totals.get(key, 0) + found.count
    return totals


async def read_last_names(engine: AsyncEngine, workspace_id: uuid.UUID) -> dict[uuid.UUID, str]:
    """As a request of a process that has just started would read them."""
    current_cipher().data_keys.forget(workspace_id.bytes)
    async with AsyncSession(engine) as db:
        await load_workspace_keys(db, workspace_id)
        rows = await db.execute(
            select(Client.id, Client.last_name).where(Client.workspace_id == workspace_id)
        )
        return {client_id: last_name for client_id, last_name in rows}


def rotate_now(holder: RingHolder, ring_file: Path) -> KeyRing:
    """A rotation whose new version is active at once (no process serves from this ring)."""
    rotated = holder.ring.rotated()
    LocalFileProvider(ring_file).store(rotated)
    holder.ring = rotated
    return rotated
