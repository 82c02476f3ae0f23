"""carevault.clients.access_log called directly: which events make a client's history (the
client's, their notes' and appointments', nobody else's), what kind each is, who by name,
the filters, the inverted range, and CSV cells that a spreadsheet never runs."""

from __future__ import annotations

import csv
import io
import uuid
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.auth.models import Role, User
from carevault.clients import access_log
from carevault.clients import service as clients
from carevault.clients.schemas import ClientCreate
from carevault.core.paging import Pagination
from carevault.notes import service as notes
from carevault.notes.schemas import SessionNoteCreate
from tests.support import factories
from tests.support.services import Clinic, refused

PAGE = Pagination(page=1, page_size=50)


async def history(
    db: AsyncSession, clinic: Clinic, client_id: uuid.UUID, **filters: Any
) -> list[tuple[str, str, str | None, str | None]]:
    owner = await factories.principal(db, clinic.space, Role.OWNER)
    entries, total = await access_log.read_access_log(
        db, owner, client_id, access_log.AccessFilters(**filters), PAGE
    )
    assert total == len(entries)
    return [(e.kind, e.action, e.actor_name, e.via) for e in reversed(entries)]


async def test_the_history_is_the_clients_own_records_kinds_and_names(
    db: AsyncSession, clinic: Clinic
) -> None:
    await db.execute(
        update(User).where(User.id == clinic.clinician.user.id).values(display_name="Dr Cleo")
    )
    body = ClientCreate.model_validate({"first_name": "Ada", "last_name": "Lovelace"})
    ada = await clients.create_client(db, clinic.clinician, body)
    other = await clients.create_client(
        db, clinic.clinician, ClientCreate.model_validate({"first_name": "G", "last_name": "H"})
    )
    await clients.list_clients(db, clinic.clinician, PAGE)
    await clients.read_client(db, clinic.clinician, ada.id)
    await clients.read_client(db, clinic.clinician, other.id)
    note = await notes.create_note(
        db,
        clinic.clinician,
        SessionNoteCreate.model_validate(
            {"client_id": str(ada.id), "session_date": date(2025, 1, 15).isoformat()}
        ),
    )
    await notes.read_note(db, clinic.clinician, note.id)
    assert await history(db, clinic, ada.id) == [
        ("change", "client.create", "Dr Cleo", "ui"),
        ("list_appearance", "client.list", "Dr Cleo", "ui"),
        ("chart_read", "client.read", "Dr Cleo", "ui"),
        ("change", "session.create", "Dr Cleo", "ui"),
        ("chart_read", "session.read", "Dr Cleo", "ui"),
    ]
    # The first read of the history is in the second.
    assert (await history(db, clinic, ada.id, kind="access_log"))[0][:2] == (
        "access_log",
        "client.access_log",
    )
    assert await history(db, clinic, ada.id, kind="chart_read", actor_user_id=None) == [
        ("chart_read", "client.read", "Dr Cleo", "ui"),
        ("chart_read", "session.read", "Dr Cleo", "ui"),
    ]
    tomorrow = datetime.now(UTC) + timedelta(days=1)
    assert await history(db, clinic, ada.id, since=tomorrow) == []


async def test_an_inverted_range_and_an_unknown_client_are_refused(
    db: AsyncSession, clinic: Clinic
) -> None:
    ada = await clients.create_client(
        db, clinic.clinician, ClientCreate.model_validate({"first_name": "A", "last_name": "L"})
    )
    now = datetime.now(UTC)
    with refused("invalid_date_range", 422):
        await history(db, clinic, ada.id, since=now, until=now - timedelta(seconds=1))
    elsewhere = await factories.workspace(db)
    stranger = await factories.principal(db, elsewhere, Role.OWNER)
    with refused("not_found", 404):
        await access_log.read_access_log(db, stranger, ada.id, access_log.AccessFilters(), PAGE)


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ("=HYPERLINK(1)", "'=HYPERLINK(1)"),
        ("+cmd", "'+cmd"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("Dr Cleo", "Dr Cleo"),
        (None, ""),
        (4182, "4182"),
    ],
)
def test_csv_cells_never_start_a_formula(value: object, cell: str) -> None:
    assert access_log.csv_cell(value) == cell


def test_the_csv_has_a_header_and_one_line_per_event() -> None:
    entry = access_log.Access(
        id=7,
        occurred_at=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
        kind="chart_read",
        action="client.read",
        resource_type="client",
        via="token",
        actor_user_id=None,
        actor_name="=evil()",
        actor_role="clinician",
        token_name="billing",
        ip_address="203.0.113.7",
    )
    rows = list(csv.reader(io.StringIO(access_log.as_csv([entry]))))
    assert rows[0] == list(access_log.CSV_COLUMNS)
    assert rows[1] == [
        "2026-01-02T03:04:05+00:00",
        "chart_read",
        "client.read",
        "client",
        "token",
        "'=evil()",
        "clinician",
        "billing",
        "",
        "203.0.113.7",
        "7",
    ]
