"""The database-side backend: pgcrypto seals and opens inside PostgreSQL with the same ring."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, select, text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession
from sqlalchemy.orm import aliased

from carevault.clients.models import Client
from carevault.crypto import (
    DecryptionError,
    FieldCipher,
    PhiBackend,
    current_cipher,
    envelope,
    install,
)
from carevault.crypto.datakeys import current_practice
from carevault.crypto.types import EncryptedString
from carevault.db.engine import create_engine
from carevault.db.migrate import upgrade_async
from carevault.runtime import pgcrypto_available
from tests.support import factories
from tests.support.db import RingHolder, embedded_server

pytestmark = pytest.mark.pgcrypto


@pytest.fixture
async def pgcrypto_engine(
    require_pgcrypto: None, shared_database_url: str, ring_holder: RingHolder
) -> AsyncIterator[AsyncEngine]:
    install(FieldCipher(ring_holder), PhiBackend.PGCRYPTO)
    engine = create_engine(shared_database_url, pool_size=2)
    yield engine
    await engine.dispose()
    install(FieldCipher(ring_holder), PhiBackend.AESGCM)


@pytest.fixture
async def pg_db(pgcrypto_engine: AsyncEngine) -> AsyncIterator[AsyncSession]:
    async with pgcrypto_engine.connect() as connection:
        transaction = await connection.begin()
        session = AsyncSession(
            bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False
        )
        try:
            yield session
        finally:
            await session.close()
            await transaction.rollback()


async def reread(db: AsyncSession, row_id: object) -> Client:
    db.expunge_all()
    return (await db.execute(select(Client).where(Client.id == row_id))).scalar_one()


@pytest.mark.parametrize("value", ["", "Zoë — 患者 🩺", "p" * 5000])
async def test_round_trip_inside_the_database(pg_db: AsyncSession, value: str) -> None:
    space = await factories.workspace(pg_db)
    row = await factories.client(pg_db, space, medical_history=value)
    assert (await reread(pg_db, row.id)).medical_history == value
    raw = await pg_db.scalar(
        text("SELECT medical_history FROM clients WHERE id = :id"), {"id": row.id}
    )
    assert raw[0] == envelope.FORMAT_PGCRYPTO_BOUND
    if value:
        assert value.encode() not in raw


async def test_database_sealed_values_are_read_by_the_application_backend(
    pg_db: AsyncSession, ring_holder: RingHolder
) -> None:
    space = await factories.workspace(pg_db)
    row = await factories.client(pg_db, space, first_name="Sealed in SQL")
    raw = await pg_db.scalar(text("SELECT first_name FROM clients WHERE id = :id"), {"id": row.id})
    app_cipher = current_cipher()
    binding = (space.id.bytes, row.id.bytes)
    assert app_cipher.open(raw, binding, b"clients.first_name") == "Sealed in SQL"
    # and the database opens what the application sealed: one column, both kinds
    sealed_by_app = app_cipher.seal("Sealed in Python", binding, b"clients.last_name")
    await pg_db.execute(
        text("UPDATE clients SET last_name = :v WHERE id = :id"), {"v": sealed_by_app, "id": row.id}
    )
    loaded = await reread(pg_db, row.id)
    assert (loaded.first_name, loaded.last_name) == ("Sealed in SQL", "Sealed in Python")


async def test_database_output_matches_the_python_reference(
    pg_db: AsyncSession, ring_holder: RingHolder
) -> None:
    key = ring_holder.ring.active.material
    assert key is not None
    sealed = await pg_db.scalar(
        text("SELECT carevault_pgc_encrypt(:p, :k, 7, 'clients.notes')"),
        {"p": b"reference", "k": key},
    )
    iv = sealed[5:21]
    assert sealed == envelope._seal_cbc_hmac_with_iv(key, 7, b"reference", b"clients.notes", iv)
    verified = await pg_db.scalar(
        text(
            "SELECT carevault_pgc_verify(CAST(:v AS bytea), ARRAY[7::bigint], "
            "ARRAY[CAST(:k AS bytea)], 'clients.notes')"
        ),
        {"v": sealed, "k": key},
    )
    assert verified is True


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        (
            "UPDATE clients SET notes = set_byte(notes, 30, get_byte(notes, 30) # 1)",
            "authentication failed",
        ),
        ("UPDATE clients SET notes = first_name", "authentication failed"),
        ("UPDATE clients SET notes = substring(notes FROM 1 FOR 40)", "truncated"),
        (
            "UPDATE clients SET notes = overlay(notes PLACING '\\x000000ff'::bytea FROM 2)",
            "not in the key ring",
        ),
    ],
    ids=["flipped-byte", "moved-column", "truncated", "unknown-version"],
)
async def test_tampering_raises_the_one_exception(
    pg_db: AsyncSession, sql: str, message: str
) -> None:
    space = await factories.workspace(pg_db)
    row = await factories.client(pg_db, space)
    await pg_db.execute(text(sql + " WHERE id = :id"), {"id": row.id})
    with pytest.raises(DecryptionError, match=message):
        await reread(pg_db, row.id)


async def test_retired_version_is_refused_by_the_database_path(
    pg_db: AsyncSession, ring_holder: RingHolder
) -> None:
    space = await factories.workspace(pg_db)
    row = await factories.client(pg_db, space)
    ring_holder.ring = ring_holder.ring.rotated().with_retired(1)
    with pytest.raises(DecryptionError, match="version 1 is retired"):
        await reread(pg_db, row.id)


async def test_keys_travel_only_as_bound_parameters(
    pgcrypto_engine: AsyncEngine, pg_db: AsyncSession, ring_holder: RingHolder
) -> None:
    statements: list[str] = []
    parameters: list[Any] = []

    def capture(conn: Any, cursor: Any, statement: str, params: Any, *_: Any) -> None:
        statements.append(statement)
        parameters.append(params)

    event.listen(pgcrypto_engine.sync_engine, "before_cursor_execute", capture)
    try:
        space = await factories.workspace(pg_db)
        row = await factories.client(pg_db, space)
        await reread(pg_db, row.id)
    finally:
        event.remove(pgcrypto_engine.sync_engine, "before_cursor_execute", capture)
    master = ring_holder.ring.active.material
    assert master is not None
    data_key = current_cipher().data_keys.material(ring_holder.ring, space.id.bytes, 1)
    assert data_key is not None
    sql = "\n".join(statements)
    assert "carevault_pgc_seal_bound" in sql and "carevault_pgc_open_bound" in sql
    for key in (master, data_key):
        for form in (key.hex(), key.hex().upper(), repr(key)):
            assert form not in sql
    sent = [value for params in parameters for value in params]
    flat = [item for value in sent for item in (value if isinstance(value, list) else [value])]
    # Only the practice's data key travels (in the sealing parameter, and to open); the
    # master key never leaves the application.
    assert any(isinstance(v, bytes) and v[4:36] == data_key for v in flat)
    assert data_key in flat
    assert not any(isinstance(v, bytes) and master in v for v in flat)


async def test_one_select_carries_each_data_key_once(
    pgcrypto_engine: AsyncEngine, pg_db: AsyncSession, ring_holder: RingHolder
) -> None:
    """Reading a client (many encrypted columns) sends the practice's keys once, bound."""
    space = await factories.workspace(pg_db)
    row = await factories.client(pg_db, space)
    pg_db.expunge_all()
    selects: list[tuple[str, Any]] = []

    def capture(conn: Any, cursor: Any, statement: str, params: Any, *_: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            selects.append((statement, params))

    other = aliased(Client)
    event.listen(pgcrypto_engine.sync_engine, "before_cursor_execute", capture)
    try:
        token = current_practice.set(space.id.bytes)
        try:
            await reread(pg_db, row.id)
            # Two tables (a self-join) in one statement: still one copy.
            joined = await pg_db.execute(
                select(Client.last_name, other.medical_history)
                .join(other, other.id == Client.id)
                .where(Client.id == row.id)
            )
            assert joined.one() == (row.last_name, row.medical_history)
        finally:
            current_practice.reset(token)
    finally:
        event.remove(pgcrypto_engine.sync_engine, "before_cursor_execute", capture)
    encrypted_columns = [c for c in Client.__table__.c if isinstance(c.type, EncryptedString)]
    assert len(encrypted_columns) > 1
    data_key = current_cipher().data_keys.material(ring_holder.ring, space.id.bytes, 1)
    assert data_key is not None
    [(statement, params), (joined_statement, joined_params)] = selects
    assert statement.count("carevault_pgc_open_bound") == len(encrypted_columns)
    assert joined_statement.count("carevault_pgc_open_bound") == 2

    def occurrences(value: Any) -> int:
        if isinstance(value, (list, tuple)):
            return sum(occurrences(item) for item in value)
        if isinstance(value, (bytes, bytearray, memoryview)):
            return bytes(value).count(data_key)
        return 0

    # Only counts are compared, so a failure never prints key material.
    for sql, sent in ((statement, params), (joined_statement, joined_params)):
        key_count = occurrences(list(sent))
        key_arrays = sum(1 for p in sent if isinstance(p, list) and data_key in p)
        key_in_sql = data_key.hex() in sql.lower()
        assert (key_count, key_arrays, key_in_sql) == (1, 1, False)


async def test_bound_format_matches_the_python_reference_byte_for_byte(
    pg_db: AsyncSession,
) -> None:
    data_key = bytes(range(32))
    workspace, row = uuid.uuid4(), uuid.uuid4()
    packed = (9).to_bytes(4, "big") + data_key + workspace.bytes + row.bytes + b"reference"
    sealed = await pg_db.scalar(
        text("SELECT carevault_pgc_seal_bound(:p, 'clients.notes')"), {"p": packed}
    )
    context = workspace.bytes + row.bytes + b"clients.notes"
    expected = envelope._seal_cbc_hmac_with_iv(
        data_key, 9, b"reference", context, sealed[5:21], format_byte=0x04
    )
    assert sealed == expected

    async def opened(ws: uuid.UUID, row_id: uuid.UUID, practice: uuid.UUID) -> bytes:
        result: bytes = await pg_db.scalar(
            text(
                "SELECT carevault_pgc_open_bound(:v, :w, :r, :p, ARRAY[9::bigint], "
                "ARRAY[CAST(:k AS bytea)], 'clients.notes')"
            ),
            {"v": sealed, "w": ws, "r": row_id, "p": practice, "k": data_key},
        )
        return result

    assert await opened(workspace, row, workspace) == b"\x00reference"
    assert (await opened(workspace, uuid.uuid4(), workspace))[:2] == b"\xff\x04"  # other row
    other = uuid.uuid4()
    assert (await opened(other, row, other))[:2] == b"\xff\x04"  # other practice
    assert (await opened(other, row, workspace))[:2] == b"\xff\x05"  # keys not its own


PG_BOUND_VECTORS = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "encryption_vectors.json").read_text("utf-8")
)["pgcrypto_bound_fields"]


