"""Sealing the audit trail after the fact.

A request appends its event with one INSERT and takes no lock. A sealer then groups the
events of each workspace (a chain) into seals, in rounds:

- Commit-safe order. Ids come from a sequence before commit, so a lower id can commit after a
  higher one. Every event therefore records the id of the transaction that inserted it
  (`txid`), and a round seals the events whose txid lies in [F, U): F is where the previous
  round stopped, U is below every transaction of this database that may still commit (the
  snapshot's xmin, except that transactions of *other* databases on the same server, which
  cannot write here, do not hold it back). Every transaction below U has ended, so every
  committed event in [F, U) is visible now and none can appear there later: no event is
  skipped and none is sealed twice.
- One round is one transaction: a sealer killed mid-round leaves nothing behind, and the next
  round starts again from F.
- One sealer at a time: each round first takes a transaction-level advisory lock; a process
  that does not get it skips the round. Seals are also unique per (chain, seq).
- A seal stores each event's SHA-256 content digest and an HMAC-SHA256, under the key ring's
  audit key, over its format, its chain position, the previous seal's MAC, the event ids and
  the digests. The key is never in the database, so nobody with only database access can
  forge a seal or rewrite a chain.
- Only seals whose MAC verifies are trusted. A role that can INSERT into audit_seals (the
  runtime role, unless the sealer has a role of its own: CAREVAULT_AUDIT_SEALER_DATABASE_URL)
  can add rows, but not valid ones:
  the frontier (where the next round starts), each chain's head (what the next seal links
  to) and the lag figures come from the newest seals that verify, walking back past any
  that do not (trusted_frontier, verified_heads). A forged row is counted and named, never
  followed; the next genuine seal of its chain takes the first free sequence number after
  the chain's genuine head and links to that head.
- Two digest formats, recorded per seal (`audit_seals.format`;
  docs/reference/audit-seal-format.md specifies both byte by byte):
  1. PostgreSQL hashes the text form of the event's row (EVENT_DIGEST_SQL). Rendering that
     text costs more than everything else verification does; seals of this format are
     still verified, and no longer written.
  2. PostgreSQL sends each event's binary encoding (EVENT_ENCODING_SQL, the row's binary
     send form) and the sealer hashes it; the seal also holds one SHA-256 over all its
     encodings (`content_digest`) so that `verify` checks a whole seal with one hash, and
     its MAC also covers its transaction range. Written from migration 0015 on.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import struct
import uuid
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

log = logging.getLogger(__name__)

NIL_WORKSPACE = uuid.UUID(int=0)  # the chain of events without a workspace
MAC_BYTES = 32
GENESIS_MAC = b"\x00" * MAC_BYTES
MISSING_DIGEST = b"\x00" * 32  # what verification reads for an event that is gone
SEAL_DOMAIN = b"carevault.audit.seal/1\x00"  # format 1's MAC message
SEAL_DOMAIN_V2 = b"carevault.audit.seal/2\x00"  # format 2's MAC message
EVENT_DOMAIN_V2 = b"carevault.audit.event/2\x00"  # format 2's event digests
CONTENT_DOMAIN_V2 = b"carevault.audit.seal-content/2\x00"  # format 2's content digest
FORMAT_TEXT = 1
FORMAT_BINARY = 2
SEAL_FORMATS = (FORMAT_TEXT, FORMAT_BINARY)
CURRENT_FORMAT = FORMAT_BINARY  # what the sealer writes
# pg_try_advisory_xact_lock(int, int): a namespace no other lock in CareVault uses.
SEALER_LOCK = (0x43564155, 0x5345414C)  # "CVAU", "SEAL"
DEFAULT_ROUND_LIMIT = 20_000

NO_AUDIT_KEY = "no audit key in the key ring; run `carevault keys add-audit-key`"


class AuditKeyMissing(RuntimeError):
    """The ring has no audit key: events are still written, but nothing can seal them."""

    def __init__(self) -> None:
        super().__init__(NO_AUDIT_KEY)


# The canonical form of an event, hashed by PostgreSQL (pg_catalog.sha256, PostgreSQL 11+):
# the text of a composite value of every column but txid. Composite output quotes what needs
# quoting and tells NULL from '', so no two different rows share it. Only occurred_at's text
# depends on session settings; pin_canonical_form() fixes them for the transaction.
EVENT_CANONICAL_SQL = (
    "ROW('carevault.audit.event/1', e.id, e.workspace_id, e.occurred_at, e.actor_user_id, "
    "e.actor_token_id, e.action, e.resource_type, e.resource_ids, e.ip_address, "
    "e.details)::text"
)
EVENT_DIGEST_SQL = f"pg_catalog.sha256(convert_to({EVENT_CANONICAL_SQL}, 'UTF8'))"


# Format 2: the binary send form of a composite of every column but txid (what
# PostgreSQL's record_send produces: column count, then per column its type's OID, its
# length or -1 for NULL, and its own binary send form). Nothing in it is rendered as text but
# the text columns themselves (sent in the client encoding, pinned to UTF8 below) and
# `details` (jsonb's send form is a version byte and its text). The text columns are cast to
# text so that the type OIDs in it do not depend on their declared lengths.
EVENT_ENCODING_SQL = (
    "record_send(ROW(e.id, e.workspace_id, e.occurred_at, e.actor_user_id, e.actor_token_id, "
    "e.action::text, e.resource_type::text, e.resource_ids, e.ip_address, e.details))"
)


async def pin_canonical_form(connection: AsyncConnection) -> None:
    """SET LOCAL what the text of a timestamptz (format 1) and the bytes of a text column
    (format 2) depend on; call in every transaction that computes EVENT_DIGEST_SQL or
    EVENT_ENCODING_SQL."""
    await connection.execute(
        text(
            "SELECT set_config('TimeZone', 'UTC', true), set_config('DateStyle', 'ISO, YMD', true),"
            " set_config('client_encoding', 'UTF8', true)"
        )
    )


def event_digest(encoding: bytes) -> bytes:
    """Format 2: an event's digest, from its encoding (EVENT_ENCODING_SQL)."""
    return hashlib.sha256(EVENT_DOMAIN_V2 + encoding).digest()


