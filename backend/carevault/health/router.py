"""Health endpoints. Public: liveness and a ready/not-ready answer for load balancers, with
nothing else in them. The detailed report (key source, secret name, key versions, refresh
errors, schema revision) names infrastructure an attacker would like to know, so it is for
signed-in owners only, under /api/v1/system/readiness."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

import carevault
from carevault.api import readiness as checks
from carevault.api.dependencies import DatabaseRoute, State
from carevault.api.errors import AUTHENTICATED, error_responses
from carevault.api.strict_params import ApiRoute
from carevault.auth.dependencies import CurrentOwner, CurrentPrincipal
from carevault.auth.permissions import ANY_CREDENTIAL, PUBLIC, declare, reads
from carevault.health.schemas import (
    UNAVAILABLE_READINESS_EXAMPLE,
    Liveness,
    PublicReadiness,
    Readiness,
    Version,
)

router = APIRouter(tags=["health"], route_class=DatabaseRoute)
details_router = APIRouter(prefix="/system", tags=["health"], route_class=ApiRoute)
version_router = APIRouter(tags=["health"], route_class=ApiRoute)


@router.get("/health", response_model=Liveness, summary="Liveness: the process answers")
@declare(PUBLIC)
async def liveness() -> Liveness:
    return Liveness()


@router.get(
    "/health/ready",
    response_model=PublicReadiness,
    summary="Readiness for load balancers: status only (503 when unavailable)",
    responses={
        503: {
            "model": PublicReadiness,
            "description": "cannot serve requests",
            "content": {"application/json": {"example": {"status": "unavailable"}}},
        }
    },
)
@declare(PUBLIC)
async def readiness(state: State) -> JSONResponse:
    status = await checks.public_status(state)  # kept state: see carevault.api.readiness
    return JSONResponse({"status": status}, status_code=503 if status == "unavailable" else 200)


@details_router.get(
    "/readiness",
    response_model=Readiness,
    summary="Owners: the detailed readiness report (database, key ring, pgcrypto)",
    responses={
        **error_responses(*AUTHENTICATED),
        503: {
            "model": Readiness,
            "description": "database or key ring unavailable",
            "content": {"application/json": {"example": UNAVAILABLE_READINESS_EXAMPLE}},
        },
    },
)
@declare(reads("system"))
async def readiness_details(owner: CurrentOwner, state: State) -> JSONResponse:
    report = await checks.readiness(state)
    if report.key_ring.kms is not None:
        # Another practice's own KMS key names its AWS account: an owner sees the
        # installation's key and their practice's own, and only counts of the rest.
        own = await checks.practice_kms_key(state, owner.workspace_id)
        report.key_ring.kms.keys = [
            key for key in report.key_ring.kms.keys if key.installation or key.key_id == own
        ]
    status_code = 503 if report.status == "unavailable" else 200
    return JSONResponse(report.model_dump(mode="json"), status_code=status_code)


# For signed-in callers only, like the detailed readiness report: which release runs is what
# a scanner looking for a known flaw wants first, and an integration holds a token anyway.
@version_router.get(
    "/version",
    response_model=Version,
    summary="The CareVault release answering (semantic versioning; see CHANGELOG.md)",
    responses=error_responses(*AUTHENTICATED),
)
@declare(ANY_CREDENTIAL)
async def version(caller: CurrentPrincipal) -> Version:
    return Version(version=carevault.__version__)