@pytest.mark.parametrize("vector", PG_BOUND_VECTORS, ids=[v["name"] for v in PG_BOUND_VECTORS])
async def test_the_sql_function_opens_every_format_04_vector(
    pg_db: AsyncSession, vector: dict[str, Any]
) -> None:
    """The 0x04 vectors of docs/reference/encryption-vectors.md, opened by
    carevault_pgc_open_bound itself; and the SQL sealing function, given the vector's inputs,
    gives the vector's bytes but for the IV (random in SQL), which the Python reference then
    reproduces byte for byte."""
    data_key = bytes.fromhex(vector["data_key"])
    version = vector["key_version"]
    workspace, row = uuid.UUID(vector["workspace_id"]), uuid.UUID(vector["row_id"])
    expected = bytes.fromhex(vector["expected"])
    opened = await pg_db.scalar(
        text(
            "SELECT carevault_pgc_open_bound(:v, :w, :r, :w, ARRAY[CAST(:n AS bigint)], "
            "ARRAY[CAST(:k AS bytea)], :c)"
        ),
        {
            "v": expected,
            "w": workspace,
            "r": row,
            "n": version,
            "k": data_key,
            "c": vector["context"],
        },
    )
    assert opened == b"\x00" + vector["plaintext"].encode()
    packed = (
        version.to_bytes(4, "big")
        + data_key
        + workspace.bytes
        + row.bytes
        + vector["plaintext"].encode()
    )
    sealed = await pg_db.scalar(
        text("SELECT carevault_pgc_seal_bound(:p, :c)"), {"p": packed, "c": vector["context"]}
    )
    assert sealed[:5] == expected[:5] and len(sealed) == len(expected)
    assert sealed == envelope._seal_cbc_hmac_with_iv(
        data_key,
        version,
        vector["plaintext"].encode(),
        bytes.fromhex(vector["bound_context"]),
        sealed[5:21],
        format_byte=envelope.FORMAT_PGCRYPTO_BOUND,
    )


