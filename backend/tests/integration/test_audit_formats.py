"""Seal formats 1 and 2 side by side: chains sealed in format 1 and then format 2 verify;
changing any column a format-2 digest covers is named with the exact message; the format
marker cannot be changed without detection; and PostgreSQL's encoding is the one the
specification describes (tests/audit_support.encode_event, written from it)."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

import carevault.audit.verify as verify_module
from carevault.audit.checkpoints import FileStore, write_checkpoint
from carevault.audit.sealing import (
    EVENT_ENCODING_SQL,
    FORMAT_BINARY,
    FORMAT_TEXT,
    SAFE_UPPER_SQL,
    event_digest,
    seal_round,
)
from carevault.audit.verify import VerifyReport, verify
from carevault.crypto.keyring import new_key_material
from carevault.db.engine import create_engine
from tests.support.audit import VECTOR_EVENT, digests_of, encode_event, vector_block
from tests.support.db import NewDatabase

KEY = new_key_material()


@pytest.fixture
async def engine(new_database: NewDatabase) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(await new_database(), pool_size=2)
    yield engine
    await engine.dispose()


def dsn(engine: AsyncEngine) -> str:
    return engine.url.render_as_string(hide_password=False).replace("+asyncpg", "")


@asynccontextmanager
async def as_superuser(engine: AsyncEngine) -> AsyncIterator[asyncpg.Connection]:
    """A transaction of the engine's own connection (no new server process per call), run
    as someone with superuser access: triggers and foreign keys off, committed at the end."""
    async with engine.connect() as pooled:
        connection = (await pooled.get_raw_connection()).driver_connection
        assert isinstance(connection, asyncpg.Connection)
        async with connection.transaction():
            await connection.execute("SET LOCAL session_replication_role = replica")
            yield connection


async def superuser(engine: AsyncEngine, *statements: str) -> None:
    """Run statements as someone with superuser access, triggers and foreign keys off."""
    async with as_superuser(engine) as connection:
        for statement in statements:
            await connection.execute(statement)


async def add_event(engine: AsyncEngine, workspace: uuid.UUID | None = None, **columns: str) -> int:
    """One committed event; `columns` are SQL expressions (foreign keys are not checked)."""
    values = {"workspace_id": f"'{workspace}'" if workspace else "NULL", "action": "'test.event'"}
    values.update(columns)
    async with as_superuser(engine) as connection:
        return int(
            await connection.fetchval(
                f"INSERT INTO audit_events ({', '.join(values)}) "
                f"VALUES ({', '.join(values.values())}) RETURNING id"
            )
        )


async def seal(engine: AsyncEngine, seal_format: int = FORMAT_BINARY) -> int:
    """One round over every event added so far. A round stops below any transaction it
    cannot place, and in a parallel run one may be starting in another test's database:
    wait (bounded) until the newest event is below that bound, so the round holds them all."""
    deadline = time.monotonic() + 10
    async with engine.connect() as connection:
        while time.monotonic() < deadline:
            upper = await connection.scalar(text(SAFE_UPPER_SQL))
            newest = await connection.scalar(text("SELECT max(txid) FROM audit_events"))
            await connection.rollback()
            if newest is None or upper > newest:
                break
            await asyncio.sleep(0.02)
    async with engine.begin() as connection:
        result = await seal_round(connection, KEY, seal_format=seal_format)
    assert not result.more
    return result.events


async def check(
    engine: AsyncEngine, store: FileStore | None = None, *, since_checkpoint: bool = False
) -> VerifyReport:
    async with engine.connect() as connection:
        connection = await connection.execution_options(isolation_level="REPEATABLE READ")
        async with connection.begin():
            database = str(await connection.scalar(text("SELECT current_database()")))
            latest = store.latest(database) if store is not None else None
            return await verify(
                connection, KEY, checkpoint=latest, since_checkpoint=since_checkpoint
            )


def problems(report: VerifyReport) -> list[str]:
    return [str(finding) for finding in report.findings if finding.severity != "WARNING"]


async def formats(engine: AsyncEngine, workspace: uuid.UUID) -> list[int]:
    async with engine.connect() as connection:
        rows = await connection.execute(
            text("SELECT format FROM audit_seals WHERE workspace_id = :w ORDER BY seq"),
            {"w": workspace},
        )
        return [int(row.format) for row in rows]


async def test_a_chain_sealed_in_format_1_then_in_format_2_verifies(
    engine: AsyncEngine, tmp_path: Path
) -> None:
    """An upgraded trail: format-1 seals, then format 2; during a rolling upgrade a sealer of
    the previous version may still seal a round in format 1 between format-2 rounds."""
    workspace = uuid.uuid4()
    events = []
    for seal_format in (FORMAT_TEXT, FORMAT_TEXT, FORMAT_BINARY, FORMAT_TEXT, FORMAT_BINARY):
        events += [await add_event(engine, workspace) for _ in range(3)]
        events.append(await add_event(engine))  # the chain of events without a workspace
        assert await seal(engine, seal_format) == 4
    assert await formats(engine, workspace) == [1, 1, 2, 1, 2]
    report = await check(engine)
    assert problems(report) == [] and report.events == len(events) and report.seals == 10

    # Incremental from a checkpoint whose heads are format-2 seals, over mixed seals after it.
    store = FileStore(tmp_path / "checkpoints.jsonl")
    async with engine.begin() as connection:
        await write_checkpoint(connection, store, KEY)
    for seal_format in (FORMAT_TEXT, FORMAT_BINARY):
        events.append(await add_event(engine, workspace))
        await seal(engine, seal_format)
    report = await check(engine, store, since_checkpoint=True)
    # The heads' own seals (3 + 1 events) and the two after them.
    assert problems(report) == [] and report.incremental and report.events == 4 + 2
    report = await check(engine, store)
    assert problems(report) == [] and report.events == len(events)

    # Tampering is named in either format, by the rules of the seal's own format.
    in_format_1, in_format_2 = events[4], events[8]  # seals 2 and 3 of the workspace
    await superuser(
        engine,
        f"UPDATE audit_events SET action = 'x' WHERE id IN ({in_format_1}, {in_format_2})",
    )
    assert problems(await check(engine, store)) == [
        f"BROKEN: workspace {workspace}: event {in_format_1} altered after sealing (seal 2)",
        f"BROKEN: workspace {workspace}: event {in_format_2} altered after sealing (seal 3)",
    ]


async def test_batches_of_rounds_split_by_size_and_format_verify(
    engine: AsyncEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Verify reads seals a page at a time and events a batch of rounds at a time; tiny pages
    and batches make every boundary (page, batch, format change) fall inside the data."""
    monkeypatch.setattr(verify_module, "CHUNK_EVENTS", 3)
    monkeypatch.setattr(verify_module, "ROUNDS_PAGE", 2)
    monkeypatch.setattr(verify_module, "CHAIN_PAGE", 2)
    spaces = [uuid.uuid4(), uuid.uuid4(), None]
    events = []
    for round_number in range(8):
        for space in spaces[: 1 + round_number % 3]:
            events.append(await add_event(engine, space))
        await seal(engine, FORMAT_TEXT if round_number in (2, 3, 6) else FORMAT_BINARY)

    async def no_event_by_event_check(*args: object) -> None:
        raise AssertionError("an intact seal was checked event by event")

    with monkeypatch.context() as patched:
        # Every intact seal matches its round's group: nothing is looked up event by event.
        patched.setattr(verify_module, "_check_events_by_id", no_event_by_event_check)
        report = await check(engine)
    assert problems(report) == [] and report.events == len(events)
    target = events[9]
    await superuser(engine, f"UPDATE audit_events SET details = '{{}}' WHERE id = {target}")
    found = problems(await check(engine))
    assert len(found) == 1 and f"event {target} altered after sealing" in found[0]


