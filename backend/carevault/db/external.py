"""Integrator-owned ids and metadata (carevault.core.external) in the database.

`external_id` is sealed like PHI and found through a blind index (an HMAC under the
practice's blind-index key, kind `external-id:<type>`), unique per practice and kind of
record by a unique index on (workspace_id, external_id_bidx) of each table: exact lookups
and uniqueness without the id in plaintext. `metadata_json` is the metadata map as one
JSON text, sealed like PHI.

Setting an external id takes a transaction-level advisory lock on (practice, kind, index)
first, so two requests naming the same new id one after the other (two concurrent upserts,
say) never both find it free: the second waits for the first to commit and then sees its
row. The unique index stays the backstop.
"""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

from sqlalchemy import LargeBinary, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from carevault.core import external
from carevault.core.errors import Conflict
from carevault.core.fields import invalid
from carevault.crypto import PracticeBlindIndex, current_cipher
from carevault.crypto.types import EncryptedString
from carevault.db.scoping import in_workspace


class ExternalIdentity:
    """The columns of a record that an integrator can name and annotate."""

    external_id: Mapped[str | None] = mapped_column(EncryptedString())
    external_id_bidx: Mapped[bytes | None] = mapped_column(LargeBinary)
    metadata_json: Mapped[str | None] = mapped_column(EncryptedString())


def index_of(resource_type: str, workspace_id: uuid.UUID, external_id: str) -> bytes:
    """The blind index written for `external_id` (under the practice's key)."""
    index = PracticeBlindIndex(current_cipher()).compute(
        f"external-id:{resource_type}", external_id, str(workspace_id)
    )
    assert index is not None  # a valid external id is never empty
    return index


def candidates(resource_type: str, workspace_id: uuid.UUID, external_id: str) -> list[bytes]:
    """What a lookup compares with (the practice-key index, and the ring-wide one)."""
    return PracticeBlindIndex(current_cipher()).candidates(
        f"external-id:{resource_type}", external_id, str(workspace_id)
    )


async def lock(
    db: AsyncSession, resource_type: str, workspace_id: uuid.UUID, external_id: str
) -> None:
    """Serialise every request naming this external id until the transaction ends."""
    digest = hashlib.sha256(index_of(resource_type, workspace_id, external_id)).digest()
    await db.execute(
        select(func.pg_advisory_xact_lock(int.from_bytes(digest[:8], "big", signed=True)))
    )


async def find(
    db: AsyncSession,
    model: Any,
    resource_type: str,
    workspace_id: uuid.UUID,
    external_id: str,
) -> uuid.UUID | None:
    """The id of the practice's record with this external id (chart-wide: reads no PHI; the
    caller applies chart access to whatever it then reads or changes)."""
    found: uuid.UUID | None = await db.scalar(
        in_workspace(model, workspace_id)
        .where(model.external_id_bidx.in_(candidates(resource_type, workspace_id, external_id)))
        .with_only_columns(model.id)
    )
    return found


async def claim(
    db: AsyncSession,
    model: Any,
    resource_type: str,
    workspace_id: uuid.UUID,
    external_id: str,
    record_id: uuid.UUID | None,
) -> None:
    """409 `external_id_taken` when another record of the practice has `external_id`."""
    await lock(db, resource_type, workspace_id, external_id)
    holder = await find(db, model, resource_type, workspace_id, external_id)
    if holder is not None and holder != record_id:
        raise Conflict(
            "external_id_taken",
            f"another {resource_type} of your practice has this external_id",
            details={"field": "body.external_id"},
        )


async def columns(
    db: AsyncSession,
    model: Any,
    resource_type: str,
    workspace_id: uuid.UUID,
    changes: dict[str, Any],
    *,
    record: Any = None,
) -> dict[str, Any]:
    """`changes` with `external_id` and `metadata` turned into the columns to write (an
    external id claimed, metadata merged into the record's, if any)."""
    written = dict(changes)
    if "external_id" in written:
        external_id = written["external_id"]
        if external_id is None:
            written["external_id_bidx"] = None
        else:
            record_id = None if record is None else record.id
            await claim(db, model, resource_type, workspace_id, external_id, record_id)
            written["external_id_bidx"] = index_of(resource_type, workspace_id, external_id)
    if "metadata" in written:
        change = written.pop("metadata")
        if record is None:
            written["metadata_json"] = external.stored(external.set_keys(change))
        else:
            try:
                written["metadata_json"] = external.merged(record.metadata_json, change)
            except ValueError as too_many:
                raise invalid("validation_error", str(too_many), "metadata") from None
    return written
