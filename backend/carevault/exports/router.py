"""A client's record for the client (right of access): `GET /clients/{id}/export`."""

from __future__ import annotations

import uuid
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import StreamingResponse

from carevault.api.dependencies import DbSession
from carevault.api.errors import AUTHENTICATED, error_responses
from carevault.api.strict_params import ApiRoute
from carevault.auth.dependencies import CurrentPrincipal
from carevault.auth.permissions import declare
from carevault.exports import everything, pdf, record
from carevault.exports.permissions import EXPORTS_RECORD

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
    db: DbSession,
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
    `appointment.export`). The file is named by the client's id, never their name."""
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
