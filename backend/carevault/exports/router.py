"""A client's record for the client (right of access): `GET /clients/{id}/export`."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from email.utils import format_datetime
from pathlib import Path
from typing import Annotated, Literal

from fastapi import APIRouter, Header, Query, Request, Response
from fastapi.responses import StreamingResponse
from starlette.background import BackgroundTask

from carevault.api.dependencies import DbSession, State
from carevault.api.error_examples import ErrorExample
from carevault.api.errors import AUTHENTICATED, ApiError, error_responses
from carevault.api.replica import ReplicaReads
from carevault.api.strict_params import ApiRoute
from carevault.auth.dependencies import CurrentOwner, CurrentPrincipal
from carevault.auth.permissions import declare
from carevault.exports import bulk, everything, jobs, pdf, record
from carevault.exports.models import UNFINISHED, ExportStatus
from carevault.exports.permissions import EXPORTS_PRACTICE, EXPORTS_RECORD
from carevault.fhir import router as fhir_router
from carevault.fhir.mapping import instant

router = APIRouter(tags=["clients"], route_class=ApiRoute)

FHIR_JSON = "application/fhir+json"
_FHIR_EXAMPLE = {
    "resourceType": "Bundle",
    "type": "searchset",
    "total": 1,
    "entry": [
        {
            "fullUrl": "https://carevault.example/fhir/R4/Patient/"
            "00000000-0000-4000-8000-000000000001",
            "resource": {"resourceType": "Patient", "id": "00000000-0000-4000-8000-000000000001"},
            "search": {"mode": "match"},
        }
    ],
}


def fhir_base(request: Request) -> str:
    return str(request.base_url).rstrip("/") + "/fhir/R4"


@router.get(
    "/clients/{client_id}/export",
    response_class=Response,
    responses={
        **error_responses(*AUTHENTICATED, 404, codes=("chart_access_denied",)),
        200: {
            "description": "The record as a file (`Content-Disposition: attachment`)",
            "content": {
                "application/pdf": {
                    "schema": {"type": "string", "format": "binary"},
                    "example": "%PDF-1.4 …",
                },
                FHIR_JSON: {"schema": {"type": "object"}, "example": _FHIR_EXAMPLE},
            },
        },
    },
)
@declare(EXPORTS_RECORD)
async def export_client_record(
    request: Request,
    client_id: uuid.UUID,
    principal: CurrentPrincipal,
    db: ReplicaReads,
    format: Annotated[
        Literal["pdf", "fhir"],
        Query(description="pdf: a readable document; fhir: a FHIR R4 Bundle ($everything)"),
    ] = "pdf",
) -> Response:
    """The client's whole record, for the client (HIPAA right of access): demographics,
    appointments, every note with each version it went through, amendments and signatures.
    Notes marked as psychotherapy notes are left out, and the export says how many. Chart
    access as for `GET /clients/{client_id}`; a token needs the clients, notes and
    appointments read scopes. Audited (`client.export`, `session.export`,
    `appointment.export`). The file is named by the client's id, never their name. With a
    read replica the record is read there (the audit events go to the primary)."""
    found = await record.export_record(db, principal, client_id, format)
    if format == "pdf":
        return Response(
            pdf.render(found),
            media_type="application/pdf",
            headers={"Content-Disposition": f'attachment; filename="record-{client_id}.pdf"'},
        )
    return StreamingResponse(
        everything.bundle_chunks(found, fhir_base(request)),
        media_type=FHIR_JSON,
        headers={"Content-Disposition": f'attachment; filename="record-{client_id}.json"'},
    )


# --- bulk export of the practice (FHIR Bulk Data, async request pattern) ---------------------

# Under /fhir/R4 and, like the FHIR face's routes, out of the OpenAPI document (FHIR describes
# itself: GET /fhir/R4/metadata). Strict about parameters (400 unknown_parameter), and every
# error under /fhir is answered as an OperationOutcome (carevault.fhir.errors).
bulk_router = APIRouter(
    prefix="/fhir/R4", tags=["bulk export"], route_class=ApiRoute, include_in_schema=False
)
# What `$everything` returns, each a SMART resource type a SMART token must be allowed to read.
EVERYTHING_TYPES = ("Patient", "Appointment", "Encounter", "DocumentReference", "Provenance")


@bulk_router.get("/Patient/{patient_id}/$everything", response_class=Response)
@declare(EXPORTS_RECORD)
async def patient_everything(
    request: Request, patient_id: str, principal: CurrentPrincipal, db: ReplicaReads
) -> Response:
    """`Patient/{id}/$everything`: the client's record as one searchset Bundle, the same
    as `GET /api/v1/clients/{id}/export?format=fhir` (same rules, same audit events)."""
    for resource_type in EVERYTHING_TYPES:
        fhir_router._smart(principal, resource_type, "r")
    client_id = fhir_router._record_id(patient_id, "Patient")
    found = await record.export_record(db, principal, client_id, "fhir")
    return StreamingResponse(
        everything.bundle_chunks(found, fhir_base(request)), media_type=FHIR_JSON
    )


_JOB_ID = "00000000-0000-4000-8000-0000000000e1"
_IN_PROGRESS = ErrorExample(
    409,
    "export_in_progress",
    "an export of this practice is already running; poll or cancel it first",
    {"job_id": _JOB_ID},
)
_RESPOND_ASYNC = ErrorExample(
    400, "respond_async_required", "a bulk export needs the header Prefer: respond-async"
)
_OUTPUT_FORMAT = ErrorExample(
    400, "unsupported_output_format", "_outputFormat must be application/fhir+ndjson"
)
_TYPES = ErrorExample(
    422,
    "unsupported_resource_type",
    "_type may name only: Organization, Practitioner, Patient, Appointment, Encounter, "
    "DocumentReference, Provenance",
    {"field": "query._type", "unknown": ["Observation"]},
)
_FAILED = ErrorExample(409, "export_failed", "the export failed; start a new one")
_MANIFEST_EXAMPLE = {
    "transactionTime": "2025-01-15T10:00:00Z",
    "request": "https://carevault.example/fhir/R4/$export",
    "requiresAccessToken": True,
    "output": [
        {
            "type": "Patient",
            "url": f"https://carevault.example/fhir/R4/$export-file/{_JOB_ID}/Patient/1",
            "count": 250,
        }
    ],
    "error": [],
}
OUTPUT_FORMATS = {"application/fhir+ndjson", "application/ndjson", "ndjson"}


def _settings_of(state: State) -> tuple[Path, timedelta]:
    settings = state.settings
    return settings.resolved_export_dir, timedelta(hours=settings.export_retention_hours)


def _status_url(request: Request, job_id: uuid.UUID) -> str:
    return f"{fhir_base(request)}/$export-status/{job_id}"


@bulk_router.get(
    "/$export",
    status_code=202,
    response_class=Response,
    responses={
        **error_responses(
            *AUTHENTICATED, codes=(_IN_PROGRESS, _RESPOND_ASYNC, _OUTPUT_FORMAT, _TYPES)
        ),
        202: {
            "description": "Started: poll the status URL in `Content-Location`",
            "headers": {"Content-Location": {"schema": {"type": "string"}}},
        },
    },
)
@declare(EXPORTS_PRACTICE)
async def start_bulk_export(
    request: Request,
    owner: CurrentOwner,
    db: DbSession,
    state: State,
    prefer: Annotated[str | None, Header(description="Must be `respond-async`")] = None,
    types: Annotated[
        str | None,
        Query(alias="_type", description="Comma-separated resource types; default: all"),
    ] = None,
    output_format: Annotated[
        str | None, Query(alias="_outputFormat", description="application/fhir+ndjson")
    ] = None,
) -> Response:
    """Owners: export the whole practice as NDJSON files per resource type (FHIR Bulk Data
    system-level export), to move to another system. Answers 202 with the status URL in
    `Content-Location`; poll it. One export per practice at a time. Psychotherapy notes are
    included, labelled (`meta.security` PSYTHPN). A token needs the clients, notes and
    appointments read scopes, and an owner's. Audited (`export.start`)."""
    if "respond-async" not in (prefer or "").lower():
        raise ApiError(
            400, "respond_async_required", "a bulk export needs the header Prefer: respond-async"
        )
    if output_format is not None and output_format not in OUTPUT_FORMATS:
        raise ApiError(
            400, "unsupported_output_format", "_outputFormat must be application/fhir+ndjson"
        )
    exported = jobs.parse_types(types)
    # A token with SMART scopes reads each exported type through them, as a search would:
    # a service account's `system/*.rs` (SMART Backend Services' bulk export) covers all.
    for resource_type in exported:
        fhir_router._smart(owner, resource_type, "r")
    export_dir, retention = _settings_of(state)
    await jobs.purge_expired(state.db_sessions, export_dir)
    job = await jobs.start(db, owner, exported)

    async def launch() -> None:
        jobs.launch(state.db_sessions, job, export_dir, retention, state.replica)

    # A background task runs once the answer is sent, so after DatabaseRoute committed the
    # job's row; had it not started (the process stopped), the first poll starts it.
    return Response(
        status_code=202,
        headers={"Content-Location": _status_url(request, job.id)},
        background=BackgroundTask(launch),
    )


