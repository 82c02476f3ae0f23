"""`carevault reencrypt`: move every stored PHI value to the current key version and format.

How it stays out of clinicians' way and survives a crash:
- Work goes table by table in batches ordered by primary key. Each batch is one short
  transaction: `SELECT … FOR UPDATE SKIP LOCKED` of rows holding at least one value that is
  not in the target format under the target version, open each value, seal it again, UPDATE,
  COMMIT. The target format follows the configured backend (`CAREVAULT_PHI_BACKEND`): 0x03
  with the application backend, 0x04 (sealed inside PostgreSQL by carevault_pgc_seal_bound,
  as the application writes it) with pgcrypto, so a run never moves values out of the
  backend's own format.
  A row a clinician is saving at that moment is skipped and picked up by the next pass; an
  autosave that arrives while a batch holds the row waits milliseconds, then applies on top
  (the job rewrites only encrypted columns it read under the same lock, never `version`).
- What needs rewriting is decided by the stored bytes themselves (format byte and version in
  each value's header), so there is no progress table to lose: after a `kill -9` the
  uncommitted batch rolls back whole, and a rerun finds exactly the values still left.
- Values are opened and sealed here with the raw bytes (not through the column type), so a
  value that cannot be opened is reported by table, column and row id, and the rest go on.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    Column,
    LargeBinary,
    Select,
    Table,
    and_,
    bindparam,
    func,
    literal,
    or_,
    select,
    type_coerce,
    update,
)
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from carevault.clients import phone_index
from carevault.crypto import (
    DecryptionError,
    FieldCipher,
    KeyRingError,
    PracticeBlindIndex,
    current_cipher,
    envelope,
)
from carevault.crypto.registry import PhiBackend, current_backend
from carevault.crypto.types import EncryptedString
from carevault.db.models import Base
from carevault.workspaces.keys import (
    WorkspaceShredded,
    load_workspace_keys,
    provision,
    refused_as_shredded,
    rewrap_index_keys,
)
from carevault.workspaces.models import Workspace


@dataclass(frozen=True)
class EncryptedTable:
    table: Table
    columns: tuple[Column[Any], ...]

    @property
    def name(self) -> str:
        return self.table.name


def encrypted_tables() -> list[EncryptedTable]:
    found = []
    for table in Base.metadata.sorted_tables:
        columns = tuple(c for c in table.columns if isinstance(c.type, EncryptedString))
        if columns:
            found.append(EncryptedTable(table, columns))
    return found


def _raw(column: Column[Any]) -> Any:
    """The stored bytes, without the column type's decryption."""
    return type_coerce(column, LargeBinary)


def target_format() -> int:
    """The format new values are written in by the configured backend: 0x04 (sealed inside
    PostgreSQL) with pgcrypto, 0x03 otherwise."""
    if current_backend() is PhiBackend.PGCRYPTO:
        return envelope.FORMAT_PGCRYPTO_BOUND
    return envelope.FORMAT_BOUND


def _target_header(version: int, format_byte: int) -> bytes:
    return envelope.header(format_byte, version)


def _stale(column: Column[Any], version: int, format_byte: int) -> Any:
    """True for a non-null value whose header is not (format_byte, version)."""
    return and_(
        column.isnot(None),
        func.substring(_raw(column), 1, envelope.HEADER_BYTES)
        != literal(_target_header(version, format_byte), LargeBinary),
    )


def _needs_rewrite(encrypted: EncryptedTable, version: int, format_byte: int) -> Any:
    return or_(*(_stale(column, version, format_byte) for column in encrypted.columns))


def _live_practices(table: Table) -> Any:
    """Rows of shredded practices cannot be opened by anyone: leave them alone."""
    shredded = select(Workspace.id).where(Workspace.shredded_at.isnot(None))
    return table.c.workspace_id.not_in(shredded)


# Set for the transaction of each batch: it rewrites ciphertexts, never what they say.
RESEALING_SETTING = "carevault.resealing"


# Dry run -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ValueCount:
    table: str
    column: str
    format_byte: int
    version: int
    count: int


async def count_values(db: AsyncSession, *, live_only: bool = False) -> list[ValueCount]:
    """How many values each column holds, per format and key version (from the headers);
    with `live_only`, leaving out shredded practices, whose values no key can open."""
    counts: list[ValueCount] = []
    for encrypted in encrypted_tables():
        for column in encrypted.columns:
            head = func.substring(_raw(column), 1, envelope.HEADER_BYTES).label("head")
            query = select(head, func.count()).select_from(encrypted.table)
            if live_only:
                query = query.where(_live_practices(encrypted.table))
            rows = await db.execute(query.where(column.isnot(None)).group_by(head))
            for raw_head, count in rows.all():
                format_byte, version = envelope.read_header(bytes(raw_head).ljust(5, b"\0"))
                counts.append(
                    ValueCount(encrypted.name, column.name, format_byte, version, int(count))
                )
    return sorted(counts, key=lambda c: (c.table, c.column, c.format_byte, c.version))


