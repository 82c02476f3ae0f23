"""Helpers for audit-trail tests: what an attacker with database access computes to forge
seals, and an independent implementation of the format-2 event encoding from its
specification in docs/reference/audit-seal-format.md."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import struct
import uuid
from datetime import UTC, datetime
from typing import Any, TypedDict

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


class ForgedSeal(TypedDict):
    digests: bytes
    content_digest: bytes | None  # format 1 has none
    mac: bytes


async def forged_seal(
    connection: asyncpg.Connection, seal: asyncpg.Record, prev_mac: bytes, key: bytes
) -> ForgedSeal:
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


# The format-2 test vector of docs/reference/audit-seal-format.md, between these markers.
VECTOR_BEGIN = "<!-- audit-seal-vector:begin -->"
VECTOR_END = "<!-- audit-seal-vector:end -->"
VECTOR_KEY = bytes(range(32))
VECTOR_EVENT: dict[str, Any] = {
    "id": 42,
    "workspace_id": uuid.UUID("00112233-4455-6677-8899-aabbccddeeff"),
    "occurred_at": datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC),
    "actor_user_id": uuid.UUID("10000000-0000-4000-8000-000000000001"),
    "actor_token_id": None,
    "action": "session.read",
    "resource_type": "session",
    "resource_ids": [uuid.UUID("20000000-0000-4000-8000-000000000002")],
    "ip_address": "203.0.113.7",
    "details_text": '{"version": 3}',
}
VECTOR_SEAL: dict[str, Any] = {"seq": 1, "total": 1, "txid_from": 0, "txid_to": 1000}


def _lines(value: bytes) -> str:
    digits = value.hex()
    return "\n".join(digits[i : i + 64] for i in range(0, len(digits), 64))


def vector_block() -> str:
    """The vector recomputed from the specification with hashlib and hmac alone (the layout
    of each hash and MAC input written out again here, not taken from carevault)."""
    encoding = encode_event(**VECTOR_EVENT)
    digest = hashlib.sha256(b"carevault.audit.event/2\x00" + encoding).digest()
    content = hashlib.sha256(b"carevault.audit.seal-content/2\x00" + encoding).digest()
    seal = VECTOR_SEAL
    message = (
        b"carevault.audit.seal/2\x00"
        + VECTOR_EVENT["workspace_id"].bytes
        + struct.pack(">QQI", seal["seq"], seal["total"], 1)
        + b"\x00" * 32
        + struct.pack(">qq", seal["txid_from"], seal["txid_to"])
        + struct.pack(">q", VECTOR_EVENT["id"])
        + digest
        + content
    )
    mac = hmac.digest(VECTOR_KEY, message, "sha256")
    event = VECTOR_EVENT
    return "\n".join(
        [
            "```text",
            f"audit key       {VECTOR_KEY.hex()}",
            f"id              {event['id']}",
            f"workspace_id    {event['workspace_id']}",
            f"occurred_at     {event['occurred_at'].isoformat()}",
            f"actor_user_id   {event['actor_user_id']}",
            "actor_token_id  NULL",
            f"action          {event['action']}",
            f"resource_type   {event['resource_type']}",
            f"resource_ids    {{{event['resource_ids'][0]}}}",
            f"ip_address      {event['ip_address']}",
            f"details         {event['details_text']}",
            f"encoding ({len(encoding)} bytes)",
            _lines(encoding),
            f"digest          {digest.hex()}",
            "seal            workspace_id as above, seq 1, total 1, txid_from 0, txid_to 1000,",
            "                prev_mac 32 zero bytes (the first seal), event_ids [42]",
            f"content_digest  {content.hex()}",
            f"MAC message ({len(message)} bytes)",
            _lines(message),
            f"mac             {mac.hex()}",
            "```",
        ]
    )
