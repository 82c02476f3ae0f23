"""A client's access history, readable by a person: who, what, when and from where, from the
audit events that name the client or one of their notes or appointments.

Events name records by id (`audit_events.resource_ids`, indexed with GIN by migration 0021),
so the client's history is every event of the practice whose ids overlap the client's id,
their notes' ids and their appointments' ids. An appointment deleted since is no longer
known to belong to the client: its events stay in the practice's trail (`GET
/audit-events`) but leave this history.

What each event was, for a reader (`kind`), is derived from its action in SQL, so that the
filter and the answer agree:

- `chart_read`: the record itself was read (`client.read`, `session.read`,
  `appointment.read`, a note's versions, a break-the-glass read).
- `list_appearance`: the client appeared in a list or search (a summary disclosure for
  clients, issue 24), or their note or appointment did.
- `export`: data about the client left as a file (this history as CSV included).
- `access_log`: someone read this history.
- `change`: created, changed, archived, restored, imported, signed...
- `other`: a value that could not be opened, and anything not about the record itself.

Who: the user's display name (or sign-in address when it has none) and role, and the token's
name when the request came with one; `via` says `ui` (a signed-in session), `token` or
`system` (a command on the server). Names of staff are not client PHI; nothing here
decrypts anything.
"""

from __future__ import annotations

import csv
import io
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import ColumnElement, Select, and_, case, func, literal, or_, select
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.types import Uuid

from carevault.appointments.models import Appointment
from carevault.audit import service as audit
from carevault.audit.models import AuditEvent
from carevault.auth.models import ApiToken, ServiceAccount, User
from carevault.auth.principal import Principal
from carevault.clients.importing import FORMULA_PREFIXES
from carevault.clients.models import Client
from carevault.core.errors import not_found
from carevault.core.fields import invalid
from carevault.core.paging import Pagination
from carevault.db.scoping import in_workspace, workspace_filter
from carevault.notes.models import SessionNote

Kind = Literal["chart_read", "list_appearance", "change", "export", "access_log", "other"]
KINDS: tuple[Kind, ...] = (
    "chart_read",
    "list_appearance",
    "change",
    "export",
    "access_log",
    "other",
)
Via = Literal["ui", "token", "system"]
ACTION = "client.access_log"
# A CSV export holds at most this many events; a longer history is refused with a 422 that
# asks for a shorter date range (the file is built in memory).
CSV_MAX_EVENTS = 50_000

_action = AuditEvent.action
KIND = case(
    (
        and_(_action == ACTION, AuditEvent.details["format"].astext == "csv"),
        literal("export"),
    ),
    (_action == ACTION, literal("access_log")),
    (_action.like("%.list"), literal("list_appearance")),
    (_action.like("%export%"), literal("export")),
    (
        or_(
            _action.like("%.read"),
            _action.like("%versions_read"),
            _action.like("%break_glass%"),
        ),
        literal("chart_read"),
    ),
    (or_(_action.like("phi.%"), _action.like("auth.%")), literal("other")),
    else_=literal("change"),
)
VIA = case(
    (AuditEvent.actor_token_id.is_not(None), literal("token")),
    (AuditEvent.actor_user_id.is_not(None), literal("ui")),
    else_=literal("system"),
)


@dataclass(frozen=True)
class AccessFilters:
    since: datetime | None = None
    until: datetime | None = None
    kind: Kind | None = None
    actor_user_id: uuid.UUID | None = None


@dataclass(frozen=True, slots=True)
class Access:
    """One line of the history (`AccessLogEntry`)."""

    id: int
    occurred_at: datetime
    kind: str
    action: str
    resource_type: str | None
    via: str
    actor_user_id: uuid.UUID | None
    actor_name: str | None
    actor_role: str | None
    token_name: str | None
    ip_address: str | None


async def _record_ids(
    db: AsyncSession, workspace_id: uuid.UUID, client_id: uuid.UUID
) -> list[uuid.UUID]:
    """The client's id, then their notes' and appointments' ids; 404 for no such client.
    Reads ids only: nothing is decrypted."""
    found = await db.scalar(
        # chart-wide: owners only (the route), who see every chart; ids only
        in_workspace(Client, workspace_id)
        .where(Client.id == client_id)
        .with_only_columns(Client.id)
    )
    if found is None:
        raise not_found("client")
    # chart-wide: owners only, who see every chart; the ids of the client's records only
    notes = in_workspace(SessionNote, workspace_id).where(SessionNote.client_id == client_id)
    # chart-wide: as above
    appointments = in_workspace(Appointment, workspace_id).where(Appointment.client_id == client_id)
    owned = await db.scalars(
        notes.with_only_columns(SessionNote.id).union_all(
            appointments.with_only_columns(Appointment.id)
        )
    )
    return [client_id, *owned]