@bulk_router.get(
    "/$export-status/{job_id}",
    response_class=Response,
    responses={
        **error_responses(*AUTHENTICATED, 404, codes=(_FAILED,)),
        202: {
            "description": "Still running: `X-Progress` says how far",
            "headers": {"X-Progress": {"schema": {"type": "string"}}},
        },
        200: {
            "description": "Complete: the manifest of the files",
            "content": {
                "application/json": {"schema": {"type": "object"}, "example": _MANIFEST_EXAMPLE}
            },
        },
    },
)
@declare(EXPORTS_PRACTICE)
async def read_bulk_export_status(
    request: Request, job_id: uuid.UUID, owner: CurrentOwner, db: DbSession, state: State
) -> Response:
    """202 with `X-Progress` (records written per type) and `Retry-After` while it runs;
    200 with the manifest (one URL per file, with its record count) when complete. A job
    whose worker stopped (a restart) is resumed by this poll, after its last finished file."""
    job = await jobs.find(db, owner, job_id)
    export_dir, retention = _settings_of(state)
    if jobs.needs_worker(job):
        jobs.launch(state.db_sessions, job, export_dir, retention, state.replica)
    if job.status in UNFINISHED:
        written = ", ".join(f"{name} {count}" for name, count in (job.progress or {}).items())
        return Response(
            status_code=202,
            headers={"X-Progress": f"{job.status}: {written or 'starting'}", "Retry-After": "2"},
        )
    if job.status == ExportStatus.FAILED.value:
        raise ApiError(409, "export_failed", "the export failed; start a new one")
    if job.status == ExportStatus.CANCELLED.value:
        raise ApiError(404, "not_found", "export not found")
    base = fhir_base(request)
    parts = await jobs.files(db, owner.workspace_id, job_id)
    subset = list(job.resource_types) != list(bulk.RESOURCE_TYPES)
    manifest = {
        "transactionTime": instant(job.created_at),
        "request": f"{base}/$export" + (f"?_type={','.join(job.resource_types)}" if subset else ""),
        "requiresAccessToken": True,
        "output": [
            {
                "type": part.resource_type,
                "url": f"{base}/$export-file/{job_id}/{part.resource_type}/{part.part}",
                "count": part.count,
            }
            for part in parts
        ],
        "error": [],
    }
    return Response(
        json.dumps(manifest),
        media_type="application/json",
        headers={"Expires": format_datetime(job.expires_at, usegmt=True)}
        if job.expires_at
        else None,
    )


