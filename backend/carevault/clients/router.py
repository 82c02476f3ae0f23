from __future__ import annotations

import io
import uuid
from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request, Response
from pydantic import AfterValidator, BaseModel, ConfigDict

from carevault.api.dependencies import DbSession, State
from carevault.api.errors import AUTHENTICATED, ApiError, error_responses
from carevault.api.idempotency import Idempotency
from carevault.api.pagination import Page, PageParams
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
)
from carevault.core.paging import Pagination
from carevault.workspaces.phones import practice_phone_region

router = APIRouter(prefix="/clients", tags=["clients"], route_class=ApiRoute)


class ClientImportResult(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"imported": 250}]})

    imported: int


@router.post(
    "", response_model=ClientRead, status_code=201, responses=error_responses(*AUTHENTICATED)
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
    responses=error_responses(*AUTHENTICATED, 413, 415, codes=("import_rejected",)),
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
    request: Request, owner: CurrentOwner, db: DbSession, state: State, idempotency: Idempotency
) -> ClientImportResult:
    """Owners: import clients from CSV (header row) or JSON lines, up to 32 MiB and
    CAREVAULT_IMPORT_MAX_ROWS rows (100,000 by default). All rows or none: any bad row (a CSV
    row with more or fewer fields than the header, or a line that is not UTF-8, included) is
    a 422 listing `{line, field, message}`, the first bad row first, and nothing is written."""
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
        count = await importing.import_clients(
            db, owner.actor, owner.workspace_id, records, source="api"
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
    return await idempotency.remember(201, ClientImportResult(imported=count))


@router.get(
    "",
    response_model=Page[ClientSummary],
    responses=error_responses(*AUTHENTICATED, codes=("search_in_body",)),
)
@declare(reads("clients"))
async def list_clients(
    request: Request,
    principal: CurrentPrincipal,
    db: DbSession,
    state: State,
    paging: PageParams,
    include_archived: Annotated[bool, Query(description="Include archived clients")] = False,
    # Accepted only to be refused with the reason: search moved into a request body.
    q: Annotated[str | None, Query(include_in_schema=False)] = None,
) -> Page[ClientSummary]:
    """Clients of your workspace by last name, then first name (case-insensitive), as
    summaries: names, date of birth, archived, updated (the minimum necessary; the whole
    record is `GET /clients/{client_id}`). To search, use `POST /clients/search`: search
    terms are PHI and never go in a URL."""
    if q is not None or "q" in request.query_params:
        # Refused rather than ignored: an ignored filter would return everyone.
        raise ApiError(
            400, "search_in_body", "search with POST /api/v1/clients/search; never in the URL"
        )
    clients, total = await service.list_clients(
        db,
        principal,
        paging,
        include_archived=include_archived,
        cache=state.client_list_cache,
    )
    return Page.of([ClientSummary.model_validate(client) for client in clients], total, paging)


@router.post(
    "/search", response_model=Page[ClientSummary], responses=error_responses(*AUTHENTICATED)
)
@declare(reads("clients", cost=BULK_COST))
async def search_clients(
    body: ClientSearch, principal: CurrentPrincipal, db: DbSession, state: State
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


@router.get(
    "/{client_id}",
    response_model=ClientRead,
    responses=error_responses(*AUTHENTICATED, 404, codes=("chart_access_denied",)),
)
@declare(reads("clients"))
async def read_client(
    client_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession
) -> ClientRead:
    """A client, archived or not. Under `care_team` chart access, a clinician outside the
    client's care team gets 404, or 403 `chart_access_denied` when the practice allows
    break-the-glass (`POST /clients/{client_id}/break-the-glass`)."""
    return ClientRead.model_validate(await service.read_client(db, principal, client_id))


@router.patch(
    "/{client_id}",
    response_model=ClientRead,
    responses=error_responses(*AUTHENTICATED, 404, codes=("no_changes",)),
)
@declare(changes("clients"))
async def update_client(
    client_id: uuid.UUID, body: ClientUpdate, principal: CurrentPrincipal, db: DbSession
) -> ClientRead:
    """Change the fields sent and only those (422 `no_changes` for an empty body)."""
    client = await service.update_client(db, principal, client_id, body)
    return ClientRead.model_validate(client)


@router.delete("/{client_id}", status_code=204, responses=error_responses(*AUTHENTICATED, 404))
@declare(changes("clients", answers_with_record=False))
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
@declare(changes("clients"))
async def restore_client(
    client_id: uuid.UUID, principal: CurrentPrincipal, db: DbSession
) -> ClientRead:
    """Un-archive a client."""
    return ClientRead.model_validate(await service.restore_client(db, principal, client_id))


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
