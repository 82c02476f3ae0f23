"""Care teams (the clinicians assigned to a client) and break-the-glass grants.

Owners set a client's care team; under the practice's `care_team` chart access a clinician
sees only their care teams' charts (carevault.clients.access). When the practice allows
break-the-glass, a clinician outside a client's team may open the chart by stating a
reason: that grants them the chart for `GRANT_MINUTES`, records the reason sealed in
`chart_access_grants`, and writes an audit event flagged `break_the_glass` that names the
grant and never the reason.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.audit import service as audit
from carevault.auth.models import User
from carevault.auth.principal import Principal
from carevault.clients import access
from carevault.clients.models import CareTeamMember, ChartAccessGrant, Client
from carevault.core.clock import utc_now
from carevault.core.errors import Conflict, Forbidden, Invalid, not_found
from carevault.core.fields import field_path
from carevault.db.scoping import in_workspace, workspace_filter

RESOURCE_TYPE = "client"
GRANT_MINUTES = 60


@dataclass(frozen=True)
class TeamMember:
    id: uuid.UUID
    display_name: str
    role: str


async def _client_exists(db: AsyncSession, principal: Principal, client_id: uuid.UUID) -> bool:
    found = await db.scalar(
        access.charted(
            in_workspace(Client, principal.workspace_id)
            .where(Client.id == client_id)
            .with_only_columns(Client.id),
            principal,
            Client,
        )
    )
    return found is not None


async def _members(db: AsyncSession, workspace_id: uuid.UUID, client_id: uuid.UUID) -> list[User]:
    users = await db.scalars(
        in_workspace(User, workspace_id)
        .join(
            CareTeamMember,
            (CareTeamMember.workspace_id == User.workspace_id)
            & (CareTeamMember.user_id == User.id),
        )
        .where(CareTeamMember.client_id == client_id)
        .order_by(User.display_name, User.id)
    )
    return list(users)


def _team(users: list[User]) -> list[TeamMember]:
    return [TeamMember(user.id, user.display_name, user.role) for user in users]


async def read_care_team(
    db: AsyncSession, principal: Principal, client_id: uuid.UUID
) -> list[TeamMember]:
    """The client's care team, for anyone who sees the chart (404 otherwise)."""
    if not await _client_exists(db, principal, client_id):
        raise not_found("client")
    return _team(await _members(db, principal.workspace_id, client_id))


async def set_care_team(
    db: AsyncSession, owner: Principal, client_id: uuid.UUID, clinician_ids: list[uuid.UUID]
) -> list[TeamMember]:
    """Owners: make the client's care team exactly `clinician_ids` (users of the practice
    who are not disabled). Audited with the ids added and removed."""
    workspace_id = owner.workspace_id
    if not await _client_exists(db, owner, client_id):
        raise not_found("client")
    wanted = list(dict.fromkeys(clinician_ids))
    found = {
        user.id: user
        for user in await db.scalars(
            in_workspace(User, workspace_id).where(User.id.in_(wanted), User.disabled_at.is_(None))
        )
    }
    unknown = [index for index, user_id in enumerate(clinician_ids) if user_id not in found]
    if unknown:
        raise Invalid(
            "unknown_clinician",
            "clinician_ids names users who are not active users of this practice",
            details=[
                {
                    "field": field_path(("body", "clinician_ids", index)),
                    "message": "not an active user of the practice",
                }
                for index in unknown
            ],
        )
    before = {user.id for user in await _members(db, workspace_id, client_id)}
    removed = sorted(before - set(wanted), key=str)
    added = [user_id for user_id in wanted if user_id not in before]
    if removed:
        await db.execute(
            delete(CareTeamMember).where(
                workspace_filter(CareTeamMember, workspace_id),
                CareTeamMember.client_id == client_id,
                CareTeamMember.user_id.in_(removed),
            )
        )
    await access.add_to_care_team(db, workspace_id, client_id, added)
    await audit.record(
        db,
        owner.actor,
        "client.care_team",
        resource_type=RESOURCE_TYPE,
        resource_ids=[client_id],
        details={"added": [str(i) for i in added], "removed": [str(i) for i in removed]},
    )
    return _team(await _members(db, workspace_id, client_id))


@dataclass(frozen=True)
class Grant:
    id: uuid.UUID
    client_id: uuid.UUID
    expires_at: datetime


@dataclass(frozen=True)
class GrantReview:
    """A grant as its owner reviews it: who, why, when."""

    id: uuid.UUID
    user_id: uuid.UUID
    display_name: str
    reason: str
    granted_at: datetime
    expires_at: datetime


async def review_grants(
    db: AsyncSession, owner: Principal, client_id: uuid.UUID
) -> list[GrantReview]:
    """Owners: every break-the-glass grant on the client's chart, newest first, with its
    reason. Reading the reasons is audited (`client.break_the_glass_review`)."""
    if not await _client_exists(db, owner, client_id):
        raise not_found("client")
    rows = await db.execute(
        in_workspace(ChartAccessGrant, owner.workspace_id)
        .join(
            User,
            (User.workspace_id == ChartAccessGrant.workspace_id)
            & (User.id == ChartAccessGrant.user_id),
        )
        .where(ChartAccessGrant.client_id == client_id)
        .add_columns(User.display_name)
        .order_by(ChartAccessGrant.granted_at.desc(), ChartAccessGrant.id)
    )
    reviews = [
        GrantReview(grant.id, grant.user_id, name, grant.reason, grant.granted_at, grant.expires_at)
        for grant, name in rows
    ]
    await audit.record(
        db,
        owner.actor,
        "client.break_the_glass_review",
        resource_type=RESOURCE_TYPE,
        resource_ids=[client_id],
        details={"grants": [str(review.id) for review in reviews]},
    )
    return reviews


async def break_the_glass(
    db: AsyncSession, principal: Principal, client_id: uuid.UUID, reason: str
) -> Grant:
    """Open a chart outside the caller's care team for `GRANT_MINUTES`, with a reason.

    403 `break_the_glass_disabled` unless the practice allows it; 409
    `chart_access_not_needed` for a caller who already sees the chart; 404 for a client the
    practice does not have."""
    if principal.sees_every_chart:
        raise Conflict("chart_access_not_needed", "you already see this client's chart")
    if not principal.break_the_glass:
        raise Forbidden(
            "break_the_glass_disabled",
            "this practice does not allow opening charts outside your care team",
        )
    exists = await db.scalar(
        # chart-wide: the chart is outside the caller's team by definition; the id only
        in_workspace(Client, principal.workspace_id)
        .where(Client.id == client_id)
        .with_only_columns(Client.id)
    )
    if exists is None:
        raise not_found("client")
    if await access.on_care_team(db, principal, client_id):
        raise Conflict("chart_access_not_needed", "you are on this client's care team")
    now = utc_now()
    grant = ChartAccessGrant(
        workspace_id=principal.workspace_id,
        client_id=client_id,
        user_id=principal.person_id,
        reason=reason,
        granted_at=now,
        expires_at=now + timedelta(minutes=GRANT_MINUTES),
    )
    db.add(grant)
    await db.flush()
    await audit.record(
        db,
        principal.actor,
        "client.break_the_glass",
        resource_type=RESOURCE_TYPE,
        resource_ids=[client_id],
        details={
            "break_the_glass": True,
            "grant_id": str(grant.id),
            "expires_at": grant.expires_at.isoformat(),
        },
    )
    return Grant(grant.id, client_id, grant.expires_at)
