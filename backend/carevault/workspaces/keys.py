"""Practice data keys in the database: provisioning, loading into the process, shredding.

The encryption core (carevault.crypto.datakeys) wraps, unwraps and caches data keys; this
module is where they are stored. See docs/reference/key-formats.md, "Practice data keys".
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from datetime import UTC, datetime

from sqlalchemy import BigInteger, column, delete, exists, literal, null, select, update
from sqlalchemy.dialects.postgresql import ARRAY, insert
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession
from sqlalchemy.pool import NullPool
from sqlalchemy.sql import func

from carevault.crypto import DecryptionError, KeyRing, current_cipher, new_wrapped_data_key
from carevault.crypto.datakeys import (
    DataKeyLoader,
    WorkspaceKeys,
    current_practice,
    new_wrapped_index_key,
    unwrap_index_key,
    wrap_index_key,
)
from carevault.crypto.errors import KeyAccessRevoked, KeyRingError, KeyServiceUnavailable
from carevault.db.engine import create_engine
from carevault.workspaces.models import BLIND_INDEX_KEY_VERSION, Workspace, WorkspaceKey

# With KMS: how soon a practice whose fresh keys could not be opened (KMS unreachable) but
# whose earlier keys are still in memory asks KMS again, and for how long at most the earlier
# keys serve on. A refusal (key disabled, scheduled for deletion) drops them at once.
KMS_RETRY_SECONDS = 30.0
KMS_STALE_GRACE_SECONDS = 3600.0


log = logging.getLogger(__name__)


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
    # The practice's own KMS key; never read without KMS (older schemas lack the column).
    key_id = Workspace.kms_key_id if ring.remote is not None else null().label("kms_key_id")
    version = (
        func.unnest(literal(versions, ARRAY(BigInteger)))
        .table_valued(column("v", BigInteger))
        .render_derived()
    )
    missing = (
        select(Workspace.id, version.c.v, key_id)
        .join(version, Workspace.shredded_at.is_(None))
        .where(
            ~exists().where(
                WorkspaceKey.workspace_id == Workspace.id,
                WorkspaceKey.key_version == version.c.v,
            )
        )
    )
    no_index_key = select(Workspace.id, key_id).where(
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
    generated: dict[tuple[uuid.UUID, int], bytes] = {}
    rows = []
    for workspace_id, key_version, key_id in (await db.execute(missing)).all():
        if ring.remote is not None:
            plaintext, wrapped = await asyncio.to_thread(
                ring.remote.generate, workspace_id.bytes, "data", key_version, key_id
            )
            generated[(workspace_id, key_version)] = plaintext
        else:
            wrapped = new_wrapped_data_key(ring, workspace_id.bytes, key_version, key_id)
        rows.append(
            {
                "workspace_id": workspace_id,
                "key_version": key_version,
                "wrapped_under": key_version,
                "wrapped_key": wrapped,
            }
        )
    under = ring.encryption_version()
    for workspace_id, _key_id in (await db.execute(no_index_key)).all():
        data_key = None
        if ring.remote is not None:
            # With KMS the index key is wrapped under the practice's data key of `under`.
            data_key = generated.get((workspace_id, under)) or await _open_stored_data_key(
                db, ring, workspace_id, under
            )
        rows.append(
            {
                "workspace_id": workspace_id,
                "key_version": BLIND_INDEX_KEY_VERSION,
                "wrapped_under": under,
                "wrapped_key": new_wrapped_index_key(ring, workspace_id.bytes, under, data_key),
            }
        )
    if not rows:
        return 0
    result = await db.execute(
        insert(WorkspaceKey).on_conflict_do_nothing().returning(WorkspaceKey.key_version), rows
    )
    return len(result.all())


async def _open_stored_data_key(
    db: AsyncSession, ring: KeyRing, workspace_id: uuid.UUID, version: int
) -> bytes:
    from carevault.crypto.datakeys import unwrap_data_key

    wrapped = await db.scalar(
        select(WorkspaceKey.wrapped_key).where(
            WorkspaceKey.workspace_id == workspace_id, WorkspaceKey.key_version == version
        )
    )
    if wrapped is None:
        raise KeyRingError(f"the practice has no data key of key version {version}")
    return await asyncio.to_thread(unwrap_data_key, ring, workspace_id.bytes, version, wrapped)


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
    ring = cipher.ring
    if ring.remote is not None:
        await _load_remote(db, workspace_id, ring)
        return
    if not cipher.data_keys.needs_load(workspace, ring):
        return
    await _read_into_cache(db, workspace_id)


async def _read_into_cache(db: AsyncSession, workspace_id: uuid.UUID) -> None:
    data_keys, index_key = await _read_wrapped(db, workspace_id)
    current_cipher().data_keys.store(workspace_id.bytes, data_keys, index_key)


async def _read_wrapped(
    db: AsyncSession, workspace_id: uuid.UUID
) -> tuple[dict[int, bytes], tuple[int, bytes] | None]:
    """The practice's wrapped data keys by version, and its wrapped blind-index key."""
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
    return data_keys, index_key


