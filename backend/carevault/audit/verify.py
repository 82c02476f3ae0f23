"""`carevault audit verify`: check every chain of seals, every sealed event, the append-only
triggers and the sealing lag, against the latest checkpoint kept outside the database.

The work per event is PostgreSQL hashing the row's canonical text (the digest format the
seals fix) inside one aggregate query per run of seals of a chain (about 20,000 events),
whose result is compared with the run's sealed ids and digests in two C-level equality
tests; per seal, one HMAC. Only a run that differs is examined event by event. A full
verify replaces the two set queries (events never sealed, events sealed twice) by a count
when every sealed event has been accounted for (see _SealedSet). Incremental verification
starts at the seals the latest checkpoint names.
"""

from __future__ import annotations

import hmac
import itertools
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Literal

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from carevault.audit.checkpoints import ChainHead, Checkpoint
from carevault.audit.sealing import (
    EVENT_DIGEST_SQL,
    FRONTIER_SQL,
    GENESIS_MAC,
    MISSING_DIGEST,
    NIL_WORKSPACE,
    key_id,
    pin_canonical_form,
    seal_mac,
)

DIGEST_BYTES = 32
# (table, trigger) that make the audit tables append-only; see migrations 0001 and 0007.
EXPECTED_TRIGGERS = (
    ("audit_events", "audit_events_no_update_delete"),
    ("audit_events", "audit_events_no_truncate"),
    ("audit_seals", "audit_seals_no_update_delete"),
    ("audit_seals", "audit_seals_no_truncate"),
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


# Built from constants only. One page of seals, in chain order, resuming after (ws, seq).
SEALS_SQL = """
SELECT s.workspace_id, s.seq, s.event_ids, s.digests, s.total, s.prev_mac, s.mac, s.key_id,
       s.txid_from
FROM audit_seals s
LEFT JOIN unnest($1::uuid[], $2::bigint[]) AS c(ws, seq) ON c.ws = s.workspace_id
WHERE s.seq >= coalesce(c.seq, 1) AND (s.workspace_id, s.seq) > ($3::uuid, $4::bigint)
ORDER BY s.workspace_id, s.seq
LIMIT $5
"""
SEALS_PAGE = 500
# The digests of one chain's events in an id range, aggregated into one row: the ids in
# sealing order (txid, id) and their digests concatenated in the same order. For an intact
# run of seals they equal the seals' own ids and digests, compared in two C-level equality
# tests; anything else falls back to naming event by event.
EVENTS_RUN_SQL = (
    "SELECT array_agg(e.id ORDER BY e.txid, e.id) AS ids, max(e.txid) AS txid_max, "  # noqa: S608
    f"string_agg({EVENT_DIGEST_SQL}, ''::bytea ORDER BY e.txid, e.id) AS digests "
    "FROM audit_events e WHERE {chain} AND e.id >= $1 AND e.id <= $2"
)
EVENTS_OF_WORKSPACE_SQL = EVENTS_RUN_SQL.replace("{chain}", "e.workspace_id = $3")
EVENTS_WITHOUT_WORKSPACE_SQL = EVENTS_RUN_SQL.replace("{chain}", "e.workspace_id IS NULL")
EVENTS_BY_ID_SQL = f"SELECT e.id, {EVENT_DIGEST_SQL} FROM audit_events e WHERE e.id = ANY($1)"  # noqa: S608
CHUNK_EVENTS = 20_000  # sealed events whose digests are fetched in one query


@dataclass
class _Chain:
    workspace_id: uuid.UUID
    seq: int = 0
    mac: bytes = GENESIS_MAC
    started: bool = False
    last_event_id: int | None = None
    at_checkpoint: tuple[bytes, int] | None = None


async def check_triggers(connection: AsyncConnection, report: VerifyReport) -> None:
    rows = await connection.execute(
        text(
            "SELECT c.relname AS table_name, t.tgname, t.tgenabled::text AS tgenabled "
            "FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "WHERE c.relname IN ('audit_events', 'audit_seals') AND NOT t.tgisinternal"
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
) -> VerifyReport:
    """Run in one REPEATABLE READ transaction so that every query sees the same state."""
    started = time.perf_counter()
    report = VerifyReport(checkpoint=checkpoint)
    await pin_canonical_form(connection)
    await check_triggers(connection, report)
    fingerprint = key_id(audit_key)

    if checkpoint is not None and not checkpoint.signature_valid(audit_key):
        report.add(
            "BROKEN",
            f"the checkpoint of {checkpoint.created_at.isoformat()} does not verify under the "
            "audit key (altered, or signed with another key)",
        )
        checkpoint = None
    report.incremental = since_checkpoint and checkpoint is not None
    starts = {h.workspace_id: h for h in checkpoint.chains} if checkpoint else {}
    params = {
        "ws": list(starts) if report.incremental else [],
        "seqs": [h.seq for h in starts.values()] if report.incremental else [],
    }

    chains: dict[uuid.UUID, _Chain] = {}
    txid_floor: int | None = None if report.incremental else 0
    # The asyncpg connection under the caller's transaction: records, not ORM rows.
    raw: Any = (await connection.get_raw_connection()).driver_connection
    after: tuple[uuid.UUID, int] = (NIL_WORKSPACE, 0)
    # Whether the events sealed so far are, by construction, distinct rows behind the
    # sealer's frontier (see _SealedSet); a full verify only.
    sealed = _SealedSet() if not report.incremental else None
    while True:
        page = await raw.fetch(SEALS_SQL, params["ws"], params["seqs"], *after, SEALS_PAGE)
        if not page:
            break
        after = (page[-1]["workspace_id"], page[-1]["seq"])
        start = 0
        while start < len(page):
            # A run of seals of one chain, about CHUNK_EVENTS events: one query for them all.
            workspace_id = page[start]["workspace_id"]
            end, size = start, 0
            while (
                end < len(page)
                and page[end]["workspace_id"] == workspace_id
                and size < CHUNK_EVENTS
            ):
                size += len(page[end]["event_ids"])
                end += 1
            found, txid_max = await _event_digests(raw, workspace_id, page[start:end])
            if sealed is not None:
                sealed.add_run(workspace_id, page[start:end], found is None, txid_max)
            for row in page[start:end]:
                chain = chains.get(workspace_id)
                if chain is None:
                    chain = chains[workspace_id] = _Chain(workspace_id)
                floor = await _check_seal(
                    raw, report, chain, row, found, starts, audit_key, fingerprint
                )
                if floor is not None:
                    txid_floor = floor if txid_floor is None else min(txid_floor, floor)
            start = end
    report.chains = len(chains)

    if checkpoint is not None:
        _compare_with_checkpoint(report, checkpoint, chains)
    elif report.checkpoint is None:
        report.add(
            "WARNING",
            "no checkpoint to compare with: a deleted tail cannot be detected; "
            "run `carevault audit checkpoint`",
        )
    await _check_unsealed(connection, report, txid_floor or 0, lag_budget_seconds, sealed)
    report.seconds = time.perf_counter() - started
    return report


async def _event_digests(
    raw: Any, workspace_id: uuid.UUID, seals: list[Any]
) -> tuple[dict[int, bytes] | None, int | None]:
    """None when every event of `seals` is present and matches its sealed digest (and no
    other event of the chain lies among them); else the digest of each event of the chain
    in their id range, to name what differs. Second, the highest txid of those events."""
    sealed_ids = list(itertools.chain.from_iterable(row["event_ids"] for row in seals))
    if not sealed_ids:
        return {}, None
    low, high = min(sealed_ids), max(sealed_ids)
    if workspace_id == NIL_WORKSPACE:
        row = await raw.fetchrow(EVENTS_WITHOUT_WORKSPACE_SQL, low, high)
    else:
        row = await raw.fetchrow(EVENTS_OF_WORKSPACE_SQL, low, high, workspace_id)
    ids: list[int] = row["ids"] or []
    digests: bytes = row["digests"] or b""
    txid_max = row["txid_max"]
    if ids == sealed_ids and digests == b"".join([seal["digests"] for seal in seals]):
        return None, txid_max
    return {
        event_id: digests[index * DIGEST_BYTES : (index + 1) * DIGEST_BYTES]
        for index, event_id in enumerate(ids)
    }, txid_max


async def _check_seal(
    raw: Any,
    report: VerifyReport,
    chain: _Chain,
    row: Any,
    found: dict[int, bytes] | None,
    starts: dict[uuid.UUID, ChainHead],
    audit_key: bytes,
    fingerprint: bytes,
) -> int | None:
    """Check one seal against its chain and its events; returns its txid_from when the
    verification is incremental (the unsealed-events check starts at the oldest)."""
    workspace_id = chain.workspace_id
    name = chain_name(workspace_id)
    seq: int = row["seq"]
    ids: list[int] = row["event_ids"]
    digests: bytes = row["digests"]
    prev_mac: bytes = row["prev_mac"]
    mac: bytes = row["mac"]
    total: int = row["total"]
    report.seals += 1
    report.events += len(ids)

    expected = chain.seq + 1
    first_read = not chain.started
    chain.started = True
    if first_read and report.incremental and workspace_id in starts:
        pass  # the checkpoint vouches for this seal's place; its own MAC is checked below
    elif seq != expected:
        after = f"event {chain.last_event_id}" if chain.last_event_id else "the start"
        report.add(
            "BROKEN",
            f"{name}: seals {expected}-{seq - 1} missing (between {after} and event {ids[0]})",
        )
    elif prev_mac != chain.mac:
        report.add(
            "BROKEN",
            f"{name}: seal {seq} does not follow seal {chain.seq} (chain rewritten)",
        )

    if row["key_id"] != fingerprint:
        report.add(
            "BROKEN",
            f"{name}: seal {seq} was made under another audit key "
            f"(key id {bytes(row['key_id']).hex()}, the ring's is {fingerprint.hex()})",
        )
    elif not hmac.compare_digest(
        seal_mac(audit_key, workspace_id, seq, total, prev_mac, ids, digests), mac
    ):
        report.add(
            "BROKEN",
            f"{name}: seal {seq} (events {ids[0]}-{ids[-1]}) does not verify under the "
            "audit key (chain rewritten or seal altered)",
        )
    if found is not None:
        get = found.get
        actual = b"".join([get(event_id, MISSING_DIGEST) for event_id in ids])
        if actual != digests:
            # Rare: look again by id alone, so that an event moved to another chain reads as
            # altered (its digest covers its workspace), not as deleted.
            lost = [event_id for event_id in ids if event_id not in found]
            if lost:
                for event_id, digest in await raw.fetch(EVENTS_BY_ID_SQL, lost):
                    found[event_id] = digest
                actual = b"".join([get(event_id, MISSING_DIGEST) for event_id in ids])
        if actual != digests:
            _report_events(report, name, seq, ids, digests, actual)

    chain.seq, chain.mac = seq, mac
    chain.last_event_id = ids[-1] if ids else chain.last_event_id
    head = starts.get(workspace_id)
    if head is not None and head.seq == seq:
        chain.at_checkpoint = (mac, int(total))
    return int(row["txid_from"]) if report.incremental else None


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


@dataclass
class _SealedSet:
    """What a full verify learns about the set S of sealed event ids while it reads them.

    If every run of seals matched its events exactly (the rows of the chain in the run's id
    range are exactly the run's ids, each once), and the runs of each chain cover disjoint,
    increasing id ranges, then the ids in S are distinct and each is an existing row of
    that chain. If moreover every such row has a txid below the sealer's frontier F, then S
    is a subset of E, the events with txid below F; and |E| = |S| then means E = S: no
    event behind the frontier is unsealed and none is sealed twice. That replaces two set
    queries over the whole table by one count; whenever a condition fails, the set queries
    run and name the events, exactly as before. (Runs overlap when a transaction that took
    its ids early commits after the next run's first event: correct, only slower.)"""

    exact: bool = True
    count: int = 0
    txid_max: int = -1
    highs: dict[uuid.UUID, int] = field(default_factory=dict)

    def add_run(
        self, workspace_id: uuid.UUID, seals: list[Any], matched: bool, txid_max: int | None
    ) -> None:
        ids = list(itertools.chain.from_iterable(row["event_ids"] for row in seals))
        if not ids:
            return
        low, high = min(ids), max(ids)
        previous = self.highs.get(workspace_id)
        if not matched or txid_max is None or (previous is not None and low <= previous):
            self.exact = False
        self.highs[workspace_id] = high
        self.count += len(ids)
        self.txid_max = max(self.txid_max, txid_max or -1)


async def _check_unsealed(
    connection: AsyncConnection,
    report: VerifyReport,
    txid_floor: int,
    budget: float,
    sealed: _SealedSet | None = None,
) -> None:
    frontier = int(await connection.scalar(text(FRONTIER_SQL)) or 0)
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
            text(
                "SELECT id FROM audit_events WHERE txid >= :floor AND txid < :frontier "
                "EXCEPT SELECT unnest(event_ids) FROM audit_seals WHERE txid_to > :floor "
                "ORDER BY 1 LIMIT :n"
            ),
            {"floor": txid_floor, "frontier": frontier, "n": LISTED + 1},
        )
    ]
    if behind:
        report.add(
            "BROKEN",
            f"events {_ids(behind)} were never sealed although the sealer has passed them "
            "(inserted behind its back)",
        )
    twice = [
        int(row.id)
        for row in await connection.execute(
            text(
                "SELECT id FROM (SELECT unnest(event_ids) AS id FROM audit_seals "
                "WHERE txid_to > :floor) AS sealed GROUP BY id HAVING count(*) > 1 "
                "ORDER BY id LIMIT :n"
            ),
            {"floor": txid_floor, "n": LISTED + 1},
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