NEW_ACTOR = "'7d0c4f5e-0000-4000-8000-000000000001'"
# (column, new value as SQL, which event: the one with every column set or the sparse one)
COVERED_CHANGES = [
    ("occurred_at", "occurred_at + interval '1 microsecond'", "full"),
    ("actor_user_id", NEW_ACTOR, "full"),
    ("actor_user_id", NEW_ACTOR, "sparse"),
    ("actor_token_id", "NULL", "full"),
    ("action", "'client.read'", "full"),
    ("resource_type", "'client'", "full"),
    ("resource_type", "''", "sparse"),  # empty is not NULL
    ("resource_ids", "resource_ids[2:2] || resource_ids[1:1]", "full"),  # order matters
    ("resource_ids", "'{}'", "sparse"),
    ("ip_address", "'203.0.113.7/24'", "full"),  # the same address, another netmask
    ("ip_address", "'2001:db8::1'", "full"),
    ("ip_address", "'0.0.0.0'", "sparse"),
    ("details", """'{"version": 4}'""", "full"),
    ("details", "'null'::jsonb", "sparse"),  # JSON null is not SQL NULL
]


@pytest.mark.parametrize(("column", "value", "which"), COVERED_CHANGES)
async def test_changing_a_covered_column_of_a_format_2_event_is_named(
    engine: AsyncEngine, column: str, value: str, which: str
) -> None:
    workspace = uuid.uuid4()
    full = await add_event(
        engine,
        workspace,
        actor_user_id="gen_random_uuid()",
        actor_token_id="gen_random_uuid()",
        action="'session.read'",
        resource_type="'session'",
        resource_ids="ARRAY[gen_random_uuid(), gen_random_uuid()]",
        ip_address="'203.0.113.7'",
        details="""'{"version": 3, "note": "é"}'""",
    )
    sparse = await add_event(engine, workspace)
    await add_event(engine, workspace)
    assert await seal(engine) == 3
    assert await formats(engine, workspace) == [FORMAT_BINARY]
    target = full if which == "full" else sparse
    await superuser(engine, f"UPDATE audit_events SET {column} = {value} WHERE id = {target}")
    assert problems(await check(engine)) == [
        f"BROKEN: workspace {workspace}: event {target} altered after sealing (seal 1)"
    ]