@bulk_router.delete(
    "/$export-status/{job_id}",
    status_code=202,
    response_class=Response,
    responses=error_responses(*AUTHENTICATED, 404),
)
@declare(EXPORTS_PRACTICE)
async def cancel_bulk_export(
    job_id: uuid.UUID, owner: CurrentOwner, db: DbSession, state: State
) -> Response:
    """Cancel the export (a running one stops at its next file) and delete its files;
    audited (`export.cancel`)."""
    export_dir, _ = _settings_of(state)
    await jobs.cancel(db, owner, job_id, export_dir)
    return Response(status_code=202)


@bulk_router.get(
    "/$export-file/{job_id}/{resource_type}/{part}",
    response_class=Response,
    responses={
        **error_responses(*AUTHENTICATED, 404),
        200: {
            "description": "The file: one resource per line",
            "content": {
                bulk.NDJSON: {
                    "schema": {"type": "string"},
                    "example": '{"resourceType":"Patient",'
                    '"id":"00000000-0000-4000-8000-000000000001"}\n',
                }
            },
        },
    },
)
@declare(EXPORTS_PRACTICE)
async def download_bulk_export_file(
    job_id: uuid.UUID,
    resource_type: str,
    part: int,
    owner: CurrentOwner,
    db: DbSession,
    state: State,
) -> Response:
    """A file of a completed export, streamed (opened chunk by chunk from its sealed form).
    Audited per download (`export.download`, with the type and the record count)."""
    export_dir, _ = _settings_of(state)
    chunks = await jobs.open_file(db, owner, job_id, resource_type, part, export_dir)
    return StreamingResponse(
        chunks,
        media_type=bulk.NDJSON,
        headers={
            "Content-Disposition": f'attachment; filename="{bulk.part_name(resource_type, part)}"'
        },
    )