def _statement(
    workspace_id: uuid.UUID, record_ids: Sequence[uuid.UUID], filters: AccessFilters
) -> Select[Any]:
    conditions: list[ColumnElement[bool]] = [
        AuditEvent.workspace_id == workspace_id,
        AuditEvent.resource_ids.op("&&")(
            literal(list(record_ids), type_=ARRAY(Uuid()))  # GIN: ix_audit_events_resource_ids
        ),
    ]
    if filters.since is not None:
        conditions.append(AuditEvent.occurred_at >= filters.since)
    if filters.until is not None:
        conditions.append(AuditEvent.occurred_at < filters.until)
    if filters.kind is not None:
        conditions.append(KIND.op("=")(filters.kind))
    if filters.actor_user_id is not None:
        conditions.append(AuditEvent.actor_user_id == filters.actor_user_id)
    return (
        select(
            AuditEvent.id,
            AuditEvent.occurred_at,
            KIND.label("kind"),
            AuditEvent.action,
            AuditEvent.resource_type,
            VIA.label("via"),
            AuditEvent.actor_user_id,
            func.nullif(User.display_name, "").label("display_name"),
            User.email.label("sign_in"),
            User.role,
            ApiToken.name.label("token_name"),
            ServiceAccount.name.label("service_account_name"),
            AuditEvent.ip_address,
        )
        .select_from(AuditEvent)
        .outerjoin(
            User,
            and_(User.id == AuditEvent.actor_user_id, workspace_filter(User, workspace_id)),
        )
        .outerjoin(
            ApiToken,
            and_(
                ApiToken.id == AuditEvent.actor_token_id,
                workspace_filter(ApiToken, workspace_id),
            ),
        )
        .outerjoin(
            ServiceAccount,
            and_(
                ServiceAccount.id == ApiToken.service_account_id,
                workspace_filter(ServiceAccount, workspace_id),
            ),
        )
        .where(*conditions)
        .order_by(AuditEvent.id.desc())
    )


def _access(row: Any) -> Access:
    return Access(
        id=row.id,
        occurred_at=row.occurred_at,
        kind=row.kind,
        action=row.action,
        resource_type=row.resource_type,
        via=row.via,
        actor_user_id=row.actor_user_id,
        # A service account acts as itself: its name stands as the actor's.
        actor_name=row.display_name or row.sign_in or row.service_account_name,
        actor_role=row.role,
        token_name=row.token_name,
        ip_address=None if row.ip_address is None else str(row.ip_address),
    )


async def read_access_log(
    db: AsyncSession,
    principal: Principal,
    client_id: uuid.UUID,
    filters: AccessFilters,
    paging: Pagination,
) -> tuple[list[Access], int]:
    """One page of the client's history, newest first; the read is itself audited (as
    `client.access_log`, naming the client), after the page is read, so it is not on it."""
    audit.refuse_inverted_range(filters.since, filters.until)
    ids = await _record_ids(db, principal.workspace_id, client_id)
    statement = _statement(principal.workspace_id, ids, filters)
    total = int(
        await db.scalar(select(func.count()).select_from(statement.order_by(None).subquery())) or 0
    )
    rows = (await db.execute(statement.offset(paging.offset).limit(paging.page_size))).all()
    entries = [_access(row) for row in rows]
    await _audit(db, principal, client_id, "json", len(entries))
    return entries, total


async def export_access_log(
    db: AsyncSession, principal: Principal, client_id: uuid.UUID, filters: AccessFilters
) -> str:
    """The whole filtered history as CSV text (at most CSV_MAX_EVENTS events: more is a 422
    asking for a shorter range); audited as an export."""
    audit.refuse_inverted_range(filters.since, filters.until)
    ids = await _record_ids(db, principal.workspace_id, client_id)
    statement = _statement(principal.workspace_id, ids, filters)
    rows = (await db.execute(statement.limit(CSV_MAX_EVENTS + 1))).all()
    if len(rows) > CSV_MAX_EVENTS:
        raise invalid(
            "too_many_events",
            f"more than {CSV_MAX_EVENTS} events match; export a shorter date range",
            "since",
            "until",
            location="query",
        )
    entries = [_access(row) for row in rows]
    await _audit(db, principal, client_id, "csv", len(entries))
    return as_csv(entries)


async def _audit(
    db: AsyncSession, principal: Principal, client_id: uuid.UUID, file_format: str, count: int
) -> None:
    await audit.record(
        db,
        principal.actor,
        ACTION,
        resource_type="client",
        resource_ids=[client_id],
        details={"format": file_format, "count": count},
    )


CSV_COLUMNS = (
    "occurred_at",
    "kind",
    "action",
    "record_type",
    "via",
    "actor_name",
    "actor_role",
    "token_name",
    "actor_user_id",
    "ip_address",
    "event_id",
)


def csv_cell(value: object) -> str:
    """A value as a cell no spreadsheet runs as a formula (OWASP "CSV injection"): text that
    starts with =, +, -, @, a tab or a CR gets a leading apostrophe, as spreadsheets do. Staff
    and token names are typed by people, so they may start so."""
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_PREFIXES):
        return "'" + text
    return text


def as_csv(entries: Iterable[Access]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for entry in entries:
        writer.writerow(
            [
                csv_cell(value)
                for value in (
                    entry.occurred_at.isoformat(),
                    entry.kind,
                    entry.action,
                    entry.resource_type,
                    entry.via,
                    entry.actor_name,
                    entry.actor_role,
                    entry.token_name,
                    entry.actor_user_id,
                    entry.ip_address,
                    entry.id,
                )
            ]
        )
    return out.getvalue()
