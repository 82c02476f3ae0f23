from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel

from carevault.api.dependencies import DbSession
from carevault.api.errors import AUTHENTICATED, ApiError, error_responses
from carevault.api.pagination import Page, PageParams
from carevault.auth.dependencies import CurrentOwner, CurrentPrincipal
from carevault.clients import importing, service
from carevault.clients.schemas import ClientCreate, ClientRead, ClientUpdate

router = APIRouter(prefix="/clients", tags=["clients"])


class ClientImportResult(BaseModel):
    imported: int


@router.post(
    "", response_model=ClientRead, status_code=201, responses=error_responses(*AUTHENTICATED)
)
async def create_client(
    body: ClientCreate, principal: CurrentPrincipal, db: DbSession
) -> ClientRead:
    """Add a client to your workspace."""
    return ClientRead.model_validate(await service.create_client(db, principal, body))


IMPORT_MEDIA_TYPES = {
    "text/csv": "csv",
    "application/x-ndjson": "jsonl",
    "application/jsonl": "jsonl",
}


@router.post(
    "/import",
    response_model=ClientImportResult,
    status_code=201,
    responses=error_responses(*AUTHENTICATED, 413, 415),
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "text/csv": {
                    "schema": {"type": "string"},
                    "example": "first_name,last_name,email\nExample,Client,ex@example.org\n",
                },
                "application/x-ndjson": {"schema": {"type": "string"}},
            },
        }
    },
)
async def import_clients(
    request: Request, owner: CurrentOwner, db: DbSession
) -> ClientImportResult:
    """Owners: import clients from CSV (header row) or JSON lines, up to 32 MiB. All rows or
    none: any bad row is a 422 listing `{line, field, message}` and nothing is written."""
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    file_format = IMPORT_MEDIA_TYPES.get(media_type)
    if file_format is None:
        raise ApiError(415, "unsupported_media_type", "send text/csv or application/x-ndjson")
    try:
        text = (await request.body()).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ApiError(422, "validation_error", "the file is not UTF-8 text") from None
    try:
        records = importing.validate(importing.read_rows(text, file_format))  # type: ignore[arg-type]
    except importing.ImportRejected as rejected:
        raise ApiError(
            422,
            "import_rejected",
            f"{rejected.total_errors} problem(s); nothing was imported",
            details=[
                {"line": e.line, "field": e.field, "message": e.message} for e in rejected.errors
            ],
        ) from None
    count = await importing.import_clients(
        db, owner.actor, owner.workspace_id, records, source="api"
    )
    return ClientImportResult(imported=count)


@router.get("", response_model=Page[ClientRead], responses=error_responses(*AUTHENTICATED))
async def list_clients(
    principal: CurrentPrincipal,
    db: DbSession,
    paging: PageParams,
    q: Annotated[
        str | None,
        Query(
            max_length=320,
            description="An email or phone number (exact match, however it is written), "
            "or part of a first or last name (case-insensitive)",
            examples=["example.client@example.org"],
        ),
    ] = None,
    include_archived: Annotated[bool, Query(description="Include archived clients")] = False,
) -> Page[ClientRead]:
    """Clients of your workspace by last name, then first name (case-insensitive)."""
    clients, total = await service.list_clients(
        db, principal, paging, q=q, include_archived=include_archived
    )
    return Page.of([ClientRead.model_validate(client) for client in clients], total, paging)


@router.get(
    "/{client_id}", response_model=ClientRead, responses=error_responses(*AUTHENTICATED, 404)
)
async def read_client(
    client_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession
) -> ClientRead:
    """A client, archived or not."""
    return ClientRead.model_validate(await service.read_client(db, principal, client_id))


@router.patch(
    "/{client_id}", response_model=ClientRead, responses=error_responses(*AUTHENTICATED, 404)
)
async def update_client(
    client_id: uuid.UUID, body: ClientUpdate, principal: CurrentPrincipal, db: DbSession
) -> ClientRead:
    """Change the fields sent and only those (422 `no_changes` for an empty body)."""
    client = await service.update_client(db, principal, client_id, body)
    return ClientRead.model_validate(client)


@router.delete("/{client_id}", status_code=204, responses=error_responses(*AUTHENTICATED, 404))
async def archive_client(
    client_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession
) -> Response:
    """Archive: the client leaves lists (unless `include_archived`) until restored; their
    appointments and notes stay."""
    await service.archive_client(db, principal, client_id)
    return Response(status_code=204)


@router.post(
    "/{client_id}/restore",
    response_model=ClientRead,
    responses=error_responses(*AUTHENTICATED, 404),
)
async def restore_client(
    client_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession
) -> ClientRead:
    """Un-archive a client."""
    return ClientRead.model_validate(await service.restore_client(db, principal, client_id))
