"""`carevault audit verify`: check every chain of seals, every sealed event, the append-only
triggers and the sealing lag, against the latest checkpoint kept outside the database.

Two passes over the seals. The first walks each chain in order and checks how its seals link
(sequence numbers, previous MACs, the checkpoint's heads); it reads no event. The second
reads the seals in sealing order, round after round, and checks each seal's MAC and its
events: one query per batch of rounds (about 20,000 events) reads the events of those rounds
in table order, through the txid index, and returns them grouped by chain and round, in
each seal's order, with each event's digest (format 1) or encoding (format 2) concatenated.
A seal is intact when its group's ids equal its own and the concatenated digests equal its
digests (format 1) or the SHA-256 of the concatenated encodings, computed here, equals its
content digest (format 2): per seal, a few C-level comparisons, one HMAC and for format 2
one hash; nothing per event in Python. Only a seal that differs is examined event by event,
by id. (Reading chain by chain instead visits every page of the table once per chain.)

Only seals whose MAC verifies are trusted. The first pass checks every seal's MAC (its
link needs it: a seal someone inserted without the key, e.g. with the runtime role's INSERT,
must not be taken for a chain's head); such a seal is named by its id ("MAC does not
verify"), its sequence number is skipped when linking, and neither its events nor its
transaction range count: the sealer's frontier, the set of sealed events and the heads are
those of verified seals only, as in the sealer itself.

After the seals, the checkpoint store itself: `verify` fails when the store lacks the newest
checkpoint the database records (audit_checkpoints, carevault/audit/checkpoints.py), or
when a verified seal made more than the grace period ago (two checkpoint intervals) is not
covered by the store's newest checkpoint.

A full verify replaces the two set queries (events never sealed, events sealed twice) by a
count when every sealed event has been accounted for (see _SealedSet). Incremental
verification starts at the seals the latest checkpoint names.
"""

from __future__ import annotations

import bisect
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Literal

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from carevault.audit.checkpoints import (
    START_NEW_CHAIN,
    ChainHead,
    Checkpoint,
    database_name,
    latest_recorded,
    store_gap,
)
from carevault.audit.sealing import (
    EVENT_DIGEST_SQL,
    EVENT_ENCODING_SQL,
    FORMAT_BINARY,
    FORMAT_TEXT,
    GENESIS_MAC,
    MISSING_DIGEST,
    NIL_WORKSPACE,
    SEAL_FORMATS,
    content_digest,
    event_digest,
    key_id,
    pin_canonical_form,
    trusted_frontier,
    verified_format,
)

DIGEST_BYTES = 32
# (table, trigger) that make the audit tables append-only; see migrations 0001, 0007, 0017.
EXPECTED_TRIGGERS = (
    ("audit_events", "audit_events_no_update_delete"),
    ("audit_events", "audit_events_no_truncate"),
    ("audit_seals", "audit_seals_no_update_delete"),
    ("audit_seals", "audit_seals_no_truncate"),
    ("audit_checkpoints", "audit_checkpoints_no_update_delete"),
    ("audit_checkpoints", "audit_checkpoints_no_truncate"),
)
LISTED = 10  # event ids named per finding before "…"

Severity = Literal["BROKEN", "LATE", "WARNING"]


@dataclass(frozen=True)
class Finding:
    severity: Severity
    message: str

    def __str__(self) -> str:
        return f"{self.severity}: {self.message}"


@dataclass
class VerifyReport:
    events: int = 0
    seals: int = 0
    chains: int = 0
    seconds: float = 0.0
    checkpoint: Checkpoint | None = None
    incremental: bool = False
    findings: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(f.severity in ("BROKEN", "LATE") for f in self.findings)

    @property
    def events_per_second(self) -> float:
        return self.events / self.seconds if self.seconds > 0 else 0.0

    def add(self, severity: Severity, message: str) -> None:
        self.findings.append(Finding(severity, message))


def chain_name(workspace_id: uuid.UUID) -> str:
    return (
        "events without a workspace"
        if workspace_id == NIL_WORKSPACE
        else f"workspace {workspace_id}"
    )


def _ids(ids: list[int], total: int | None = None) -> str:
    shown = ", ".join(str(i) for i in ids[:LISTED])
    more = (total if total is not None else len(ids)) - min(len(ids), LISTED)
    return shown + (f" and {more} more" if more > 0 else "")


