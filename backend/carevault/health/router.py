from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from carevault.api.dependencies import State
from carevault.health import service
from carevault.health.schemas import Liveness, Readiness

router = APIRouter(tags=["health"])


@router.get("/health", response_model=Liveness, summary="Liveness: the process answers")
async def liveness() -> Liveness:
    return Liveness()


@router.get(
    "/health/ready",
    response_model=Readiness,
    summary="Readiness: database, key ring, pgcrypto",
    responses={503: {"model": Readiness, "description": "database or key ring unavailable"}},
)
async def readiness(state: State) -> JSONResponse:
    report = await service.readiness(state)
    status_code = 503 if report.status == "unavailable" else 200
    return JSONResponse(report.model_dump(mode="json"), status_code=status_code)