async def test_moving_a_format_2_event_to_another_chain_is_named(engine: AsyncEngine) -> None:
    """The workspace is covered: the event reads as altered in its own chain, not deleted."""
    workspace, other = uuid.uuid4(), uuid.uuid4()
    moved = await add_event(engine, workspace)
    unscoped = await add_event(engine)
    await add_event(engine, other)
    await seal(engine)
    await superuser(
        engine,
        f"UPDATE audit_events SET workspace_id = '{other}' WHERE id = {moved}",
        f"UPDATE audit_events SET workspace_id = '{workspace}' WHERE id = {unscoped}",
    )
    assert sorted(problems(await check(engine))) == sorted(
        [
            f"BROKEN: workspace {workspace}: event {moved} altered after sealing (seal 1)",
            f"BROKEN: events without a workspace: event {unscoped} altered after sealing (seal 1)",
        ]
    )


async def test_changing_the_id_of_a_format_2_event_is_named(engine: AsyncEngine) -> None:
    workspace = uuid.uuid4()
    ids = [await add_event(engine, workspace) for _ in range(3)]
    await seal(engine)
    # The id is GENERATED ALWAYS: changing it is a copy under the new id and a delete.
    await superuser(
        engine,
        f"INSERT INTO audit_events OVERRIDING SYSTEM VALUE SELECT {ids[1] + 1000}, "
        "workspace_id, occurred_at, actor_user_id, actor_token_id, action, resource_type, "
        f"resource_ids, ip_address, details, txid FROM audit_events WHERE id = {ids[1]}",
        f"DELETE FROM audit_events WHERE id = {ids[1]}",
    )
    assert problems(await check(engine)) == [
        f"BROKEN: workspace {workspace}: event {ids[1]} deleted (sealed in seal 1)",
        f"BROKEN: events {ids[1] + 1000} were never sealed although the sealer has passed them "
        "(inserted behind its back, or their seal does not verify)",
    ]


async def seal_row(engine: AsyncEngine, workspace: uuid.UUID) -> tuple[int, int]:
    first, last, _ = await seal_row_and_id(engine, workspace)
    return first, last