# Built from constants only. The first pass: one page of seals in chain order, resuming
# after (ws, seq), with what linking them needs (no event ids but the first and the last).
# Every column of the MAC is read too: a seal is linked only if its MAC verifies.
CHAIN_SQL = """
SELECT s.id, s.workspace_id, s.seq, s.total, s.prev_mac, s.mac, s.txid_from, s.txid_to,
       s.event_ids, s.digests, s.key_id, s.format, s.content_digest, s.sealed_at,
       cardinality(s.event_ids) AS events, s.event_ids[1] AS first_id,
       s.event_ids[cardinality(s.event_ids)] AS last_id
FROM audit_seals s
LEFT JOIN unnest($1::uuid[], $2::bigint[]) AS c(ws, seq) ON c.ws = s.workspace_id
WHERE s.seq >= coalesce(c.seq, 1) AND (s.workspace_id, s.seq) > ($3::uuid, $4::bigint)
ORDER BY s.workspace_id, s.seq
LIMIT $5
"""
CHAIN_PAGE = 500  # with their event ids and digests, like ROUNDS_PAGE
# The second pass: one page of the same seals in sealing order (index on txid_to,
# workspace_id, seq), resuming after (txid_to, ws, seq).
ROUNDS_SQL = """
SELECT s.workspace_id, s.seq, s.event_ids, s.digests, s.total, s.prev_mac, s.mac, s.key_id,
       s.txid_from, s.txid_to, s.format, s.content_digest
FROM audit_seals s
LEFT JOIN unnest($1::uuid[], $2::bigint[]) AS c(ws, seq) ON c.ws = s.workspace_id
WHERE s.seq >= coalesce(c.seq, 1)
  AND (s.txid_to, s.workspace_id, s.seq) > ($3::bigint, $4::uuid, $5::bigint)
ORDER BY s.txid_to, s.workspace_id, s.seq
LIMIT $6
"""
ROUNDS_PAGE = 500
# Per format, what is concatenated for each event: its digest computed by PostgreSQL
# (format 1) or its encoding, hashed here (format 2).
EVENT_ITEM_SQL = {FORMAT_TEXT: EVENT_DIGEST_SQL, FORMAT_BINARY: EVENT_ENCODING_SQL}
# The events with txid in [$1, $2), grouped by chain and by the round that sealed them
# ($3: the rounds' txid bounds, ascending; bucket i is [$3[i], $3[i+1])), in sealing order
# (txid, id) within a group. A chain without a workspace is the NULL group.
EVENTS_BY_ROUND_SQL = {
    seal_format: (
        "SELECT s.workspace_id, s.bucket, array_agg(s.id) AS ids, max(s.txid) AS txid_max, "  # noqa: S608
        "string_agg(s.item, ''::bytea) AS items FROM ("
        "SELECT e.workspace_id, width_bucket(e.txid, $3::bigint[]) AS bucket, e.id, e.txid, "
        f"{item} AS item FROM audit_events e WHERE e.txid >= $1 AND e.txid < $2 "
        "ORDER BY 1, 2, e.txid, e.id) AS s GROUP BY 1, 2"
    )
    for seal_format, item in EVENT_ITEM_SQL.items()
}
EVENTS_BY_ID_SQL = {
    seal_format: f"SELECT e.id, {item} FROM audit_events e WHERE e.id = ANY($1)"  # noqa: S608
    for seal_format, item in EVENT_ITEM_SQL.items()
}
CHUNK_EVENTS = 20_000  # sealed events whose rows are read in one query
# The sort of a batch's encodings (about 330 bytes an event in memory) stays in memory.
VERIFY_WORK_MEM = "64MB"


@dataclass
class _Chain:
    workspace_id: uuid.UUID
    seq: int = 0
    mac: bytes = GENESIS_MAC
    started: bool = False
    last_event_id: int | None = None
    at_checkpoint: tuple[bytes, int] | None = None
    # The newest verified seal made before the grace period: a checkpoint must cover it.
    due: tuple[int, Any] | None = None  # seq, sealed_at


