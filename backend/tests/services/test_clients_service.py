"""carevault.clients.service called directly: create, read, partial update, archive and
restore; the list's order, name and email search and paging; workspace isolation; audit
events that name clients by id and never carry what was searched for."""

from __future__ import annotations

import json
import uuid
from datetime import date

from sqlalchemy.ext.asyncio import AsyncSession

from carevault.auth.principal import Principal
from carevault.clients import listing
from carevault.clients import service as clients
from carevault.clients.models import Client
from carevault.clients.schemas import ClientCreate, ClientUpdate
from carevault.core.paging import Pagination
from carevault.crypto.registry import operation_counts
from carevault.workspaces.time import today_in
from tests.support import factories
from tests.support.services import Clinic, audit_events, field_names, refused, summary

PAGE = Pagination(page=1, page_size=20)
# A list discloses summaries, not charts (issue 24).
SUMMARY = {"disclosure": "summary"}


async def new_client(
    db: AsyncSession, principal: Principal, first: str, last: str, **fields: object
) -> Client:
    body = ClientCreate.model_validate({"first_name": first, "last_name": last, **fields})
    return await clients.create_client(db, principal, body)


def change(**fields: object) -> ClientUpdate:
    return ClientUpdate.model_validate(fields)


async def listed(
    db: AsyncSession, principal: Principal, q: str | None = None, include_archived: bool = False
) -> list[str]:
    """The last names on the first page, in list order."""
    page, _ = await clients.list_clients(
        db, principal, PAGE, q=q, include_archived=include_archived
    )
    return [client.last_name for client in page]


async def test_a_client_is_created_with_its_blind_index_and_audited_by_id(
    db: AsyncSession, clinic: Clinic
) -> None:
    ada = await new_client(
        db, clinic.clinician, "Ada", "Lovelace", email="ada@example.org", notes="Prefers mornings"
    )
    assert (ada.workspace_id, ada.first_name, ada.email) == (
        clinic.space.id,
        "Ada",
        "ada@example.org",
    )
    assert ada.email_bidx is not None and ada.archived_at is None
    assert summary(await audit_events(db, clinic.space.id)) == [("client.create", [ada.id], None)]


async def test_a_date_of_birth_after_the_practices_today_is_refused(db: AsyncSession) -> None:
    # UTC-11: the date it already is at UTC+14 is always after the practice's today.
    space = await factories.workspace(db, time_zone="Pacific/Pago_Pago")
    clinician = await factories.principal(db, space)
    born = today_in("Pacific/Kiritimati")
    with refused("validation_error", 422) as raised:
        await new_client(db, clinician, "Ada", "Lovelace", date_of_birth=born)
    assert field_names(raised.value) == {"date_of_birth"}
    ada = await new_client(db, clinician, "Ada", "Lovelace")
    with refused("validation_error"):
        await clients.update_client(db, clinician, ada.id, change(date_of_birth=born))
    assert [e.action for e in await audit_events(db, space.id)] == ["client.create"]


async def test_another_workspaces_client_is_not_found_and_nothing_is_audited_there(
    db: AsyncSession, clinic: Clinic
) -> None:
    ada = await new_client(db, clinic.clinician, "Ada", "Lovelace")
    elsewhere = await factories.workspace(db)
    outsider = await factories.principal(db, elsewhere)
    for attempt in (
        clients.read_client(db, outsider, ada.id),
        clients.update_client(db, outsider, ada.id, change(notes="x")),
        clients.archive_client(db, outsider, ada.id),
        clients.restore_client(db, outsider, ada.id),
    ):
        with refused("not_found", 404):
            await attempt
    assert await listed(db, outsider) == []
    assert [e.action for e in await audit_events(db, elsewhere.id)] == ["client.list"]
    assert (await clients.read_client(db, clinic.clinician, ada.id)).id == ada.id


async def test_an_update_changes_only_the_fields_sent_and_reindexes_the_email(
    db: AsyncSession, clinic: Clinic
) -> None:
    ada = await new_client(
        db, clinic.clinician, "Ada", "Lovelace", email="ada@example.org", notes="Mornings"
    )
    old_index = ada.email_bidx
    updated = await clients.update_client(
        db, clinic.clinician, ada.id, change(email="countess@example.org", notes=None)
    )
    assert (updated.first_name, updated.email, updated.notes) == (
        "Ada",
        "countess@example.org",
        None,
    )
    assert updated.email_bidx not in (None, old_index)
    assert await listed(db, clinic.clinician, q="countess@example.org") == ["Lovelace"]
    assert await listed(db, clinic.clinician, q="ada@example.org") == []
    with refused("no_changes", 422):
        await clients.update_client(db, clinic.clinician, ada.id, change())
    updates = [e for e in await audit_events(db, clinic.space.id) if e.action == "client.update"]
    assert summary(updates) == [("client.update", [ada.id], {"fields": ["email", "notes"]})]


