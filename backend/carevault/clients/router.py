from __future__ import annotations

import io
import uuid
from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query, Request, Response
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from carevault.api.batch import Batch, BatchGet
from carevault.api.changes import ChangedSinceParams
from carevault.api.conditional import IfMatch, IfNoneMatch
from carevault.api.dependencies import DbSession, State
from carevault.api.errors import AUTHENTICATED, ApiError, error_responses
from carevault.api.idempotency import Idempotency
from carevault.api.pagination import Page, PageParams
from carevault.api.replica import ReplicaReads
from carevault.api.strict_params import ApiRoute
from carevault.audit.router import in_range
from carevault.auth.dependencies import CurrentOwner, CurrentPrincipal
from carevault.auth.permissions import (
    BULK_COST,
    SESSION_ONLY,
    WRITE_COST,
    Operation,
    changes,
    declare,
    reads,
)
from carevault.clients import access_log, care_teams, importing, service
from carevault.clients.models import Client
from carevault.clients.schemas import (
    GRANT_REVIEW_EXAMPLE,
    AccessLogEntry,
    BreakTheGlass,
    CareTeamMemberRead,
    CareTeamRead,
    CareTeamUpdate,
    ChartAccessGrantRead,
    ChartAccessGrantReview,
    ClientCreate,
    ClientRead,
    ClientSearch,
    ClientSummary,
    ClientUpdate,
    ClientUpsert,
)
from carevault.core.external import EXTERNAL_ID_PATTERN
from carevault.core.paging import Pagination
from carevault.workspaces.phones import practice_phone_region

router = APIRouter(prefix="/clients", tags=["clients"], route_class=ApiRoute)


class ImportedClient(BaseModel):
    line: int = Field(description="The row's line in the file (the CSV header is line 1)")
    id: uuid.UUID = Field(description="The client the row created or updated")
    external_id: str | None = Field(description="The row's `external_id`, if it had one")
    action: Literal["created", "updated"] = Field(description="`updated`: by an upsert")


class ClientImportResult(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "imported": 2,
                    "created": 1,
                    "updated": 1,
                    "results": [
                        {
                            "line": 2,
                            "id": "00000000-0000-4000-8000-000000000001",
                            "external_id": "crm-000123",
                            "action": "created",
                        },
                        {
                            "line": 3,
                            "id": "00000000-0000-4000-8000-000000000002",
                            "external_id": "crm-000124",
                            "action": "updated",
                        },
                    ],
                }
            ]
        }
    )

    imported: int = Field(description="Rows written: created plus updated")
    created: int
    updated: int
    results: list[ImportedClient] = Field(description="One per row, in file order")


@router.post(
    "",
    response_model=ClientRead,
    status_code=201,
    responses=error_responses(*AUTHENTICATED, codes=("external_id_taken",)),
)
@declare(changes("clients"))
async def create_client(
    body: ClientCreate, principal: CurrentPrincipal, db: DbSession, idempotency: Idempotency
) -> ClientRead:
    """Add a client to your workspace. Accepts `Idempotency-Key`."""
    created = ClientRead.model_validate(await service.create_client(db, principal, body))
    return await idempotency.remember(201, created)


IMPORT_MEDIA_TYPES = {
    "text/csv": "csv",
    "application/x-ndjson": "jsonl",
    "application/jsonl": "jsonl",
}


