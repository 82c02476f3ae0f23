"""Inputs for the benchmarks: field texts of exact sizes, the processors SQLAlchemy calls, and
a database harness that runs async work on its own event loop so pytest-benchmark (which is
synchronous) can time it."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any, TypeVar, cast

from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from sqlalchemy import Column, MetaData, Table, Text, func, insert, select, text
from sqlalchemy.dialects.postgresql.asyncpg import PGDialect_asyncpg
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession
from sqlalchemy.orm import registry as orm_registry
from sqlalchemy.sql.expression import ColumnElement, TableClause

from carevault.crypto import (
    BoundText,
    FieldCipher,
    PhiBackend,
    envelope,
    install,
    new_wrapped_data_key,
)
from carevault.crypto.types import EncryptedString
from carevault.db.encryption import bound_rows
from carevault.db.engine import create_engine
from carevault.notes.models import SessionNote
from carevault.workspaces.keys import sealing_versions

T = TypeVar("T")

# Field sizes in UTF-8 bytes; "1KB" and "5KB" are the reference project's ~1,000 and ~5,000.
SIZES = {"50B": 50, "350B": 350, "1KB": 1000, "5KB": 5000}
# (case id, size id, non-ASCII?): every size in ASCII, and two in mixed scripts.
FIELD_CASES = [(size, size, False) for size in SIZES] + [
    ("350B-utf8", "350B", True),
    ("5KB-utf8", "5KB", True),
]

_ASCII = (
    "Client reports better sleep and fewer panic episodes since the last session; "
    "practised paced breathing twice daily. "
)
_MIXED = "Zoë Núñez: ansiedad reducida, 睡眠が改善した — сон лучше 🩺; "

DIALECT = PGDialect_asyncpg()  # type: ignore[no-untyped-call]


def field_text(size: str, non_ascii: bool = False, offset: int = 0) -> str:
    """Text whose UTF-8 encoding is exactly SIZES[size] bytes."""
    target = SIZES[size]
    source = _MIXED if non_ascii else _ASCII
    out: list[str] = []
    used = 0
    position = offset
    while True:
        char = source[position % len(source)]
        width = len(char.encode())
        if used + width > target:
            break
        out.append(char)
        used += width
        position += 1
    out.append("." * (target - used))
    value = "".join(out)
    assert len(value.encode()) == target
    return value


# The practice and row the field benchmarks' values belong to (format 0x03 binds both).
BENCH_WORKSPACE = uuid.UUID("6f1c2a0e-5b7d-4c3e-9a51-0d2e8b7c4f10")
BENCH_ROW = uuid.UUID("a3d9e471-2c6b-4f8a-b0e5-7c1d9f3a6b22")
Binding = tuple[bytes, bytes]
BENCH_BINDING: Binding = (BENCH_WORKSPACE.bytes, BENCH_ROW.bytes)


def give_data_keys(cipher: FieldCipher, workspaces: Sequence[uuid.UUID]) -> None:
    """Data keys for `workspaces` in the cipher's cache, as `load_workspace_keys` leaves them
    after reading the wrapped keys from the database (no database here)."""
    ring = cipher.ring
    for workspace in workspaces:
        wrapped = {
            version: new_wrapped_data_key(ring, workspace.bytes, version)
            for version in sealing_versions(ring)
        }
        cipher.data_keys.store(workspace.bytes, wrapped)


def bound_text(value: str, binding: Binding = BENCH_BINDING) -> BoundText:
    """`value` as the ORM hands it to the bind processor after a flush: bound to its row."""
    return BoundText(value, binding)


def row_prefixed(stored: bytes, binding: Binding = BENCH_BINDING) -> bytes:
    """A stored value as the result processor receives it: `uuid_send(workspace_id) ||
    uuid_send(id) || value` (see EncryptedString.column_expression)."""
    return binding[0] + binding[1] + stored


def data_key_floor(
    cipher: FieldCipher, context: bytes, binding: Binding = BENCH_BINDING
) -> tuple[AESGCM, bytes]:
    """The floor of a format-0x03 field: the practice's unwrapped data-key AESGCM object (built
    once, as the cache keeps it) and the associated data the field path binds (header,
    workspace id, row id, context), assembled in advance."""
    ring = cipher.ring
    head = envelope.header(envelope.FORMAT_BOUND, ring.encryption_version())
    aesgcm = cipher.data_keys.cipher(ring, binding[0], head)
    assert aesgcm is not None, "give_data_keys first"
    return aesgcm, envelope.bound_associated_data(head, binding[0], binding[1], context)


@dataclass(frozen=True)
class FieldProcessors:
    """What SQLAlchemy calls for one encrypted column: bind (encrypt) and result (decrypt)."""

    context: bytes
    bind: Callable[[Any], Any]
    result: Callable[[Any], Any]


def processors_for(column: ColumnElement[Any]) -> FieldProcessors:
    column_type = column.type
    assert isinstance(column_type, EncryptedString), column
    impl = column_type.dialect_impl(DIALECT)
    bind = impl.bind_processor(DIALECT)
    result = impl.result_processor(DIALECT, None)
    assert bind is not None and result is not None
    return FieldProcessors(column_type.context_bytes, bind, result)


# The database harness ----------------------------------------------------------------------

NOTES_PER_LOAD = 100
SESSION_NOTES = cast(Table, SessionNote.__table__)
SECTIONS = tuple(c.name for c in SessionNote.__table__.c if isinstance(c.type, EncryptedString))
PLAINTEXT_TABLE = "perf_sessions_plaintext"


def plaintext_note_table() -> Table:
    """The control: `sessions` column for column, with the encrypted columns as plain text."""
    columns = [
        Column(c.name, Text() if c.name in SECTIONS else c.type, primary_key=c.primary_key)
        for c in SessionNote.__table__.c
    ]
    return Table(PLAINTEXT_TABLE, MetaData(), *columns)


class PlaintextNote:
    """Mapped onto the control table, so both loads go through the same ORM machinery."""


PLAINTEXT_NOTES = plaintext_note_table()
orm_registry().map_imperatively(PlaintextNote, PLAINTEXT_NOTES)


def create_plaintext_table_sql() -> list[str]:
    """Same columns, defaults, checks, indexes and foreign keys as `sessions`; text for PHI."""
    retype = ", ".join(f"ALTER COLUMN {name} TYPE text USING NULL" for name in SECTIONS)
    # LIKE copies no foreign keys: each of `sessions`' is added as PostgreSQL reports it, so
    # the floor checks the same references (author, signer, co-signer…) whatever migrations add.
    copy_foreign_keys = (
        "DO $$ DECLARE fk record; BEGIN "
        "FOR fk IN SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint "
        "WHERE conrelid = 'sessions'::regclass AND contype = 'f' ORDER BY conname LOOP "
        f"EXECUTE format('ALTER TABLE {PLAINTEXT_TABLE} ADD %s', fk.definition); "
        "END LOOP; END $$"
    )
    # Nor triggers: `sessions`' own (the change feed's outbox, migration 0023) are created on
    # the control too, so the ratio prices encryption and not a trigger the floor lacked.
    copy_triggers = (
        "DO $$ DECLARE tg record; BEGIN "
        "FOR tg IN SELECT pg_get_triggerdef(oid) AS definition FROM pg_trigger "
        "WHERE tgrelid = 'sessions'::regclass AND NOT tgisinternal ORDER BY tgname LOOP "
        f"EXECUTE replace(tg.definition, ' ON public.sessions ', ' ON {PLAINTEXT_TABLE} '); "
        "END LOOP; END $$"
    )
    return [
        f"CREATE TABLE {PLAINTEXT_TABLE} (LIKE sessions INCLUDING ALL)",
        f"ALTER TABLE {PLAINTEXT_TABLE} {retype}",
        copy_foreign_keys,
        copy_triggers,
    ]


def author_of(workspace_id: uuid.UUID) -> uuid.UUID:
    """The id of the clinician `create_owner` adds to the workspace: the notes' author."""
    return uuid.uuid5(workspace_id, "author")