async def test_archiving_hides_a_client_from_the_list_until_restored(
    db: AsyncSession, clinic: Clinic
) -> None:
    ada = await new_client(db, clinic.clinician, "Ada", "Lovelace")
    await new_client(db, clinic.clinician, "Grace", "Hopper")
    await clients.archive_client(db, clinic.clinician, ada.id)
    await clients.archive_client(db, clinic.clinician, ada.id)  # again: nothing changes
    assert await listed(db, clinic.clinician) == ["Hopper"]
    assert await listed(db, clinic.clinician, include_archived=True) == ["Hopper", "Lovelace"]
    assert (await clients.read_client(db, clinic.clinician, ada.id)).archived_at is not None

    restored = await clients.restore_client(db, clinic.clinician, ada.id)
    assert restored.archived_at is None
    await clients.restore_client(db, clinic.clinician, ada.id)
    assert await listed(db, clinic.clinician) == ["Hopper", "Lovelace"]
    with refused("not_found"):
        await clients.archive_client(db, clinic.clinician, uuid.uuid4())
    events = summary(await audit_events(db, clinic.space.id))
    assert [event for event in events if event[0] in ("client.archive", "client.restore")] == [
        ("client.archive", [ada.id], {"archived": True}),
        ("client.archive", [ada.id], {"archived": False}),
        ("client.restore", [ada.id], {"restored": True}),
        ("client.restore", [ada.id], {"restored": False}),
    ]


async def test_the_list_is_by_last_then_first_name_ignoring_case_and_accents(
    db: AsyncSession, clinic: Clinic
) -> None:
    for first, last in [
        ("Zoë", "Ängström"),
        ("Bob", "de Vries"),
        ("ada", "lovelace"),
        ("Ada", "Byron"),
        ("Alan", "Turing"),
        ("Anna", "Angstrom"),
    ]:
        await new_client(db, clinic.clinician, first, last)
    assert await listed(db, clinic.clinician) == [
        "Angstrom",
        "Ängström",
        "Byron",
        "de Vries",
        "lovelace",
        "Turing",
    ]
    assert await listed(db, clinic.clinician, q="ANGS") == ["Angstrom", "Ängström"]
    assert await listed(db, clinic.clinician, q="ada l") == ["lovelace"]
    page, total = await clients.list_clients(db, clinic.clinician, Pagination(page=2, page_size=4))
    assert [c.last_name for c in page] == ["lovelace", "Turing"] and total == 6


async def test_an_email_search_matches_exactly_however_it_is_written(
    db: AsyncSession, clinic: Clinic
) -> None:
    await new_client(db, clinic.clinician, "Ada", "Lovelace", email="ada@example.org")
    await new_client(db, clinic.clinician, "Ada", "Byron", email="ada.byron@example.org")
    assert await listed(db, clinic.clinician, q="  ADA@Example.org ") == ["Lovelace"]
    assert await listed(db, clinic.clinician, q="ada@example") == []
    elsewhere = await factories.workspace(db)
    outsider = await factories.principal(db, elsewhere)
    assert await listed(db, outsider, q="ada@example.org") == []


async def test_list_events_name_the_clients_returned_and_the_kind_of_search_only(
    db: AsyncSession, clinic: Clinic
) -> None:
    ada = await new_client(db, clinic.clinician, "Ada", "Lovelace", email="ada@example.org")
    grace = await new_client(db, clinic.clinician, "Grace", "Hopper")
    await listed(db, clinic.clinician)
    await listed(db, clinic.clinician, q="ada@example.org")
    await listed(db, clinic.clinician, q="hop", include_archived=True)
    await listed(db, clinic.clinician, q="nobody")
    events = await audit_events(db, clinic.space.id)
    lists = [(e.resource_ids, e.details) for e in events if e.action == "client.list"]
    assert lists == [
        ([grace.id, ada.id], SUMMARY | {"search": None, "include_archived": False, "count": 2}),
        ([ada.id], SUMMARY | {"search": "email", "include_archived": False, "count": 1}),
        ([grace.id], SUMMARY | {"search": "name", "include_archived": True, "count": 1}),
        ([], SUMMARY | {"search": "name", "include_archived": False, "count": 0}),
    ]
    for event in events:
        written = json.dumps(event.details)
        for searched in ("ada@", "Lovelace", "Hopper", "hop", "nobody"):
            assert searched not in written


async def test_a_list_opens_only_the_summary_of_each_client_on_the_page(
    db: AsyncSession, clinic: Clinic
) -> None:
    """Issue 24, minimum necessary: a page opens the names (for the name index: this test's
    transaction never commits, so nothing is cached) and each date of birth, nothing else;
    it opened all ten fields of every client on the page (36 values here)."""
    everything = {
        "email": "ada@example.org",
        "phone": "+1 555 010 4477",
        "date_of_birth": "1990-12-10",
        "address": "1 Example Row",
        "emergency_contact_name": "Contact",
        "emergency_contact_phone": "+1 555 010 4478",
        "medical_history": "History",
        "notes": "Notes",
    }
    for last in ("Lovelace", "Hopper", "Byron"):
        await new_client(db, clinic.clinician, "Ada", last, **everything)
    counts = operation_counts()
    before = counts.decrypted
    page, total = await clients.list_clients(
        db, clinic.clinician, PAGE, cache=listing.ClientListCache()
    )
    assert counts.decrypted - before == 3 * (2 + 1)
    assert total == 3 and [c.last_name for c in page] == ["Byron", "Hopper", "Lovelace"]
    assert {c.date_of_birth for c in page} == {date(1990, 12, 10)}
    assert not any(hasattr(c, "medical_history") for c in page)
