"""`Idempotency-Key` on the POSTs that create: the HTTP side of carevault.idempotency."""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

from fastapi import Depends, FastAPI, Header, Request
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse

from carevault.api.dependencies import DbSession
from carevault.api.errors import ApiError
from carevault.auth.dependencies import CurrentPrincipal
from carevault.core.fields import field_path
from carevault.idempotency import service
from carevault.idempotency.models import IdempotencyRecord

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"

Result = TypeVar("Result")


class IdempotentCreate:
    """Resolved before the create runs: claims the key (or replays / refuses). The route
    ends with `return await idempotency.remember(status, result)`."""

    def __init__(self, db: Any, record: IdempotencyRecord | None) -> None:
        self._db = db
        self._record = record

    async def remember(self, status: int, result: Result) -> Result:
        if self._record is not None:
            await service.complete(self._db, self._record, status, jsonable_encoder(result))
        return result


async def idempotent_create(
    request: Request,
    principal: CurrentPrincipal,
    db: DbSession,
    key: Annotated[
        str | None,
        Header(
            alias=HEADER,
            description="Retry this create safely: the same key and body within 24 hours "
            "answer with the first response (see docs/api.md)",
        ),
    ] = None,
) -> IdempotentCreate:
    if key is None:
        return IdempotentCreate(db, None)
    if principal.token_id is not None:
        caller = service.Caller(principal.workspace_id, "token", principal.token_id)
    else:
        caller = service.Caller(principal.workspace_id, "user", principal.user.id)
    digest = service.request_digest(request.method, request.url.path, await request.body())
    try:
        record = await service.begin(db, caller, key, digest)
    except service.InvalidKey as invalid:
        raise ApiError(
            400,
            "invalid_idempotency_key",
            str(invalid),
            details={"field": field_path(("header", HEADER.lower()))},
        ) from None
    except service.KeyReused as reused:
        raise ApiError(409, "idempotency_key_reused", str(reused)) from None
    return IdempotentCreate(db, record)


Idempotency = Annotated[IdempotentCreate, Depends(idempotent_create)]


def install_replay_handler(app: FastAPI) -> None:
    async def replay(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, service.Replay)
        return JSONResponse(exc.body, status_code=exc.status, headers={REPLAYED_HEADER: "true"})

    app.add_exception_handler(service.Replay, replay)