def note_rows(
    workspace_id: uuid.UUID, client_id: uuid.UUID, first_id: int = 1
) -> list[dict[str, Any]]:
    """100 notes with four 350-byte SOAP sections each; every column given explicitly."""
    stamp = datetime(2026, 3, 2, 9, tzinfo=UTC)
    rows = []
    for index in range(NOTES_PER_LOAD):
        row: dict[str, Any] = {
            "id": uuid.UUID(int=first_id + index),
            "workspace_id": workspace_id,
            "client_id": client_id,
            "appointment_id": None,
            "session_date": date(2026, 1 + index % 12, 1 + index % 28),
            "duration_minutes": 50,
            "status": "finalized",
            "version": 1,
            "author_id": author_of(workspace_id),
            "finalized_at": stamp,
            "signed_by": author_of(workspace_id),
            "attestation_version": 1,
            "late_entry": False,
            "cosign_status": None,
            "cosigned_by": None,
            "cosigned_at": None,
            "cosign_attestation_version": None,
            "deleted_at": None,
            "created_at": stamp,
            "updated_at": stamp,
        }
        for number, section in enumerate(SECTIONS):
            row[section] = field_text("350B", non_ascii=index % 5 == 0, offset=index + number)
        rows.append(row)
    return rows


class DatabaseHarness:
    """Engines and seeded rows on a private event loop; `run` executes a coroutine to the end."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._runner = asyncio.Runner(loop_factory=asyncio.new_event_loop)
        self._engines: dict[str, AsyncEngine] = {}

    def run(self, work: Callable[[], Awaitable[T]]) -> T:
        async def main() -> T:
            return await work()

        return self._runner.run(main())

    def engine(self, name: str) -> AsyncEngine:
        """One engine per PHI backend: compiled SQL depends on the backend installed when a
        statement is first compiled, so engines are never shared between backends."""
        if name not in self._engines:
            self._engines[name] = create_engine(self.url, pool_size=2)
        return self._engines[name]

    def close(self) -> None:
        async def dispose() -> None:
            for engine in self._engines.values():
                await engine.dispose()

        self.run(dispose)
        self._runner.close()

    async def server_version(self) -> str:
        async with self.engine("plaintext").connect() as connection:
            version = await connection.scalar(text("SHOW server_version"))
        return f"PostgreSQL {version}"

    async def create_owner(self, engine_name: str) -> tuple[uuid.UUID, uuid.UUID]:
        """A workspace, a client for notes to belong to, and their author."""
        from carevault.auth.models import User
        from carevault.clients.models import Client
        from carevault.workspaces import service

        async with AsyncSession(self.engine(engine_name), expire_on_commit=False) as session:
            # The practice's data keys are created and loaded into the installed cipher.
            space = await service.create(session, f"Perf {engine_name} {uuid.uuid4().hex[:6]}")
            owner = Client(workspace_id=space.id, first_name="Ada", last_name="Lovelace")
            author = User(
                id=author_of(space.id),
                workspace_id=space.id,
                email=f"author-{space.id.hex[:8]}@example.test",
                password_hash="not-a-password-hash",
                role="clinician",
            )
            session.add_all([owner, author])
            await session.commit()
            return space.id, owner.id

    async def insert_notes(
        self, engine_name: str, table: TableClause, rows: Sequence[dict[str, Any]]
    ) -> None:
        async with self.engine(engine_name).begin() as connection:
            await connection.execute(insert(table), list(rows))

    async def stored_headers(self, engine_name: str, workspace_id: uuid.UUID) -> dict[bytes, int]:
        """How many of the practice's stored `subjective` values carry each five-byte header
        (format byte + key version), read raw: what the benchmarks really stored."""
        head = func.substring(text("subjective"), 1, envelope.HEADER_BYTES)
        statement = (
            select(head, func.count())
            .select_from(SESSION_NOTES)
            .where(SESSION_NOTES.c.workspace_id == workspace_id)
            .group_by(head)
        )
        async with self.engine(engine_name).connect() as connection:
            rows = (await connection.execute(statement)).all()
        return {bytes(raw): int(number) for raw, number in rows}

    async def create_plaintext_table(self) -> None:
        async with self.engine("plaintext").begin() as connection:
            for statement in create_plaintext_table_sql():
                await connection.execute(text(statement))
            triggers = await connection.execute(
                text(
                    "SELECT tgrelid::regclass::text, count(*) FROM pg_trigger "
                    "WHERE tgrelid IN ('sessions'::regclass, CAST(:control AS regclass)) "
                    "AND NOT tgisinternal GROUP BY 1"
                ),
                {"control": PLAINTEXT_TABLE},
            )
            counts: dict[str, int] = dict(triggers.tuples().all())
            assert counts.get("sessions") and counts.get(PLAINTEXT_TABLE) == counts["sessions"], (
                f"the control table's triggers differ from sessions': {counts}"
            )

    async def load_notes(
        self, engine_name: str, mapped: Any, workspace_id: uuid.UUID, data_keys: bool = False
    ) -> list[Any]:
        """A fresh ORM session loads every note of the workspace (the identity map is empty).
        With `data_keys`, first what every request that touches PHI does: make sure the
        practice's data keys are loaded (cached here, so a dict lookup and a clock read)."""
        from carevault.workspaces.keys import load_workspace_keys

        statement = select(mapped).where(mapped.workspace_id == workspace_id)
        async with AsyncSession(self.engine(engine_name)) as session:
            if data_keys:
                await load_workspace_keys(session, workspace_id)
            return list((await session.scalars(statement)).all())

    async def write_notes_rolled_back(
        self, engine_name: str, table: TableClause, rows: Sequence[dict[str, Any]]
    ) -> None:
        """One INSERT of all rows (insertmanyvalues), then rolled back so rounds repeat."""
        async with self.engine(engine_name).connect() as connection:
            transaction = await connection.begin()
            await connection.execute(insert(table), list(rows))
            await transaction.rollback()