@dataclass
class _Untrusted:
    """What the first pass learnt of seals whose MAC does not verify (and of seals whose
    format marker was changed), for the second pass and the unsealed-event checks."""

    seals: set[tuple[uuid.UUID, int]] = field(default_factory=set)
    ids: list[int] = field(default_factory=list)
    formats: dict[tuple[uuid.UUID, int], int] = field(default_factory=dict)


async def check_triggers(connection: AsyncConnection, report: VerifyReport) -> None:
    rows = await connection.execute(
        text(
            "SELECT c.relname AS table_name, t.tgname, t.tgenabled::text AS tgenabled "
            "FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "WHERE c.relname IN ('audit_events', 'audit_seals', 'audit_checkpoints') "
            "AND NOT t.tgisinternal"
        )
    )
    state = {(row.table_name, row.tgname): str(row.tgenabled) for row in rows}
    for table, trigger in EXPECTED_TRIGGERS:
        enabled = state.get((table, trigger))
        if enabled is None:
            report.add("BROKEN", f"trigger {trigger} on {table} is missing")
        elif enabled == "D":
            report.add("BROKEN", f"trigger {trigger} on {table} is disabled")
        elif enabled == "R":
            report.add("BROKEN", f"trigger {trigger} on {table} fires only for replicas")
    source = await connection.scalar(
        text("SELECT prosrc FROM pg_proc WHERE proname = 'audit_events_refuse_change'")
    )
    if source is None or "RAISE EXCEPTION" not in str(source).upper():
        report.add("BROKEN", "function audit_events_refuse_change() no longer refuses changes")


async def verify(
    connection: AsyncConnection,
    audit_key: bytes,
    *,
    checkpoint: Checkpoint | None,
    since_checkpoint: bool = False,
    lag_budget_seconds: float = 30.0,
    checkpoint_grace_seconds: float = 600.0,
    store_description: str = "the checkpoint store",
) -> VerifyReport:
    """Run in one REPEATABLE READ transaction so that every query sees the same state.
    `checkpoint` is the store's newest checkpoint for this database (None: the store has
    none)."""
    started = time.perf_counter()
    report = VerifyReport(checkpoint=checkpoint)
    await pin_canonical_form(connection)
    await connection.execute(
        text("SELECT set_config('work_mem', :work_mem, true)"), {"work_mem": VERIFY_WORK_MEM}
    )
    await check_triggers(connection, report)

    if checkpoint is not None and not checkpoint.signature_valid(audit_key):
        report.add(
            "BROKEN",
            f"the checkpoint of {checkpoint.created_at.isoformat()} does not verify under the "
            "audit key (altered, or signed with another key)",
        )
        checkpoint = None
    report.incremental = since_checkpoint and checkpoint is not None
    starts = {h.workspace_id: h for h in checkpoint.chains} if checkpoint else {}
    scope = (list(starts), [h.seq for h in starts.values()]) if report.incremental else ([], [])
    # The asyncpg connection under the caller's transaction: records, not ORM rows.
    raw: Any = (await connection.get_raw_connection()).driver_connection

    due_before = await connection.scalar(
        text("SELECT now() - make_interval(secs => :grace)"),
        {"grace": checkpoint_grace_seconds},
    )
    untrusted = _Untrusted()
    chains, bounds = await _check_chains(
        raw, report, scope, starts, audit_key, untrusted, due_before
    )
    report.chains = len(chains)
    # Whether the events sealed so far are, by construction, distinct rows behind the
    # sealer's frontier (see _SealedSet); a full verify only.
    sealed = _SealedSet() if not report.incremental else None
    if bounds is not None:
        await _check_seals(raw, report, scope, bounds[1], untrusted, sealed)

    if checkpoint is not None:
        _compare_with_checkpoint(report, checkpoint, chains)
    database = await database_name(connection)
    gap = store_gap(
        report.checkpoint,
        await latest_recorded(connection, audit_key, database),
        store_description,
    )
    if gap is not None:
        report.add("BROKEN", f"{gap} (see `{START_NEW_CHAIN}`)")
    else:
        _check_coverage(report, checkpoint, chains, checkpoint_grace_seconds, store_description)
    txid_floor = (bounds[0] if bounds is not None else None) if report.incremental else 0
    await _check_unsealed(
        connection, report, txid_floor or 0, lag_budget_seconds, sealed, audit_key, untrusted
    )
    report.seconds = time.perf_counter() - started
    return report


