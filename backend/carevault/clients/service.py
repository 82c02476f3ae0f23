"""Clients: the people in care. Every personal field is encrypted, so the rules for finding
and ordering them differ from plain columns.

How `GET /clients` and `POST /clients/search` order and search
---------------------------------------------------------------
Names are encrypted with a fresh nonce per value, so PostgreSQL can neither sort nor match
them. A list request therefore reads three columns (id, first and last name) of the
workspace's clients (non-archived ones unless asked), decrypts the two names in Python,
keeps those whose "first last" name contains `q` for a name search, sorts by last then first
name, and only then loads the full records of the one page it returns. Matching and order
ignore case and accents ("angs" finds "Ängström", sorted among the A's). Email and
phone searches never decrypt to find anything: `q` is normalised and hashed into the
workspace's blind index (an HMAC; see `carevault.crypto.blind_index`), and the indexed
`email_bidx` / `phone_bidx` columns answer an exact match in the database.

What that costs as a practice grows: every list or name search decrypts 2 x N names for
N clients, whatever page it returns. One AES-GCM decryption takes about 4 µs; with fetching
and sorting, a list costs about 20 µs per client (measured: 0.15-0.3 s for 10,000 clients),
so ~20 ms for a practice of 1,000 clients, ~0.2 s at 10,000 and ~1 s at 50,000. Small
practices have hundreds; it is fine to tens of thousands of clients per workspace and
linear beyond. Past that, the alternatives all put something derived from names in the
database: a blind index of each normalised name (exact-name match only, cheap), blind
indexes of name prefixes or trigrams (substring search, but they reveal which clients share
fragments and multiply writes), or an order-revealing sort key (leaks the alphabetical
order). A per-process cache of decrypted names would spare the database those leaks but
keeps plaintext in memory and needs invalidation across processes. None is worth its leak
at today's sizes.
"""

from __future__ import annotations

import unicodedata
import uuid
from collections.abc import Iterable
from datetime import UTC, date, datetime
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Literal

from sqlalchemy import Row, update
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.api.errors import ApiError, not_found
from carevault.api.fields import invalid
from carevault.api.pagination import Pagination
from carevault.audit import service as audit
from carevault.clients.models import Client
from carevault.clients.schemas import ClientCreate, ClientUpdate
from carevault.crypto import PracticeBlindIndex, current_cipher, normalize_phone
from carevault.db.readable import rows_skipping_unreadable, scalars_skipping_unreadable
from carevault.db.scoping import WorkspaceRepository, in_workspace, workspace_filter
from carevault.workspaces.time import after_practice_today

if TYPE_CHECKING:
    from carevault.auth.dependencies import Principal

RESOURCE_TYPE = "client"
# Fewer digits than this is not a phone number: "Room 12" or a year is searched as a name.
PHONE_SEARCH_MIN_DIGITS = 7

SearchKind = Literal["email", "phone", "name"]


def _now() -> datetime:
    return datetime.now(UTC)


def search_kind(q: str) -> SearchKind:
    """How `q` is searched: an email or a phone number exactly, anything else as a name."""
    if "@" in q:
        return "email"
    if len(normalize_phone(q)) >= PHONE_SEARCH_MIN_DIGITS:
        return "phone"
    return "name"


def _blind_indexes(changes: dict[str, Any], workspace_id: uuid.UUID) -> dict[str, bytes | None]:
    """The blind-index columns to write for the email and phone among `changes`."""
    index = PracticeBlindIndex(current_cipher())
    scope = str(workspace_id)
    columns: dict[str, bytes | None] = {}
    if "email" in changes:
        columns["email_bidx"] = index.email(changes["email"], scope)
    if "phone" in changes:
        columns["phone_bidx"] = index.phone(changes["phone"], scope)
    return columns