async def values_under_version(db: AsyncSession, version: int) -> list[ValueCount]:
    """Values that retiring `version` would make unreadable (shredded practices' are already)."""
    return [c for c in await count_values(db, live_only=True) if c.version == version]


async def rows_to_rewrite(
    db: AsyncSession, version: int, format_byte: int | None = None
) -> dict[str, int]:
    """Rows holding a value not in `format_byte` (default: the backend's) under `version`."""
    wanted = target_format() if format_byte is None else format_byte
    totals: dict[str, int] = {}
    for encrypted in encrypted_tables():
        count = await db.scalar(
            select(func.count())
            .select_from(encrypted.table)
            .where(_needs_rewrite(encrypted, version, wanted), _live_practices(encrypted.table))
        )
        totals[encrypted.name] = int(count or 0)
    return totals


# The job -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Unopenable:
    table: str
    column: str
    row_id: uuid.UUID
    reason: str


@dataclass
class Summary:
    target_version: int
    target_format: int = envelope.FORMAT_BOUND
    rows_rewritten: Counter[str] = field(default_factory=Counter)
    values_rewritten: int = 0
    # Still stale after the last pass (held by clinicians throughout): a rerun finishes them.
    rows_left: int = 0
    index_keys_rewrapped: int = 0
    # Practices whose blind-index key was wrapped under a version retired with --force.
    index_keys_lost: list[uuid.UUID] = field(default_factory=list)
    unopenable: list[Unopenable] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def rows(self) -> int:
        return sum(self.rows_rewritten.values())

    @property
    def rows_per_second(self) -> float:
        return self.rows / self.seconds if self.seconds > 0 else 0.0


Progress = Callable[[int], None]


async def reencrypt(
    engine: AsyncEngine,
    *,
    batch_size: int = 500,
    pause_seconds: float = 0.0,
    max_passes: int = 5,
    progress: Progress | None = None,
) -> Summary:
    """Rewrite every value that is not in the backend's format (`target_format`) under the
    ring's current version.

    Rows skipped because a clinician held them are retried in up to `max_passes` passes.
    """
    cipher = current_cipher()
    ring = cipher.ring
    target = ring.encryption_version()
    summary = Summary(target_version=target, target_format=target_format())
    started = time.monotonic()
    async with AsyncSession(engine, expire_on_commit=False) as db, db.begin():
        await provision(db, ring)
        summary.index_keys_rewrapped = await rewrap_index_keys(db, ring, summary.index_keys_lost)
    # Keys just provisioned must be seen: every practice's keys are read afresh.
    cipher.data_keys.clear()
    failed: set[tuple[str, uuid.UUID]] = set()
    for _ in range(max_passes):
        # Rows locked by a clinician were skipped; another pass picks them up.
        rewritten = 0
        for encrypted in encrypted_tables():
            rewritten += await _rewrite_table(
                engine, encrypted, target, batch_size, pause_seconds, summary, failed, progress
            )
        if rewritten == 0:
            break
    async with AsyncSession(engine) as db:
        left = sum((await rows_to_rewrite(db, target, summary.target_format)).values())
    if left > len(failed):
        # A note autosaved every few seconds can be locked each time a pass reaches it: the
        # last pass waits for such rows (a save holds its lock for milliseconds), each
        # statement at most LOCK_WAIT, rather than leave them for a rerun.
        for encrypted in encrypted_tables():
            await _rewrite_table(
                engine,
                encrypted,
                target,
                batch_size,
                pause_seconds,
                summary,
                failed,
                progress,
                wait_for_locks=True,
            )
        async with AsyncSession(engine) as db:
            left = sum((await rows_to_rewrite(db, target, summary.target_format)).values())
    summary.rows_left = max(0, left - len(failed))
    summary.seconds = time.monotonic() - started
    return summary