async def _check_chains(
    raw: Any,
    report: VerifyReport,
    scope: tuple[list[uuid.UUID], list[int]],
    starts: dict[uuid.UUID, ChainHead],
    audit_key: bytes,
    untrusted: _Untrusted,
    due_before: Any,
) -> tuple[dict[uuid.UUID, _Chain], tuple[int, int] | None]:
    """The first pass: each seal's MAC, and how the verified seals of each chain link, in
    chain order. Returns the chains, and the lowest txid_from and txid_to among the seals
    (None when there is none)."""
    fingerprint = key_id(audit_key)
    chains: dict[uuid.UUID, _Chain] = {}
    lowest: tuple[int, int] | None = None
    after: tuple[uuid.UUID, int] = (NIL_WORKSPACE, 0)
    while True:
        page = await raw.fetch(CHAIN_SQL, *scope, *after, CHAIN_PAGE)
        if not page:
            return chains, lowest
        after = (page[-1]["workspace_id"], page[-1]["seq"])
        for row in page:
            workspace_id: uuid.UUID = row["workspace_id"]
            chain = chains.get(workspace_id)
            if chain is None:
                chain = chains[workspace_id] = _Chain(workspace_id)
            report.seals += 1
            if not _check_mac(report, row, audit_key, fingerprint, untrusted):
                chain.seq = max(chain.seq, int(row["seq"]))  # its number is taken, not linked
                continue
            low = (int(row["txid_from"]), int(row["txid_to"]))
            lowest = low if lowest is None else (min(lowest[0], low[0]), min(lowest[1], low[1]))
            _link(report, chain, row, starts)
            if row["sealed_at"] < due_before:
                chain.due = (int(row["seq"]), row["sealed_at"])


def _link(
    report: VerifyReport, chain: _Chain, row: Any, starts: dict[uuid.UUID, ChainHead]
) -> None:
    workspace_id = chain.workspace_id
    name = chain_name(workspace_id)
    seq: int = row["seq"]
    mac: bytes = row["mac"]
    report.events += row["events"] or 0

    expected = chain.seq + 1
    first_read = not chain.started
    chain.started = True
    if first_read and report.incremental and workspace_id in starts:
        pass  # the checkpoint vouches for this seal's place; its own MAC is checked later
    elif seq != expected:
        after = f"event {chain.last_event_id}" if chain.last_event_id else "the start"
        report.add(
            "BROKEN",
            f"{name}: seals {expected}-{seq - 1} missing (between {after} and event "
            f"{row['first_id']})",
        )
    elif row["prev_mac"] != chain.mac:
        report.add(
            "BROKEN",
            f"{name}: seal {seq} does not follow seal {chain.seq} (chain rewritten)",
        )
    chain.seq, chain.mac = seq, mac
    if row["events"]:
        chain.last_event_id = row["last_id"]
    head = starts.get(workspace_id)
    if head is not None and head.seq == seq:
        chain.at_checkpoint = (mac, int(row["total"]))


async def _check_seals(
    raw: Any,
    report: VerifyReport,
    scope: tuple[list[uuid.UUID], list[int]],
    lowest_txid_to: int,
    untrusted: _Untrusted,
    sealed: _SealedSet | None,
) -> None:
    """The second pass: every verified seal's events, in sealing order, a batch of whole
    rounds of one format at a time. Seals that do not verify are left out: their txid range
    and ids are whatever their author wrote."""
    after: tuple[int, uuid.UUID, int] = (lowest_txid_to, NIL_WORKSPACE, 0)
    batch: list[Any] = []
    size = 0
    while True:
        page = await raw.fetch(ROUNDS_SQL, *scope, *after, ROUNDS_PAGE)
        for row in page:
            if (row["workspace_id"], row["seq"]) in untrusted.seals:
                if sealed is not None:
                    sealed.exact = False
                continue
            # A batch ends between rounds: once it is big enough, where the format changes
            # (a round written by a sealer of the previous version during an upgrade), and
            # before a gap in the txid ranges, whose events are not to be read (an
            # incremental verify skips the rounds between a quiet chain's checkpointed
            # head and the next seal it checks).
            if batch and (
                row["format"] != batch[-1]["format"]
                or row["txid_from"] > batch[-1]["txid_to"]
                or (size >= CHUNK_EVENTS and row["txid_to"] != batch[-1]["txid_to"])
            ):
                await _check_batch(raw, report, batch, untrusted, sealed)
                batch, size = [], 0
            batch.append(row)
            size += len(row["event_ids"])
        if len(page) < ROUNDS_PAGE:
            break
        after = (page[-1]["txid_to"], page[-1]["workspace_id"], page[-1]["seq"])
    if batch:
        await _check_batch(raw, report, batch, untrusted, sealed)


