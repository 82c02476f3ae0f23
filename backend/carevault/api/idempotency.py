"""`Idempotency-Key` on the POSTs that create: the HTTP side of carevault.idempotency."""

from __future__ import annotations

import uuid
from typing import Annotated, Any, TypeVar

from fastapi import Depends, FastAPI, Header, Request, Response
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse
from sqlalchemy.ext.asyncio import AsyncSession

from carevault.api.conditional import etag_of_answer
from carevault.api.dependencies import DbSession
from carevault.api.errors import ApiError
from carevault.audit import service as audit
from carevault.auth.dependencies import CurrentPrincipal
from carevault.auth.permissions import PHI_RESOURCES, operation_of
from carevault.auth.principal import Principal
from carevault.clients import access
from carevault.core.fields import field_path
from carevault.idempotency import service
from carevault.idempotency.models import IdempotencyRecord

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"

Result = TypeVar("Result")


class IdempotentCreate:
    """Resolved before the create runs: claims the key (or replays / refuses). The route
    ends with `return await idempotency.remember(status, result)`, which also gives a
    created record's answer its `ETag` (as a replay of it gets the same one)."""

    def __init__(
        self, db: Any, record: IdempotencyRecord | None, response: Response | None = None
    ) -> None:
        self._db = db
        self._record = record
        self._response = response

    async def remember(self, status: int, result: Result) -> Result:
        answer = jsonable_encoder(result)
        if self._record is not None:
            await service.complete(self._db, self._record, status, answer)
        tag = etag_of_answer(answer)
        if tag is not None and self._response is not None:
            self._response.headers["ETag"] = tag
        return result


async def idempotent_create(
    request: Request,
    response: Response,
    principal: CurrentPrincipal,
    db: DbSession,
    key: Annotated[
        str | None,
        Header(
            alias=HEADER,
            description="Retry this create safely: the same key and body within 24 hours "
            "answer with the first response (see docs/reference/api.md)",
        ),
    ] = None,
) -> IdempotentCreate:
    if key is None:
        return IdempotentCreate(db, None, response)
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
    except service.Replay as replay:
        await _refuse_outside_chart(db, principal, replay.body)
        await _audit_replay(db, request, principal, replay.body)
        raise AuditedReplay(replay.status, replay.body) from None
    return IdempotentCreate(db, record, response)


class AuditedReplay(Exception):
    """The first response, to be sent again; its audit event is written and committed with
    the request (`keep_changes`, see carevault.api.dependencies.DatabaseRoute)."""

    keep_changes = True

    def __init__(self, status: int, body: Any) -> None:
        super().__init__(status)
        self.status = status
        self.body = body


async def _audit_replay(
    db: AsyncSession, request: Request, principal: Principal, body: Any
) -> None:
    """A replayed answer that carries PHI is a disclosure like a read: the same event as a
    read of the records it names (the route's declaration says whose PHI it carries), marked
    as a replay."""
    operation = operation_of(getattr(request.scope.get("route"), "endpoint", None))
    if operation is None:
        raise RuntimeError("an idempotent route declares no operation")
    for resource in operation.discloses:
        resource_type = PHI_RESOURCES[resource]
        await audit.record(
            db,
            principal.actor,
            f"{resource_type}.read",
            resource_type=resource_type,
            resource_ids=_record_ids(body),
            details={"idempotent_replay": True},
        )
    for resource in operation.discloses_if_readable:
        # Another resource's PHI inside the records (an appointment's `client` names), there
        # only if the first answer carried it: the same event the route writes for it.
        resource_type = PHI_RESOURCES[resource]
        carried = _nested_ids(body, resource_type)
        if carried:
            await audit.record(
                db,
                principal.actor,
                f"{resource_type}.names",
                resource_type=resource_type,
                resource_ids=carried,
                details={"idempotent_replay": True, "fields": ["first_name", "last_name"]},
            )


async def _refuse_outside_chart(db: AsyncSession, principal: Principal, body: Any) -> None:
    """A remembered record of a client whose chart the caller no longer sees (taken off the
    care team since) is not found, as a read of it would be."""
    if principal.sees_every_chart or not isinstance(body, dict):
        return
    # A record (a client: its id; else its client_id), or a series' records (`items`).
    named = [body.get("client_id") or body.get("id")]
    items = body.get("items")
    if isinstance(items, list):
        named += [item.get("client_id") for item in items if isinstance(item, dict)]
    client_ids = set()
    for value in named:
        try:
            client_ids.add(uuid.UUID(str(value)))
        except ValueError:
            continue
    for client_id in client_ids:
        if not await access.sees_chart(db, principal, client_id):
            raise ApiError(404, "not_found", "record not found")


def _record_ids(body: Any) -> list[str]:
    """The ids of the records a remembered answer holds: a record, or a page of them."""
    if isinstance(body, dict) and isinstance(body.get("id"), str):
        return [body["id"]]
    items = body.get("items") if isinstance(body, dict) else body
    if isinstance(items, list):
        return [item["id"] for item in items if isinstance(item, dict) and "id" in item]
    return []


def _nested_ids(body: Any, field: str) -> list[str]:
    """Distinct ids of the `field` objects inside the records of a remembered answer."""
    if isinstance(body, dict) and isinstance(body.get("id"), str):
        items: Any = [body]
    else:
        items = body.get("items") if isinstance(body, dict) else body
    nested = [
        item[field]["id"]
        for item in (items if isinstance(items, list) else [])
        if isinstance(item, dict) and isinstance(item.get(field), dict) and "id" in item[field]
    ]
    return list(dict.fromkeys(nested))


Idempotency = Annotated[IdempotentCreate, Depends(idempotent_create)]


def install_replay_handler(app: FastAPI) -> None:
    async def replay(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, AuditedReplay)
        headers = {REPLAYED_HEADER: "true"}
        tag = etag_of_answer(exc.body)  # the version the first answer showed
        if tag is not None:
            headers["ETag"] = tag
        return JSONResponse(exc.body, status_code=exc.status, headers=headers)

    app.add_exception_handler(AuditedReplay, replay)