async def _rewrite_table(
    engine: AsyncEngine,
    encrypted: EncryptedTable,
    target: int,
    batch_size: int,
    pause_seconds: float,
    summary: Summary,
    failed: set[tuple[str, uuid.UUID]],
    progress: Progress | None,
    *,
    wait_for_locks: bool = False,
) -> int:
    """One pass over a table in committed batches; returns how many rows it rewrote. Rows
    locked by a save are skipped, or, with `wait_for_locks`, waited for up to LOCK_WAIT (a
    row still held then ends the pass: a rerun finishes it)."""
    after: uuid.UUID | None = None
    rewritten = 0
    while True:
        try:
            batch = await _rewrite_batch(
                engine, encrypted, target, after, batch_size, summary, failed, wait_for_locks
            )
        except (DBAPIError, WorkspaceShredded) as exc:
            if wait_for_locks and _lock_not_available(exc):
                break
            if isinstance(exc, DBAPIError) and not refused_as_shredded(exc):
                raise
            # A practice of the batch was shredded while it ran (its write refused, migration
            # 0017, or its keys found gone): the batch rolled back whole; read it again, now
            # without that practice.
            continue
        if batch is None:
            break
        after, count = batch
        rewritten += count
        if progress is not None:
            progress(count)
        if pause_seconds > 0:
            await asyncio.sleep(pause_seconds)
    return rewritten


async def _rewrite_batch(
    engine: AsyncEngine,
    encrypted: EncryptedTable,
    target: int,
    after: uuid.UUID | None,
    batch_size: int,
    summary: Summary,
    failed: set[tuple[str, uuid.UUID]],
    wait_for_locks: bool = False,
) -> tuple[uuid.UUID, int] | None:
    """One committed batch of rows after `after`: (its last row id, rows rewritten), or
    None when no row is left."""
    table = encrypted.table
    async with AsyncSession(engine, expire_on_commit=False) as db, db.begin():
        if wait_for_locks:
            await db.execute(select(func.set_config("lock_timeout", LOCK_WAIT, True)))
        query = _batch_query(
            encrypted, target, summary.target_format, after, batch_size, wait_for_locks
        )
        rows = (await db.execute(query)).all()
        if not rows:
            return None
        updates = []
        for row in rows:
            if (table.name, row.id) in failed:
                continue
            await load_workspace_keys(db, row.workspace_id)
            values = _reseal(encrypted, row, target, summary)
            if values is None:
                failed.add((table.name, row.id))
                continue
            updates.append({"b_id": row.id, **values})
        if updates:
            # Only re-sealed: the plaintext is unchanged, so this is not an edit for the
            # client list's change counter (migration 0014).
            await db.execute(select(func.set_config(RESEALING_SETTING, "on", True)))
        for group in _same_columns(updates):
            await db.execute(_update_statement(table, group[0], summary.target_format), group)
    # Counted once committed: a batch refused by a shred is read again.
    summary.values_rewritten += sum(
        sum(key not in _NOT_VALUES for key in values) for values in updates
    )
    summary.rows_rewritten[table.name] += len(updates)
    return rows[-1].id, len(updates)


# How long the last pass waits for a row's lock, per statement (PostgreSQL's lock_timeout).
LOCK_WAIT = "5s"
LOCK_NOT_AVAILABLE = "55P03"


def _lock_not_available(error: BaseException) -> bool:
    current: BaseException | None = error
    while current is not None:
        if getattr(current, "sqlstate", None) == LOCK_NOT_AVAILABLE:
            return True
        current = getattr(current, "orig", None) or current.__cause__
    return False


def _batch_query(
    encrypted: EncryptedTable,
    target: int,
    format_byte: int,
    after: uuid.UUID | None,
    batch_size: int,
    wait_for_locks: bool = False,
) -> Select[Any]:
    table = encrypted.table
    inputs = [table.c[name] for name in INDEX_INPUTS.get(table.name, ())]
    query = (
        select(
            table.c.id,
            table.c.workspace_id,
            *inputs,
            *(_raw(c).label(c.name) for c in encrypted.columns),
        )
        .where(_needs_rewrite(encrypted, target, format_byte), _live_practices(table))
        .order_by(table.c.id)
        .limit(batch_size)
        # A row a clinician is saving right now is skipped, never waited for (but by the
        # last pass, briefly).
        .with_for_update(of=table, skip_locked=not wait_for_locks)
    )
    if after is not None:
        query = query.where(table.c.id > after)
    return query


# Blind indexes derived from an encrypted column: recomputed under the practice's own
# blind-index key whenever the value is re-sealed (rows from before practice keys carry
# indexes under the ring-wide key). Each gives the columns to write from the plaintext and
# the batch's row, which also carries the plain columns named in INDEX_INPUTS.
def _email_index(cipher: FieldCipher, plaintext: str, row: Any) -> dict[str, Any]:
    return {"email_bidx": PracticeBlindIndex(cipher).email(plaintext, str(row.workspace_id))}