def content_digest(encodings: Iterable[bytes]) -> bytes:
    """Format 2: one digest over a seal's event encodings, in the seal's order. Encodings are
    self-delimiting (record_send's layout), so their concatenation is unambiguous."""
    digest = hashlib.sha256(CONTENT_DOMAIN_V2)
    for encoding in encodings:
        digest.update(encoding)
    return digest.digest()


# The highest txid bound below which every transaction of this database has ended. A
# transaction listed in pg_stat_activity as belonging to another database is not waited for;
# one that cannot be placed (hidden from this role, prepared, just started) is.
SAFE_UPPER_SQL = """
WITH snapshot AS (SELECT pg_current_snapshot() AS snap),
elsewhere AS (
    SELECT (backend_xid::text)::bigint AS xid32
    FROM pg_stat_activity
    WHERE backend_xid IS NOT NULL
      AND datid <> (SELECT oid FROM pg_database WHERE datname = current_database())
)
SELECT least(
    (pg_snapshot_xmax(snap)::text)::bigint,
    (SELECT min((x::text)::bigint) FROM pg_snapshot_xip(snap) AS x
     WHERE ((x::text)::bigint & 4294967295) NOT IN (SELECT xid32 FROM elsewhere))
) FROM snapshot
"""

# Constant SQL built from constants above; nothing user-supplied is interpolated. `digest`
# is format 1's digest, `encoding` format 2's encoding: a round computes only its format's.
EVENTS_SQL = {
    FORMAT_TEXT: f"SELECT e.id, e.workspace_id, e.txid, {EVENT_DIGEST_SQL} AS digest "  # noqa: S608
    "FROM audit_events e ",
    FORMAT_BINARY: f"SELECT e.id, e.workspace_id, e.txid, {EVENT_ENCODING_SQL} AS encoding "  # noqa: S608
    "FROM audit_events e ",
}

