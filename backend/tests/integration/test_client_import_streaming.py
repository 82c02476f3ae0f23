"""The client importer streams: one batch in memory, COPY'd rows identical to ORM writes,
and a file refused at its first bad row leaves nothing behind."""

from __future__ import annotations

import csv
import io
import tracemalloc
import uuid
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.audit.models import AuditEvent
from carevault.audit.service import Actor
from carevault.clients import importing
from carevault.clients.models import Client
from carevault.crypto import DecryptionError, PracticeBlindIndex, current_cipher, envelope
from carevault.db.deadlines import DeadlineExceeded, request_deadline
from carevault.workspaces.models import Workspace
from tests.support import factories

HEADER = [
    "First Name",
    "Last Name",
    "E-mail",
    "Mobile",
    "DOB",
    "Address",
    "Emergency Contact",
    "Emergency Phone",
    "Medical History",
    "Notes",
]


def fake_row(number: int) -> list[str]:
    """About 350 bytes over ten fields, like the load test's generated exports."""
    return [
        f"Given{number}",
        f"Family{number}",
        f"client{number}@example.org",
        f"+1 555 {number % 1000:03d} {number % 10000:04d}",
        f"19{50 + number % 50}-0{1 + number % 9}-1{number % 10}",
        f"{number} Example Street\nSuite {number % 7}, Example Town",
        f"Contact {number}",
        "+1 555 010 0000",
        "Fictional history; " * 8,
        f"note {number} " * 6,
    ]


def csv_text(rows: int, bad_lines: dict[int, list[str]] | None = None) -> str:
    """A CSV export of `rows` records, one physical line each, with `bad_lines` (line number
    in the file, header = 1) replaced. Addresses are written on one line here."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    for number in range(rows):
        line = number + 2
        row = (bad_lines or {}).get(line) or fake_row(number)
        writer.writerow([value.replace("\n", ", ") for value in row])
    return out.getvalue()


class CountingLines:
    """The file's lines, counting how many the importer has pulled so far."""

    def __init__(self, text_: str) -> None:
        self._lines = io.StringIO(text_, newline="")
        self.read = 0

    def __iter__(self) -> Iterator[str]:
        for line in self._lines:
            self.read += 1
            yield line


