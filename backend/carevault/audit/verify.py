"""`carevault audit verify`: check every chain of seals, every sealed event, the append-only
triggers and the sealing lag, against the latest checkpoint kept outside the database.

The work per event is PostgreSQL hashing the row and one slice comparison in Python; per
seal, one HMAC. Incremental verification starts at the seals the latest checkpoint names.
"""

from __future__ import annotations

import hmac
import time
import uuid
from dataclasses import dataclass, field
from typing import Literal

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from carevault.audit.checkpoints import Checkpoint
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


# Built from constants only.
SEALS_SQL = f"""
SELECT s.workspace_id, s.seq, s.event_ids, s.digests, s.total, s.prev_mac, s.mac, s.key_id,
       s.txid_from,
       (SELECT string_agg(CASE WHEN e.id IS NULL THEN decode(repeat('00', 32), 'hex')
                               ELSE {EVENT_DIGEST_SQL} END, ''::bytea ORDER BY u.ord)
        FROM unnest(s.event_ids) WITH ORDINALITY AS u(eid, ord)
        LEFT JOIN audit_events e ON e.id = u.eid) AS actual
FROM audit_seals s
LEFT JOIN unnest(CAST(:ws AS uuid[]), CAST(:seqs AS bigint[])) AS c(ws, seq)
       ON c.ws = s.workspace_id
WHERE s.seq >= coalesce(c.seq, 1)
ORDER BY s.workspace_id, s.seq
"""  # noqa: S608


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
    result = await connection.stream(text(SEALS_SQL), params)
    async for row in result:
        workspace_id: uuid.UUID = row.workspace_id
        chain = chains.get(workspace_id)
        if chain is None:
            chain = chains[workspace_id] = _Chain(workspace_id)
        name = chain_name(workspace_id)
        ids: list[int] = row.event_ids
        digests, actual = bytes(row.digests), bytes(row.actual or b"")
        report.seals += 1
        report.events += len(ids)
        if report.incremental:
            # Only seals after the checkpoint are read, so the unsealed-events check starts
            # at the oldest transaction they cover.
            floor = int(row.txid_from)
            txid_floor = floor if txid_floor is None else min(txid_floor, floor)

        expected = chain.seq + 1
        first_read = not chain.started
        chain.started = True
        if first_read and report.incremental and workspace_id in starts:
            pass  # the checkpoint vouches for this seal's place; its own MAC is checked below
        elif row.seq != expected:
            after = f"event {chain.last_event_id}" if chain.last_event_id else "the start"
            report.add(
                "BROKEN",
                f"{name}: seals {expected}-{row.seq - 1} missing (between {after} and "
                f"event {ids[0]})",
            )
        elif bytes(row.prev_mac) != chain.mac:
            report.add(
                "BROKEN",
                f"{name}: seal {row.seq} does not follow seal {chain.seq} (chain rewritten)",
            )

        if bytes(row.key_id) != fingerprint:
            report.add(
                "BROKEN",
                f"{name}: seal {row.seq} was made under another audit key "
                f"(key id {bytes(row.key_id).hex()}, the ring's is {fingerprint.hex()})",
            )
        elif not hmac.compare_digest(
            seal_mac(
                audit_key, workspace_id, row.seq, row.total, bytes(row.prev_mac), ids, digests
            ),
            bytes(row.mac),
        ):
            report.add(
                "BROKEN",
                f"{name}: seal {row.seq} (events {ids[0]}-{ids[-1]}) does not verify under the "
                "audit key (chain rewritten or seal altered)",
            )
        if actual != digests:
            _report_events(report, name, row.seq, ids, digests, actual)

        chain.seq, chain.mac = row.seq, bytes(row.mac)
        chain.last_event_id = ids[-1] if ids else chain.last_event_id
        head = starts.get(workspace_id)
        if head is not None and head.seq == row.seq:
            chain.at_checkpoint = (bytes(row.mac), int(row.total))
    report.chains = len(chains)

    if checkpoint is not None:
        _compare_with_checkpoint(report, checkpoint, chains)
    elif report.checkpoint is None:
        report.add(
            "WARNING",
            "no checkpoint to compare with: a deleted tail cannot be detected; "
            "run `carevault audit checkpoint`",
        )
    await _check_unsealed(connection, report, txid_floor or 0, lag_budget_seconds)
    report.seconds = time.perf_counter() - started
    return report


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


async def _check_unsealed(
    connection: AsyncConnection, report: VerifyReport, txid_floor: int, budget: float
) -> None:
    frontier = int(await connection.scalar(text(FRONTIER_SQL)) or 0)
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
