"""The audit trail: one event per access, written in the same transaction as the access with
a single INSERT (no event, no access) and no lock. Events are sealed afterwards, in order, by
carevault/audit/sealing.py; carevault/audit/verify.py checks the seals."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar, cast

from sqlalchemy import (
    CTE,
    BindParameter,
    ColumnElement,
    Insert,
    Row,
    Select,
    Subquery,
    Table,
    Text,
    and_,
    bindparam,
    func,
    insert,
    or_,
    select,
    true,
)
from sqlalchemy.dialects.postgresql import aggregate_order_by
from sqlalchemy.engine import Engine
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.dml import ReturningUpdate

from carevault.audit.models import AuditEvent
from carevault.auth.models import ApiToken, ServiceAccount, User
from carevault.core.fields import invalid
from carevault.core.paging import Pagination
from carevault.db import direct
from carevault.db.alone import alone
from carevault.db.deadlines import COMMIT_DEADLINE_SETTING, alone_fence, commit_fence
from carevault.db.replica import read_bind
from carevault.db.routing import reads_only
from carevault.db.scoping import workspace_filter
from carevault.observability.request_id import current_request_id


@dataclass(frozen=True)
class Actor:
    """Who did it and from where; no PHI."""

    workspace_id: uuid.UUID | None
    user_id: uuid.UUID | None = None
    token_id: uuid.UUID | None = None
    ip_address: str | None = None


def as_uuids(values: Sequence[uuid.UUID | str]) -> list[uuid.UUID]:
    return [v if isinstance(v, uuid.UUID) else uuid.UUID(str(v)) for v in values]


async def record_unreadable(
    db: AsyncSession, actor: Actor, resource_type: str, ids: Sequence[uuid.UUID]
) -> None:
    """Rows a list left out because a protected value could not be opened (no PHI)."""
    if ids:
        await record(
            db,
            actor,
            "phi.decryption_failed",
            resource_type=resource_type,
            resource_ids=list(ids),
            details={"reason": "left out of a list: a protected value could not be opened"},
        )


async def record(
    db: AsyncSession,
    actor: Actor,
    action: str,
    *,
    resource_type: str | None = None,
    resource_ids: Sequence[uuid.UUID | str] | None = None,
    details: dict[str, Any] | None = None,
) -> None:
    """Append an event in the caller's transaction: if it cannot be written, neither can
    the access it records. One INSERT, which also sets the transaction's commit fence (see
    carevault.db.deadlines); no chain work and no lock (sealing comes later). The request's
    id goes into `details`, which the seal covers."""
    event = _event(actor, action, resource_type, resource_ids, details)
    connection = await db.connection()
    fence = commit_fence(connection.sync_connection)  # type: ignore[arg-type]
    await connection.execute(*_fenced_form(_APPEND, _APPEND_FENCED, event, fence))


def _event(
    actor: Actor,
    action: str,
    resource_type: str | None,
    resource_ids: Sequence[uuid.UUID | str] | None,
    details: dict[str, Any] | None,
) -> dict[str, Any]:
    """The bound values of one event; the request's id goes into `details`."""
    request_id = current_request_id.get()
    if request_id is not None:
        details = {**details, "request_id": request_id} if details else {"request_id": request_id}
    return {
        "workspace_id": actor.workspace_id,
        "occurred_at": datetime.now(UTC),
        "actor_user_id": actor.user_id,
        "actor_token_id": actor.token_id,
        "action": action,
        "resource_type": resource_type,
        "resource_ids": as_uuids(resource_ids) if resource_ids is not None else None,
        "ip_address": actor.ip_address,
        "details": details,
    }


