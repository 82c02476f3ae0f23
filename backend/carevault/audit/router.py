from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query

from carevault.api.dependencies import DbSession
from carevault.api.errors import AUTHENTICATED, error_responses
from carevault.api.pagination import Page, PageParams
from carevault.audit import service
from carevault.audit.schemas import AuditEventRead
from carevault.auth.dependencies import CurrentOwner

router = APIRouter(prefix="/audit-events", tags=["audit"])


@router.get("", response_model=Page[AuditEventRead], responses=error_responses(*AUTHENTICATED))
async def list_audit_events(
    owner: CurrentOwner,
    db: DbSession,
    paging: PageParams,
    user_id: Annotated[uuid.UUID | None, Query(description="Actor")] = None,
    action: Annotated[str | None, Query(max_length=64, examples=["client.read"])] = None,
    resource_type: Annotated[str | None, Query(max_length=64)] = None,
    resource_id: Annotated[str | None, Query(max_length=64)] = None,
    since: Annotated[datetime | None, Query(description="Inclusive, ISO 8601")] = None,
    until: Annotated[datetime | None, Query(description="Exclusive, ISO 8601")] = None,
) -> Page[AuditEventRead]:
    """The workspace's audit trail, newest first. Owners only."""
    filters = service.EventFilters(user_id, action, resource_type, resource_id, since, until)
    events, total = await service.list_events(db, owner.workspace_id, filters, paging)
    await service.record(
        db, owner.actor, "audit.read", resource_type="audit_event", details={"count": len(events)}
    )
    return Page.of([AuditEventRead.model_validate(e) for e in events], total, paging)