_flights: dict[tuple[int, bytes], asyncio.Lock] = {}
# Practices whose keys KMS refused at their last load, by the reason's code
# (kms_key_disabled, …): readiness counts them; a change either way is an audit event.
refused_practices: dict[bytes, str] = {}


async def _note_key_state(db: AsyncSession, workspace_id: uuid.UUID, code: str | None) -> None:
    """Record the practice's key being refused, or usable again, once per change in this
    process: in a transaction of its own, since the request that noticed fails."""
    workspace = workspace_id.bytes
    before = refused_practices.get(workspace)
    if before == code:
        return
    if code is None:
        refused_practices.pop(workspace, None)
    else:
        refused_practices[workspace] = code
    bind = db.bind
    if not isinstance(bind, AsyncEngine):
        return  # a caller's own connection (tests, one-off tools): nothing to commit to
    from carevault.audit.service import Actor, record

    try:
        async with AsyncSession(bind) as own, own.begin():
            await record(
                own,
                Actor(workspace_id),
                "workspace.kms_key_refused" if code else "workspace.kms_key_restored",
                resource_type="workspace",
                resource_ids=[workspace_id],
                details={"reason": code or before},
            )
    except Exception as exc:  # the answer (503 or the data) matters more than the event
        log.warning("could not record a practice key change (%s)", type(exc).__name__)


async def _load_remote(db: AsyncSession, workspace_id: uuid.UUID, ring: KeyRing) -> None:
    """The KMS path: warm, nothing (no KMS call, no SELECT); cold or expired, one SELECT and
    one KMS Decrypt per key, made once however many requests of the practice arrive together
    (single flight), off the event loop. KMS unreachable: the earlier keys, if this process
    still has them, serve on for a while; KMS refusing the key: they are dropped."""
    cache = current_cipher().data_keys
    workspace = workspace_id.bytes
    if cache.ready(workspace, ring):
        return
    flight_key = (id(asyncio.get_running_loop()), workspace)
    flight = _flights.setdefault(flight_key, asyncio.Lock())
    async with flight:
        entry = cache.entry(workspace)
        if (
            entry is not None
            and entry.prepared
            and entry.ring is ring
            and not cache.needs_load(workspace, ring)
        ):
            return  # another request of this practice just did it
        earlier = entry if entry is not None and entry.prepared and entry.ring is ring else None
        data_keys, index_key = await _read_wrapped(db, workspace_id)
        # Opened aside and swapped in ready: requests still using the earlier copy never
        # meet a half-opened one (nor a KMS call of their own).
        fresh = WorkspaceKeys(data_keys, time.monotonic(), wrapped_index_key=index_key)
        try:
            await asyncio.to_thread(cache.open_entry, ring, workspace, fresh)
        except KeyAccessRevoked as revoked:
            cache.forget(workspace)
            await _note_key_state(db, workspace_id, revoked.code)
            raise
        except KeyServiceUnavailable:
            if (
                earlier is not None
                and fresh.wrapped == earlier.wrapped
                and time.monotonic() - earlier.opened_at
                < cache.max_age_seconds + KMS_STALE_GRACE_SECONDS
            ):
                cache.restore(workspace, earlier, KMS_RETRY_SECONDS)
                return
            cache.forget(workspace)
            raise
        cache.install(workspace, fresh)
        if workspace in refused_practices:
            await _note_key_state(db, workspace_id, None)


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
    if ring.remote is not None:
        return 0  # KMS: one version, and index keys ride on the practice's data key
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


