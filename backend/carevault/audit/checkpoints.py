"""Checkpoints of every audit chain's head, kept where the database cannot reach.

A checkpoint names, for each chain (workspace), the last seal's sequence number, the last
event it sealed, how many events the chain holds and the seal's MAC; it is signed with
HMAC-SHA256 under the key ring's audit key and links to the previous checkpoint. Anyone who
later deletes the tail of a chain, or rewrites it, disagrees with the checkpoint.

Stores (CAREVAULT_AUDIT_CHECKPOINT_URL):
- file:///path: an append-only JSON-lines file (default: <data dir>/audit-checkpoints.jsonl);
- s3://bucket/prefix: one object per checkpoint, under object lock when the bucket has it.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import os
import secrets
import uuid
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import unquote, urlsplit

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from carevault.audit.sealing import key_id

if TYPE_CHECKING:
    from carevault.config import Settings

CHECKPOINT_SCHEMA = "carevault.audit.checkpoint/1"
CHECKPOINT_FILE = "audit-checkpoints.jsonl"
# HIPAA asks for six years of audit records; locked checkpoints are kept as long.
OBJECT_LOCK_RETENTION = timedelta(days=6 * 366)


class CheckpointError(RuntimeError):
    """The store cannot be used, or a checkpoint would contradict the previous one."""


@dataclass(frozen=True)
class ChainHead:
    workspace_id: uuid.UUID
    seq: int
    last_event_id: int
    count: int
    head_mac: bytes

    def to_json(self) -> dict[str, Any]:
        return {
            "workspace_id": str(self.workspace_id),
            "seq": self.seq,
            "last_event_id": self.last_event_id,
            "count": self.count,
            "head_mac": self.head_mac.hex(),
        }


@dataclass(frozen=True)
class Checkpoint:
    database: str
    created_at: datetime
    key_id: bytes
    previous: str | None  # SHA-256 (hex) of the previous checkpoint's line
    chains: tuple[ChainHead, ...]
    signature: bytes

    def body(self) -> dict[str, Any]:
        return {
            "schema": CHECKPOINT_SCHEMA,
            "database": self.database,
            "created_at": self.created_at.isoformat(),
            "key_id": self.key_id.hex(),
            "previous": self.previous,
            "chains": [head.to_json() for head in self.chains],
        }

    def line(self) -> str:
        return json.dumps({**self.body(), "signature": self.signature.hex()}, sort_keys=True)

    def digest(self) -> str:
        return hashlib.sha256(self.line().encode()).hexdigest()

    def signature_valid(self, audit_key: bytes) -> bool:
        expected = _sign(audit_key, self.body())
        return hmac.compare_digest(expected, self.signature)

    def head(self, workspace_id: uuid.UUID) -> ChainHead | None:
        for head in self.chains:
            if head.workspace_id == workspace_id:
                return head
        return None

    @classmethod
    def parse(cls, line: str) -> Checkpoint:
        try:
            document = json.loads(line)
            if document.get("schema") != CHECKPOINT_SCHEMA:
                raise ValueError("schema")
            return cls(
                database=str(document["database"]),
                created_at=datetime.fromisoformat(document["created_at"]),
                key_id=bytes.fromhex(document["key_id"]),
                previous=document["previous"],
                chains=tuple(
                    ChainHead(
                        workspace_id=uuid.UUID(chain["workspace_id"]),
                        seq=int(chain["seq"]),
                        last_event_id=int(chain["last_event_id"]),
                        count=int(chain["count"]),
                        head_mac=bytes.fromhex(chain["head_mac"]),
                    )
                    for chain in document["chains"]
                ),
                signature=bytes.fromhex(document["signature"]),
            )
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise CheckpointError(f"unreadable checkpoint ({type(exc).__name__})") from None


def _sign(audit_key: bytes, body: dict[str, Any]) -> bytes:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    return hmac.digest(audit_key, b"carevault.audit.checkpoint/1\x00" + canonical, "sha256")


class CheckpointStore(Protocol):
    @property
    def description(self) -> str: ...

    def append(self, checkpoint: Checkpoint) -> None: ...

    def latest(self, database: str) -> Checkpoint | None: ...


class FileStore:
    """Append-only JSON lines; opened O_APPEND, fsynced, never rewritten."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @property
    def description(self) -> str:
        return f"file://{self.path}"

    def append(self, checkpoint: Checkpoint) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, (checkpoint.line() + "\n").encode())
            os.fsync(fd)
        finally:
            os.close(fd)

    def latest(self, database: str) -> Checkpoint | None:
        if not self.path.exists():
            return None
        found = None
        with self.path.open(encoding="utf-8") as lines:
            for line in lines:
                if line.strip():
                    checkpoint = Checkpoint.parse(line)
                    if checkpoint.database == database:
                        found = checkpoint
        return found