@router.post(
    "/import",
    response_model=ClientImportResult,
    status_code=201,
    responses=error_responses(
        *AUTHENTICATED, 413, 415, codes=("import_rejected", "external_id_taken")
    ),
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "text/csv": {
                    "schema": {"type": "string"},
                    "example": "first_name,last_name,email\nExample,Client,ex@example.org\n",
                },
                "application/x-ndjson": {
                    "schema": {"type": "string"},
                    "example": '{"first_name": "Example", "last_name": "Client", '
                    '"email": "ex@example.org"}\n',
                },
            },
        }
    },
)
@declare(changes("clients", answers_with_record=False, cost=BULK_COST))
async def import_clients(
    request: Request,
    owner: CurrentOwner,
    db: DbSession,
    state: State,
    idempotency: Idempotency,
    upsert: Annotated[
        bool,
        Query(
            description="A row whose `external_id` a client already has updates that client "
            "(the fields the row has a value for) instead of refusing the import"
        ),
    ] = False,
) -> ClientImportResult:
    """Owners: import clients from CSV (header row) or JSON lines, up to 32 MiB and
    CAREVAULT_IMPORT_MAX_ROWS rows (100,000 by default). All rows or none: any bad row (a CSV
    row with more or fewer fields than the header, or a line that is not UTF-8, included) is
    a 422 listing `{line, field, message}`, the first bad row first, and nothing is written.
    An `external_id` column gives each client your own id (a row naming one a client already
    has is such a bad row, unless `upsert=true`). The answer lists each row's line, client id,
    external id and whether it was created or updated."""
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    file_format = IMPORT_MEDIA_TYPES.get(media_type)
    if file_format is None:
        raise ApiError(415, "unsupported_media_type", "send text/csv or application/x-ndjson")
    # The body is already in memory (at most 32 MiB; the idempotency digest reads it too). It
    # is decoded, validated, encrypted and written a batch at a time, never copied whole.
    lines = importing.text_lines(io.BytesIO(await request.body()))
    records = importing.validated(
        importing.read_rows(lines, file_format),  # type: ignore[arg-type]
        phone_region=await practice_phone_region(db, owner.workspace_id),
        max_rows=state.settings.import_max_rows,
    )
    try:
        results = importing.ImportResults()
        count = await importing.import_clients(
            db,
            owner.actor,
            owner.workspace_id,
            records,
            source="api",
            upsert=upsert,
            results=results,
        )
    except importing.ImportRejected as rejected:
        # ApiError rolls the request's transaction back: the batches already written go too.
        raise ApiError(
            422,
            "import_rejected",
            f"{rejected.total_errors} problem(s); nothing was imported",
            details=[
                {"line": e.line, "field": e.field, "message": e.message} for e in rejected.errors
            ],
        ) from None
    answer = ClientImportResult(
        imported=count,
        created=count - results.updated,
        updated=results.updated,
        results=[
            ImportedClient(line=row.line, id=row.id, external_id=row.external_id, action=row.action)
            for row in results
        ],
    )
    return await idempotency.remember(201, answer)


@router.get(
    "",
    response_model=Page[ClientSummary],
    responses=error_responses(*AUTHENTICATED, codes=("search_in_body",)),
)
@declare(reads("clients"))
async def list_clients(
    request: Request,
    principal: CurrentPrincipal,
    db: ReplicaReads,
    state: State,
    paging: PageParams,
    changes: ChangedSinceParams,
    include_archived: Annotated[bool, Query(description="Include archived clients")] = False,
    external_id: Annotated[
        str | None,
        Query(
            pattern=EXTERNAL_ID_PATTERN,
            max_length=255,
            description="Only the client with this external id of yours (exact)",
        ),
    ] = None,
    # Accepted only to be refused with the reason: search moved into a request body.
    q: Annotated[str | None, Query(include_in_schema=False)] = None,
) -> Page[ClientSummary]:
    """Clients of your workspace by last name, then first name (case-insensitive), as
    summaries: names, date of birth, archived, updated (the minimum necessary; the whole
    record is `GET /clients/{client_id}`). To search, use `POST /clients/search`: search
    terms are PHI and never go in a URL. To sync: `updated_since`, `sort=updated_at` and
    the keyset cursor `after_id` (docs/how-to/keep-in-sync.md); with
    `include_archived=true` to see archivals."""
    if q is not None or "q" in request.query_params:
        # Refused rather than ignored: an ignored filter would return everyone.
        raise ApiError(
            400, "search_in_body", "search with POST /api/v1/clients/search; never in the URL"
        )
    if external_id is not None:
        found = await service.list_by_external_id(
            db, principal, external_id, include_archived=include_archived
        )
        clients, total = found[paging.offset : paging.offset + paging.page_size], len(found)
    else:
        clients, total = await service.list_clients(
            db,
            principal,
            paging,
            include_archived=include_archived,
            cache=state.client_list_cache,
            changes=changes,
        )
    return Page.of([ClientSummary.model_validate(client) for client in clients], total, paging)