def _folded(text: str) -> str:
    """Case- and accent-insensitive form for ordering and matching: "Ängström" -> "angstrom"."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def _by_name(rows: Iterable[Row[uuid.UUID, str, str]], needle: str | None) -> list[uuid.UUID]:
    """Ids of the clients whose "first last" name contains `needle` (all when None), by last
    then first name; exact spelling and then id break ties, so the order is stable."""
    keyed: list[tuple[tuple[str, str, str, str, str], uuid.UUID]] = []
    for client_id, first_name, last_name in rows:
        first, last = _folded(first_name), _folded(last_name)
        if needle is None or needle in f"{first} {last}":
            keyed.append(((last, first, last_name, first_name, str(client_id)), client_id))
    keyed.sort(key=itemgetter(0))
    return [client_id for _, client_id in keyed]


_clients = WorkspaceRepository(Client, noun="client")


async def ensure_bookable(db: AsyncSession, workspace_id: uuid.UUID, client_id: uuid.UUID) -> None:
    """404 unless the client is in the workspace; 422 if archived. Reads no PHI."""
    found = (
        await db.execute(
            in_workspace(Client, workspace_id)
            .where(Client.id == client_id)
            .with_only_columns(Client.archived_at)
        )
    ).one_or_none()
    if found is None:
        raise not_found("client")
    if found.archived_at is not None:
        raise invalid("client_archived", "the client is archived; restore them first", "client_id")


async def _refuse_future_birth_date(
    db: AsyncSession, workspace_id: uuid.UUID, born: date | None
) -> None:
    today = await after_practice_today(db, workspace_id, born)
    if today is not None:
        raise invalid(
            "validation_error",
            f"the date of birth cannot be after the practice's today ({today.isoformat()})",
            "date_of_birth",
        )


async def create_client(db: AsyncSession, principal: Principal, body: ClientCreate) -> Client:
    await _refuse_future_birth_date(db, principal.workspace_id, body.date_of_birth)
    values = body.model_dump()
    client = Client(
        workspace_id=principal.workspace_id,
        **values,
        **_blind_indexes(values, principal.workspace_id),
    )
    db.add(client)
    await db.flush()
    await audit.record(
        db, principal.actor, "client.create", resource_type=RESOURCE_TYPE, resource_ids=[client.id]
    )
    return client


async def read_client(db: AsyncSession, principal: Principal, client_id: uuid.UUID) -> Client:
    """Archived clients are readable too (archived_at says so), so they can be restored."""
    client = await _clients.get(db, principal.workspace_id, client_id)
    await audit.record(
        db, principal.actor, "client.read", resource_type=RESOURCE_TYPE, resource_ids=[client.id]
    )
    return client


async def list_clients(
    db: AsyncSession,
    principal: Principal,
    paging: Pagination,
    *,
    q: str | None = None,
    include_archived: bool = False,
) -> tuple[list[Client], int]:
    """By last then first name, case-insensitive; see the module docstring for how and at
    what cost. One audit event names every client returned; never the search term."""
    workspace_id = principal.workspace_id
    scope = in_workspace(Client, workspace_id)
    if not include_archived:
        scope = scope.where(Client.archived_at.is_(None))
    q = (q or "").strip()
    kind = search_kind(q) if q else None
    if kind in ("email", "phone"):
        # Both the practice-key index and the ring-wide one: rows written before practice
        # blind-index keys keep the latter until `carevault reencrypt` recomputes them.
        candidates = PracticeBlindIndex(current_cipher()).candidates(kind, q, str(workspace_id))
        column = Client.email_bidx if kind == "email" else Client.phone_bidx
        scope = scope.where(column.in_(candidates))
    rows, unreadable = await rows_skipping_unreadable(
        db, scope.with_only_columns(Client.id, Client.first_name, Client.last_name), Client.id
    )
    matching = _by_name(rows, _folded(q) if kind == "name" else None)
    page_ids = matching[paging.offset : paging.offset + paging.page_size]
    clients: list[Client] = []
    if page_ids:
        page, unreadable_on_page = await scalars_skipping_unreadable(
            db, in_workspace(Client, workspace_id).where(Client.id.in_(page_ids)), Client.id
        )
        unreadable += unreadable_on_page
        loaded = {client.id: client for client in page}
        clients = [loaded[client_id] for client_id in page_ids if client_id in loaded]
    # A client whose name cannot be opened is left out of the list, never fails the page.
    await audit.record_unreadable(db, principal.actor, RESOURCE_TYPE, unreadable)
    await audit.record(
        db,
        principal.actor,
        "client.list",
        resource_type=RESOURCE_TYPE,
        resource_ids=[client.id for client in clients],
        details={"search": kind, "include_archived": include_archived, "count": len(clients)},
    )
    return clients, len(matching)


async def update_client(
    db: AsyncSession, principal: Principal, client_id: uuid.UUID, body: ClientUpdate
) -> Client:
    """Change only the fields sent; a new email or phone gets a new blind index."""
    changes = body.changes()
    if not changes:
        raise ApiError(422, "no_changes", "send at least one field to change")
    await _refuse_future_birth_date(db, principal.workspace_id, changes.get("date_of_birth"))
    client = await _clients.get(db, principal.workspace_id, client_id)
    for field, value in (changes | _blind_indexes(changes, principal.workspace_id)).items():
        setattr(client, field, value)
    client.updated_at = _now()
    await db.flush()
    await audit.record(
        db,
        principal.actor,
        "client.update",
        resource_type=RESOURCE_TYPE,
        resource_ids=[client.id],
        details={"fields": sorted(changes)},
    )
    return client


async def archive_client(db: AsyncSession, principal: Principal, client_id: uuid.UUID) -> None:
    """Hide the client from lists until restored; their records stay. Archiving an archived
    client changes nothing."""
    now = _now()
    archived_id = await db.scalar(
        update(Client)
        .where(
            workspace_filter(Client, principal.workspace_id),
            Client.id == client_id,
            Client.archived_at.is_(None),
        )
        .values(archived_at=now, updated_at=now)
        .returning(Client.id)
        .execution_options(synchronize_session=False)
    )
    if archived_id is None:
        exists = await db.scalar(
            in_workspace(Client, principal.workspace_id)
            .where(Client.id == client_id)
            .with_only_columns(Client.id)
        )
        if exists is None:
            raise not_found("client")
    await audit.record(
        db,
        principal.actor,
        "client.archive",
        resource_type=RESOURCE_TYPE,
        resource_ids=[client_id],
        details={"archived": archived_id is not None},
    )


async def restore_client(db: AsyncSession, principal: Principal, client_id: uuid.UUID) -> Client:
    """Un-archive; a client who is not archived is returned as they are."""
    client = await _clients.get(db, principal.workspace_id, client_id, lock=True)
    restored = client.archived_at is not None
    if restored:
        client.archived_at = None
        client.updated_at = _now()
        await db.flush()
    await audit.record(
        db,
        principal.actor,
        "client.restore",
        resource_type=RESOURCE_TYPE,
        resource_ids=[client.id],
        details={"restored": restored},
    )
    return client