class S3Store:
    """One object per checkpoint, under <prefix>/<database>/; names sort by time."""

    def __init__(self, bucket: str, prefix: str, *, region: str | None, endpoint: str | None):
        import boto3

        self.bucket, self.prefix = bucket, prefix.strip("/")
        self.client = boto3.client("s3", region_name=region, endpoint_url=endpoint)
        self._locked: bool | None = None

    @property
    def description(self) -> str:
        return f"s3://{self.bucket}/{self.prefix}"

    def _folder(self, database: str) -> str:
        return f"{self.prefix}/{database}/" if self.prefix else f"{database}/"

    def object_lock_enabled(self) -> bool:
        if self._locked is None:
            from botocore.exceptions import ClientError

            try:
                found = self.client.get_object_lock_configuration(Bucket=self.bucket)
                enabled = found["ObjectLockConfiguration"].get("ObjectLockEnabled")
                self._locked = enabled == "Enabled"
            except ClientError:
                self._locked = False
        return self._locked

    def append(self, checkpoint: Checkpoint) -> None:
        from botocore.exceptions import BotoCoreError, ClientError

        stamp = checkpoint.created_at.astimezone(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
        key = f"{self._folder(checkpoint.database)}{stamp}-{secrets.token_hex(4)}.json"
        extra: dict[str, Any] = {}
        try:
            if self.object_lock_enabled():
                extra = {
                    "ObjectLockMode": "COMPLIANCE",
                    "ObjectLockRetainUntilDate": checkpoint.created_at + OBJECT_LOCK_RETENTION,
                }
            self.client.put_object(
                Bucket=self.bucket,
                Key=key,
                Body=checkpoint.line().encode(),
                ContentType="application/json",
                **extra,
            )
        except (BotoCoreError, ClientError) as exc:
            raise CheckpointError(
                f"cannot write to {self.description}: {type(exc).__name__}"
            ) from None

    def latest(self, database: str) -> Checkpoint | None:
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            newest: str | None = None
            paginator = self.client.get_paginator("list_objects_v2")
            for page in paginator.paginate(Bucket=self.bucket, Prefix=self._folder(database)):
                for item in page.get("Contents", []):
                    if newest is None or item["Key"] > newest:
                        newest = item["Key"]
            if newest is None:
                return None
            body = self.client.get_object(Bucket=self.bucket, Key=newest)["Body"].read()
        except (BotoCoreError, ClientError) as exc:
            raise CheckpointError(
                f"cannot read from {self.description}: {type(exc).__name__}"
            ) from None
        return Checkpoint.parse(body.decode())


def store_for(settings: Settings) -> CheckpointStore:
    url = settings.audit_checkpoint_url
    if not url:
        return FileStore(settings.data_dir / CHECKPOINT_FILE)
    parts = urlsplit(url)
    if parts.scheme == "file":
        return FileStore(Path(unquote(parts.netloc + parts.path)))
    if parts.scheme == "s3" and parts.netloc:
        return S3Store(
            parts.netloc,
            parts.path,
            region=settings.aws_region,
            endpoint=settings.aws_endpoint_url,
        )
    raise CheckpointError(
        "CAREVAULT_AUDIT_CHECKPOINT_URL must be file:///path or s3://bucket/prefix"
    )


async def chain_heads(connection: AsyncConnection) -> tuple[str, list[ChainHead]]:
    """The database's name and the newest seal of every chain."""
    database = str(await connection.scalar(text("SELECT current_database()")))
    rows = await connection.execute(
        text(
            "SELECT DISTINCT ON (workspace_id) workspace_id, seq, "
            "event_ids[array_upper(event_ids, 1)] AS last_event_id, total, mac "
            "FROM audit_seals ORDER BY workspace_id, seq DESC"
        )
    )
    heads = [
        ChainHead(row.workspace_id, row.seq, row.last_event_id, row.total, bytes(row.mac))
        for row in rows
    ]
    return database, heads


async def seal_at(
    connection: AsyncConnection, workspace_id: uuid.UUID, seq: int
) -> tuple[bytes, int] | None:
    row = (
        await connection.execute(
            text("SELECT mac, total FROM audit_seals WHERE workspace_id = :w AND seq = :s"),
            {"w": workspace_id, "s": seq},
        )
    ).one_or_none()
    return None if row is None else (bytes(row.mac), int(row.total))


async def write_checkpoint(
    connection: AsyncConnection, store: CheckpointStore, audit_key: bytes
) -> Checkpoint:
    """Sign the current heads and append them to the store, after checking that every chain
    of the previous checkpoint still holds the seal that checkpoint recorded: a truncated or
    rewritten chain is refused, never blessed by a newer checkpoint."""
    database, heads = await chain_heads(connection)
    previous = await asyncio.to_thread(store.latest, database)
    if previous is not None:
        if not previous.signature_valid(audit_key):
            raise CheckpointError(
                f"the latest checkpoint in {store.description} does not verify under the "
                "audit key; run `carevault audit verify`"
            )
        for head in previous.chains:
            found = await seal_at(connection, head.workspace_id, head.seq)
            if found is None or found != (head.head_mac, head.count):
                raise CheckpointError(
                    f"chain {head.workspace_id} no longer matches the checkpoint of "
                    f"{previous.created_at.isoformat()}; refusing to write a new one: "
                    "run `carevault audit verify`"
                )
    unsigned = Checkpoint(
        database=database,
        created_at=datetime.now(UTC),
        key_id=key_id(audit_key),
        previous=previous.digest() if previous else None,
        chains=tuple(heads),
        signature=b"",
    )
    checkpoint = replace(unsigned, signature=_sign(audit_key, unsigned.body()))
    await asyncio.to_thread(store.append, checkpoint)
    return checkpoint
