"""The database-side backend: pgcrypto seals and opens inside PostgreSQL with the same ring."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, select, text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from carevault.clients.models import Client
from carevault.crypto import DecryptionError, FieldCipher, PhiBackend, envelope, install
from carevault.db.engine import create_engine
from carevault.db.migrate import upgrade_async
from carevault.runtime import pgcrypto_available
from tests.conftest import RingHolder
from tests.integration import factories

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
    assert raw[0] == envelope.FORMAT_PGCRYPTO
    if value:
        assert value.encode() not in raw


async def test_database_sealed_values_are_read_by_the_application_backend(
    pg_db: AsyncSession, ring_holder: RingHolder
) -> None:
    space = await factories.workspace(pg_db)
    row = await factories.client(pg_db, space, first_name="Sealed in SQL")
    raw = await pg_db.scalar(text("SELECT first_name FROM clients WHERE id = :id"), {"id": row.id})
    app_cipher = FieldCipher(ring_holder)
    assert app_cipher.decrypt(raw, b"clients.first_name") == "Sealed in SQL"
    # and the database opens what the application sealed: one column, both kinds
    sealed_by_app = app_cipher.encrypt("Sealed in Python", b"clients.last_name")
    await pg_db.execute(
        text("UPDATE clients SET last_name = :v WHERE id = :id"), {"v": sealed_by_app, "id": row.id}
    )
    loaded = await reread(pg_db, row.id)
    assert (loaded.first_name, loaded.last_name) == ("Sealed in SQL", "Sealed in Python")


async def test_database_output_matches_the_python_reference(
    pg_db: AsyncSession, ring_holder: RingHolder
) -> None:
    key = ring_holder.ring.active.material
    sealed = await pg_db.scalar(
        text("SELECT carevault_pgc_encrypt(:p, :k, 7, 'clients.notes')"),
        {"p": b"reference", "k": key},
    )
    iv = sealed[5:21]
    assert sealed == envelope.seal_cbc_hmac(key, 7, b"reference", b"clients.notes", iv=iv)
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
    key = ring_holder.ring.active.material
    sql = "\n".join(statements)
    assert "carevault_pgc_encrypt" in sql and "carevault_pgc_decrypt" in sql
    for form in (key.hex(), key.hex().upper(), repr(key)):
        assert form not in sql
    sent = [value for params in parameters for value in params]
    assert key in sent  # the active key, as a parameter of carevault_pgc_encrypt()
    assert any(isinstance(value, list) and key in value for value in sent)  # the ring, to open


async def test_a_server_without_pgcrypto_still_migrates_and_reports_unavailable(
    tmp_path: Path,
) -> None:
    from carevault.db.embedded import start_embedded

    url = start_embedded(tmp_path, database="no_pgcrypto")  # the wheel ships no pgcrypto
    engine = create_engine(url, pool_size=1)
    try:
        await upgrade_async(engine)
        assert await pgcrypto_available(engine) is False
        async with engine.connect() as connection:
            functions = await connection.scalar(
                text("SELECT count(*) FROM pg_proc WHERE proname LIKE 'carevault_pgc_%'")
            )
        assert functions == 3
    finally:
        await engine.dispose()
