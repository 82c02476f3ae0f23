"""Migration 0016 and `carevault reindex-phones` on rows written before E.164, and what
`reencrypt` and `users create` do with phone regions."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
from alembic import command
from sqlalchemy import Connection, text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from carevault.clients import phone_index
from carevault.clients.models import Client
from carevault.crypto import FieldCipher, LocalFileProvider, PracticeBlindIndex, install
from carevault.db.engine import create_engine
from carevault.db.migrate import alembic_config, upgrade_async
from carevault.lifecycle import reencrypt as job
from carevault.workspaces import service as workspace_service
from carevault.workspaces.keys import load_workspace_keys, provision
from carevault.workspaces.phones import read_phone
from tests.support.cli import invoke
from tests.support.db import PgServer, RingHolder, admin_execute
from tests.support.keys import rotate_now

PRACTICE_A = uuid.UUID("00000000-0000-4000-8000-00000000000a")
PRACTICE_B = uuid.UUID("00000000-0000-4000-8000-00000000000b")


@pytest.fixture
async def before_0016(
    pg_server: PgServer, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[str, AsyncEngine, RingHolder]]:
    """A database at revision 0015, the cipher installed from the data dir's ring, CLI env."""
    name = f"cv_phone_{uuid.uuid4().hex[:8]}"
    await admin_execute(pg_server, f'CREATE DATABASE "{name}"')
    url = pg_server.url(name)
    engine = create_engine(url, pool_size=2)
    holder = RingHolder(LocalFileProvider(data_dir / "keyring.json").load())
    install(FieldCipher(holder))
    for variable in ("CAREVAULT_KEY_PROVIDER", "CAREVAULT_ENV"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("CAREVAULT_DATA_DIR", str(data_dir))
    monkeypatch.setenv("CAREVAULT_DATABASE_URL", url)
    try:
        await upgrade_async(engine, "0015")
        yield url, engine, holder
    finally:
        await engine.dispose()
        await admin_execute(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def write_as_before_0016(engine: AsyncEngine, practice: uuid.UUID, phone: str) -> uuid.UUID:
    """A client row as the code before 0016 wrote it: sealed values and a digits-only index."""
    from carevault.crypto import current_cipher

    cipher = current_cipher()
    row_id = uuid.uuid4()
    binding = (practice.bytes, row_id.bytes)
    async with AsyncSession(engine) as db, db.begin():
        await load_workspace_keys(db, practice)
        await db.execute(
            text(
                "INSERT INTO clients (id, workspace_id, first_name, last_name, phone, phone_bidx)"
                " VALUES (:id, :ws, :first, :last, :phone, :bidx)"
            ),
            {
                "id": row_id,
                "ws": practice,
                "first": cipher.seal("Ada", binding, b"clients.first_name"),
                "last": cipher.seal("Lovelace", binding, b"clients.last_name"),
                "phone": cipher.seal(phone, binding, b"clients.phone"),
                "bidx": PracticeBlindIndex(cipher).phone_digits(phone, str(practice)),
            },
        )
    return row_id


async def test_existing_rows_are_migrated_to_e164_indexes(
    before_0016: tuple[str, AsyncEngine, RingHolder], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, engine, holder = before_0016
    async with AsyncSession(engine) as db, db.begin():
        await db.execute(
            text("INSERT INTO workspaces (id, name) VALUES (:a, 'A'), (:b, 'B')"),
            {"a": PRACTICE_A, "b": PRACTICE_B},
        )
        await provision(db, holder.ring)
    london = await write_as_before_0016(engine, PRACTICE_A, "020 7946 0018")
    manchester = await write_as_before_0016(engine, PRACTICE_A, "+44 161 496 0000")
    notes = await write_as_before_0016(engine, PRACTICE_A, "see notes")
    boston = await write_as_before_0016(engine, PRACTICE_B, "+1 (555) 010-4477")
    digits_only = await fetch(url, "SELECT id, phone_bidx FROM clients")
    old_indexes = {r["id"]: (r["phone_bidx"], None) for r in digits_only}

    # Practices that exist take the configured region; their rows wait for the reindex.
    monkeypatch.setenv("CAREVAULT_DEFAULT_PHONE_REGION", "gb")
    await upgrade_async(engine, "head")
    regions = await fetch(url, "SELECT id, phone_region FROM workspaces")
    assert {r["id"]: r["phone_region"] for r in regions} == {PRACTICE_A: "GB", PRACTICE_B: "GB"}
    assert await stored(url) == old_indexes  # region NULL: waiting for reindex-phones
    # An owner puts practice B right before the reindex.
    await fetch(url, "UPDATE workspaces SET phone_region = 'US' WHERE id = $1", PRACTICE_B)

    dry = await invoke(["reindex-phones", "--dry-run"])
    assert dry.exit_code == 0, dry.output
    assert "phone numbers with a digits-only index: 4" in dry.output
    result = await invoke(["reindex-phones", "--batch-size", "1"])
    assert result.exit_code == 0, result.output
    assert "Reindexed 3 phone number(s)" in result.output
    assert "1 stored phone number(s) are not possible numbers" in result.output
    assert str(notes) in result.output and "see notes" not in result.output

    cipher = FieldCipher(holder)
    install(cipher)
    async with AsyncSession(engine) as db:
        for practice in (PRACTICE_A, PRACTICE_B):
            await load_workspace_keys(db, practice)
    index = PracticeBlindIndex(cipher)
    a, b = str(PRACTICE_A), str(PRACTICE_B)
    assert await stored(url) == {
        london: (index.phone("+442079460018", a), "GB"),
        manchester: (index.phone("+441614960000", a), "GB"),
        notes: old_indexes[notes],  # still found by its digits, as before
        boston: (index.phone("+15550104477", b), "US"),
    }
    again = await invoke(["reindex-phones"])
    assert again.exit_code == 0 and "Reindexed 0 phone number(s)" in again.output

    def downgrade(sync: Connection) -> None:
        command.downgrade(alembic_config(sync), "0015")

    async with engine.begin() as migrating:
        await migrating.run_sync(downgrade)
    columns = await fetch(
        url,
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE column_name IN ('phone_region', 'phone_bidx_region')",
    )
    assert columns == []


async def fetch(url: str, query: str, *args: object) -> list[asyncpg.Record]:
    connection = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
    try:
        return await connection.fetch(query, *args)
    finally:
        await connection.close()


async def stored(url: str) -> dict[uuid.UUID, tuple[bytes | None, str | None]]:
    rows = await fetch(url, "SELECT id, phone_bidx, phone_bidx_region FROM clients")
    return {r["id"]: (r["phone_bidx"], r["phone_bidx_region"]) for r in rows}


async def test_reencrypt_keeps_each_phone_index_of_its_kind_and_meaning(
    world: tuple[str, AsyncEngine, RingHolder, Path],
) -> None:
    """A row read in US keeps +1 after the practice moves to GB; a row not yet reindexed
    keeps its digits-only index (reindex-phones is what changes kinds)."""
    url, engine, holder, ring_file = world
    from carevault.crypto import current_cipher

    index = PracticeBlindIndex(current_cipher())
    async with AsyncSession(engine, expire_on_commit=False) as db, db.begin():
        space = await workspace_service.create(db, "Practice R", phone_region="US")
        scope = str(space.id)
        read = Client(
            workspace_id=space.id,
            first_name="Ada",
            last_name="L",
            phone="617 555 0142",
            **phone_index.index_columns(index, read_phone("617 555 0142", "US"), scope),
        )
        waiting = Client(
            workspace_id=space.id,
            first_name="Bea",
            last_name="M",
            phone="617 555 0143",
            phone_bidx=index.phone_digits("617 555 0143", scope),
        )
        db.add_all([read, waiting])
        await db.flush()
        space.phone_region = "GB"
    before = await stored(url)
    rotate_now(holder, ring_file)
    summary = await job.reencrypt(engine)
    assert summary.rows_rewritten["clients"] == 2
    assert await stored(url) == before
    assert before[read.id] == (index.phone("+16175550142", scope), "US")


async def test_users_create_gives_a_new_practice_the_configured_region(
    world: tuple[str, AsyncEngine, RingHolder, Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url, *_ = world
    monkeypatch.setenv("CAREVAULT_DEFAULT_PHONE_REGION", "IE")
    result = await invoke(
        ["users", "create", "--workspace", "Dublin Clinic", "--email", "lead@dublin.example"],
        "correct horse battery\n",
    )
    assert result.exit_code == 0, result.output
    rows = await fetch(url, "SELECT phone_region FROM workspaces WHERE name = 'Dublin Clinic'")
    assert [r["phone_region"] for r in rows] == ["IE"]
