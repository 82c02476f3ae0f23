"""Chart access: which clients' charts (record, appointments, notes) a caller may see.

The practice chooses (`workspaces.chart_access`): `practice`, every clinician sees every
chart; `care_team`, a clinician sees only the charts of clients whose care team they are on
(`care_team_members`), and of clients they hold an unexpired break-the-glass grant for
(`chart_access_grants`, only while the practice allows break-the-glass). Owners see every
chart. Whatever is out of sight answers as if it did not exist (404, an absent list entry).

The one helper every statement on clients, appointments and notes goes through, next to
`in_workspace` (tools/lint_scoping.py checks it, in every module that serves a caller):

- `charted(statement, principal, Model)`: adds the predicate to a statement built per
  request (nothing at all for a caller who sees every chart);
- `chart_condition(Model)` with `chart_values(principal)`: the same predicate with bound
  parameters, for a statement built once (the note read, the autosave, a repository's by-id
  statement): a caller who sees every chart binds `chart_every = true`, and PostgreSQL
  evaluates nothing else of it. No extra round trip either way.
"""

from __future__ import annotations

import uuid
from typing import Any, TypeVar

from sqlalchemy import Boolean, ColumnElement, and_, bindparam, exists, func, or_, true, union
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.types import Uuid

from carevault.auth.principal import Principal
from carevault.clients.models import CareTeamMember, ChartAccessGrant, Client
from carevault.db import direct
from carevault.db.scoping import in_workspace

CHART_ACCESS_POLICIES = ("practice", "care_team")
StatementT = TypeVar("StatementT", bound=Any)


def _client_column(model: Any) -> Any:
    """The column naming the client a row belongs to: the client's own id, or `client_id`."""
    return model.id if model is Client else model.client_id


def _visible(model: Any, user: Any, glass: Any | None) -> ColumnElement[bool]:
    """On the client's care team, or (when `glass` holds) an unexpired grant for it."""
    client_id = _client_column(model)
    member = exists().where(
        CareTeamMember.workspace_id == model.workspace_id,
        CareTeamMember.client_id == client_id,
        CareTeamMember.user_id == user,
    )
    granted = exists().where(
        ChartAccessGrant.workspace_id == model.workspace_id,
        ChartAccessGrant.client_id == client_id,
        ChartAccessGrant.user_id == user,
        ChartAccessGrant.expires_at > func.now(),
    )
    if glass is None:
        return member
    return or_(member, and_(glass, granted))


def chart_filter(principal: Principal, model: Any) -> ColumnElement[bool] | None:
    """The condition limiting rows of `model` (Client, or a model with `client_id`) to the
    charts `principal` may see; None when they see every chart."""
    if principal.sees_every_chart:
        return None
    glass = true() if principal.break_the_glass else None
    return _visible(model, principal.user.id, glass)


def charted(statement: StatementT, principal: Principal, model: Any) -> StatementT:
    """`statement` (a SELECT, UPDATE or DELETE on `model`) limited to `principal`'s charts."""
    condition = chart_filter(principal, model)
    if condition is None:
        return statement
    limited: StatementT = statement.where(condition)
    return limited


def chart_condition(model: Any) -> ColumnElement[bool]:
    """The predicate with bound parameters `chart_every`, `chart_user` and `chart_glass`
    (values from `chart_values`), for a statement built once."""
    every = bindparam("chart_every", type_=Boolean)
    user = bindparam("chart_user", type_=Uuid())
    glass = bindparam("chart_glass", type_=Boolean)
    return or_(every, _visible(model, user, glass))


def chart_values(principal: Principal) -> dict[str, Any]:
    return {
        "chart_every": principal.sees_every_chart,
        "chart_user": principal.user.id,
        "chart_glass": principal.break_the_glass,
    }


def is_member(model: Any, user_id: uuid.UUID) -> ColumnElement[bool]:
    """Whether `user_id` is on the care team of the row's client (a column to select)."""
    return exists().where(
        CareTeamMember.workspace_id == model.workspace_id,
        CareTeamMember.client_id == _client_column(model),
        CareTeamMember.user_id == user_id,
    )


