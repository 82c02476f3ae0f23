"""The blind index of a client's phone number, and `carevault reindex-phones`.

`clients.phone_bidx` is the practice-key HMAC of the number's E.164 form, read in the
practice's phone region (carevault.workspaces.phones), and `clients.phone_bidx_region` is
that region: the row remembers how its number was read, so recomputing the index later (a
re-encryption) gives the same number even if the practice's region has changed since.

Rows written before migration 0016 have a digits-only index (kind `phone`, see
carevault.crypto.blind_index) and no region. For them:
- a search compares with both: the E.164 index of the term (`search_candidates` says how it
  is read), and its digits-only index (under the practice key and the older ring-wide key).
  The digits-only candidates find exactly what they found before 0016, so nothing that was
  findable stops being findable while the rows wait; they cost two HMACs per phone search
  and one wider `IN`, so they stay after the migration too, for stored numbers that never
  read as phone numbers (below);
- `carevault reindex-phones` (`reindex_phones`) reads each such number in its practice's
  current region and writes its E.164 index and that region, in small committed batches
  that skip rows a clinician holds, so it can run while the practice works and be rerun
  after an interruption. A stored number that cannot be read as a possible number (text
  from before numbers were checked) keeps its digits-only index and is reported by client
  id, to be corrected; a rerun, for example after an owner sets the right region, tries it
  again.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import LargeBinary, Table, bindparam, func, select, type_coerce, update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from carevault.clients.models import Client
from carevault.crypto import (
    BlindIndex,
    DecryptionError,
    PracticeBlindIndex,
    current_cipher,
    normalize_phone_digits,
)
from carevault.db.scoping import in_workspace, workspace_filter
from carevault.workspaces.keys import (
    WorkspaceShredded,
    load_workspace_keys,
    provision,
    refused_as_shredded,
)
from carevault.workspaces.models import Workspace
from carevault.workspaces.phones import NotAPhoneNumber, PhoneNumber, read_phone

# Read as phone numbers in the practice's region on every write; `phone` is also indexed.
PHONE_FIELDS = ("phone", "emergency_contact_phone")


def index_columns(index: BlindIndex, number: PhoneNumber | None, scope: str) -> dict[str, Any]:
    """`phone_bidx` and `phone_bidx_region` for a number as read (None: no phone)."""
    if number is None:
        return {"phone_bidx": None, "phone_bidx_region": None}
    return {"phone_bidx": index.phone(number.e164, scope), "phone_bidx_region": number.region}


def search_candidates(index: PracticeBlindIndex, q: str, region: str, scope: str) -> list[bytes]:
    """What a phone search compares `phone_bidx` with. First the E.164 index of `q` read in
    the practice's region; when `q` is no possible number there, of `q` read as an
    international number written without its + (`44 20 7946 0018` in a US practice), the
    only reading left. Then, always, the digits-only indexes of `q` (rows not yet
    reindexed, stored text that never read as a number). A `q` that reads neither way finds
    exactly what it found before E.164: numbers stored with the same digits."""
    candidates = index.candidates("phone", q, scope)
    digits = normalize_phone_digits(q)
    for text in (q, f"+{digits}"):
        try:
            number = read_phone(text, region)
        except NotAPhoneNumber:
            continue
        e164 = index.phone(number.e164, scope)
        return [e164, *candidates] if e164 is not None else candidates
    return candidates


def recomputed(index: BlindIndex, text: str, region: str | None, scope: str) -> dict[str, Any]:
    """The index columns for a stored number, read in the region its row records (a
    re-encryption moving indexes to the practice key). A row without one keeps the kind of
    index it had: digits-only, until reindexed."""
    if region is not None:
        try:
            return index_columns(index, read_phone(text, region), scope)
        except NotAPhoneNumber:
            pass  # libphonenumber changed its mind: digits-only, for reindex-phones to retry
    return {"phone_bidx": index.phone_digits(text, scope), "phone_bidx_region": None}


# carevault reindex-phones ---------------------------------------------------------------


def _legacy(workspace_id: uuid.UUID) -> Any:
    return in_workspace(Client, workspace_id).where(
        Client.phone.isnot(None), Client.phone_bidx_region.is_(None)
    )


async def rows_to_reindex(db: AsyncSession) -> int:
    """Clients of live practices whose phone still has the digits-only index."""
    total = 0
    for workspace_id in await _live_practices(db):
        total += int(await db.scalar(_legacy(workspace_id).with_only_columns(func.count())) or 0)
    return total


async def _live_practices(db: AsyncSession) -> list[uuid.UUID]:
    """Shredded practices' numbers cannot be opened by anyone: left alone."""
    return list(
        await db.scalars(
            select(Workspace.id).where(Workspace.shredded_at.is_(None)).order_by(Workspace.id)
        )
    )


@dataclass(frozen=True)
class Unopenable:
    client_id: uuid.UUID
    reason: str