@router.post(
    "/search", response_model=Page[ClientSummary], responses=error_responses(*AUTHENTICATED)
)
@declare(reads("clients", cost=BULK_COST))
async def search_clients(
    body: ClientSearch, principal: CurrentPrincipal, db: ReplicaReads, state: State
) -> Page[ClientSummary]:
    """Find clients by email or phone (exact match, however it is written) or part of a first
    or last name (case-insensitive), ordered like `GET /clients`, as summaries. A POST so
    that the search term, which is PHI, travels in the body: URLs end up in access logs,
    proxies and browser history. Reads nothing but does need the CSRF header with a cookie
    session."""
    paging = Pagination(body.page, body.page_size)
    clients, total = await service.list_clients(
        db,
        principal,
        paging,
        q=body.q,
        include_archived=body.include_archived,
        cache=state.client_list_cache,
    )
    return Page.of([ClientSummary.model_validate(client) for client in clients], total, paging)


@router.post(
    "/batch-get", response_model=Batch[ClientRead], responses=error_responses(*AUTHENTICATED)
)
@declare(reads("clients"))
async def batch_get_clients(
    body: BatchGet, principal: CurrentPrincipal, db: DbSession
) -> Batch[ClientRead]:
    """Up to 100 clients by id in one request, as `GET /clients/{client_id}` reads each
    (archived ones included), in the order asked; one audit event names every client
    returned. Ids you may not read (unknown, another practice, outside your care team) are in
    `not_found`, never told apart. A POST so the ids travel in the body; reads nothing else."""
    ids = body.distinct_ids()
    clients = await service.read_clients(db, principal, ids)
    return Batch.of(ids, [ClientRead.model_validate(client) for client in clients])


@router.get(
    "/{client_id}",
    response_model=ClientRead,
    responses=error_responses(*AUTHENTICATED, 404, codes=("chart_access_denied",)),
)
@declare(reads("clients"))
async def read_client(
    client_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession, conditional: IfNoneMatch
) -> ClientRead:
    """A client, archived or not. Under `care_team` chart access, a clinician outside the
    client's care team gets 404, or 403 `chart_access_denied` when the practice allows
    break-the-glass (`POST /clients/{client_id}/break-the-glass`)."""
    await conditional.unchanged(db, principal, Client, client_id)
    client = await service.read_client(db, principal, client_id)
    conditional.tag(client)
    return ClientRead.model_validate(client)


@router.patch(
    "/{client_id}",
    response_model=ClientRead,
    responses=error_responses(*AUTHENTICATED, 404, codes=("no_changes", "external_id_taken")),
)
@declare(changes("clients"))
async def update_client(
    client_id: uuid.UUID,
    body: ClientUpdate,
    principal: CurrentPrincipal,
    db: DbSession,
    conditional: IfMatch,
) -> ClientRead:
    """Change the fields sent and only those (422 `no_changes` for an empty body). With
    `If-Match`, only if the client is still at that `ETag` (412 `precondition_failed`)."""
    await conditional.require(db, principal, Client, client_id)
    client = await service.update_client(db, principal, client_id, body)
    conditional.tag(client)
    return ClientRead.model_validate(client)


@router.delete("/{client_id}", status_code=204, responses=error_responses(*AUTHENTICATED, 404))
@declare(changes("clients", answers_with_record=False))
async def archive_client(
    client_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession, conditional: IfMatch
) -> Response:
    """Archive: the client leaves lists (unless `include_archived`) until restored; their
    appointments and notes stay."""
    await conditional.require(db, principal, Client, client_id)
    await service.archive_client(db, principal, client_id)
    return Response(status_code=204)


