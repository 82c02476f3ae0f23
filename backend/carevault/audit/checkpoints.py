"""Checkpoints of every audit chain's head, kept where the database cannot reach.

A checkpoint names, for each chain (workspace), the last seal's sequence number, the last
event it sealed, how many events the chain holds and the seal's MAC; it is signed with
HMAC-SHA256 under the key ring's audit key and links to the previous checkpoint. Anyone who
later deletes the tail of a chain, or rewrites it, disagrees with the checkpoint.

Stores (CAREVAULT_AUDIT_CHECKPOINT_URL):
- file:///path: an append-only JSON-lines file (default: <data dir>/audit-checkpoints.jsonl);
- s3://bucket/prefix: one object per checkpoint, under object lock when the bucket has it.

A checkpoint records only heads whose MAC verifies (a seal someone inserted without the key
is never blessed). Each checkpoint written is also recorded in the database, in the
append-only table audit_checkpoints: its time and digest, and an HMAC over them under the
audit key. So the database remembers the newest checkpoint the store must hold, and a store
that was emptied, replaced or rewound is noticed: the app refuses to continue or restart a
chain over it (CheckpointGap), and `verify` reports it, until an operator starts a new chain
on purpose (`carevault audit checkpoint --start-new-chain`).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import os
import secrets
import struct
import uuid
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import unquote, urlsplit

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from carevault.audit.sealing import (
    SEAL_COLUMNS,
    UNTRUSTED_LISTED,
    Lag,
    key_id,
    measure_lag,
    verified_format,
    verified_heads,
)

if TYPE_CHECKING:
    from carevault.config import Settings

CHECKPOINT_SCHEMA = "carevault.audit.checkpoint/1"
CHECKPOINT_FILE = "audit-checkpoints.jsonl"
# HIPAA asks for six years of audit records; locked checkpoints are kept as long.
OBJECT_LOCK_RETENTION = timedelta(days=6 * 366)


class CheckpointError(RuntimeError):
    """The store cannot be used, or a checkpoint would contradict the previous one."""


class CheckpointGap(CheckpointError):
    """The store lacks checkpoints the audit trail says were written (emptied, replaced or
    rewound): no new checkpoint is written over it without an operator's decision."""


START_NEW_CHAIN = "carevault audit checkpoint --start-new-chain"
RECORD_DOMAIN = b"carevault.audit.checkpoint-written/1\x00"


@dataclass(frozen=True)
class ChainHead:
    workspace_id: uuid.UUID
    seq: int
    last_event_id: int | None  # None only in checkpoints of older versions (a seal with no event)
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
                        last_event_id=_optional_int(chain["last_event_id"]),
                        count=int(chain["count"]),
                        head_mac=bytes.fromhex(chain["head_mac"]),
                    )
                    for chain in document["chains"]
                ),
                signature=bytes.fromhex(document["signature"]),
            )
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise CheckpointError(f"unreadable checkpoint ({type(exc).__name__})") from None


def _optional_int(value: Any) -> int | None:
    # A version before this one could sign a head with no event (a forged seal it trusted):
    # such a checkpoint stays readable, so a store under object lock is not stuck with it.
    return None if value is None else int(value)


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


async def chain_heads(connection: AsyncConnection, audit_key: bytes) -> tuple[str, list[ChainHead]]:
    """The database's name and the newest seal of every chain whose MAC verifies."""
    database = await database_name(connection)
    found = await verified_heads(connection, audit_key, None)
    heads = [
        ChainHead(workspace_id, head.seq, head.last_event_id, head.total, head.mac)
        for workspace_id, head in sorted(found.items())
        if head.seq > 0
    ]
    return database, heads


@dataclass(frozen=True)
class SealCensus:
    """How far the checkpoint writer has checked every seal's MAC, and what did not verify."""

    checked_to: int = 0  # the highest audit_seals.id checked
    untrusted: int = 0  # seals with id <= checked_to whose MAC does not verify
    untrusted_ids: tuple[int, ...] = ()  # the newest of them


@dataclass(frozen=True)
class RecordedCheckpoint:
    """A row of audit_checkpoints: a checkpoint the app wrote to the store."""

    record_id: int
    created_at: datetime
    digest: bytes
    census: SealCensus