async def _check_batch(
    raw: Any,
    report: VerifyReport,
    batch: list[Any],
    untrusted: _Untrusted,
    sealed: _SealedSet | None,
) -> None:
    stated = batch[0]["format"]
    bounds = sorted({int(s["txid_from"]) for s in batch} | {int(s["txid_to"]) for s in batch})
    groups: dict[tuple[uuid.UUID | None, int], Any] = {}
    if stated in SEAL_FORMATS:
        rows = await raw.fetch(EVENTS_BY_ROUND_SQL[stated], bounds[0], bounds[-1], bounds)
        for row in rows:
            workspace_id = row["workspace_id"]
            # The NULL group is the chain without a workspace, whose seals name the nil
            # UUID; a row that names the nil UUID itself belongs to no chain.
            chain = NIL_WORKSPACE if workspace_id is None else workspace_id
            groups[(None if workspace_id == NIL_WORKSPACE else chain, row["bucket"])] = row
    if sealed is not None:
        sealed.add_batch(bounds[0], bounds[-1])
    for seal in batch:
        seal_format = untrusted.formats.get((seal["workspace_id"], seal["seq"]), seal["format"])
        # The group of this seal's chain and round, if the seal spans exactly one round.
        index = bisect.bisect_left(bounds, seal["txid_from"])
        aligned = index + 1 < len(bounds) and bounds[index + 1] == seal["txid_to"]
        group = groups.pop((seal["workspace_id"], index + 1), None) if aligned else None
        ids: list[int] = seal["event_ids"]
        matched = (
            group is not None
            and seal_format == stated
            and group["ids"] == ids
            and (
                group["items"] == seal["digests"]
                if seal_format == FORMAT_TEXT
                else content_digest((group["items"],)) == seal["content_digest"]
            )
        )
        if sealed is not None:
            sealed.add_seal(len(ids), matched, group["txid_max"] if group is not None else None)
        if not matched:
            await _check_events_by_id(raw, report, seal, seal_format)


def _check_mac(
    report: VerifyReport, seal: Any, audit_key: bytes, fingerprint: bytes, untrusted: _Untrusted
) -> bool:
    """Whether a seal's MAC verifies; reports one that does not (by its id: its chain and
    number are whatever its author wrote), and records in `untrusted` the format to check
    its events in when its format marker was changed."""
    name = chain_name(seal["workspace_id"])
    seq: int = seal["seq"]
    stated: int = seal["format"]
    ids: list[int] = seal["event_ids"] or []
    events = f"events {ids[0]}-{ids[-1]}" if ids else "no events"
    place = (seal["workspace_id"], seq)
    verified = verified_format(audit_key, seal)
    if verified is None:
        untrusted.seals.add(place)
        untrusted.ids.append(int(seal["id"]))
        if seal["key_id"] != fingerprint:
            report.add(
                "BROKEN",
                f"{name}: seal {seq} (id {seal['id']}, {events}) was made under another audit "
                f"key (key id {bytes(seal['key_id'] or b'').hex()}, the ring's is "
                f"{fingerprint.hex()}): MAC does not verify; not trusted",
            )
        else:
            report.add(
                "BROKEN",
                f"{name}: seal {seq} (id {seal['id']}, {events}): MAC does not verify under "
                "the audit key (forged, rewritten or altered); not trusted",
            )
        return False
    if verified != stated:
        untrusted.formats[place] = verified
        report.add(
            "BROKEN",
            f"{name}: seal {seq} ({events}) says format {stated} but was sealed in format "
            f"{verified} (format marker altered)",
        )
    return True