class AuditedRows:
    """A statement that returns rows (a SELECT, or an UPDATE … RETURNING) together with the
    audit event of the rows it returns, in ONE statement: the event's INSERT is a
    data-modifying CTE fed by those rows, so they reach the caller only if their event was
    written, and committed when the statement runs alone (carevault.db.alone). The event
    names the rows' `id`s; no row, no event.

    `target` has bound parameters; its forms with and without the commit fence are built
    once, so a request only binds values.
    """

    def __init__(
        self,
        target: Select[*tuple[Any, ...]] | ReturningUpdate[Any],
        *,
        action: str,
        resource_type: str,
        ids_in_order_of: BindParameter[Any] | None = None,
    ):
        """`ids_in_order_of`: an array parameter of `target` (a page's ids, say); the event
        then names the rows in that order rather than in whatever order they came."""
        self.action = action
        self.resource_type = resource_type
        self._target = target
        self._order = ids_in_order_of
        self._target_reads_only = reads_only(target)
        rows = target.cte("audited_rows")
        self._plain = self._build(rows, fenced=False, order=ids_in_order_of)
        self._fenced = self._build(rows, fenced=True, order=ids_in_order_of)

    @staticmethod
    def _build(rows: CTE, *, fenced: bool, order: BindParameter[Any] | None = None) -> Select[Any]:
        table: Table = AuditEvent.__table__  # type: ignore[assignment]
        # The event's parameters are prefixed: `target`'s own (a `workspace_id` too) are
        # separate values, never shared by name.
        values: list[ColumnElement[Any]] = [
            _bound(table, name, prefix=_PREFIX) for name in _BOUND_EVENT_COLUMNS
        ]
        # One event for all the rows, and none for no row (an aggregate without HAVING
        # would still give one row, of NULL).
        aggregated: Any = rows.c.id
        if order is not None:
            aggregated = aggregate_order_by(rows.c.id, func.array_position(order, rows.c.id))
        ids = (
            select(func.array_agg(aggregated).label("resource_ids"))
            .having(func.count() > 0)
            .subquery("audited_ids")
        )
        source = select(*values, ids.c.resource_ids).select_from(
            ids.join(_fence_subquery(), true()) if fenced else ids
        )
        event = (
            insert(table)
            .from_select([*_BOUND_EVENT_COLUMNS, "resource_ids"], source)
            .cte("audit_event")
        )
        return select(rows).add_cte(event)

    async def execute(
        self,
        db: AsyncSession,
        actor: Actor,
        params: dict[str, Any],
        *,
        details: dict[str, Any] | None = None,
    ) -> list[Row[Any]]:
        """The rows `target` returns for `params`; their event is in the same statement."""
        if self._target_reads_only and read_bind(db) is not None:
            return await self._read_then_record(db, actor, params, details)
        event = _event(actor, self.action, self.resource_type, None, details)
        bound = {_PREFIX + name: event[name] for name in _BOUND_EVENT_COLUMNS}
        values = {**params, **bound}
        pool = direct.pool_for(db)
        if pool is not None:
            # pool_for answers only for a session bound to an engine.
            fence = alone_fence(cast(Engine, db.get_bind()))
            return await pool.fetch(*_fenced_form(self._plain, self._fenced, values, fence))
        async with alone(db) as (connection, by_itself):
            if by_itself:
                fence = alone_fence(connection.sync_engine)
            else:
                fence = commit_fence(connection.sync_connection)  # type: ignore[arg-type]
            result = await connection.execute(
                *_fenced_form(self._plain, self._fenced, values, fence)
            )
        return list(result.all())

    async def _read_then_record(
        self,
        db: AsyncSession,
        actor: Actor,
        params: dict[str, Any],
        details: dict[str, Any] | None,
    ) -> list[Row[Any]]:
        """For a request reading from a replica (carevault.db.replica), which cannot write:
        the rows from the replica, then their event on the primary in the request's
        transaction, committed before the answer is sent (no event, no answer)."""
        rows = await direct.rows_alone(db, self._target, params)
        if rows:
            ids = [row.id for row in rows]
            if self._order is not None:
                position = {value: i for i, value in enumerate(params[self._order.key])}
                ids.sort(key=lambda value: position.get(value, len(position)))
            await record(
                db,
                actor,
                self.action,
                resource_type=self.resource_type,
                resource_ids=ids,
                details=details,
            )
        return rows


Statement = TypeVar("Statement")


def _fenced_form(
    plain: Statement, fenced: Statement, values: dict[str, Any], fence: str | None
) -> tuple[Statement, dict[str, Any]]:
    """A statement built in two forms, and its values: the form that sets the commit fence
    when there is one (an engine with deadlines), the plain form otherwise."""
    if fence is None:
        return plain, values
    return fenced, {**values, "fence": fence}


_PREFIX = "audit_"


def _bound(table: Table, name: str, *, prefix: str = "") -> ColumnElement[Any]:
    return bindparam(prefix + name, type_=table.c[name].type)


def _fence_subquery() -> Subquery:
    """`(SELECT set_config(<commit deadline>, :fence, true))`: sets the transaction's commit
    fence in the statement that writes its event (see carevault.db.deadlines)."""
    setting = func.set_config(COMMIT_DEADLINE_SETTING, bindparam("fence", type_=Text), True)
    return select(setting.label("fence")).subquery("fence")


def _append_statement(*, fenced: bool) -> Insert:
    """`INSERT INTO audit_events … SELECT <bound values>`, built once: a request pays for
    neither the ORM's unit of work nor building the statement. The fenced form also sets
    the commit fence, in the same round trip."""
    table: Table = AuditEvent.__table__  # type: ignore[assignment]
    values = select(*(_bound(table, name) for name in _EVENT_COLUMNS))
    if fenced:
        values = values.select_from(_fence_subquery())
    return insert(table).from_select(_EVENT_COLUMNS, values)


_EVENT_COLUMNS = (
    "workspace_id",
    "occurred_at",
    "actor_user_id",
    "actor_token_id",
    "action",
    "resource_type",
    "resource_ids",
    "ip_address",
    "details",
)
# An audited statement's event takes its resource ids from the rows, the rest as values.
_BOUND_EVENT_COLUMNS = tuple(name for name in _EVENT_COLUMNS if name != "resource_ids")
_APPEND = _append_statement(fenced=False)
_APPEND_FENCED = _append_statement(fenced=True)


def refuse_inverted_range(since: datetime | None, until: datetime | None) -> None:
    """A 422 naming both query parameters when `since` is after `until` (an empty answer
    would look like "nothing happened")."""
    if since is not None and until is not None and since > until:
        raise invalid(
            "invalid_date_range",
            "`since` is after `until`: the range is inverted; swap the dates",
            "since",
            "until",
            location="query",
        )