# The caller's care-team clients, and those of their unexpired grants: built once.
_WORKSPACE = bindparam("workspace_id", type_=Uuid())
_USER = bindparam("user_id", type_=Uuid())
_TEAM_IDS = (
    in_workspace(CareTeamMember, _WORKSPACE)
    .where(CareTeamMember.user_id == _USER)
    .with_only_columns(CareTeamMember.client_id)
)
_GRANTED_IDS = (
    in_workspace(ChartAccessGrant, _WORKSPACE)
    .where(ChartAccessGrant.user_id == _USER, ChartAccessGrant.expires_at > func.now())
    .with_only_columns(ChartAccessGrant.client_id)
)
_VISIBLE_IDS = {False: _TEAM_IDS, True: union(_TEAM_IDS, _GRANTED_IDS)}


async def visible_client_ids(db: AsyncSession, principal: Principal) -> set[uuid.UUID] | None:
    """The clients whose charts `principal` sees, for a list that filters in memory (the
    client list's name index); None when they see every chart. One statement, sent alone
    when the request holds no transaction (so the cached client page that follows can be
    too: no BEGIN and COMMIT)."""
    if principal.sees_every_chart:
        return None
    rows = await direct.rows_alone(
        db,
        _VISIBLE_IDS[principal.break_the_glass],
        {"workspace_id": principal.workspace_id, "user_id": principal.user.id},
    )
    return {row[0] for row in rows}


async def on_care_team(db: AsyncSession, principal: Principal, client_id: uuid.UUID) -> bool:
    """Whether `principal` is on the client's care team (not merely holding a grant)."""
    found = await db.scalar(
        in_workspace(CareTeamMember, principal.workspace_id)
        .where(CareTeamMember.client_id == client_id, CareTeamMember.user_id == principal.user.id)
        .with_only_columns(CareTeamMember.user_id)
    )
    return found is not None


async def add_to_care_team(
    db: AsyncSession, workspace_id: uuid.UUID, client_id: uuid.UUID, user_ids: list[uuid.UUID]
) -> None:
    """Put users on a client's care team; those already on it stay as they are."""
    if not user_ids:
        return
    await db.execute(
        insert(CareTeamMember)
        .values(
            [
                {"workspace_id": workspace_id, "client_id": client_id, "user_id": user_id}
                for user_id in user_ids
            ]
        )
        .on_conflict_do_nothing()
    )


async def sees_chart(db: AsyncSession, principal: Principal, client_id: uuid.UUID) -> bool:
    """Whether `principal` sees the client's chart (for an answer that names it, such as a
    replayed create)."""
    if principal.sees_every_chart:
        return True
    found = await db.scalar(
        charted(
            in_workspace(Client, principal.workspace_id)
            .where(Client.id == client_id)
            .with_only_columns(Client.id),
            principal,
            Client,
        )
    )
    return found is not None


def through_grant(principal: Principal) -> bool:
    """Whether a chart `principal` sees may be one opened by break-the-glass."""
    return not principal.sees_every_chart and principal.break_the_glass


async def opened_by_grant(
    db: AsyncSession, principal: Principal, client_ids: list[uuid.UUID]
) -> bool:
    """Whether any of these clients' charts (ones `principal` just read) was open to them
    only by a break-the-glass grant, not their care team: their audit event is then flagged.
    A statement only for a clinician of a `care_team` practice that allows break-the-glass."""
    if not client_ids or not through_grant(principal):
        return False
    on_team = set(
        await db.scalars(
            in_workspace(CareTeamMember, principal.workspace_id)
            .where(
                CareTeamMember.user_id == principal.user.id,
                CareTeamMember.client_id.in_(set(client_ids)),
            )
            .with_only_columns(CareTeamMember.client_id)
        )
    )
    return not set(client_ids) <= on_team


async def glass_flag(
    db: AsyncSession, principal: Principal, client_ids: list[uuid.UUID]
) -> dict[str, bool]:
    """`{"break_the_glass": True}` for an audit event's details when `opened_by_grant`."""
    return {"break_the_glass": True} if await opened_by_grant(db, principal, client_ids) else {}