async def seal_row_and_id(engine: AsyncEngine, workspace: uuid.UUID) -> tuple[int, int, int]:
    """The first and last event of the chain's seal 1, and the seal's id."""
    async with engine.connect() as connection:
        row = (
            await connection.execute(
                text(
                    "SELECT event_ids[1] AS first, event_ids[cardinality(event_ids)] AS last, "
                    "id FROM audit_seals WHERE workspace_id = :w AND seq = 1"
                ),
                {"w": workspace},
            )
        ).one()
    return int(row.first), int(row.last), int(row.id)


@pytest.mark.parametrize(("sealed_in", "marked"), [(2, 1), (1, 2), (2, 3)])
async def test_a_changed_format_marker_is_named(
    engine: AsyncEngine, sealed_in: int, marked: int
) -> None:
    """The MAC covers the format: a seal whose marker was changed does not verify as what it
    says. Its events are still checked in the format it was sealed in, so none is named."""
    workspace = uuid.uuid4()
    for _ in range(2):
        await add_event(engine, workspace)
    await seal(engine, sealed_in)
    first, last = await seal_row(engine, workspace)
    await superuser(engine, f"UPDATE audit_seals SET format = {marked}")
    assert problems(await check(engine)) == [
        f"BROKEN: workspace {workspace}: seal 1 (events {first}-{last}) says format {marked} "
        f"but was sealed in format {sealed_in} (format marker altered)"
    ]


async def test_a_format_2_seal_rewritten_as_format_1_does_not_verify(engine: AsyncEngine) -> None:
    """A downgrade done thoroughly: marker, format-1 digests of the rows, no content digest.
    Everything but the MAC is consistent, and the MAC cannot be made without the key."""
    workspace = uuid.uuid4()
    ids = [await add_event(engine, workspace) for _ in range(2)]
    await seal(engine)
    first, last, seal_id = await seal_row_and_id(engine, workspace)
    connection = await asyncpg.connect(dsn(engine))
    try:
        await connection.execute("SET session_replication_role = replica")
        digests = await digests_of(connection, ids, FORMAT_TEXT)
        await connection.execute(
            "UPDATE audit_seals SET format = 1, content_digest = NULL, digests = $1", digests
        )
    finally:
        await connection.close()
    assert problems(await check(engine)) == [
        f"BROKEN: workspace {workspace}: seal 1 (id {seal_id}, events {first}-{last}): MAC does "
        "not verify under the audit key (forged, rewritten or altered); not trusted"
    ]


@pytest.mark.parametrize(
    "change",
    [
        "content_digest = sha256(content_digest)",
        "txid_to = txid_to + 1",
        "txid_from = txid_from - 1",
    ],
)
async def test_the_rest_of_a_format_2_seal_is_covered_by_its_mac(
    engine: AsyncEngine, change: str
) -> None:
    workspace = uuid.uuid4()
    for _ in range(2):
        await add_event(engine, workspace)
    await seal(engine)
    first, last, seal_id = await seal_row_and_id(engine, workspace)
    await superuser(engine, f"UPDATE audit_seals SET {change}")
    assert problems(await check(engine)) == [
        f"BROKEN: workspace {workspace}: seal 1 (id {seal_id}, events {first}-{last}): MAC does "
        "not verify under the audit key (forged, rewritten or altered); not trusted"
    ]