async def _check_events_by_id(raw: Any, report: VerifyReport, seal: Any, seal_format: int) -> None:
    """The slow path: each event of the seal looked up by id alone (so that an event moved to
    another chain reads as altered, its digest covering its workspace, not as deleted)."""
    ids: list[int] = seal["event_ids"]
    digests: bytes = seal["digests"]
    found: dict[int, bytes] = {}
    for event_id, item in await raw.fetch(EVENTS_BY_ID_SQL[seal_format], ids):
        found[event_id] = item if seal_format == FORMAT_TEXT else event_digest(item)
    actual = b"".join([found.get(event_id, MISSING_DIGEST) for event_id in ids])
    if actual != digests:
        _report_events(report, chain_name(seal["workspace_id"]), seal["seq"], ids, digests, actual)


def _report_events(
    report: VerifyReport, name: str, seq: int, ids: list[int], digests: bytes, actual: bytes
) -> None:
    deleted: list[int] = []
    altered: list[int] = []
    for index, event_id in enumerate(ids):
        window = slice(index * DIGEST_BYTES, (index + 1) * DIGEST_BYTES)
        if actual[window] == digests[window]:
            continue
        (deleted if actual[window] == MISSING_DIGEST else altered).append(event_id)
    for event_id in deleted:
        report.add("BROKEN", f"{name}: event {event_id} deleted (sealed in seal {seq})")
    for event_id in altered:
        report.add("BROKEN", f"{name}: event {event_id} altered after sealing (seal {seq})")


def _compare_with_checkpoint(
    report: VerifyReport, checkpoint: Checkpoint, chains: dict[uuid.UUID, _Chain]
) -> None:
    when = checkpoint.created_at.isoformat()
    for head in checkpoint.chains:
        name = chain_name(head.workspace_id)
        chain = chains.get(head.workspace_id)
        recorded = (
            f"the checkpoint of {when} records {head.count} events up to event "
            f"{head.last_event_id} (seal {head.seq})"
        )
        if chain is None or chain.seq < head.seq:
            ends = (
                f"the database ends at seal {chain.seq} (event {chain.last_event_id})"
                if chain is not None and chain.seq > 0
                else "the database holds no seal of it"
            )
            report.add("BROKEN", f"{name}: tail deleted: {recorded}; {ends}")
        elif chain.at_checkpoint != (head.head_mac, head.count):
            report.add(
                "BROKEN",
                f"{name}: seal {head.seq} differs from the checkpoint of {when} (chain rewritten)",
            )


def _check_coverage(
    report: VerifyReport,
    checkpoint: Checkpoint | None,
    chains: dict[uuid.UUID, _Chain],
    grace: float,
    store: str,
) -> None:
    """Every verified seal made more than `grace` seconds ago must be covered by the store's
    newest checkpoint (its chain's head there at or past the seal): one line if not."""
    uncovered = []
    for chain in chains.values():
        if chain.due is None:
            continue
        head = checkpoint.head(chain.workspace_id) if checkpoint is not None else None
        if head is None or head.seq < chain.due[0]:
            uncovered.append(chain)
    if not uncovered:
        if report.checkpoint is None:
            report.add(
                "WARNING",
                "no checkpoint to compare with: a deleted tail cannot be detected; "
                "run `carevault audit checkpoint`",
            )
        return
    oldest = min(uncovered, key=lambda c: c.due[1] if c.due else 0)
    assert oldest.due is not None
    example = (
        f"{chain_name(oldest.workspace_id)}: seal {oldest.due[0]}, made at "
        f"{oldest.due[1].isoformat()}"
    )
    if report.checkpoint is None:
        report.add(
            "BROKEN",
            f"{store} holds no checkpoint for this database, but {len(uncovered)} chain(s) "
            f"have seals older than {grace:g} s that one must cover ({example}): the store "
            f"was emptied or replaced, or checkpoints are not written (see `{START_NEW_CHAIN}`)",
        )
        return
    report.add(
        "BROKEN",
        f"the newest checkpoint in {store} ({report.checkpoint.created_at.isoformat()}) does "
        f"not cover {len(uncovered)} chain(s)' seals older than {grace:g} s ({example}): newer "
        "checkpoints were removed (the store was rewound), or none has been written since "
        "(see the app's audit readiness)",
    )


