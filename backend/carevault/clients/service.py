"""Clients: the people in care. Every personal field is encrypted, so the rules for finding
and ordering them differ from plain columns.

How `GET /clients` and `POST /clients/search` order and search
---------------------------------------------------------------
Names are encrypted with a fresh nonce per value, so PostgreSQL can neither sort nor match
them. Lists are by last then first name, ignoring case and accents ("angs" finds
"Ängström", sorted among the A's); a name search keeps the clients whose "first last" name
contains `q`. Both come from the practice's name index (`carevault.clients.listing`): the
decrypted, folded names of its clients, kept per process and checked on every request
against a change counter PostgreSQL advances on every write to `clients`. A list request
reads the counter, slices the index (or filters it by substring for a name search; no name
is decrypted per keystroke), then loads the page's rows by id, and of them only what a list
shows (a `ClientSummary`: names from the index, date of birth, archived, updated; the minimum
necessary): the rest of a record is decrypted only by `GET /clients/{id}`, the chart read. After a
change only the changed clients' names are decrypted again, once per process. So a page
costs the same at 100 and at 10,000 clients; the price is plaintext names in each process's
memory, bounded by `CAREVAULT_CLIENT_LIST_CACHE_SIZE` (listing's docstring and
docs/explanation/encryption.md say what that does and does not change).

Email and phone searches never decrypt to find anything: `q` is normalised and hashed into
the workspace's blind index (an HMAC; see `carevault.crypto.blind_index`), the indexed
`email_bidx` / `phone_bidx` columns answer an exact match in the database, and the few
matches are ordered by name after decrypting theirs. A phone number is normalised to its
E.164 form, read in the practice's phone region (`555-010-4477` in a US practice and
`+1 (555) 010-4477` are one number); `carevault.clients.phone_index` says how rows indexed
before that are still found.

Rejected alternatives, which put something derived from names in the database: a blind
index of each normalised name (exact-name match only), blind indexes of name prefixes or
trigrams (substring search, but they reveal which clients share fragments and multiply
writes), a keyed, truncated sort token (an order-revealing encoding: it leaks the
alphabetical order of the practice, and near-equal tokens leak shared prefixes), and
decrypting every name on every request (what CareVault did before: 0.15-0.3 s of CPU per
request at 10,000 clients).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from operator import itemgetter
from typing import Any, Literal

from sqlalchemy import Row, any_, bindparam, func, select, update
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.types import Uuid

from carevault.audit import service as audit
from carevault.auth.principal import Principal
from carevault.clients import access, listing, phone_index
from carevault.clients.models import Client
from carevault.clients.phone_index import PHONE_FIELDS
from carevault.clients.schemas import ClientCreate, ClientUpdate, ClientUpsert
from carevault.core.clock import utc_now
from carevault.core.errors import Forbidden, Gone, Invalid, not_found
from carevault.core.external import set_keys
from carevault.core.fields import field_path, invalid
from carevault.core.paging import Pagination
from carevault.crypto import (
    DecryptionError,
    PracticeBlindIndex,
    current_cipher,
    normalize_phone_digits,
)
from carevault.db import external
from carevault.db.alone import has_pending_changes, holds_connection
from carevault.db.changes import NOT_FILTERED, ChangedSince, by_updated_at, where_changed
from carevault.db.readable import rows_skipping_unreadable, scalars_skipping_unreadable
from carevault.db.scoping import WorkspaceRepository, in_workspace, workspace_filter
from carevault.workspaces.keys import WorkspaceShredded
from carevault.workspaces.phones import (
    NotAPhoneNumber,
    PhoneNumber,
    practice_phone_region,
    read_phone,
)
from carevault.workspaces.time import after_practice_today

RESOURCE_TYPE = "client"
# Fewer digits than this is not a phone number: "Room 12" or a year is searched as a name.
PHONE_SEARCH_MIN_DIGITS = 7

SearchKind = Literal["email", "phone", "name"]


def search_kind(q: str) -> SearchKind:
    """How `q` is searched: an email or a phone number exactly, anything else as a name."""
    if "@" in q:
        return "email"
    if len(normalize_phone_digits(q)) >= PHONE_SEARCH_MIN_DIGITS:
        return "phone"
    return "name"


async def _read_phones(
    db: AsyncSession, workspace_id: uuid.UUID, changes: dict[str, Any]
) -> dict[str, PhoneNumber]:
    """The phone numbers among `changes`, read in the practice's region; a 422 naming every
    phone field that does not hold a possible number, and why (never the number)."""
    written = {name: changes[name] for name in PHONE_FIELDS if changes.get(name) is not None}
    if not written:
        return {}
    region = await practice_phone_region(db, workspace_id)
    numbers: dict[str, PhoneNumber] = {}
    refused: list[tuple[str, NotAPhoneNumber]] = []
    for name, text in written.items():
        try:
            numbers[name] = read_phone(text, region)
        except NotAPhoneNumber as bad:
            refused.append((name, bad))
    if refused:
        raise Invalid(
            "validation_error",
            "; ".join(f"{name} {bad}" for name, bad in refused),
            details=[
                {"field": field_path(("body", name)), "message": str(bad), "reason": bad.reason}
                for name, bad in refused
            ],
        )
    return numbers


def _blind_indexes(
    changes: dict[str, Any], workspace_id: uuid.UUID, numbers: dict[str, PhoneNumber]
) -> dict[str, Any]:
    """The blind-index columns to write for the email and phone among `changes`."""
    index = PracticeBlindIndex(current_cipher())
    scope = str(workspace_id)
    columns: dict[str, Any] = {}
    if "email" in changes:
        columns["email_bidx"] = index.email(changes["email"], scope)
    if "phone" in changes:
        columns |= phone_index.index_columns(index, numbers.get("phone"), scope)
    return columns


def _by_name(rows: Iterable[Row[uuid.UUID, str, str]]) -> list[uuid.UUID]:
    """Ids of `rows` (id, first, last) in list order (`listing.sort_key`)."""
    keyed = [(listing.sort_key(i, first, last), i) for i, first, last in rows]
    keyed.sort(key=itemgetter(0))
    return [client_id for _, client_id in keyed]


_clients = WorkspaceRepository(Client, noun="client", condition=access.chart_condition(Client))

# A page's summaries by id, one array parameter whatever the page size: the one encrypted
# column a summary shows besides the names (which the name index holds). Limited to the
# caller's charts (values from `access.chart_values`), although the page's ids already are.
_PAGE_IDS = bindparam("ids", type_=ARRAY(Uuid()))
_SUMMARY_PAGE = (
    in_workspace(Client, bindparam("workspace_id"))
    .where(Client.id == any_(_PAGE_IDS), access.chart_condition(Client))
    .with_only_columns(
        # workspace_id: the date of birth is opened bound to its row (practice and id).
        Client.id,
        Client.workspace_id,
        Client.date_of_birth,
        Client.archived_at,
        Client.updated_at,
    )
)
# The same rows and their `client.list` event in one statement, sent alone when the request
# holds no transaction (the usual case: the name index came from the cache), so a page is
# three round trips (credentials, the change counter, this), not six (BEGIN … COMMIT).
_LISTED = audit.AuditedRows(
    _SUMMARY_PAGE, action="client.list", resource_type=RESOURCE_TYPE, ids_in_order_of=_PAGE_IDS
)
# The same, from a cached name index that the statement itself checks is still current
# (listing.UNCHANGED): no row and no event when it is not. A cached page is then two round
# trips: credentials, and this.
_LISTED_IF_CURRENT = audit.AuditedRows(
    _SUMMARY_PAGE.where(listing.UNCHANGED),
    action="client.list",
    resource_type=RESOURCE_TYPE,
    ids_in_order_of=_PAGE_IDS,
)


async def ensure_bookable(
    db: AsyncSession, workspace_id: uuid.UUID, client_id: uuid.UUID, *, principal: Principal
) -> None:
    """404 unless the client is in the workspace and `principal` sees their chart; 422 if
    archived. Reads no PHI."""
    found = (
        await db.execute(
            access.charted(
                in_workspace(Client, workspace_id)
                .where(Client.id == client_id)
                .with_only_columns(Client.archived_at),
                principal,
                Client,
            )
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
    numbers = await _read_phones(db, principal.workspace_id, values)
    values = await external.columns(db, Client, RESOURCE_TYPE, principal.workspace_id, values)
    client = Client(
        workspace_id=principal.workspace_id,
        **values,
        **_blind_indexes(values, principal.workspace_id, numbers),
    )
    db.add(client)
    await db.flush()
    # Whoever adds a client is on their care team: under `care_team` chart access a clinician
    # keeps the chart they just opened. A service account sees every chart and is no member.
    if principal.service_account is None:
        await access.add_to_care_team(db, principal.workspace_id, client.id, [principal.user.id])
    await audit.record(
        db, principal.actor, "client.create", resource_type=RESOURCE_TYPE, resource_ids=[client.id]
    )
    return client


async def read_client(db: AsyncSession, principal: Principal, client_id: uuid.UUID) -> Client:
    """Archived clients are readable too (archived_at says so), so they can be restored.

    A chart outside the caller's care team is a 404, or, when the practice allows
    break-the-glass, a 403 `chart_access_denied` saying how to open it; a read under a
    break-the-glass grant is flagged in its audit event."""
    client = await _clients.find(
        db, principal.workspace_id, client_id, values=access.chart_values(principal)
    )
    if client is None:
        await _refuse_outside_care_team(db, principal, client_id)
        raise not_found("client")
    details = await access.glass_flag(db, principal, [client.id])
    await audit.record(
        db,
        principal.actor,
        "client.read",
        resource_type=RESOURCE_TYPE,
        resource_ids=[client.id],
        details=details or None,
    )
    return client


async def read_clients(
    db: AsyncSession, principal: Principal, ids: list[uuid.UUID]
) -> list[Client]:
    """The clients among `ids` whose charts the caller sees, in the order of `ids`, archived
    ones included (as `read_client`): one `client.read` event names them all."""
    statement = access.charted(
        in_workspace(Client, principal.workspace_id).where(Client.id.in_(ids)), principal, Client
    )
    loaded, unreadable = await scalars_skipping_unreadable(db, statement, Client.id)
    await audit.record_unreadable(db, principal.actor, RESOURCE_TYPE, unreadable)
    order = {client_id: position for position, client_id in enumerate(ids)}
    clients = sorted(loaded, key=lambda client: order[client.id])
    found = [client.id for client in clients]
    await audit.record(
        db,
        principal.actor,
        "client.read",
        resource_type=RESOURCE_TYPE,
        resource_ids=found,
        details={"batch": True, "count": len(found)}
        | await access.glass_flag(db, principal, found),
    )
    return clients


@dataclass(frozen=True, slots=True)
class Summary:
    """A client as lists show them (`ClientSummary`): nothing else is decrypted."""

    id: uuid.UUID
    first_name: str
    last_name: str
    date_of_birth: date | None
    archived_at: datetime | None
    updated_at: datetime


async def _refuse_outside_care_team(
    db: AsyncSession, principal: Principal, client_id: uuid.UUID
) -> None:
    """403 `chart_access_denied` for a chart that exists outside the caller's care team when
    the practice allows break-the-glass (the caller may then state a reason); otherwise
    nothing, and the caller answers 404 as for any client it cannot see."""
    if principal.sees_every_chart or not principal.break_the_glass:
        return
    exists = await db.scalar(
        # chart-wide: tells 403 from 404 for break-the-glass; reads the id only, no PHI
        in_workspace(Client, principal.workspace_id)
        .where(Client.id == client_id)
        .with_only_columns(Client.id)
    )
    if exists is not None:
        raise Forbidden(
            "chart_access_denied",
            "this client is outside your care team; to open the chart, state a reason with "
            "POST /api/v1/clients/{client_id}/break-the-glass",
            details={"break_the_glass": True},
        )


# The same refusal for every reader of a whole chart (the record's export too).
refuse_outside_care_team = _refuse_outside_care_team


async def list_clients(
    db: AsyncSession,
    principal: Principal,
    paging: Pagination,
    *,
    q: str | None = None,
    include_archived: bool = False,
    cache: listing.ClientListCache | None = None,
    changes: ChangedSince = NOT_FILTERED,
) -> tuple[list[Summary], int]:
    """Summaries (the minimum necessary), by last then first name, case-insensitive; see the
    module docstring for how. The names come from the name index (or the rows an email or
    phone search opened anyway); only the page's dates of birth are decrypted. Without
    `cache` every request builds the name index afresh. One `client.list` event names every
    client returned, as a summary disclosure (`details.disclosure`); never the search term.

    Under `care_team` chart access a clinician's list holds only their charts: the email and
    phone searches add the predicate (`access.charted`), the name index is filtered by their
    care-team (and granted) client ids, read in one more statement.

    `changes` (`updated_since`, `sort=updated_at`; not with a search): the names come from
    the rows the filter selects, in the order it asks for, not from the name index."""
    workspace_id = principal.workspace_id
    q = (q or "").strip()
    kind = search_kind(q) if q else None
    visible: set[uuid.UUID] | None = None
    changed = changes.active and kind is None
    if not changed and kind != "email" and kind != "phone":
        cached = _cached_index_alone(db, workspace_id, cache)
        visible = await access.visible_client_ids(db, principal)
        if cached is not None:
            listed = await _list_from_current_index(
                db, principal, cached, paging, q, kind, include_archived, visible
            )
            if listed is not None:
                return listed
    names: list[tuple[uuid.UUID, str, str]]
    if changed:
        names, total, unreadable = await _changed_names(
            db, principal, paging, include_archived, changes
        )
    elif kind in ("email", "phone"):
        # Both the practice-key index and the ring-wide one: rows written before practice
        # blind-index keys keep the latter until `carevault reencrypt` recomputes them.
        blind = PracticeBlindIndex(current_cipher())
        if kind == "email":
            candidates = blind.candidates(kind, q, str(workspace_id))
            column = Client.email_bidx
        else:
            region = await practice_phone_region(db, workspace_id)
            candidates = phone_index.search_candidates(blind, q, region, str(workspace_id))
            column = Client.phone_bidx
        scope = access.charted(
            in_workspace(Client, workspace_id).where(column.in_(candidates)), principal, Client
        )
        if not include_archived:
            scope = scope.where(Client.archived_at.is_(None))
        rows, unreadable = await rows_skipping_unreadable(
            db, scope.with_only_columns(Client.id, Client.first_name, Client.last_name), Client.id
        )
        matching = _by_name(rows)
        by_id = {client_id: (client_id, first, last) for client_id, first, last in rows}
        names = [by_id[i] for i in matching[paging.offset : paging.offset + paging.page_size]]
        total = len(matching)
    else:
        try:
            index = await listing.name_index(db, cache, workspace_id)
        except WorkspaceShredded:
            raise Gone("workspace_shredded", "this practice's data was shredded") from None
        needle = listing.folded(q) if kind == "name" else None
        names, total = index.page_names(
            needle,
            include_archived=include_archived,
            offset=paging.offset,
            size=paging.page_size,
            only=visible,
        )
        unreadable = index.unreadable_ids(include_archived=include_archived, only=visible)
    ids = [client_id for client_id, _, _ in names]
    details = {
        "disclosure": "summary",
        "search": kind,
        "include_archived": include_archived,
        "count": len(names),
    } | await access.glass_flag(db, principal, ids)
    clients: list[Summary] = []
    if names:
        values = {"workspace_id": workspace_id, "ids": ids, **access.chart_values(principal)}
        try:
            rows = await _LISTED.execute(db, principal.actor, values, details=details)
        except DecryptionError:
            # A date of birth that cannot be opened: the event (written with the rows) names
            # the whole page; read it again row by row, leaving out and naming the unreadable.
            rows, unreadable_on_page = await rows_skipping_unreadable(
                db, _SUMMARY_PAGE.params(**values), Client.id
            )
            unreadable += unreadable_on_page
        loaded = {row[0]: row for row in rows}
        for client_id, first_name, last_name in names:
            row = loaded.get(client_id)
            if row is not None:  # gone since the index was read
                clients.append(
                    Summary(
                        client_id,
                        first_name,
                        last_name,
                        row.date_of_birth,
                        row.archived_at,
                        row.updated_at,
                    )
                )
    else:
        # Nothing listed is audited too: a search that found no one.
        await audit.record(
            db,
            principal.actor,
            "client.list",
            resource_type=RESOURCE_TYPE,
            resource_ids=[],
            details=details,
        )
    # A client whose name cannot be opened is left out of the list, never fails the page.
    await audit.record_unreadable(db, principal.actor, RESOURCE_TYPE, unreadable)
    return clients, total


async def _changed_names(
    db: AsyncSession,
    principal: Principal,
    paging: Pagination,
    include_archived: bool,
    changes: ChangedSince,
) -> tuple[list[tuple[uuid.UUID, str, str]], int, list[uuid.UUID]]:
    """The page of (id, first, last) a change filter selects, in its order (by name unless
    `sort=updated_at`), the number over all pages, and the clients left out as unreadable."""
    scope = where_changed(
        access.charted(in_workspace(Client, principal.workspace_id), principal, Client),
        Client,
        changes,
    )
    if not include_archived:
        scope = scope.where(Client.archived_at.is_(None))
    total = int(await db.scalar(select(func.count()).select_from(scope.subquery())) or 0)
    named = scope.with_only_columns(Client.id, Client.first_name, Client.last_name)
    if changes.by_updated_at:
        rows, unreadable = await rows_skipping_unreadable(
            db,
            by_updated_at(named, Client).offset(paging.offset).limit(paging.page_size),
            Client.id,
        )
        return [(row[0], row[1], row[2]) for row in rows], total, unreadable
    # By name: every changed client's name is opened to sort them (as a search does).
    rows, unreadable = await rows_skipping_unreadable(db, named, Client.id)
    by_id = {client_id: (client_id, first, last) for client_id, first, last in rows}
    page = _by_name(rows)[paging.offset : paging.offset + paging.page_size]
    return [by_id[i] for i in page], total, unreadable


async def list_by_external_id(
    db: AsyncSession, principal: Principal, external_id: str, *, include_archived: bool = False
) -> list[Summary]:
    """The client (as a summary) with this external id, if the caller sees their chart: an
    exact match through the blind index, audited as a list (`client.list`)."""
    workspace_id = principal.workspace_id
    statement = access.charted(
        in_workspace(Client, workspace_id)
        .where(
            Client.external_id_bidx.in_(
                external.candidates(RESOURCE_TYPE, workspace_id, external_id)
            )
        )
        .with_only_columns(
            Client.id,
            Client.first_name,
            Client.last_name,
            Client.date_of_birth,
            Client.archived_at,
            Client.updated_at,
        ),
        principal,
        Client,
    )
    if not include_archived:
        statement = statement.where(Client.archived_at.is_(None))
    rows, unreadable = await rows_skipping_unreadable(db, statement, Client.id)
    found = [Summary(*row) for row in rows]
    ids = [summary.id for summary in found]
    await audit.record(
        db,
        principal.actor,
        "client.list",
        resource_type=RESOURCE_TYPE,
        resource_ids=ids,
        details={
            "disclosure": "summary",
            "search": "external_id",
            "include_archived": include_archived,
            "count": len(ids),
        }
        | await access.glass_flag(db, principal, ids),
    )
    await audit.record_unreadable(db, principal.actor, RESOURCE_TYPE, unreadable)
    return found


def _cached_index_alone(
    db: AsyncSession, workspace_id: uuid.UUID, cache: listing.ClientListCache | None
) -> tuple[listing.ClientListCache, listing.NameIndex] | None:
    """The practice's usable cached name index, when the request holds no transaction yet
    (else the usual path, which sees the request's own changes). Reads nothing."""
    if holds_connection(db) or has_pending_changes(db):
        return None
    index = listing.current_index(cache, workspace_id)
    if index is None or cache is None:
        return None
    return cache, index


async def _list_from_current_index(
    db: AsyncSession,
    principal: Principal,
    cached: tuple[listing.ClientListCache, listing.NameIndex],
    paging: Pagination,
    q: str,
    kind: SearchKind | None,
    include_archived: bool,
    visible: set[uuid.UUID] | None,
) -> tuple[list[Summary], int] | None:
    """The page from the cached name index (of `visible` clients only, unless None), its
    validity checked by the statement that reads the page and writes its event, sent alone
    when the request holds nothing: one round trip. None when that cannot serve the page (an
    empty page, or the index turned out stale, the practice shredded): the caller then takes
    the usual path."""
    cache, index = cached
    workspace_id = principal.workspace_id
    needle = listing.folded(q) if kind == "name" else None
    names, total = index.page_names(
        needle,
        include_archived=include_archived,
        offset=paging.offset,
        size=paging.page_size,
        only=visible,
    )
    if not names:
        return None
    ids = [client_id for client_id, _, _ in names]
    details = {
        "disclosure": "summary",
        "search": kind,
        "include_archived": include_archived,
        "count": len(names),
    } | await access.glass_flag(db, principal, ids)
    page = {"workspace_id": workspace_id, "ids": ids, **access.chart_values(principal)}
    values = page | listing.unchanged_since(index)
    unreadable: list[uuid.UUID] = []
    try:
        rows = await _LISTED_IF_CURRENT.execute(db, principal.actor, values, details=details)
    except DecryptionError:
        # A date of birth that cannot be opened: the index was current (rows came back) and
        # the event, written with them, names the whole page; read it again row by row,
        # leaving out and naming the unreadable.
        rows, unreadable = await rows_skipping_unreadable(
            db, _SUMMARY_PAGE.params(**page), Client.id
        )
    else:
        if not rows:
            return None  # stale (or shredded): nothing was returned and no event written
    cache.stats.hits += 1
    await audit.record_unreadable(db, principal.actor, RESOURCE_TYPE, unreadable)
    loaded = {row.id: row for row in rows}
    clients = [
        Summary(client_id, first, last, row.date_of_birth, row.archived_at, row.updated_at)
        for client_id, first, last in names
        if (row := loaded.get(client_id)) is not None
    ]
    return clients, total


async def update_client(
    db: AsyncSession, principal: Principal, client_id: uuid.UUID, body: ClientUpdate
) -> Client:
    """Change only the fields sent; a new email or phone gets a new blind index."""
    changes = body.changes()
    if not changes:
        raise Invalid("no_changes", "send at least one field to change")
    await _refuse_future_birth_date(db, principal.workspace_id, changes.get("date_of_birth"))
    numbers = await _read_phones(db, principal.workspace_id, changes)
    client = await _clients.get(
        db, principal.workspace_id, client_id, values=access.chart_values(principal)
    )
    indexes = _blind_indexes(changes, principal.workspace_id, numbers)
    written = await external.columns(
        db, Client, RESOURCE_TYPE, principal.workspace_id, changes, record=client
    )
    for field, value in (written | indexes).items():
        setattr(client, field, value)
    client.updated_at = utc_now()
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


async def upsert_client(
    db: AsyncSession, principal: Principal, external_id: str, body: ClientUpsert
) -> tuple[Client, bool]:
    """The client with this external id changed as `body` says, or a new one with it:
    (the client, whether it was created). Concurrent upserts of one external id are
    serialised (carevault.db.external.lock), so they never create two clients."""
    workspace_id = principal.workspace_id
    await external.lock(db, RESOURCE_TYPE, workspace_id, external_id)
    existing = await external.find(db, Client, RESOURCE_TYPE, workspace_id, external_id)
    sent = body.model_dump(exclude_unset=True)
    if existing is None:
        metadata = set_keys(sent.pop("metadata", None))
        create = ClientCreate.model_validate(
            sent | {"external_id": external_id, "metadata": metadata}
        )
        return await create_client(db, principal, create), True
    return await update_client(db, principal, existing, ClientUpdate.model_validate(sent)), False


async def find_external(
    db: AsyncSession, principal: Principal, external_id: str
) -> uuid.UUID | None:
    """The id of the practice's client with this external id (reads no PHI)."""
    return await external.find(db, Client, RESOURCE_TYPE, principal.workspace_id, external_id)


async def archive_client(db: AsyncSession, principal: Principal, client_id: uuid.UUID) -> None:
    """Hide the client from lists until restored; their records stay. Archiving an archived
    client changes nothing."""
    now = utc_now()
    archived_id = await db.scalar(
        access.charted(
            update(Client).where(
                workspace_filter(Client, principal.workspace_id),
                Client.id == client_id,
                Client.archived_at.is_(None),
            ),
            principal,
            Client,
        )
        .values(archived_at=now, updated_at=now)
        .returning(Client.id)
        .execution_options(synchronize_session=False)
    )
    if archived_id is None:
        exists = await db.scalar(
            access.charted(
                in_workspace(Client, principal.workspace_id)
                .where(Client.id == client_id)
                .with_only_columns(Client.id),
                principal,
                Client,
            )
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
    client = await _clients.get(
        db, principal.workspace_id, client_id, lock=True, values=access.chart_values(principal)
    )
    restored = client.archived_at is not None
    if restored:
        client.archived_at = None
        client.updated_at = utc_now()
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