@router.post(
    "/{client_id}/restore",
    response_model=ClientRead,
    responses=error_responses(*AUTHENTICATED, 404),
)
@declare(changes("clients"))
async def restore_client(
    client_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession, conditional: IfMatch
) -> ClientRead:
    """Un-archive a client."""
    await conditional.require(db, principal, Client, client_id)
    client = await service.restore_client(db, principal, client_id)
    conditional.tag(client)
    return ClientRead.model_validate(client)


ExternalIdPath = Annotated[
    str,
    Path(
        pattern=EXTERNAL_ID_PATTERN,
        max_length=255,
        description="Your own id of the client (letters, digits and `._:-`; never PHI)",
        examples=["crm-000123"],
    ),
]


@router.put(
    "/external/{external_id}",
    response_model=ClientRead,
    responses={
        201: {"model": ClientRead, "description": "Created: no client had this external id"},
        **error_responses(*AUTHENTICATED, 404, 412, codes=("external_id_taken",)),
    },
)
@declare(changes("clients"))
async def upsert_client(
    external_id: ExternalIdPath,
    body: ClientUpsert,
    principal: CurrentPrincipal,
    db: DbSession,
    response: Response,
    conditional: IfMatch,
) -> ClientRead:
    """Create or update by your own id: 201 with a new client when none has `external_id`,
    else 200 with that client changed (the fields sent are set, the others kept, `metadata`
    merged). Safe to retry and to run concurrently: one external id is never two clients.
    With `If-Match`, only if the client exists at that `ETag` (else 412). A client outside
    your care team is 404, as for `PATCH`."""
    if conditional.if_match is not None:
        existing = await service.find_external(db, principal, external_id)
        if existing is None:
            raise ApiError(412, "precondition_failed", "no client has this external_id")
        await conditional.require(db, principal, Client, existing)
    client, created = await service.upsert_client(db, principal, external_id, body)
    if created:
        response.status_code = 201
    conditional.tag(client)
    return ClientRead.model_validate(client)


# The history names staff, not client PHI, but it tells that the person is a client and who
# saw their records: a token needs both the audit and the clients read scopes (and, like
# every audit:read token, an owner's).
READS_ACCESS_LOG = Operation(("audit:read", "clients:read"))


@router.get(
    "/{client_id}/access-log",
    response_model=Page[AccessLogEntry],
    responses={
        **error_responses(*AUTHENTICATED, 404, codes=("invalid_date_range", "too_many_events")),
        200: {
            "content": {
                "text/csv": {
                    "schema": {"type": "string"},
                    "example": "occurred_at,kind,action,record_type,via,actor_name,actor_role,"
                    "token_name,actor_user_id,ip_address,event_id\r\n"
                    "2025-01-15T10:14:37+00:00,chart_read,client.read,client,ui,"
                    "Dr Example Clinician,clinician,,00000000-0000-4000-8000-0000000000a1,"
                    "203.0.113.7,4182\r\n",
                }
            }
        },
    },
)
@declare(READS_ACCESS_LOG)
async def read_access_log(
    request: Request,
    client_id: uuid.UUID,
    owner: CurrentOwner,
    db: DbSession,
    paging: PageParams,
    since: Annotated[
        datetime | None, AfterValidator(in_range), Query(description="Inclusive, ISO 8601")
    ] = None,
    until: Annotated[
        datetime | None, AfterValidator(in_range), Query(description="Exclusive, ISO 8601")
    ] = None,
    kind: Annotated[access_log.Kind | None, Query(description="Only this kind")] = None,
    actor_user_id: Annotated[uuid.UUID | None, Query(description="Only this user")] = None,
    format: Annotated[
        Literal["json", "csv"] | None,
        Query(description="csv: the whole filtered history as a file (so does Accept: text/csv)"),
    ] = None,
) -> Page[AccessLogEntry] | Response:
    """Owners: who saw or changed this client's records (the client, their notes and
    appointments), newest first: who (name and role, or token name), what (`kind`), when,
    from where (`via`, address). Filter by time (`since` after `until` is a 422), kind and
    user. `?format=csv` or `Accept: text/csv` exports every matching event (up to 50,000; no
    paging) as CSV, cells neutralised against spreadsheet formulas. Each read is audited
    (`client.access_log`) and shows in the history."""
    filters = access_log.AccessFilters(since, until, kind, actor_user_id)
    wants_csv = format == "csv" or (
        format is None and "text/csv" in request.headers.get("accept", "").lower()
    )
    if wants_csv:
        text = await access_log.export_access_log(db, owner, client_id, filters)
        return Response(
            text,
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="access-log-{client_id}.csv"'},
        )
    entries, total = await access_log.read_access_log(db, owner, client_id, filters, paging)
    return Page.of([AccessLogEntry.model_validate(e) for e in entries], total, paging)