@dataclass
class _SealedSet:
    """What a full verify learns about the set S of sealed event ids while it reads them.

    The rows of one batch are grouped by (chain, round); the batches cover disjoint,
    increasing txid ranges, so no row is in two groups. A seal *matched* when its group's
    ids are exactly its own (each row once) and their content is what it sealed; each group
    is compared with at most one seal. If every seal matched, the entries of S are distinct
    existing rows. If moreover every such row has a txid below the sealer's frontier F, then
    S is a subset of E, the events with txid below F; and |E| = |S| then means E = S: no
    event behind the frontier is unsealed and none is sealed twice. That replaces two set
    queries over the whole table by one count; whenever a condition fails, the set queries
    run and name the events, exactly as before."""

    exact: bool = True
    count: int = 0
    txid_max: int = -1
    txid_high: int | None = None  # the end of the latest batch's txid range

    def add_batch(self, low: int, high: int) -> None:
        if self.txid_high is not None and low < self.txid_high:
            self.exact = False
        self.txid_high = high

    def add_seal(self, events: int, matched: bool, txid_max: int | None) -> None:
        if not matched or txid_max is None:
            self.exact = False
        self.count += events
        self.txid_max = max(self.txid_max, txid_max if txid_max is not None else -1)


# Seals that do not verify (:ignored, their ids) seal nothing.
_NOT_IGNORED = "id NOT IN (SELECT unnest(CAST(:ignored AS bigint[])))"
NEVER_SEALED_SQL = (
    "SELECT id FROM audit_events WHERE txid >= :floor AND txid < :frontier "  # noqa: S608
    "EXCEPT SELECT unnest(event_ids) FROM audit_seals WHERE txid_to > :floor "
    f"AND {_NOT_IGNORED} ORDER BY 1 LIMIT :n"
)
SEALED_TWICE_SQL = (
    "SELECT id FROM (SELECT unnest(event_ids) AS id FROM audit_seals "  # noqa: S608
    f"WHERE txid_to > :floor AND {_NOT_IGNORED}) AS sealed GROUP BY id "
    "HAVING count(*) > 1 ORDER BY id LIMIT :n"
)


async def _check_unsealed(
    connection: AsyncConnection,
    report: VerifyReport,
    txid_floor: int,
    budget: float,
    sealed: _SealedSet | None,
    audit_key: bytes,
    untrusted: _Untrusted,
) -> None:
    frontier = (await trusted_frontier(connection, audit_key)).txid
    # Seals that do not verify seal nothing: their ids are left out of both set queries.
    ignored = {"ignored": untrusted.ids}
    if (
        sealed is not None
        and sealed.exact
        and txid_floor == 0
        and sealed.txid_max < frontier
        and sealed.count
        == int(
            await connection.scalar(
                text("SELECT count(*) FROM audit_events WHERE txid < :frontier"),
                {"frontier": frontier},
            )
        )
    ):
        await _check_late(connection, report, frontier, budget)
        return
    # Behind the sealer's frontier every committed event must be in a seal exactly once.
    behind = [
        int(row.id)
        for row in await connection.execute(
            text(NEVER_SEALED_SQL),
            {"floor": txid_floor, "frontier": frontier, "n": LISTED + 1, **ignored},
        )
    ]
    if behind:
        report.add(
            "BROKEN",
            f"events {_ids(behind)} were never sealed although the sealer has passed them "
            "(inserted behind its back, or their seal does not verify)",
        )
    twice = [
        int(row.id)
        for row in await connection.execute(
            text(SEALED_TWICE_SQL),
            {"floor": txid_floor, "n": LISTED + 1, **ignored},
        )
    ]
    if twice:
        report.add("BROKEN", f"events {_ids(twice)} are sealed more than once")
    await _check_late(connection, report, frontier, budget)


async def _check_late(
    connection: AsyncConnection, report: VerifyReport, frontier: int, budget: float
) -> None:
    late = await connection.execute(
        text(
            "SELECT id, count(*) OVER () AS n FROM audit_events "
            "WHERE txid >= :frontier AND occurred_at < now() - make_interval(secs => :budget) "
            "ORDER BY id LIMIT :n"
        ),
        {"frontier": frontier, "budget": budget, "n": LISTED},
    )
    rows = late.all()
    if rows:
        report.add(
            "LATE",
            f"{rows[0].n} event(s) unsealed for more than {budget:g} s (the sealing lag "
            f"budget): events {_ids([int(r.id) for r in rows], int(rows[0].n))}",
        )