# Every column a seal's MAC covers, and its id (to name a seal that does not verify).
SEAL_COLUMNS = (
    "s.id, s.workspace_id, s.seq, s.event_ids, s.digests, s.total, s.prev_mac, s.mac, "
    "s.key_id, s.txid_from, s.txid_to, s.format, s.content_digest"
)
# Seals newest first in sealing order (the index on txid_to, workspace_id, seq, read
# backwards), resuming below (txid_to, workspace_id, seq).
_NEWEST_ORDER = "ORDER BY s.txid_to DESC, s.workspace_id DESC, s.seq DESC LIMIT :n"
NEWEST_SEALS_SQL = f"SELECT {SEAL_COLUMNS} FROM audit_seals s {_NEWEST_ORDER}"  # noqa: S608
NEWEST_SEALS_BELOW_SQL = (
    f"SELECT {SEAL_COLUMNS} FROM audit_seals s "  # noqa: S608 (constants only)
    f"WHERE (s.txid_to, s.workspace_id, s.seq) < (:t, :w, :q) {_NEWEST_ORDER}"
)
# The newest seal of each chain in :ws.
CHAIN_TOPS_SQL = (
    "SELECT t.* FROM unnest(CAST(:ws AS uuid[])) AS w CROSS JOIN LATERAL ("  # noqa: S608
    f"  SELECT {SEAL_COLUMNS} FROM audit_seals s WHERE s.workspace_id = w "
    "  ORDER BY s.seq DESC LIMIT 1) AS t"
)
# The newest seal of every chain.
ALL_CHAIN_TOPS_SQL = (
    f"SELECT DISTINCT ON (s.workspace_id) {SEAL_COLUMNS} FROM audit_seals s "  # noqa: S608
    "ORDER BY s.workspace_id, s.seq DESC"
)
# One chain's seals below seq :q, newest first.
CHAIN_BELOW_SQL = (
    f"SELECT {SEAL_COLUMNS} FROM audit_seals s "  # noqa: S608
    "WHERE s.workspace_id = :w AND s.seq < :q ORDER BY s.seq DESC LIMIT :n"
)
# The first sequence number after :n that no row of chain :w holds (rows that do not verify
# included: the unique constraint counts them too).
NEXT_FREE_SEQ_SQL = """
SELECT min(c.seq) FROM (
    SELECT CAST(:n AS bigint) + 1 AS seq
    UNION ALL
    SELECT s.seq + 1 FROM audit_seals s
    WHERE s.workspace_id = :w AND s.seq > :n AND s.seq < 9223372036854775807
) AS c
WHERE NOT EXISTS (SELECT 1 FROM audit_seals t WHERE t.workspace_id = :w AND t.seq = c.seq)
"""
WALK_PAGE = 100


def key_id(audit_key: bytes) -> bytes:
    """A public fingerprint of the audit key, stored with seals and checkpoints."""
    return hmac.digest(audit_key, b"carevault.audit.key-id", "sha256")[:8]


def seal_mac(
    audit_key: bytes,
    workspace_id: uuid.UUID,
    seq: int,
    total: int,
    prev_mac: bytes,
    event_ids: Sequence[int],
    digests: bytes,
) -> bytes:
    message = b"".join(
        (
            SEAL_DOMAIN,
            workspace_id.bytes,
            struct.pack(">QQI", seq, total, len(event_ids)),
            prev_mac,
            struct.pack(f">{len(event_ids)}q", *event_ids),
            digests,
        )
    )
    return hmac.digest(audit_key, message, "sha256")


def seal_mac_v2(
    audit_key: bytes,
    workspace_id: uuid.UUID,
    seq: int,
    total: int,
    prev_mac: bytes,
    txid_from: int,
    txid_to: int,
    event_ids: Sequence[int],
    digests: bytes,
    content: bytes,
) -> bytes:
    message = b"".join(
        (
            SEAL_DOMAIN_V2,
            workspace_id.bytes,
            struct.pack(">QQI", seq, total, len(event_ids)),
            prev_mac,
            struct.pack(">qq", txid_from, txid_to),
            struct.pack(f">{len(event_ids)}q", *event_ids),
            digests,
            content,
        )
    )
    return hmac.digest(audit_key, message, "sha256")