def _care_team(client_id: uuid.UUID, members: list[care_teams.TeamMember]) -> CareTeamRead:
    return CareTeamRead(
        client_id=client_id,
        clinicians=[CareTeamMemberRead.model_validate(member) for member in members],
    )


@router.get(
    "/{client_id}/care-team",
    response_model=CareTeamRead,
    responses=error_responses(*AUTHENTICATED, 404),
)
@declare(Operation(("clients:read",)))
async def read_care_team(
    client_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession
) -> CareTeamRead:
    """The clinicians assigned to the client (ids, names, roles: no PHI)."""
    return _care_team(client_id, await care_teams.read_care_team(db, principal, client_id))


@router.put(
    "/{client_id}/care-team",
    response_model=CareTeamRead,
    responses=error_responses(*AUTHENTICATED, 404, codes=("unknown_clinician",)),
)
@declare(Operation(("clients:write", "clients:read"), cost=WRITE_COST))
async def set_care_team(
    client_id: uuid.UUID, body: CareTeamUpdate, owner: CurrentOwner, db: DbSession
) -> CareTeamRead:
    """Owners: assign the client's clinicians (the whole list; 422 `unknown_clinician` for
    an id that is not an active user of the practice). Under `care_team` chart access they
    are the clinicians who see the client's chart, appointments and notes."""
    members = await care_teams.set_care_team(db, owner, client_id, body.clinician_ids)
    return _care_team(client_id, members)


@router.post(
    "/{client_id}/break-the-glass",
    response_model=ChartAccessGrantRead,
    status_code=201,
    responses=error_responses(
        *AUTHENTICATED,
        404,
        codes=("break_the_glass_disabled", "chart_access_not_needed"),
    ),
)
@declare(SESSION_ONLY)
async def break_the_glass(
    client_id: uuid.UUID, body: BreakTheGlass, principal: CurrentPrincipal, db: DbSession
) -> ChartAccessGrantRead:
    """Open a chart outside your care team, stating why (in the body: a reason can hold PHI,
    so never in a URL). Only when the practice allows break-the-glass (else 403
    `break_the_glass_disabled`); grants you the chart, its appointments and notes for 60
    minutes, and is flagged `break_the_glass` in the audit trail (the reason is kept sealed,
    not in the audit event). Then read the chart with `GET /clients/{client_id}`."""
    grant = await care_teams.break_the_glass(db, principal, client_id, body.reason)
    return ChartAccessGrantRead(id=grant.id, client_id=grant.client_id, expires_at=grant.expires_at)


@router.get(
    "/{client_id}/break-the-glass",
    response_model=list[ChartAccessGrantReview],
    responses={
        **error_responses(*AUTHENTICATED, 404),
        200: {"content": {"application/json": {"example": [GRANT_REVIEW_EXAMPLE]}}},
    },
)
@declare(SESSION_ONLY)
async def review_break_the_glass(
    client_id: uuid.UUID, owner: CurrentOwner, db: DbSession
) -> list[ChartAccessGrantReview]:
    """Owners: every break-the-glass opening of the client's chart, newest first: who, the
    reason they gave, when, until when. Reading them is audited."""
    reviews = await care_teams.review_grants(db, owner, client_id)
    return [ChartAccessGrantReview.model_validate(review) for review in reviews]
