"""Practice data keys in the database: provisioning, loading into the process, shredding.

The encryption core (carevault.crypto.datakeys) wraps, unwraps and caches data keys; this
module is where they are stored. See docs/encryption.md, "Practice data keys".
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

from sqlalchemy import BigInteger, column, delete, exists, literal, select, update
from sqlalchemy.dialects.postgresql import ARRAY, insert
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.pool import NullPool
from sqlalchemy.sql import func

from carevault.crypto import DecryptionError, KeyRing, current_cipher, new_wrapped_data_key
from carevault.crypto.datakeys import (
    DataKeyLoader,
    current_practice,
    unwrap_index_key,
    wrap_index_key,
)
from carevault.crypto.keyring import new_key_material
from carevault.db.engine import create_engine
from carevault.workspaces.models import BLIND_INDEX_KEY_VERSION, Workspace, WorkspaceKey


class WorkspaceShredded(Exception):
    """The practice's data keys were destroyed; none of its PHI can be read or written."""


# What PostgreSQL answers a write of a shredded practice's PHI with (migration 0018).
SHREDDED_SQLSTATE = "SHRED"


def refused_as_shredded(error: BaseException) -> bool:
    """Whether `error` is, or wraps, PostgreSQL's refusal of a write to a shredded practice
    (SQLAlchemy wraps the driver's error; the direct pool raises asyncpg's own)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if getattr(current, "sqlstate", None) == SHREDDED_SQLSTATE:
            return True
        current = getattr(current, "orig", None) or current.__cause__
    return False


def sealing_versions(ring: KeyRing) -> list[int]:
    """Versions a practice needs a data key for: the active one and any pending one."""
    return sorted({ring.active_version, ring.encryption_version()} | _pending(ring))


def _pending(ring: KeyRing) -> set[int]:
    return {ring.pending_version} if ring.pending_version is not None else set()


async def provision(
    db: AsyncSession, ring: KeyRing, workspace_ids: Iterable[uuid.UUID] | None = None
) -> int:
    """Create the missing data keys of every practice (or of `workspace_ids`) for the versions
    new values may be sealed under. Idempotent and safe to run from several processes at
    once: a key that another process created first is kept. Returns how many were added."""
    versions = sealing_versions(ring)
    version = (
        func.unnest(literal(versions, ARRAY(BigInteger)))
        .table_valued(column("v", BigInteger))
        .render_derived()
    )
    missing = (
        select(Workspace.id, version.c.v)
        .join(version, Workspace.shredded_at.is_(None))
        .where(
            ~exists().where(
                WorkspaceKey.workspace_id == Workspace.id,
                WorkspaceKey.key_version == version.c.v,
            )
        )
    )
    no_index_key = select(Workspace.id).where(
        Workspace.shredded_at.is_(None),
        ~exists().where(
            WorkspaceKey.workspace_id == Workspace.id,
            WorkspaceKey.key_version == BLIND_INDEX_KEY_VERSION,
        ),
    )
    if workspace_ids is not None:
        wanted = list(workspace_ids)
        missing = missing.where(Workspace.id.in_(wanted))
        no_index_key = no_index_key.where(Workspace.id.in_(wanted))
    rows = [
        {
            "workspace_id": workspace_id,
            "key_version": key_version,
            "wrapped_under": key_version,
            "wrapped_key": new_wrapped_data_key(ring, workspace_id.bytes, key_version),
        }
        for workspace_id, key_version in (await db.execute(missing)).all()
    ]
    under = ring.encryption_version()
    rows += [
        {
            "workspace_id": workspace_id,
            "key_version": BLIND_INDEX_KEY_VERSION,
            "wrapped_under": under,
            "wrapped_key": wrap_index_key(ring, workspace_id.bytes, under, new_key_material()),
        }
        for workspace_id in (await db.scalars(no_index_key)).all()
    ]
    if not rows:
        return 0
    result = await db.execute(
        insert(WorkspaceKey).on_conflict_do_nothing().returning(WorkspaceKey.key_version), rows
    )
    return len(result.all())


async def load_workspace_keys(
    db: AsyncSession, workspace_id: uuid.UUID, *, shredded: bool = False
) -> None:
    """Make the practice's data keys available to this process before it touches PHI: one
    SELECT when they are not cached (or the cache is older than the refresh interval),
    nothing otherwise.

    `shredded`: the caller has just read the practice's `shredded_at` (a request's credential
    lookup does, in the same round trip) and found it set. This process's copy of the keys
    is dropped and WorkspaceShredded raised, whatever the cache says."""
    cipher = current_cipher()
    workspace = workspace_id.bytes
    if shredded:
        cipher.data_keys.forget(workspace)
        raise WorkspaceShredded("this practice's data was shredded")
    current_practice.set(workspace)  # the database-side backend sends this practice's keys
    if not cipher.data_keys.needs_load(workspace, cipher.ring):
        return
    rows = (
        await db.execute(
            select(
                WorkspaceKey.key_version, WorkspaceKey.wrapped_under, WorkspaceKey.wrapped_key
            ).where(WorkspaceKey.workspace_id == workspace_id)
        )
    ).all()
    if not rows and await _is_shredded(db, workspace_id):
        raise WorkspaceShredded("this practice's data was shredded")
    data_keys = {v: wrapped for v, _, wrapped in rows if v != BLIND_INDEX_KEY_VERSION}
    index_key = next(
        ((under, wrapped) for v, under, wrapped in rows if v == BLIND_INDEX_KEY_VERSION), None
    )
    cipher.data_keys.store(workspace, data_keys, index_key)


def blocking_data_key_loader(database_url: str) -> DataKeyLoader:
    """The loader behind `DataKeyCache.reload_after_miss`. The value that needs the key is
    being opened in synchronous code (a result row) on the event loop's thread, so the read
    runs on a short-lived connection in a helper thread while that thread waits: milliseconds,
    on a path rate-limited per practice."""

    async def fetch(workspace: bytes) -> dict[int, bytes]:
        engine = create_engine(database_url, poolclass=NullPool, connect_args={"timeout": 3})
        try:
            async with AsyncSession(engine) as db:
                rows = await db.execute(
                    select(WorkspaceKey.key_version, WorkspaceKey.wrapped_key).where(
                        WorkspaceKey.workspace_id == uuid.UUID(bytes=workspace),
                        WorkspaceKey.key_version != BLIND_INDEX_KEY_VERSION,  # data keys only
                    )
                )
                return {int(version): bytes(wrapped) for version, wrapped in rows.all()}
        finally:
            await engine.dispose()

    def load(workspace: bytes) -> dict[int, bytes]:
        pool = ThreadPoolExecutor(1, thread_name_prefix="carevault-data-keys")
        try:
            return pool.submit(lambda: asyncio.run(fetch(workspace))).result(timeout=5)
        finally:
            pool.shutdown(wait=False)  # never wait past the timeout for a stalled read

    return load


async def _is_shredded(db: AsyncSession, workspace_id: uuid.UUID) -> bool:
    shredded_at = await db.scalar(select(Workspace.shredded_at).where(Workspace.id == workspace_id))
    return shredded_at is not None


async def shred(db: AsyncSession, workspace_id: uuid.UUID) -> int:
    """Destroy the practice's wrapped data keys and mark it shredded; returns how many keys
    were destroyed. Every process, this one included, refuses the practice's next request
    once this commits (its credential lookup reads `shredded_at`) and drops its cached copy
    of the keys then.

    The practice's row is locked FOR UPDATE first: that waits for every transaction writing
    the practice's PHI (each holds the row FOR KEY SHARE, migration 0018) and makes every
    later one wait for this one and then fail, so no value is committed under a key that
    this destroys."""
    await db.execute(select(Workspace.id).where(Workspace.id == workspace_id).with_for_update())
    await db.execute(
        update(Workspace).where(Workspace.id == workspace_id).values(shredded_at=datetime.now(UTC))
    )
    destroyed = await db.execute(
        delete(WorkspaceKey)
        .where(WorkspaceKey.workspace_id == workspace_id)
        .returning(WorkspaceKey.key_version)
    )
    return len(destroyed.all())


async def index_keys_wrapped_under(db: AsyncSession, version: int) -> int:
    """How many practices' blind-index keys are still wrapped under a master version."""
    count = await db.scalar(
        select(func.count()).where(
            WorkspaceKey.key_version == BLIND_INDEX_KEY_VERSION,
            WorkspaceKey.wrapped_under == version,
        )
    )
    return int(count or 0)