def _record_mac(
    audit_key: bytes, database: str, created_at: datetime, digest: bytes, census: SealCensus
) -> bytes:
    message = b"".join(
        (
            database.encode(),
            b"\x00",
            created_at.astimezone(UTC).isoformat().encode(),
            b"\x00",
            digest,
            struct.pack(
                f">qqI{len(census.untrusted_ids)}q",
                census.checked_to,
                census.untrusted,
                len(census.untrusted_ids),
                *census.untrusted_ids,
            ),
        )
    )
    return hmac.digest(audit_key, RECORD_DOMAIN + message, "sha256")


CENSUS_PAGE = 500
CENSUS_MAX = 100_000  # seals checked per checkpoint at most (a first run over a long trail)


async def take_census(
    connection: AsyncConnection, audit_key: bytes, previous: SealCensus
) -> SealCensus:
    """Check the MAC of every seal added since `previous` (at most CENSUS_MAX of them)."""
    checked_to, untrusted, ids = (
        previous.checked_to,
        previous.untrusted,
        list(previous.untrusted_ids),
    )
    checked = 0
    while checked < CENSUS_MAX:
        rows = (
            await connection.execute(
                text(
                    f"SELECT {SEAL_COLUMNS} FROM audit_seals s "  # noqa: S608 (constants only)
                    "WHERE s.id > :after ORDER BY s.id LIMIT :n"
                ),
                {"after": checked_to, "n": CENSUS_PAGE},
            )
        ).all()
        for row in rows:
            if verified_format(audit_key, row._mapping) is None:
                untrusted += 1
                ids.insert(0, int(row.id))
            checked_to = int(row.id)
        checked += len(rows)
        if len(rows) < CENSUS_PAGE:
            break
    return SealCensus(checked_to, untrusted, tuple(ids[:UNTRUSTED_LISTED]))


async def record_written(
    connection: AsyncConnection, audit_key: bytes, checkpoint: Checkpoint, census: SealCensus
) -> None:
    """Record a checkpoint just written to the store in audit_checkpoints (in the caller's
    transaction: if it is not committed, the store merely holds one more)."""
    digest = bytes.fromhex(checkpoint.digest())
    mac = _record_mac(audit_key, checkpoint.database, checkpoint.created_at, digest, census)
    await connection.execute(
        text(
            "INSERT INTO audit_checkpoints (created_at, digest, seals_checked_to, "
            "untrusted_seals, untrusted_seal_ids, mac) VALUES (:at, :d, :to, :n, :ids, :m)"
        ),
        {
            "at": checkpoint.created_at,
            "d": digest,
            "to": census.checked_to,
            "n": census.untrusted,
            "ids": list(census.untrusted_ids),
            "m": mac,
        },
    )


RECORDED_PAGE = 50


async def database_name(connection: AsyncConnection) -> str:
    """The database's name, asked once per pooled connection (readiness polls this path: a
    round trip less each time)."""
    info = connection.info
    if "carevault_database" not in info:
        info["carevault_database"] = str(await connection.scalar(text("SELECT current_database()")))
    return str(info["carevault_database"])


async def latest_recorded(
    connection: AsyncConnection, audit_key: bytes, database: str
) -> RecordedCheckpoint | None:
    """The newest row of audit_checkpoints whose MAC verifies. Rows anyone could INSERT
    without the key do not verify and are passed over."""
    below: int | None = None
    while True:
        rows = (
            await connection.execute(
                text(
                    "SELECT id, created_at, digest, seals_checked_to, untrusted_seals, "
                    "untrusted_seal_ids, mac FROM audit_checkpoints "
                    "WHERE CAST(:below AS bigint) IS NULL OR id < :below "
                    "ORDER BY id DESC LIMIT :n"
                ),
                {"below": below, "n": RECORDED_PAGE},
            )
        ).all()
        for row in rows:
            digest = bytes(row.digest)
            try:
                census = SealCensus(
                    int(row.seals_checked_to),
                    int(row.untrusted_seals),
                    tuple(int(i) for i in row.untrusted_seal_ids),
                )
                expected = _record_mac(audit_key, database, row.created_at, digest, census)
            except (TypeError, ValueError, struct.error):
                continue
            if hmac.compare_digest(expected, bytes(row.mac)):
                return RecordedCheckpoint(int(row.id), row.created_at, digest, census)
        if len(rows) < RECORDED_PAGE:
            return None
        below = int(rows[-1].id)


