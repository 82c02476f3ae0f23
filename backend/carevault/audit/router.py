from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Query
from pydantic import AfterValidator

from carevault.api.dependencies import DbSession
from carevault.api.errors import AUTHENTICATED, error_responses
from carevault.api.pagination import Page, PageParams
from carevault.api.strict_params import ApiRoute
from carevault.audit import service
from carevault.audit.schemas import AuditEventRead
from carevault.auth.dependencies import CurrentOwner
from carevault.auth.permissions import declare, reads
from carevault.core.fields import OptionalSingleLine

ActorKind = Literal["session", "token", "service_account", "system"]

router = APIRouter(prefix="/audit-events", tags=["audit"], route_class=ApiRoute)


def in_range(value: datetime | None) -> datetime | None:
    """0001-01-01T00:00:00+14:00 is a valid ISO 8601 time but before the first instant a
    datetime can hold in UTC, which is how the database compares it."""
    if value is not None and value.tzinfo is not None:
        try:
            value.astimezone(UTC)
        except OverflowError:
            raise ValueError("the time is out of range") from None
    return value


@router.get(
    "",
    response_model=Page[AuditEventRead],
    responses=error_responses(*AUTHENTICATED, codes=("invalid_date_range",)),
)
@declare(reads("audit"))
async def list_audit_events(
    owner: CurrentOwner,
    db: DbSession,
    paging: PageParams,
    user_id: Annotated[uuid.UUID | None, Query(description="Actor")] = None,
    action: Annotated[OptionalSingleLine, Query(max_length=64, examples=["client.read"])] = None,
    resource_type: Annotated[OptionalSingleLine, Query(max_length=64)] = None,
    resource_id: Annotated[uuid.UUID | None, Query(description="Named among resource_ids")] = None,
    since: Annotated[
        datetime | None, AfterValidator(in_range), Query(description="Inclusive, ISO 8601")
    ] = None,
    until: Annotated[
        datetime | None, AfterValidator(in_range), Query(description="Exclusive, ISO 8601")
    ] = None,
    actor_kind: Annotated[
        list[ActorKind] | None,
        Query(
            description="Only events of these actor kinds (repeat the parameter): "
            "`actor_kind=service_account&actor_kind=token` shows integration traffic, "
            "`actor_kind=session` hides it. Unset: every kind"
        ),
    ] = None,
) -> Page[AuditEventRead]:
    """The workspace's audit trail, newest first, each event with its actor's name and role
    and its token's name. `since` after `until` is a 422 `invalid_date_range`. Owners only."""
    filters = service.EventFilters(
        user_id, action, resource_type, resource_id, since, until, frozenset(actor_kind or ())
    )
    events, total = await service.list_events(db, owner.workspace_id, filters, paging)
    await service.record(
        db, owner.actor, "audit.read", resource_type="audit_event", details={"count": len(events)}
    )
    return Page.of([AuditEventRead.model_validate(e) for e in events], total, paging)