async def rewrap_index_keys(
    db: AsyncSession, ring: KeyRing, lost: list[uuid.UUID] | None = None
) -> int:
    """Wrap every blind-index key under the current version (the key itself is unchanged:
    its indexes stay valid), so older master versions can be retired.

    A key wrapped under a version retired with `keys retire --force` cannot be unwrapped by
    anyone: it is left as it is and its practice appended to `lost`, so one such practice
    never stops the re-encryption of every other."""
    target = ring.encryption_version()
    rows = (
        await db.execute(
            select(WorkspaceKey.workspace_id, WorkspaceKey.wrapped_under, WorkspaceKey.wrapped_key)
            .where(
                WorkspaceKey.key_version == BLIND_INDEX_KEY_VERSION,
                WorkspaceKey.wrapped_under != target,
            )
            .with_for_update()
        )
    ).all()
    rewrapped = 0
    for workspace_id, under, wrapped in rows:
        try:
            index_key = unwrap_index_key(ring, workspace_id.bytes, under, wrapped)
        except DecryptionError:
            if lost is not None:
                lost.append(workspace_id)
            continue
        rewrapped += 1
        await db.execute(
            update(WorkspaceKey)
            .where(
                WorkspaceKey.workspace_id == workspace_id,
                WorkspaceKey.key_version == BLIND_INDEX_KEY_VERSION,
            )
            .values(
                wrapped_under=target,
                wrapped_key=wrap_index_key(ring, workspace_id.bytes, target, index_key),
            )
        )
    return rewrapped


async def destroy_version(db: AsyncSession, version: int) -> int:
    """Delete every practice's data key of a retired master version."""
    destroyed = await db.execute(
        delete(WorkspaceKey)
        .where(WorkspaceKey.key_version == version, WorkspaceKey.key_version != 0)
        .returning(WorkspaceKey.workspace_id)
    )
    return len(destroyed.all())
