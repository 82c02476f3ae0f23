"""Helpers for audit-trail tests: what an attacker with database access computes to forge
seals, and an independent implementation of the format-2 event encoding from its
specification in docs/operations.md ("Seal formats")."""

from __future__ import annotations

import ipaddress
import struct
import uuid
from datetime import UTC, datetime

import asyncpg

from carevault.audit.sealing import (
    EVENT_DIGEST_SQL,
    EVENT_ENCODING_SQL,
    FORMAT_TEXT,
    content_digest,
    event_digest,
    seal_mac,
    seal_mac_v2,
)

EPOCH_2000 = datetime(2000, 1, 1, tzinfo=UTC)
OID_INT8, OID_TEXT, OID_UUID, OID_UUID_ARRAY = 20, 25, 2950, 2951
OID_TIMESTAMPTZ, OID_INET, OID_JSONB = 1184, 869, 3802


async def digests_of(connection: asyncpg.Connection, ids: list[int], seal_format: int) -> bytes:
    """The digests of the events `ids` as they are now, in `seal_format`, concatenated."""
    await connection.execute("SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'")
    if seal_format == FORMAT_TEXT:
        query = f"SELECT {EVENT_DIGEST_SQL} FROM audit_events e WHERE e.id = $1"
        return b"".join([bytes(await connection.fetchval(query, i)) for i in ids])
    return b"".join(event_digest(encoding) for encoding in await encodings_of(connection, ids))


async def encodings_of(connection: asyncpg.Connection, ids: list[int]) -> list[bytes]:
    query = f"SELECT {EVENT_ENCODING_SQL} FROM audit_events e WHERE e.id = $1"
    return [bytes(await connection.fetchval(query, i)) for i in ids]


async def forged_seal(
    connection: asyncpg.Connection, seal: asyncpg.Record, prev_mac: bytes, key: bytes
) -> dict[str, bytes | None]:
    """New digests, content digest and MAC for a seal row (with every audit_seals column)
    over its events as they are now, made under `key` in the seal's own format."""
    ids = [int(i) for i in seal["event_ids"]]
    digests = await digests_of(connection, ids, seal["format"])
    if seal["format"] == FORMAT_TEXT:
        workspace = seal["workspace_id"]
        mac = seal_mac(key, workspace, seal["seq"], seal["total"], prev_mac, ids, digests)
        return {"digests": digests, "content_digest": None, "mac": mac}
    content = content_digest(await encodings_of(connection, ids))
    mac = seal_mac_v2(
        key,
        seal["workspace_id"],
        seal["seq"],
        seal["total"],
        prev_mac,
        seal["txid_from"],
        seal["txid_to"],
        ids,
        digests,
        content,
    )
    return {"digests": digests, "content_digest": content, "mac": mac}


def _field(oid: int, value: bytes | None) -> bytes:
    if value is None:
        return struct.pack(">Ii", oid, -1)
    return struct.pack(">Ii", oid, len(value)) + value


def encode_event(
    *,
    id: int,
    workspace_id: uuid.UUID | None,
    occurred_at: datetime,
    actor_user_id: uuid.UUID | None,
    actor_token_id: uuid.UUID | None,
    action: str,
    resource_type: str | None,
    resource_ids: list[uuid.UUID | None] | None,
    ip_address: str | None,
    details_text: str | None,
) -> bytes:
    """Format 2's encoding written from the specification alone (no PostgreSQL). `details_text`
    is the jsonb value's text as PostgreSQL writes it."""

    def uuid_bytes(value: uuid.UUID | None) -> bytes | None:
        return value.bytes if value is not None else None

    def text_bytes(value: str | None) -> bytes | None:
        return value.encode("utf-8") if value is not None else None

    delta = occurred_at - EPOCH_2000
    micros = (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds
    array = None
    if resource_ids is not None:
        if not resource_ids:
            array = struct.pack(">iiI", 0, 0, OID_UUID)
        else:
            has_null = any(i is None for i in resource_ids)
            array = struct.pack(">iiIii", 1, int(has_null), OID_UUID, len(resource_ids), 1)
            for item in resource_ids:
                array += struct.pack(">i", -1) if item is None else b"\x00\x00\x00\x10" + item.bytes
    inet = None
    if ip_address is not None:
        address = ipaddress.ip_interface(ip_address)
        family = 2 if address.version == 4 else 3
        packed = address.ip.packed
        inet = struct.pack(">BBBB", family, address.network.prefixlen, 0, len(packed)) + packed
    details = b"\x01" + details_text.encode("utf-8") if details_text is not None else None
    fields = (
        _field(OID_INT8, struct.pack(">q", id)),
        _field(OID_UUID, uuid_bytes(workspace_id)),
        _field(OID_TIMESTAMPTZ, struct.pack(">q", micros)),
        _field(OID_UUID, uuid_bytes(actor_user_id)),
        _field(OID_UUID, uuid_bytes(actor_token_id)),
        _field(OID_TEXT, text_bytes(action)),
        _field(OID_TEXT, text_bytes(resource_type)),
        _field(OID_UUID_ARRAY, array),
        _field(OID_INET, inet),
        _field(OID_JSONB, details),
    )
    return struct.pack(">i", len(fields)) + b"".join(fields)