class CopySpy:
    """Counts the COPY statements the importer sends."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        original = asyncpg.connection.Connection.copy_records_to_table
        spy = self

        async def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
            spy.calls += 1
            return await original(self, *args, **kwargs)

        monkeypatch.setattr(asyncpg.connection.Connection, "copy_records_to_table", counting)


async def clients_of(db: AsyncSession, space: Workspace) -> int:
    found = await db.scalar(
        select(func.count()).select_from(Client).where(Client.workspace_id == space.id)
    )
    return int(found or 0)


async def test_copied_rows_read_back_through_the_orm_as_written(
    db: AsyncSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    space = await factories.workspace(db)
    spy = CopySpy(monkeypatch)
    source = (
        "first_name,last_name,email,phone,dob,address,notes\n"
        'Zoë,Ängström,Zoe@Example.org,(555) 010-0199,1985-06-01,"1 Rue X\n75001 Paris",'
        "Prefers 患者 mornings\n"
        "Ada,Lovelace,,,,,\n"
    )
    records = importing.validate(importing.read_rows(source, "csv"), phone_region="US")
    imported = await importing.import_clients(db, Actor(space.id), space.id, records, source="t")
    assert imported == 2 and spy.calls == 1

    db.expunge_all()
    loaded = {
        c.first_name: c
        for c in (await db.scalars(select(Client).where(Client.workspace_id == space.id))).all()
    }
    zoe, ada = loaded["Zoë"], loaded["Ada"]
    assert (zoe.last_name, zoe.email, zoe.phone) == (
        "Ängström",
        "Zoe@Example.org",
        "(555) 010-0199",
    )
    assert zoe.date_of_birth == date(1985, 6, 1)
    assert (zoe.address, zoe.notes) == ("1 Rue X\n75001 Paris", "Prefers 患者 mornings")
    assert ada.email is None and ada.date_of_birth is None and ada.notes is None

    # The stored bytes are what an ORM write stores: format 0x03 bound to the practice, the
    # row and the column, and the blind indexes the search computes.
    raw = (
        await db.execute(
            text(
                "SELECT id, first_name, date_of_birth, email_bidx, phone_bidx, "
                "phone_bidx_region FROM clients WHERE id = :id"
            ),
            {"id": zoe.id},
        )
    ).one()
    cipher = current_cipher()
    binding = (space.id.bytes, zoe.id.bytes)
    assert raw.first_name[0] == envelope.FORMAT_BOUND
    assert cipher.open(raw.first_name, binding, b"clients.first_name") == "Zoë"
    assert cipher.open(raw.date_of_birth, binding, b"clients.date_of_birth") == "1985-06-01"
    with pytest.raises(DecryptionError):
        cipher.open(raw.first_name, binding, b"clients.last_name")
    with pytest.raises(DecryptionError):
        cipher.open(raw.first_name, (space.id.bytes, ada.id.bytes), b"clients.first_name")
    index = PracticeBlindIndex(cipher)
    assert raw.email_bidx == index.email("zoe@example.org ", str(space.id))
    assert raw.phone_bidx == index.phone("+15550100199", str(space.id))
    assert raw.phone_bidx_region == "US"

    # The same client written through the ORM reads back identically.
    written = await factories.client(
        db, space, **{k: getattr(zoe, k) for k in importing.RECORD_FIELDS}
    )
    db.expunge_all()
    again = await db.get(Client, written.id)
    copied = await db.get(Client, zoe.id)
    assert again is not None and copied is not None
    fields = importing.RECORD_FIELDS
    assert [getattr(again, k) for k in fields] == [getattr(copied, k) for k in fields]

    event = (await db.scalars(select(AuditEvent).where(AuditEvent.action == "client.import"))).one()
    assert set(event.resource_ids or []) == {zoe.id, ada.id}
    assert event.details == {"count": 2, "source": "t"}


async def test_the_importer_holds_one_batch_of_the_file_at_a_time(db: AsyncSession) -> None:
    space = await factories.workspace(db)
    lines = CountingLines(csv_text(2_000))
    records = importing.validated(importing.read_rows(lines, "csv"), phone_region="US")
    seen: list[tuple[int, int]] = []
    written = 0

    def after_batch(rows: int) -> None:
        nonlocal written
        written += rows
        seen.append((rows, lines.read))

    count = await importing.import_clients(
        db, Actor(space.id), space.id, records, source="t", progress=after_batch, batch_rows=300
    )
    assert count == 2_000 and await clients_of(db, space) == 2_000
    assert [rows for rows, _ in seen] == [300] * 6 + [200]
    # When a batch is written, the reader is exactly that batch ahead of what is stored:
    # the header plus the rows written so far; nothing further was read.
    done = 0
    for rows, read in seen:
        done += rows
        assert read == done + 1


async def traced_peak_of_import(db: AsyncSession, path: Path, *, traced: bool = True) -> int:
    """Peak traced Python memory of importing `path` (read as the CLI reads it) into a new
    practice, from just before the import to its end, audit event included."""
    space = await factories.workspace(db)
    with path.open("rb") as binary:
        records = importing.validated(
            importing.read_rows(importing.text_lines(binary), "csv"), phone_region="US"
        )
        if traced:
            tracemalloc.start()
        try:
            await importing.import_clients(
                db, Actor(space.id), space.id, records, source="t", batch_rows=250
            )
            return tracemalloc.get_traced_memory()[1] if traced else 0
        finally:
            tracemalloc.stop()


async def test_memory_does_not_grow_with_the_file(db: AsyncSession, tmp_path: Path) -> None:
    """A file five times longer costs next to nothing more: the 16 bytes a row of ids the
    audit event lists, and the event itself. Holding the rows costs over 1.5 KB a row."""
    small, large = tmp_path / "small.csv", tmp_path / "large.csv"
    small.write_text(csv_text(500))
    large.write_text(csv_text(2_500))
    # Warmed on the larger file: what grows once with size (caches, statements, buffers)
    # then counts for neither, and what is left is what a row costs.
    await traced_peak_of_import(db, large, traced=False)
    grown = await traced_peak_of_import(db, large) - await traced_peak_of_import(db, small)
    assert grown < 300 * 2_000, f"{grown:,} bytes more for 2,000 more rows"


async def test_the_first_bad_row_stops_the_import_and_nothing_is_written(
    db: AsyncSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    space = await factories.workspace(db)
    spy = CopySpy(monkeypatch)
    bad = {1_702: ["", "No first name"] + [""] * 8, 2_400: ["A", "B", "not-an-email"] + [""] * 7}
    records = importing.validated(
        importing.read_rows(csv_text(3_000, bad), "csv"), phone_region="US"
    )
    batches: list[int] = []
    with pytest.raises(importing.ImportRejected) as rejected:
        async with db.begin_nested():
            await importing.import_clients(
                db, Actor(space.id), space.id, records, source="t", progress=batches.append
            )
    # One batch (lines 2-1001) was written before the bad row; none after it.
    assert batches == [1_000] and spy.calls == 1
    first = rejected.value.errors[0]
    assert (first.line, first.field) == (1_702, "first_name")
    assert [(e.line, e.field) for e in rejected.value.errors] == [
        (1_702, "first_name"),
        (2_400, "email"),
    ]
    assert await clients_of(db, space) == 0
    assert not (
        await db.scalars(select(AuditEvent).where(AuditEvent.action == "client.import"))
    ).all()


async def test_row_limit_is_refused_on_the_first_row_past_it(db: AsyncSession) -> None:
    space = await factories.workspace(db)
    records = importing.validated(
        importing.read_rows(csv_text(50), "csv"), phone_region="US", max_rows=30
    )
    with pytest.raises(importing.ImportRejected) as rejected:
        async with db.begin_nested():
            await importing.import_clients(
                db, Actor(space.id), space.id, records, source="t", batch_rows=10
            )
    assert [(e.line, e.message[:13]) for e in rejected.value.errors] == [(32, "more than 30 ")]
    assert await clients_of(db, space) == 0


async def test_a_request_past_its_deadline_sends_no_copy(
    db: AsyncSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    """COPY goes around SQLAlchemy's statement hooks, so the importer checks the request's
    deadline itself before each batch (this test engine has no hooks at all)."""
    space = await factories.workspace(db)
    spy = CopySpy(monkeypatch)
    records = importing.validated(importing.read_rows(csv_text(10), "csv"), phone_region="US")
    with request_deadline(-1.0), pytest.raises(DeadlineExceeded):
        async with db.begin_nested():
            await importing.import_clients(db, Actor(space.id), space.id, records, source="t")
    assert spy.calls == 0


def test_lines_that_are_not_utf8_are_named() -> None:
    body = b"first_name,last_name\nAda,Lovelace\n" + b"Gr\xe2ce,Hopper\nAlan,Turing\n"
    found = list(importing.read_rows(importing.text_lines(io.BytesIO(body)), "csv"))
    assert found[0] == (2, {"first_name": "Ada", "last_name": "Lovelace"})
    assert found[1][0] == 3 and "not UTF-8" in found[1][1][importing.ERROR_KEY]
    assert len(found) == 2
    # A BOM is dropped, and valid multi-byte text passes.
    body = "\ufeff".encode() + "first_name,last_name\nZoë,Ängström\n".encode()
    assert list(importing.read_rows(importing.text_lines(io.BytesIO(body)), "csv")) == [
        (2, {"first_name": "Zoë", "last_name": "Ängström"})
    ]


def test_a_json_line_holding_a_unicode_line_separator_is_one_record() -> None:
    # U+2028 is allowed raw inside a JSON string; it does not end a line of the file.
    body = '{"first_name": "Ada", "last_name": "L", "notes": "one\u2028two"}\n'.encode()
    found = list(importing.read_rows(importing.text_lines(io.BytesIO(body)), "jsonl"))
    assert found == [(1, {"first_name": "Ada", "last_name": "L", "notes": "one\u2028two"})]


def test_a_csv_field_beyond_the_csv_module_limit_is_a_row_error() -> None:
    source = "first_name,notes\nAda," + "x" * (csv.field_size_limit() + 1) + "\nGrace,ok\n"
    with pytest.raises(importing.ImportRejected) as rejected:
        importing.validate(importing.read_rows(source, "csv"), phone_region="US")
    assert rejected.value.errors[0].line == 2
    assert "not valid CSV" in rejected.value.errors[0].message


def test_records_are_validated_lazily() -> None:
    pulled = 0

    def rows() -> Iterator[tuple[int, dict[str, Any]]]:
        nonlocal pulled
        for number in range(1, 1_000_000):
            pulled += 1
            yield number, {"first_name": "A", "last_name": str(uuid.uuid4())}

    stream = importing.validated(rows(), phone_region="US")
    first = [next(stream) for _ in range(3)]
    assert len(first) == 3 and pulled == 3


def test_unpaired_surrogates_from_json_are_a_row_error() -> None:
    # "\ud800" is valid JSON but no UTF-8 text: refused with its line, not when sealing.
    source = (
        '{"first_name": "Ada", "last_name": "L"}\n{"first_name": "\\ud800", "last_name": "L"}\n'
    )
    with pytest.raises(importing.ImportRejected) as rejected:
        importing.validate(importing.read_rows(source, "jsonl"), phone_region="US")
    (error,) = rejected.value.errors
    assert (error.line, error.field) == (2, "first_name")
    assert "valid Unicode" in error.message