@dataclass
class PerfDatabase:
    """The seeded perf database: 100 application-sealed notes and their plaintext twins."""

    harness: DatabaseHarness
    cipher: FieldCipher
    workspace_id: uuid.UUID
    client_id: uuid.UUID
    _pgcrypto_workspace: uuid.UUID | None = field(default=None)

    def use(self, backend: str) -> None:
        """Install the backend an engine compiles for (cheap: two assignments)."""
        install(self.cipher, PhiBackend.PGCRYPTO if backend == "pgcrypto" else PhiBackend.AESGCM)

    def pgcrypto_available(self) -> bool:
        from carevault.runtime import pgcrypto_available

        return self.harness.run(lambda: pgcrypto_available(self.harness.engine("plaintext")))

    def pgcrypto_workspace(self) -> uuid.UUID:
        """The same 100 notes sealed by pgcrypto inside the database, in their own workspace."""
        if self._pgcrypto_workspace is None:
            self.use("pgcrypto")
            space, owner = self.harness.run(lambda: self.harness.create_owner("pgcrypto"))
            rows = bound_rows(SessionNote, note_rows(space, owner, first_id=1001))
            self.harness.run(lambda: self.harness.insert_notes("pgcrypto", SESSION_NOTES, rows))
            headers = self.harness.run(lambda: self.harness.stored_headers("pgcrypto", space))
            assert {head[0] for head in headers} == {envelope.FORMAT_PGCRYPTO_BOUND}, headers
            self._pgcrypto_workspace = space
        return self._pgcrypto_workspace