def mac_of_seal(audit_key: bytes, seal: Any, seal_format: int) -> bytes:
    """The MAC a seal row (a mapping with audit_seals' columns) should carry if it were of
    `seal_format`: the format is not read from the row, so that a changed marker shows."""
    workspace_id: uuid.UUID = seal["workspace_id"]
    if seal_format == FORMAT_TEXT:
        return seal_mac(
            audit_key,
            workspace_id,
            seal["seq"],
            seal["total"],
            seal["prev_mac"],
            seal["event_ids"],
            seal["digests"],
        )
    return seal_mac_v2(
        audit_key,
        workspace_id,
        seal["seq"],
        seal["total"],
        seal["prev_mac"],
        seal["txid_from"],
        seal["txid_to"],
        seal["event_ids"],
        seal["digests"],
        bytes(seal["content_digest"] or b""),
    )


def verified_format(audit_key: bytes, seal: Any) -> int | None:
    """The format in which a seal row's MAC verifies under `audit_key` (its stated format
    first), or None: a seal that does not verify was not made with the key and is not
    trusted. A malformed row (NULLs, out-of-range numbers) does not verify."""
    stated = seal["format"]
    order: tuple[int, ...] = SEAL_FORMATS
    if stated in SEAL_FORMATS:
        order = (int(stated), *(f for f in SEAL_FORMATS if f != stated))
    mac = seal["mac"]
    for seal_format in order:
        try:
            expected = mac_of_seal(audit_key, seal, seal_format)
        except (struct.error, TypeError, ValueError, OverflowError, AttributeError):
            return None
        if mac is not None and hmac.compare_digest(expected, bytes(mac)):
            return seal_format
    return None


def _trusted(audit_key: bytes | None, seal: Any) -> bool:
    return audit_key is not None and verified_format(audit_key, seal) is not None


@dataclass(frozen=True)
class Frontier:
    """Where sealing stands: the end (txid_to) of the newest seal whose MAC verifies, and
    the seals above it that do not verify (ids, newest first; at most UNTRUSTED_LISTED)."""

    txid: int
    untrusted: int = 0
    untrusted_ids: tuple[int, ...] = ()


UNTRUSTED_LISTED = 10


def untrusted_seals_message(count: int, ids: Sequence[int]) -> str:
    shown = ", ".join(str(i) for i in ids)
    more = f" and {count - len(ids)} more" if count > len(ids) else ""
    return (
        f"{count} audit seal(s) do not verify under the audit key (ids {shown}{more}): MAC "
        "does not verify, not trusted; run `carevault audit verify`"
    )


async def trusted_frontier(connection: AsyncConnection, audit_key: bytes | None) -> Frontier:
    """The sealer's frontier, from seals that verify only. Without a key nothing can be
    checked, so nothing is trusted (frontier 0)."""
    if audit_key is None:
        return Frontier(0)
    ids: list[int] = []
    after: tuple[int, uuid.UUID, int] | None = None
    size = 2  # the newest seal verifies almost always: read little first
    while True:
        if after is None:
            found = await connection.execute(text(NEWEST_SEALS_SQL), {"n": size})
        else:
            found = await connection.execute(
                text(NEWEST_SEALS_BELOW_SQL),
                {"t": after[0], "w": after[1], "q": after[2], "n": size},
            )
        rows = found.all()
        for row in rows:
            if _trusted(audit_key, row._mapping):
                return Frontier(int(row.txid_to), len(ids), tuple(ids[:UNTRUSTED_LISTED]))
            ids.append(int(row.id))
        if len(rows) < size:
            return Frontier(0, len(ids), tuple(ids[:UNTRUSTED_LISTED]))
        last = rows[-1]
        after, size = (int(last.txid_to), last.workspace_id, int(last.seq)), WALK_PAGE


@dataclass(frozen=True)
class SealHead:
    """A chain's newest seal that verifies, and the sequence number its next seal takes."""

    seq: int
    mac: bytes
    total: int
    last_event_id: int | None
    next_seq: int


async def _walk_back(
    connection: AsyncConnection, audit_key: bytes, workspace_id: uuid.UUID, below: int
) -> Any | None:
    """The newest seal of a chain below seq `below` that verifies, or None."""
    while True:
        rows = (
            await connection.execute(
                text(CHAIN_BELOW_SQL), {"w": workspace_id, "q": below, "n": WALK_PAGE}
            )
        ).all()
        for row in rows:
            if _trusted(audit_key, row._mapping):
                return row
        if len(rows) < WALK_PAGE:
            return None
        below = int(rows[-1].seq)