# Who acted, by kind: a person's signed-in session (or a command run as them), a person's
# own API token, a service account's token (integrations the practice owns), or the system.
ACTOR_KINDS = ("session", "token", "service_account", "system")


@dataclass(frozen=True)
class EventFilters:
    user_id: uuid.UUID | None = None
    action: str | None = None
    resource_type: str | None = None
    resource_id: uuid.UUID | None = None
    since: datetime | None = None
    until: datetime | None = None
    # Only events of these actor kinds (ACTOR_KINDS); empty: every kind.
    actor_kinds: frozenset[str] = frozenset()


def _actor_kind_condition(workspace_id: uuid.UUID, kinds: frozenset[str]) -> ColumnElement[bool]:
    """Events whose actor is of one of `kinds`. A token's kind is whether it has a service
    account, fixed when the token is made, so the sealed `actor_token_id` decides it."""
    service_tokens = select(ApiToken.id).where(
        workspace_filter(ApiToken, workspace_id), ApiToken.service_account_id.is_not(None)
    )
    token = AuditEvent.actor_token_id
    by_kind: dict[str, ColumnElement[bool]] = {
        "session": and_(token.is_(None), AuditEvent.actor_user_id.is_not(None)),
        "token": and_(token.is_not(None), token.not_in(service_tokens)),
        "service_account": token.in_(service_tokens),
        "system": and_(token.is_(None), AuditEvent.actor_user_id.is_(None)),
    }
    return or_(*(by_kind[kind] for kind in ACTOR_KINDS if kind in kinds))


@dataclass(frozen=True, slots=True)
class NamedEvent:
    """An event with its actor's name and role and its token's name (`AuditEventRead`)."""

    id: int
    occurred_at: datetime
    actor_user_id: uuid.UUID | None
    actor_token_id: uuid.UUID | None
    actor_name: str | None
    actor_role: str | None
    token_name: str | None
    actor_kind: str
    service_account_id: uuid.UUID | None
    action: str
    resource_type: str | None
    resource_ids: list[uuid.UUID] | None
    ip_address: Any
    details: dict[str, Any] | None


async def list_events(
    db: AsyncSession, workspace_id: uuid.UUID, filters: EventFilters, paging: Pagination
) -> tuple[list[NamedEvent], int]:
    """Newest first, each with who did it by name (a user's display name, or their sign-in
    address when they have none; the token's name): staff names, not PHI."""
    refuse_inverted_range(filters.since, filters.until)
    conditions = [AuditEvent.workspace_id == workspace_id]
    if filters.user_id:
        conditions.append(AuditEvent.actor_user_id == filters.user_id)
    if filters.action:
        conditions.append(AuditEvent.action == filters.action)
    if filters.resource_type:
        conditions.append(AuditEvent.resource_type == filters.resource_type)
    if filters.resource_id:
        conditions.append(AuditEvent.resource_ids.contains([filters.resource_id]))
    if filters.since:
        conditions.append(AuditEvent.occurred_at >= filters.since)
    if filters.until:
        conditions.append(AuditEvent.occurred_at < filters.until)
    if filters.actor_kinds and set(ACTOR_KINDS) - filters.actor_kinds:
        conditions.append(_actor_kind_condition(workspace_id, filters.actor_kinds))
    statement = select(AuditEvent.id).where(*conditions).order_by(AuditEvent.id.desc())
    total = await db.scalar(select(func.count()).select_from(statement.order_by(None).subquery()))
    page = statement.offset(paging.offset).limit(paging.page_size).subquery("page")
    named = (
        select(
            AuditEvent,
            func.coalesce(func.nullif(User.display_name, ""), User.email),
            User.role,
            ApiToken.name,
            ServiceAccount.id,
            ServiceAccount.name,
        )
        .join(page, page.c.id == AuditEvent.id)
        .outerjoin(
            User, and_(User.id == AuditEvent.actor_user_id, workspace_filter(User, workspace_id))
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
        .order_by(AuditEvent.id.desc())
    )
    events = [
        NamedEvent(
            id=event.id,
            occurred_at=event.occurred_at,
            actor_user_id=event.actor_user_id,
            actor_token_id=event.actor_token_id,
            # A service account's events: its name stands as the actor's (it has no role).
            actor_name=account_name if account_id else name,
            actor_role=role,
            token_name=token_name,
            actor_kind=_actor_kind(event, account_id),
            service_account_id=account_id,
            action=event.action,
            resource_type=event.resource_type,
            resource_ids=event.resource_ids,
            ip_address=event.ip_address,
            details=event.details,
        )
        for event, name, role, token_name, account_id, account_name in (
            await db.execute(named)
        ).all()
    ]
    return events, int(total or 0)


def _actor_kind(event: AuditEvent, service_account_id: uuid.UUID | None) -> str:
    if service_account_id is not None:
        return "service_account"
    if event.actor_token_id is not None:
        return "token"
    return "session" if event.actor_user_id is not None else "system"