def _phone_index(cipher: FieldCipher, plaintext: str, row: Any) -> dict[str, Any]:
    # Read in the region the row records, so the number keeps its meaning (phone_index).
    return phone_index.recomputed(
        PracticeBlindIndex(cipher), plaintext, row.phone_bidx_region, str(row.workspace_id)
    )


BLIND_INDEXES: dict[tuple[str, str], Callable[[FieldCipher, str, Any], dict[str, Any]]] = {
    ("clients", "email"): _email_index,
    ("clients", "phone"): _phone_index,
}
INDEX_INPUTS = {"clients": ("phone_bidx_region",)}
# Parameters of a row's UPDATE that are not stored values (summary.values_rewritten).
_NOT_VALUES = {"b_id"} | {f"b_{name}" for names in INDEX_INPUTS.values() for name in names}


def _reseal(
    encrypted: EncryptedTable, row: Any, target: int, summary: Summary
) -> dict[str, bytes | None] | None:
    """New bytes for every stale value of the row, or None if any value cannot be opened.

    For format 0x04 the new bytes are the packed parameter of carevault_pgc_seal_bound()
    (version | practice data key | workspace id | row id | plaintext), sealed by the database
    in the UPDATE, as the application's own writes under pgcrypto."""
    cipher = current_cipher()
    binding = (row.workspace_id.bytes, row.id.bytes)
    header = _target_header(target, summary.target_format)
    values: dict[str, bytes | None] = {}
    for column in encrypted.columns:
        stored = getattr(row, column.name)
        if stored is None:
            continue
        stored = bytes(stored)
        if stored[: envelope.HEADER_BYTES] == header:
            continue
        context = column.type.context_bytes  # type: ignore[attr-defined]
        try:
            plaintext = cipher.open(stored, binding, context)
        except DecryptionError as exc:
            summary.unopenable.append(Unopenable(encrypted.name, column.name, row.id, str(exc)))
            return None
        if summary.target_format == envelope.FORMAT_PGCRYPTO_BOUND:
            sealed = _packed_for_database(cipher, binding, target, plaintext)
        else:
            sealed = cipher.seal(plaintext, binding, context)
            if sealed[: envelope.HEADER_BYTES] != header:  # only ever the target
                raise KeyRingError(f"could not seal under key version {target}")
        values[f"b_{column.name}"] = sealed
        derive = BLIND_INDEXES.get((encrypted.name, column.name))
        if derive is not None:
            for name, value in derive(cipher, plaintext, row).items():
                values[f"b_{name}"] = value
    return values


def _packed_for_database(
    cipher: FieldCipher, binding: tuple[bytes, bytes], target: int, plaintext: str
) -> bytes:
    """The one parameter carevault_pgc_seal_bound() seals (format 0x04 under `target`)."""
    workspace, row = binding
    ring = cipher.ring
    version = cipher.data_keys.sealing_version(ring, workspace)
    material = cipher.data_keys.material(ring, workspace, version)
    if version != target or material is None:  # only ever the target
        raise KeyRingError(f"could not seal under key version {target}")
    cipher.count_sealed(workspace, version)
    return version.to_bytes(4, "big") + material + workspace + row + plaintext.encode()


def _same_columns(updates: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    """Group row updates by which columns they set, for one executemany per shape."""
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for values in updates:
        groups.setdefault(tuple(sorted(values)), []).append(values)
    return iter(groups.values())


def _update_statement(table: Table, shape: dict[str, Any], format_byte: int) -> Any:
    columns = [key.removeprefix("b_") for key in shape if key != "b_id"]
    # Raw bytes (already sealed above, or sealed by the database for 0x04) and the row's own
    # updated_at: a re-key is not an edit, and Core would otherwise apply the column's
    # onupdate default.
    values: dict[str, Any] = {}
    for name in columns:
        column_type = table.c[name].type
        if not isinstance(column_type, EncryptedString | LargeBinary):
            values[name] = bindparam(f"b_{name}", type_=column_type)  # phone_bidx_region
            continue
        raw = type_coerce(bindparam(f"b_{name}"), LargeBinary)
        if format_byte == envelope.FORMAT_PGCRYPTO_BOUND and isinstance(
            column_type, EncryptedString
        ):
            values[name] = func.carevault_pgc_seal_bound(
                raw, literal(column_type.context), type_=LargeBinary
            )
        else:
            values[name] = raw
    if "updated_at" in table.c:
        values["updated_at"] = table.c.updated_at
    return update(table).where(table.c.id == bindparam("b_id")).values(values)