async def test_a_database_sealed_value_moved_to_another_row_is_refused(
    pg_db: AsyncSession,
) -> None:
    space = await factories.workspace(pg_db)
    first = await factories.client(pg_db, space, medical_history="first")
    second = await factories.client(pg_db, space, medical_history="second")
    await pg_db.execute(
        text(
            "UPDATE clients SET medical_history = (SELECT medical_history FROM clients "
            "WHERE id = :a) WHERE id = :b"
        ),
        {"a": first.id, "b": second.id},
    )
    with pytest.raises(DecryptionError, match="authentication failed"):
        await reread(pg_db, second.id)
    assert (await reread(pg_db, first.id)).medical_history == "first"


async def test_bulk_import_seals_in_the_database_without_copy(
    pg_db: AsyncSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    """COPY cannot call the sealing function: under this backend the importer INSERTs its
    batches, and the rows are format 0x04, read back like any other, all or none."""
    import asyncpg

    from carevault.audit.service import Actor
    from carevault.clients import importing

    copies: list[object] = []

    async def no_copy(*args: object, **kwargs: object) -> None:
        copies.append(args)

    monkeypatch.setattr(asyncpg.connection.Connection, "copy_records_to_table", no_copy)
    space = await factories.workspace(pg_db)
    source = "first_name,last_name,email,dob\nZoë,Ängström,zoe@example.org,1985-06-01\nAda,L,,\n"
    records = importing.validated(importing.read_rows(source, "csv"), phone_region="US")
    imported = await importing.import_clients(
        pg_db, Actor(space.id), space.id, records, source="t", batch_rows=1
    )
    assert imported == 2 and copies == []
    rows = (
        await pg_db.execute(
            text("SELECT id, first_name, email_bidx FROM clients WHERE workspace_id = :w"),
            {"w": space.id},
        )
    ).all()
    assert len(rows) == 2
    assert all(row.first_name[0] == envelope.FORMAT_PGCRYPTO_BOUND for row in rows)
    zoe_id = next(row.id for row in rows if row.email_bidx is not None)
    zoe = await reread(pg_db, zoe_id)
    assert (zoe.first_name, zoe.last_name, zoe.email) == ("Zoë", "Ängström", "zoe@example.org")
    assert str(zoe.date_of_birth) == "1985-06-01"

    bad = importing.validated(
        importing.read_rows("first_name,last_name\nA,B\n,C\n", "csv"), phone_region="US"
    )
    with pytest.raises(importing.ImportRejected):
        async with pg_db.begin_nested():
            await importing.import_clients(
                pg_db, Actor(space.id), space.id, bad, source="t", batch_rows=1
            )
    count = await pg_db.scalar(
        text("SELECT count(*) FROM clients WHERE workspace_id = :w"), {"w": space.id}
    )
    assert count == 2


async def test_a_server_without_pgcrypto_still_migrates_and_reports_unavailable() -> None:
    with embedded_server("no_pgcrypto") as url:  # the wheel ships no pgcrypto
        engine = create_engine(url, pool_size=1)
        try:
            await upgrade_async(engine)
            assert await pgcrypto_available(engine) is False
            async with engine.connect() as connection:
                functions = await connection.scalar(
                    text("SELECT count(*) FROM pg_proc WHERE proname LIKE 'carevault_pgc_%'")
                )
            assert functions == 5  # 0x02 encrypt/decrypt/verify, 0x04 seal/open
        finally:
            await engine.dispose()


async def test_legacy_database_sealed_values_still_read_in_both_modes(
    pg_db: AsyncSession, ring_holder: RingHolder
) -> None:
    """Format 0x02 values (sealed by the database under a master key before practice keys)
    open in the application, so no statement needs to carry a master key."""
    space = await factories.workspace(pg_db)
    row = await factories.client(pg_db, space)
    master = ring_holder.ring.active.material
    await pg_db.execute(
        text(
            "UPDATE clients SET notes = carevault_pgc_encrypt(:p, :k, 1, 'clients.notes') "
            "WHERE id = :id"
        ),
        {"p": b"legacy note", "k": master, "id": row.id},
    )
    assert (await reread(pg_db, row.id)).notes == "legacy note"