@dataclass
class ReindexSummary:
    reindexed: int = 0
    # Stored text that is not a possible number in its practice's region: still digits-only.
    not_numbers: list[uuid.UUID] = field(default_factory=list)
    unopenable: list[Unopenable] = field(default_factory=list)
    # Held by clinicians through every pass: a rerun finishes them.
    rows_left: int = 0
    seconds: float = 0.0


_RAW_PHONE = type_coerce(Client.__table__.c.phone, LargeBinary).label("phone")
_PHONE_CONTEXT: bytes = Client.__table__.c.phone.type.context_bytes  # type: ignore[attr-defined]


def _set_index(workspace_id: uuid.UUID) -> Any:
    """One row's new index, by id (an executemany); a reindex is not an edit, so
    `updated_at` keeps its value (Core would apply the column's onupdate)."""
    clients: Table = Client.__table__  # type: ignore[assignment]
    return (
        update(clients)
        .where(workspace_filter(Client, workspace_id), clients.c.id == bindparam("b_id"))
        .values(
            phone_bidx=bindparam("b_bidx"),
            phone_bidx_region=bindparam("b_region"),
            updated_at=clients.c.updated_at,
        )
    )


async def reindex_phones(
    engine: AsyncEngine,
    *,
    batch_size: int = 500,
    pause_seconds: float = 0.0,
    max_passes: int = 5,
    progress: Callable[[int], None] | None = None,
) -> ReindexSummary:
    """Give every digits-only phone index of a live practice its E.164 form, practice by
    practice, in committed batches of `batch_size` rows; see the module docstring."""
    cipher = current_cipher()
    summary = ReindexSummary()
    started = time.monotonic()
    async with AsyncSession(engine) as db:
        practices = await _live_practices(db)
    async with AsyncSession(engine) as db, db.begin():
        await provision(db, cipher.ring, practices)  # practices from before data keys
    cipher.data_keys.clear()
    skipped: set[uuid.UUID] = set()  # not numbers, or unopenable: not retried in this run
    for _ in range(max_passes):
        done = 0
        for workspace_id in list(practices):
            try:
                done += await _reindex_practice(
                    engine, workspace_id, batch_size, pause_seconds, summary, skipped, progress
                )
            except (DBAPIError, WorkspaceShredded) as exc:
                if isinstance(exc, DBAPIError) and not refused_as_shredded(exc):
                    raise
                # Shredded while this ran: a batch in flight rolled back (migration 0017),
                # and nothing of it is left to index.
                practices.remove(workspace_id)
        if done == 0:
            break
    async with AsyncSession(engine) as db:
        summary.rows_left = max(0, await rows_to_reindex(db) - len(skipped))
    summary.seconds = time.monotonic() - started
    return summary


async def _reindex_practice(
    engine: AsyncEngine,
    workspace_id: uuid.UUID,
    batch_size: int,
    pause_seconds: float,
    summary: ReindexSummary,
    skipped: set[uuid.UUID],
    progress: Callable[[int], None] | None,
) -> int:
    """One pass over a practice; returns how many rows it reindexed."""
    cipher = current_cipher()
    index = PracticeBlindIndex(cipher)
    scope = str(workspace_id)
    after: uuid.UUID | None = None
    done = 0
    while True:
        async with AsyncSession(engine) as db, db.begin():
            region = await db.scalar(
                select(Workspace.phone_region).where(Workspace.id == workspace_id)
            )
            query = (
                _legacy(workspace_id)
                .with_only_columns(Client.id, _RAW_PHONE)
                .order_by(Client.id)
                .limit(batch_size)
                # A row a clinician is saving right now is skipped, never waited for; their
                # save writes the E.164 index itself.
                .with_for_update(of=Client, skip_locked=True)
            )
            if after is not None:
                query = query.where(Client.id > after)
            rows = (await db.execute(query)).all()
            if not rows or region is None:
                break
            after = rows[-1].id
            await load_workspace_keys(db, workspace_id)
            updates = []
            for row in rows:
                if row.id in skipped:
                    continue
                try:
                    text = cipher.open(
                        bytes(row.phone), (workspace_id.bytes, row.id.bytes), _PHONE_CONTEXT
                    )
                except DecryptionError as exc:
                    summary.unopenable.append(Unopenable(row.id, str(exc)))
                    skipped.add(row.id)
                    continue
                try:
                    number = read_phone(text, region)
                except NotAPhoneNumber:
                    summary.not_numbers.append(row.id)
                    skipped.add(row.id)
                    continue
                updates.append(
                    {"b_id": row.id, "b_bidx": index.phone(number.e164, scope), "b_region": region}
                )
            if updates:
                await db.execute(_set_index(workspace_id), updates)
        summary.reindexed += len(updates)
        done += len(updates)
        if progress is not None:
            progress(len(rows))
        if pause_seconds > 0:
            await asyncio.sleep(pause_seconds)
    return done