async def set_practice_key(
    db: AsyncSession,
    workspace_id: uuid.UUID,
    key_id: str | None,
    *,
    before_each: Callable[[int], None] | None = None,
) -> tuple[int, int]:
    """Move a practice onto the KMS key `key_id` (None: back to the installation's key):
    record it as the practice's key (new data keys are made under it from now on), then
    re-wrap every stored key of the practice not yet under it, one row per transaction, with
    KMS ReEncrypt (the data keys never leave KMS, no value is re-encrypted).

    Safe to interrupt anywhere and to run again: each row is under the old key or the new
    one, and both open while both keys are enabled; a second run re-wraps only what is left.
    Returns (re-wrapped now, already under the key)."""
    from carevault.crypto import kms

    ring = current_cipher().ring
    remote = ring.remote
    if not isinstance(remote, kms.KmsKeys):
        raise KeyRingError("a practice key needs CAREVAULT_KEY_PROVIDER=kms")
    target = remote.arn_of(key_id or remote.key_id)
    remote.require_usable(target)
    async with _step(db):
        shredded = await db.scalar(
            select(Workspace.shredded_at).where(Workspace.id == workspace_id).with_for_update()
        )
        if shredded is not None:
            raise WorkspaceShredded("this practice's data was shredded")
        await db.execute(
            update(Workspace)
            .where(Workspace.id == workspace_id)
            .values(kms_key_id=None if key_id is None else target)
        )
        rows = (
            await db.execute(
                select(
                    WorkspaceKey.key_version, WorkspaceKey.wrapped_under, WorkspaceKey.wrapped_key
                ).where(WorkspaceKey.workspace_id == workspace_id)
            )
        ).all()
    moved = already = 0
    for version, under, wrapped in rows:
        if version == BLIND_INDEX_KEY_VERSION:
            continue  # wrapped under the practice's data key, which does not change
        if kms.unframe(wrapped)[0] == target:
            already += 1
            continue
        if before_each is not None:
            before_each(moved)
        purpose = (
            kms.PURPOSE_BLIND_INDEX if version == BLIND_INDEX_KEY_VERSION else kms.PURPOSE_DATA
        )
        rewrapped = await asyncio.to_thread(
            remote.rewrap, workspace_id.bytes, purpose, under, wrapped, target
        )
        async with _step(db):
            # Only the row as read: a concurrent writer's change is never overwritten.
            await db.execute(
                update(WorkspaceKey)
                .where(
                    WorkspaceKey.workspace_id == workspace_id,
                    WorkspaceKey.key_version == version,
                    WorkspaceKey.wrapped_key == wrapped,
                )
                .values(wrapped_key=rewrapped)
            )
        moved += 1
    current_cipher().data_keys.forget(workspace_id.bytes)
    return moved, already


@asynccontextmanager
async def _step(db: AsyncSession) -> AsyncIterator[None]:
    """A transaction of its own, committed at once (a savepoint inside a caller's)."""
    if db.in_transaction():
        async with db.begin_nested():
            yield
    else:
        async with db.begin():
            yield


async def practice_key_ids(db: AsyncSession) -> dict[uuid.UUID, str | None]:
    """Each practice not shredded and the KMS key it brought (None: the installation's)."""
    rows = await db.execute(
        select(Workspace.id, Workspace.kms_key_id).where(Workspace.shredded_at.is_(None))
    )
    return {workspace_id: key_id for workspace_id, key_id in rows.all()}
