"""The practice's own settings: owners set its time zone."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from carevault.api.dependencies import DbSession
from carevault.api.errors import AUTHENTICATED, error_responses
from carevault.api.fields import invalid
from carevault.audit import service as audit
from carevault.auth.dependencies import CurrentOwner
from carevault.auth.schemas import WorkspaceRead
from carevault.workspaces.models import Workspace
from carevault.workspaces.time import UnknownTimeZone, zone

router = APIRouter(prefix="/workspace", tags=["workspace"])


class WorkspaceUpdate(BaseModel):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"time_zone": "America/New_York"}]}
    )

    time_zone: str = Field(max_length=64, examples=["America/New_York"])


@router.patch("", response_model=WorkspaceRead, responses=error_responses(*AUTHENTICATED))
async def update_workspace(
    body: WorkspaceUpdate, owner: CurrentOwner, db: DbSession
) -> WorkspaceRead:
    """Owners: set the practice's IANA time zone, which decides what "today" is for it."""
    try:
        zone(body.time_zone)
    except UnknownTimeZone as unknown:
        raise invalid("validation_error", str(unknown), "time_zone") from None
    workspace = await db.get_one(Workspace, owner.workspace_id)
    previous = workspace.time_zone
    workspace.time_zone = body.time_zone
    await db.flush()
    await audit.record(
        db,
        owner.actor,
        "workspace.update",
        resource_type="workspace",
        resource_ids=[workspace.id],
        details={"time_zone": body.time_zone, "previous_time_zone": previous},
    )
    return WorkspaceRead.model_validate(workspace)