async def test_the_encoding_is_the_one_the_specification_describes(engine: AsyncEngine) -> None:
    """PostgreSQL's format-2 encoding of varied rows, byte for byte against an encoder written
    from docs/reference/audit-seal-format.md alone; and the sealed digest is the specified hash
    of it."""
    workspace = uuid.uuid4()
    ids = [
        await add_event(
            engine,
            workspace,
            occurred_at="'1999-12-31 23:59:59.999999+00'",  # before 2000: negative
            actor_user_id="gen_random_uuid()",
            actor_token_id="gen_random_uuid()",
            action="'client.read'",
            resource_type="'client'",
            resource_ids="ARRAY[gen_random_uuid(), NULL, gen_random_uuid()]",
            ip_address="'2001:db8::1/64'",
            details="""'{"b": [1.50, true, null], "a": "é\\u00e9\\n", "zz": {}}'""",
        ),
        await add_event(engine, None, action="'auth.failed'", resource_ids="'{}'"),
        await add_event(engine, workspace, ip_address="'10.1.2.3'", details="'42'"),
    ]
    await seal(engine)
    connection = await asyncpg.connect(dsn(engine))
    try:
        rows = await connection.fetch(
            f"SELECT e.*, e.details::text AS details_text, {EVENT_ENCODING_SQL} AS encoding "
            "FROM audit_events e WHERE e.id = ANY($1) ORDER BY e.id",
            ids,
        )
        sealed = {
            event_id: bytes(row["digests"][index * 32 : (index + 1) * 32])
            for row in await connection.fetch("SELECT event_ids, digests FROM audit_seals")
            for index, event_id in enumerate(row["event_ids"])
        }
    finally:
        await connection.close()
    for row in rows:
        expected = encode_event(
            id=row["id"],
            workspace_id=row["workspace_id"],
            occurred_at=row["occurred_at"],
            actor_user_id=row["actor_user_id"],
            actor_token_id=row["actor_token_id"],
            action=row["action"],
            resource_type=row["resource_type"],
            resource_ids=row["resource_ids"],
            ip_address=str(row["ip_address"]) if row["ip_address"] is not None else None,
            details_text=row["details_text"],
        )
        assert bytes(row["encoding"]) == expected
        assert sealed[row["id"]] == event_digest(expected)


async def test_postgresql_encodes_the_documented_vector(engine: AsyncEngine) -> None:
    event = VECTOR_EVENT
    connection = await asyncpg.connect(dsn(engine))
    try:
        await connection.execute("SET session_replication_role = replica")
        encoding = await connection.fetchval(
            "INSERT INTO audit_events (id, workspace_id, occurred_at, actor_user_id, "
            "actor_token_id, action, resource_type, resource_ids, ip_address, details) "
            "OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb) "
            f"RETURNING (SELECT {EVENT_ENCODING_SQL} FROM (SELECT audit_events.*) AS e)",
            event["id"],
            event["workspace_id"],
            event["occurred_at"],
            event["actor_user_id"],
            event["actor_token_id"],
            event["action"],
            event["resource_type"],
            event["resource_ids"],
            event["ip_address"],
            event["details_text"],
        )
    finally:
        await connection.close()
    documented = vector_block().split(" bytes)\n")[1].split("\ndigest")[0].replace("\n", "")
    assert bytes(encoding).hex() == documented


async def test_an_incremental_verify_reads_no_round_the_checkpoint_already_covers(
    engine: AsyncEngine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A quiet chain's checkpointed head is an old seal: verifying from it must not read the
    events of every round between it and the seals that follow the checkpoint."""
    quiet, busy = uuid.uuid4(), uuid.uuid4()
    await add_event(engine, quiet)
    await seal(engine)
    for _ in range(4):
        await add_event(engine, busy)
        await seal(engine)
    store = FileStore(tmp_path / "checkpoints.jsonl")
    async with engine.begin() as connection:
        await write_checkpoint(connection, store, KEY)
    await add_event(engine, quiet)
    await add_event(engine, busy)
    await seal(engine)
    async with engine.connect() as connection:
        skipped = [
            (int(row.txid_from), int(row.txid_to))
            for row in await connection.execute(
                text(
                    "SELECT txid_from, txid_to FROM audit_seals WHERE workspace_id = :w AND seq < 4"
                ),
                {"w": busy},
            )
        ]
    read: list[tuple[int, int]] = []
    check_batch = verify_module._check_batch

    async def recording(raw: Any, report: VerifyReport, batch: list[Any], *args: Any) -> None:
        read.append((min(s["txid_from"] for s in batch), max(s["txid_to"] for s in batch)))
        await check_batch(raw, report, batch, *args)

    monkeypatch.setattr(verify_module, "_check_batch", recording)
    report = await check(engine, store, since_checkpoint=True)
    assert problems(report) == [] and report.events == 1 + 1 + 1 + 1
    assert read and all(end <= low or high <= start for start, end in read for low, high in skipped)
