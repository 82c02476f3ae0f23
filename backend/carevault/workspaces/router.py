"""The practice's own settings: owners set its time zone, phone region, the hours after
which a signed note is a late entry and its chart access."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select

from carevault.api.dependencies import DbSession
from carevault.api.error_examples import ErrorExample
from carevault.api.errors import AUTHENTICATED, ApiError, error_responses
from carevault.api.strict_params import ApiRoute
from carevault.audit import service as audit
from carevault.auth.dependencies import CurrentOwner, RecentOwner
from carevault.auth.permissions import SESSION_ONLY, declare
from carevault.auth.schemas import WorkspaceRead
from carevault.core.fields import StrictInteger, invalid, not_nullable
from carevault.core.phone_regions import UnknownRegion, region_code
from carevault.core.time_zones import UnknownTimeZone, zone
from carevault.workspaces.models import Workspace

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


# The practice's encryption key (CAREVAULT_KEY_PROVIDER=kms): bring your own KMS key. ------

_KMS_NOT_CONFIGURED = ErrorExample(
    409,
    "kms_not_configured",
    "this installation does not keep its keys in AWS KMS (CAREVAULT_KEY_PROVIDER=kms)",
)
_KMS_KEY_UNUSABLE = ErrorExample(
    422,
    "kms_key_unusable",
    "CareVault cannot use this KMS key (kms_access_denied): give its role kms:Decrypt, "
    "kms:GenerateDataKey, kms:DescribeKey and kms:ReEncrypt* on it",
)


class PracticeKeyRead(BaseModel):
    """The key that protects the practice's data keys: ids and states, never a key."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "provider": "kms",
                    "kms_key_id": "arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-"
                    "56ef-1234567890ab",
                    "own_key": True,
                    "state": "Enabled",
                }
            ]
        }
    )

    provider: str = Field(description="Where master keys live: local, env, aws or kms")
    kms_key_id: str | None = Field(
        description="With kms: the ARN of the KMS key wrapping the practice's data keys"
    )
    own_key: bool = Field(description="The practice brought this key (else: the installation's)")
    state: str | None = Field(
        description="The key's state as KMS reports it (Enabled, Disabled, PendingDeletion, "
        "…), or why it cannot be read"
    )


class PracticeKeyUpdate(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"kms_key_id": "arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-"}
            ]
        },
    )

    kms_key_id: str | None = Field(
        max_length=2048,
        description="The practice's own KMS key (ARN, key id or alias); null: back to the "
        "installation's key. CareVault's role needs kms:Decrypt, kms:GenerateDataKey, "
        "kms:DescribeKey and kms:ReEncrypt* on it",
    )


async def _practice_key(db: DbSession, workspace_id: Any, provider: str) -> PracticeKeyRead:
    import asyncio

    from carevault.crypto import current_cipher

    remote = current_cipher().ring.remote
    if remote is None:
        return PracticeKeyRead(provider=provider, kms_key_id=None, own_key=False, state=None)
    from carevault.crypto.kms import KmsKeys

    assert isinstance(remote, KmsKeys)
    own = await db.scalar(select(Workspace.kms_key_id).where(Workspace.id == workspace_id))
    key = own if own is not None else await asyncio.to_thread(remote.arn_of, remote.key_id)
    state = (await asyncio.to_thread(remote.state, key)).state
    return PracticeKeyRead(provider=provider, kms_key_id=key, own_key=own is not None, state=state)


@router.get(
    "/encryption-key", response_model=PracticeKeyRead, responses=error_responses(*AUTHENTICATED)
)
@declare(SESSION_ONLY)
async def get_practice_key(owner: CurrentOwner, db: DbSession, request: Request) -> PracticeKeyRead:
    """Owners: the key that protects the practice's data keys and its state in KMS."""
    settings = request.app.state.carevault.settings
    return await _practice_key(db, owner.workspace_id, settings.key_provider.value)


@router.put(
    "/encryption-key",
    response_model=PracticeKeyRead,
    responses=error_responses(*AUTHENTICATED, codes=(_KMS_NOT_CONFIGURED, _KMS_KEY_UNUSABLE)),
)
@declare(SESSION_ONLY)
async def set_practice_key_route(
    body: PracticeKeyUpdate, owner: RecentOwner, db: DbSession, request: Request
) -> PracticeKeyRead:
    """Owners (after entering their password again): move the practice onto its own AWS
    KMS key (bring your own key), or back to the installation's (`null`). The practice's
    data keys are re-wrapped by KMS; no value is re-encrypted. Disabling the key later cuts
    CareVault off the practice's data; enabling it restores access."""
    from carevault.crypto import current_cipher
    from carevault.crypto.errors import KeyAccessRevoked
    from carevault.crypto.kms import KmsKeys
    from carevault.workspaces.keys import set_practice_key

    settings = request.app.state.carevault.settings
    remote = current_cipher().ring.remote
    if not isinstance(remote, KmsKeys):
        raise ApiError(409, "kms_not_configured", _KMS_NOT_CONFIGURED.message)
    try:
        moved, _ = await set_practice_key(db, owner.workspace_id, body.kms_key_id)
    except KeyAccessRevoked as refused:
        raise ApiError(
            422,
            "kms_key_unusable",
            f"CareVault cannot use this KMS key ({refused.code}): give its role kms:Decrypt, "
            "kms:GenerateDataKey, kms:DescribeKey and kms:ReEncrypt* on it",
        ) from None
    result = await _practice_key(db, owner.workspace_id, settings.key_provider.value)
    await audit.record(
        db,
        owner.actor,
        "workspace.kms_key_set",
        resource_type="workspace",
        resource_ids=[owner.workspace_id],
        details={
            "kms_key_id": result.kms_key_id,
            "own_key": result.own_key,
            "keys_rewrapped": moved,
        },
    )
    return result