async def verified_heads(
    connection: AsyncConnection, audit_key: bytes, workspaces: list[uuid.UUID] | None
) -> dict[uuid.UUID, SealHead]:
    """Each chain's newest seal that verifies (of `workspaces`, or of every chain): what the
    next seal links to and what a checkpoint may record. A chain whose newest row does not
    verify is walked back (rare: only forged or altered rows make it); a chain with no seal
    that verifies has no head."""
    if workspaces is None:
        tops = (await connection.execute(text(ALL_CHAIN_TOPS_SQL))).all()
    else:
        tops = (await connection.execute(text(CHAIN_TOPS_SQL), {"ws": workspaces})).all()
    heads: dict[uuid.UUID, SealHead] = {}
    for top in tops:
        workspace_id = top.workspace_id
        genuine: Any = top
        if _trusted(audit_key, top._mapping):
            next_seq = int(top.seq) + 1
        else:
            genuine = await _walk_back(connection, audit_key, workspace_id, int(top.seq))
            start = int(genuine.seq) if genuine is not None else 0
            found = await connection.scalar(
                text(NEXT_FREE_SEQ_SQL), {"w": workspace_id, "n": start}
            )
            if found is None:
                raise RuntimeError(f"chain {workspace_id} has no free sequence number left")
            next_seq = int(found)
        if genuine is None:
            heads[workspace_id] = SealHead(0, GENESIS_MAC, 0, None, next_seq)
            continue
        ids = genuine.event_ids
        heads[workspace_id] = SealHead(
            int(genuine.seq),
            bytes(genuine.mac),
            int(genuine.total),
            int(ids[-1]) if ids else None,
            next_seq,
        )
    return heads


@dataclass(frozen=True)
class RoundResult:
    leader: bool
    events: int = 0
    seals: int = 0
    more: bool = False  # the round stopped at its limit: run another at once


@dataclass(frozen=True)
class Lag:
    unsealed_events: int  # capped at LAG_COUNT_CAP
    oldest_unsealed_seconds: float  # 0 when everything committed is sealed
    untrusted_seals: int = 0  # seals above the frontier whose MAC does not verify
    untrusted_seal_ids: tuple[int, ...] = ()  # the newest of them


LAG_COUNT_CAP = 100_000


