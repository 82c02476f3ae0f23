"""The rules of `Idempotency-Key`, as Stripe has them.

The record is inserted in the request's own transaction before the create runs, under a
unique index on (practice, caller, key). A concurrent retry's INSERT therefore waits for the
first request's transaction: if that commits, the retry finds the finished record and replays
its response; if it rolls back (the create failed), the record is gone and the retry runs as
new. So two requests with one key create exactly one record, and only successful creates
are remembered.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.db.housekeeping import delete_batch
from carevault.db.scoping import in_workspace, workspace_filter
from carevault.idempotency.models import IdempotencyRecord

RETENTION = timedelta(hours=24)
EXPIRED_BATCH = 100
# Stripe allows up to 255 characters; printable ASCII keeps keys out of any mischief.
_SANE_KEY = re.compile(r"[\x21-\x7e]{1,255}")


class InvalidKey(ValueError):
    """The Idempotency-Key header is empty, too long, or not printable ASCII."""


class KeyReused(Exception):
    """The key was used before with a different request."""


class Replay(Exception):
    """The key's first request succeeded: answer with its response."""

    def __init__(self, status: int, body: Any) -> None:
        super().__init__(status)
        self.status = status
        self.body = body


@dataclass(frozen=True)
class Caller:
    """Whom keys are scoped to: an API token, or a user signed in with a login session."""

    workspace_id: uuid.UUID
    kind: str
    credential: uuid.UUID

    def hash(self) -> bytes:
        return _digest("caller", self.kind, self.credential.hex)


def _digest(*parts: str | bytes) -> bytes:
    hasher = hashlib.sha256(b"carevault/idempotency")
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        hasher.update(len(data).to_bytes(8, "big"))
        hasher.update(data)
    return hasher.digest()


def request_digest(method: str, path: str, body: bytes) -> bytes:
    return _digest(method.upper(), path, body)


async def begin(
    db: AsyncSession, caller: Caller, key: str, request_hash: bytes
) -> IdempotencyRecord:
    """Claim `key` for this request, or raise Replay / KeyReused. Runs in (and leaves the
    record to) the request's transaction."""
    if not _SANE_KEY.fullmatch(key):
        raise InvalidKey("Idempotency-Key must be 1 to 255 printable ASCII characters")
    now = datetime.now(UTC)
    caller_hash, key_hash = caller.hash(), _digest("key", key)
    await _delete_expired(db, now)
    # This key's own record, once expired, no longer holds it (even beyond the batch).
    await db.execute(
        delete(IdempotencyRecord).where(
            workspace_filter(IdempotencyRecord, caller.workspace_id),
            IdempotencyRecord.caller_hash == caller_hash,
            IdempotencyRecord.key_hash == key_hash,
            IdempotencyRecord.expires_at <= now,
        )
    )
    record_id = uuid.uuid4()
    claimed = await db.scalar(
        insert(IdempotencyRecord)
        .values(
            id=record_id,
            workspace_id=caller.workspace_id,
            caller_hash=caller_hash,
            key_hash=key_hash,
            request_hash=request_hash,
            created_at=now,
            expires_at=now + RETENTION,
        )
        .on_conflict_do_nothing(index_elements=["workspace_id", "caller_hash", "key_hash"])
        .returning(IdempotencyRecord.id)
    )
    if claimed is None:
        existing = await db.scalar(
            in_workspace(IdempotencyRecord, caller.workspace_id).where(
                IdempotencyRecord.caller_hash == caller_hash,
                IdempotencyRecord.key_hash == key_hash,
            )
        )
        # The INSERT waited for any transaction holding the key, so a row seen here is
        # committed, and committed records are complete.
        assert existing is not None and existing.response_status is not None
        if existing.request_hash != request_hash:
            raise KeyReused("this Idempotency-Key was used with a different request")
        raise Replay(existing.response_status, json.loads(existing.response_body or "null"))
    # unscoped: the row this transaction has just inserted for this caller
    record = await db.get(IdempotencyRecord, record_id)
    assert record is not None
    return record


async def complete(db: AsyncSession, record: IdempotencyRecord, status: int, body: Any) -> None:
    """Remember the response, in the transaction that made the create."""
    record.response_status = status
    record.response_body = json.dumps(body, separators=(",", ":"))
    await db.flush()


async def _delete_expired(db: AsyncSession, now: datetime) -> None:
    """Bounded housekeeping: a batch of expired records goes with each claim, so the table
    stays about a day of creates deep. An expired record no longer holds its key."""
    await delete_batch(
        db, (IdempotencyRecord.id,), IdempotencyRecord.expires_at <= now, EXPIRED_BATCH
    )
