"""The practice's own settings: owners set its time zone, phone region, the hours after
which a signed note is a late entry and its chart access."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from carevault.api.dependencies import DbSession
from carevault.api.errors import AUTHENTICATED, ApiError, error_responses
from carevault.api.strict_params import ApiRoute
from carevault.audit import service as audit
from carevault.auth.dependencies import CurrentOwner
from carevault.auth.permissions import SESSION_ONLY, declare
from carevault.auth.schemas import WorkspaceRead
from carevault.core.fields import StrictInteger, invalid, not_nullable
from carevault.workspaces.models import Workspace
from carevault.workspaces.phones import UnknownRegion, region_code
from carevault.workspaces.time import UnknownTimeZone, zone

router = APIRouter(prefix="/workspace", tags=["workspace"], route_class=ApiRoute)


class WorkspaceUpdate(BaseModel):
    """Send the settings that change (at least one)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "minProperties": 1,
            "examples": [{"time_zone": "Europe/London", "phone_region": "GB"}],
        },
    )

    time_zone: str | None = Field(
        default=None,
        max_length=64,
        examples=["America/New_York"],
        description="IANA time zone",
        json_schema_extra=not_nullable,
    )
    phone_region: str | None = Field(
        default=None,
        max_length=2,
        examples=["GB"],
        description="ISO 3166 two-letter region (any case). It decides how numbers written "
        "from now on, and searches, are read; stored numbers keep the meaning they had",
        json_schema_extra=not_nullable,
    )
    late_entry_hours: StrictInteger | None = Field(
        default=None,
        ge=1,
        le=8760,
        examples=[72],
        description="A note signed more than this many hours after its session ended is "
        "flagged as a late entry (default 72); applies to notes signed from now on",
        json_schema_extra=not_nullable,
    )
    chart_access: Literal["practice", "care_team"] | None = Field(
        default=None,
        description="`practice`: every clinician sees every chart; `care_team`: clinicians "
        "see only their care teams' charts (owners see every chart). Takes effect on the "
        "next request",
        json_schema_extra=not_nullable,
    )
    break_the_glass: bool | None = Field(
        default=None,
        description="Allow a clinician to open a chart outside their care team by stating a "
        "reason (POST /clients/{client_id}/break-the-glass); turning it off ends every "
        "open grant",
        json_schema_extra=not_nullable,
    )


@router.patch("", response_model=WorkspaceRead, responses=error_responses(*AUTHENTICATED))
@declare(SESSION_ONLY)
async def update_workspace(
    body: WorkspaceUpdate, owner: CurrentOwner, db: DbSession
) -> WorkspaceRead:
    """Owners: set the practice's IANA time zone, which decides what "today" is for it, its
    phone region, which decides how a phone number without a country code is read,
    `late_entry_hours`, after which a signed note is flagged as a late entry, and its chart
    access (`chart_access`, `break_the_glass`)."""
    changes = body.model_dump(exclude_unset=True)
    if not changes:
        raise ApiError(
            422,
            "no_changes",
            "send at least one of time_zone, phone_region, late_entry_hours, chart_access, "
            "break_the_glass",
        )
    for name, value in changes.items():
        if value is None:
            raise invalid("validation_error", f"{name} cannot be null", name)
    if "time_zone" in changes:
        try:
            zone(changes["time_zone"])
        except UnknownTimeZone as unknown:
            raise invalid("validation_error", str(unknown), "time_zone") from None
    if "phone_region" in changes:
        try:
            changes["phone_region"] = region_code(changes["phone_region"])
        except UnknownRegion as unknown:
            raise invalid("validation_error", str(unknown), "phone_region") from None
    workspace = await db.get_one(Workspace, owner.workspace_id)
    details: dict[str, Any] = {}
    for name, value in changes.items():
        details[name] = value
        details[f"previous_{name}"] = getattr(workspace, name)
        setattr(workspace, name, value)
    await db.flush()
    await audit.record(
        db,
        owner.actor,
        "workspace.update",
        resource_type="workspace",
        resource_ids=[workspace.id],
        details=details,
    )
    return WorkspaceRead.model_validate(workspace)