async def seal_round(
    connection: AsyncConnection,
    audit_key: bytes,
    *,
    wait_for_lock: bool = False,
    limit: int = DEFAULT_ROUND_LIMIT,
    seal_format: int = CURRENT_FORMAT,
) -> RoundResult:
    """Seal what can safely be sealed, in the caller's transaction (commit it afterwards).
    `seal_format` other than CURRENT_FORMAT is for tests of trails written before it."""
    if seal_format not in SEAL_FORMATS:
        raise ValueError(f"unknown seal format {seal_format}")
    lock_key = {"a": SEALER_LOCK[0], "b": SEALER_LOCK[1]}
    if wait_for_lock:
        await connection.execute(text("SELECT pg_advisory_xact_lock(:a, :b)"), lock_key)
    elif not await connection.scalar(text("SELECT pg_try_advisory_xact_lock(:a, :b)"), lock_key):
        return RoundResult(leader=False)
    await pin_canonical_form(connection)
    frontier = (await trusted_frontier(connection, audit_key)).txid
    upper = int(await connection.scalar(text(SAFE_UPPER_SQL)))
    if upper <= frontier:
        return RoundResult(leader=True)
    events_sql = EVENTS_SQL[seal_format]
    rows = (
        await connection.execute(
            text(events_sql + "WHERE e.txid >= :f AND e.txid < :u ORDER BY e.txid, e.id LIMIT :n"),
            {"f": frontier, "u": upper, "n": limit + 1},
        )
    ).all()
    more = False
    if len(rows) > limit:
        # Cut at a transaction boundary so that the next round starts exactly where this
        # one stops; one transaction's events are never split (unless they alone exceed
        # the limit, then they are taken whole).
        cut = rows[limit].txid
        if cut > rows[0].txid:
            rows = [row for row in rows if row.txid < cut]
            upper, more = cut, True
        else:
            # The first transaction alone has more events than the limit: take it whole.
            rows = (
                await connection.execute(
                    text(events_sql + "WHERE e.txid = :t ORDER BY e.id"), {"t": cut}
                )
            ).all()
            upper, more = cut + 1, True
    if not rows:
        return RoundResult(leader=True, more=more)
    # Per chain, its events' ids and their digest (format 1) or encoding (format 2).
    chains: dict[uuid.UUID, list[tuple[int, bytes]]] = defaultdict(list)
    for row in rows:
        chains[row.workspace_id or NIL_WORKSPACE].append((row.id, bytes(row[3])))
    heads = await verified_heads(connection, audit_key, list(chains))
    fingerprint = key_id(audit_key)
    seals = []
    for workspace_id, events in chains.items():
        head = heads.get(workspace_id)
        seq, prev_mac, total = (
            (head.next_seq, head.mac, head.total) if head is not None else (1, GENESIS_MAC, 0)
        )
        ids = [event_id for event_id, _ in events]
        total += len(ids)
        seal: dict[str, Any] = {
            "workspace_id": workspace_id,
            "seq": seq,
            "event_ids": ids,
            "total": total,
            "prev_mac": prev_mac,
            "key_id": fingerprint,
            "txid_from": frontier,
            "txid_to": upper,
            "format": seal_format,
            "content_digest": None,
        }
        if seal_format == FORMAT_TEXT:
            seal["digests"] = b"".join(digest for _, digest in events)
        else:
            seal["digests"] = b"".join(event_digest(encoding) for _, encoding in events)
            seal["content_digest"] = content_digest(encoding for _, encoding in events)
        seal["mac"] = mac_of_seal(audit_key, seal, seal_format)
        seals.append(seal)
    await connection.execute(
        text(
            "INSERT INTO audit_seals (workspace_id, seq, event_ids, digests, total, prev_mac, "
            "mac, key_id, txid_from, txid_to, format, content_digest) VALUES (:workspace_id, "
            ":seq, :event_ids, :digests, :total, :prev_mac, :mac, :key_id, :txid_from, "
            ":txid_to, :format, :content_digest)"
        ),
        seals,
    )
    return RoundResult(leader=True, events=len(rows), seals=len(seals), more=more)


async def seal_all(
    engine: AsyncEngine,
    audit_key: bytes | None,
    *,
    wait_for_lock: bool,
    seal_format: int = CURRENT_FORMAT,
) -> int:
    """Rounds until nothing more can be sealed now; each round commits on its own."""
    if audit_key is None:
        raise AuditKeyMissing
    sealed = 0
    while True:
        async with engine.begin() as connection:
            result = await seal_round(
                connection, audit_key, wait_for_lock=wait_for_lock, seal_format=seal_format
            )
        sealed += result.events
        if not result.more:
            return sealed


async def measure_lag(connection: AsyncConnection, audit_key: bytes | None) -> Lag:
    """Committed events not sealed yet, and how long the oldest has waited, behind the
    frontier of seals that verify under `audit_key`; and the seals above it that do not."""
    frontier = await trusted_frontier(connection, audit_key)
    row = (
        await connection.execute(
            text(
                "SELECT (SELECT count(*) FROM (SELECT 1 FROM audit_events "
                "        WHERE audit_events.txid >= :f LIMIT :cap) AS c) AS unsealed, "
                "       (SELECT extract(epoch FROM now() - min(occurred_at))::float8 "
                "        FROM (SELECT occurred_at FROM audit_events "
                "              WHERE audit_events.txid >= :f "
                "              ORDER BY audit_events.txid LIMIT 100) AS o) AS oldest"
            ),
            {"cap": LAG_COUNT_CAP, "f": frontier.txid},
        )
    ).one()
    return Lag(
        int(row.unsealed),
        max(0.0, float(row.oldest or 0.0)),
        frontier.untrusted,
        frontier.untrusted_ids,
    )