async def measure_trail(connection: AsyncConnection, audit_key: bytes | None) -> Lag:
    """The sealing lag (measure_lag), with every seal known not to verify: those the
    checkpoint writer found (its latest record) and those past the frontier it has not
    checked yet."""
    lag = await measure_lag(connection, audit_key)
    if audit_key is None:
        return lag
    recorded = await latest_recorded(connection, audit_key, await database_name(connection))
    if recorded is None:
        return lag
    census = recorded.census
    newer = [i for i in lag.untrusted_seal_ids if i > census.checked_to]
    # The lag's list is capped: past the cap, count its seals as not yet checked.
    beyond = max(0, lag.untrusted_seals - len(lag.untrusted_seal_ids))
    return replace(
        lag,
        untrusted_seals=census.untrusted + len(newer) + beyond,
        untrusted_seal_ids=tuple([*newer, *census.untrusted_ids][:UNTRUSTED_LISTED]),
    )


def store_gap(
    latest: Checkpoint | None, recorded: RecordedCheckpoint | None, description: str
) -> str | None:
    """Why the store cannot be what the app last wrote to it, or None. The store may hold a
    newer checkpoint than the one recorded (a record whose transaction did not commit), never
    an older one or none."""
    if recorded is None:
        return None
    when = recorded.created_at.isoformat()
    if latest is None:
        return (
            f"the checkpoint store {description} holds no checkpoint for this database, but "
            f"the database records one written at {when} (audit_checkpoints id "
            f"{recorded.record_id}): the store was emptied or replaced"
        )
    if latest.created_at < recorded.created_at:
        return (
            f"the newest checkpoint in {description} ({latest.created_at.isoformat()}) is "
            f"older than the one the database records ({when}, audit_checkpoints id "
            f"{recorded.record_id}): the store was rewound or newer checkpoints were removed"
        )
    return None


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


def coverage_grace_seconds(checkpoint_interval_seconds: float) -> float:
    """How old a seal may be before the newest checkpoint must cover it: the writer checks
    every interval whether the newest checkpoint is older than the interval, so a seal is
    covered within two intervals while checkpoints are written."""
    return 2 * checkpoint_interval_seconds


async def unchecked_history(
    connection: AsyncConnection, audit_key: bytes, description: str, grace_seconds: float
) -> str | None:
    """Why a first checkpoint must not be written now: the chain's oldest seal that verifies
    is older than `grace_seconds` (a store that lost its checkpoints, not a new install)."""
    after = 0
    while True:
        rows = (
            await connection.execute(
                text(
                    f"SELECT {SEAL_COLUMNS}, s.sealed_at, "  # noqa: S608 (constants only)
                    "s.sealed_at < now() - make_interval(secs => :grace) AS old "
                    "FROM audit_seals s WHERE s.id > :after ORDER BY s.id LIMIT :n"
                ),
                {"after": after, "grace": grace_seconds, "n": RECORDED_PAGE},
            )
        ).all()
        for row in rows:
            if verified_format(audit_key, row._mapping) is None:
                continue
            if not row.old:
                return None
            return (
                f"the checkpoint store {description} holds no checkpoint for this database, "
                f"but the audit trail has seals from {row.sealed_at.isoformat()} (more than "
                f"{grace_seconds:g} s ago): its checkpoints were lost, or never written"
            )
        if len(rows) < RECORDED_PAGE:
            return None
        after = int(rows[-1].id)


async def write_checkpoint(
    connection: AsyncConnection,
    store: CheckpointStore,
    audit_key: bytes,
    *,
    start_new_chain: bool = False,
    grace_seconds: float | None = None,
) -> Checkpoint:
    """Sign the current verified heads and append them to the store, after checking that
    the store still holds the newest checkpoint recorded in the audit trail (else
    CheckpointGap, unless `start_new_chain`: an operator's decision), that an empty store is
    not the start of a chain over seals older than `grace_seconds` (idem), and that every chain of
    the previous checkpoint still holds the seal it recorded: a truncated or rewritten chain
    is refused, never blessed by a newer checkpoint."""
    database, heads = await chain_heads(connection, audit_key)
    previous = await asyncio.to_thread(store.latest, database)
    recorded = await latest_recorded(connection, audit_key, database)
    gap = store_gap(previous, recorded, store.description)
    if gap is None and previous is None and grace_seconds is not None:
        gap = await unchecked_history(connection, audit_key, store.description, grace_seconds)
    if gap is not None and not start_new_chain:
        raise CheckpointGap(
            f"{gap}; refusing to write a checkpoint over it. Restore the store, or after "
            f"`carevault audit verify` start a new chain with `{START_NEW_CHAIN}`"
        )
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
    census = await take_census(
        connection, audit_key, recorded.census if recorded is not None else SealCensus()
    )
    await asyncio.to_thread(store.append, checkpoint)
    await record_written(connection, audit_key, checkpoint, census)
    return checkpoint
