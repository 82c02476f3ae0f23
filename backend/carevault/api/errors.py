"""One JSON error shape for every failure: {"error": {"code", "message", "details"?}}."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from carevault.api.error_examples import ErrorExample, examples_for
from carevault.api.proxies import client_ip
from carevault.core.errors import Conflict, DomainError, Forbidden, Gone, Invalid, NotFound
from carevault.core.fields import field_path
from carevault.crypto import DecryptionError
from carevault.observability.metrics import route_template

log = logging.getLogger(__name__)


class ErrorDetail(BaseModel):
    code: str = Field(description="Stable, machine-readable", examples=["not_found"])
    message: str = Field(description="For people; never contains PHI")
    details: Any = None


class ErrorResponse(BaseModel):
    error: ErrorDetail


_DESCRIPTIONS = {
    400: "Bad request",
    401: "Not signed in, or the session or token is no longer valid",
    403: "Missing CSRF header, or the role does not allow it",
    404: "Not found (or in another workspace)",
    409: "Conflict with the current state",
    410: "The practice's data was shredded",
    412: "If-Match names a version the record is no longer at",
    413: "Request body too large",
    415: "Unsupported Content-Type",
    422: "Validation failed; details name the fields",
    429: "Too many attempts; see Retry-After",
    500: "A protected field could not be decrypted",
    503: "The database is unavailable, timed out or out of space; see Retry-After",
}


def error_responses(
    *status_codes: int, codes: Iterable[str | ErrorExample] = ()
) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries documenting the error shape for the given status codes, with examples
    of `codes`, the error codes particular to the route (their statuses are declared too).
    The codes every operation of its kind can answer are added to the document by
    `openapi_examples.add_error_examples`."""
    examples = examples_for(codes)
    responses: dict[int | str, dict[str, Any]] = {}
    for status in sorted({*status_codes, *examples}):
        responses[status] = {"model": ErrorResponse, "description": describe(status)}
        if status in examples:
            responses[status]["content"] = {"application/json": {"examples": examples[status]}}
    return responses


def describe(status: int) -> str:
    return _DESCRIPTIONS.get(status, "Error")


AUTHENTICATED = (401, 403, 422)


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        error["details"] = details
    return {"error": error}


_STATUS_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "validation_error",
    429: "rate_limited",
}


# Where a domain's refusal becomes HTTP: the one table from each kind of DomainError
# (carevault.core.errors) to its status. The domains raise the kind; only the web layer
# knows the number. tools/error_codes reads this table to list the codes by status.
DOMAIN_STATUS: dict[type[DomainError], int] = {
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
    Gone: 410,
    Invalid: 422,
}


def http_status(error: DomainError) -> int:
    """The status of a domain refusal: that of its kind, or of the nearest kind it extends."""
    for kind in type(error).__mro__:
        if kind in DOMAIN_STATUS:
            return DOMAIN_STATUS[kind]
    # A DomainError of no mapped kind is a defect here, not the caller's fault.
    raise TypeError(f"{type(error).__name__} has no HTTP status in DOMAIN_STATUS")


class ApiError(Exception):
    """A refusal only the web layer makes (authentication, CSRF, headers, media types), with
    its HTTP status and a stable machine-readable code; rendered in the one shape. The
    domains raise DomainError instead."""

    def __init__(
        self,
        status_code: int,
        code: str,
        message: str,
        *,
        details: Any = None,
        headers: dict[str, str] | None = None,
        keep_changes: bool = False,
    ) -> None:
        """`keep_changes`: commit what the request wrote before failing (for example, the
        end of an idle login session must stick even though the request is refused)."""
        super().__init__(message)
        self.keep_changes = keep_changes
        self.status_code = status_code
        self.code = code
        self.message = message
        self.details = details
        self.headers = headers


def _uuid_params(request: Request) -> list[uuid.UUID]:
    """The path's record ids (events store ids as uuid[]; anything else is not an id)."""
    found = []
    for value in request.path_params.values():
        try:
            found.append(uuid.UUID(str(value)))
        except ValueError:
            continue
    return found


async def _record_decryption_failure(request: Request, route: str, reason: str) -> None:
    """The request's own transaction was rolled back, so the event gets one of its own."""
    from carevault.audit import service as audit

    # Captured when the caller was authenticated: the ORM objects expired with the rollback.
    actor = getattr(request.state, "actor", None) or audit.Actor(
        None, ip_address=client_ip(request)
    )
    try:
        async with request.app.state.carevault.db_sessions() as db, db.begin():
            await audit.record(
                db,
                actor,
                "phi.decryption_failed",
                resource_type=route,
                resource_ids=_uuid_params(request) or None,
                details={"reason": reason, "method": request.method},
            )
    except Exception:  # the response must still go out; the log line above stands
        log.exception("could not record the decryption failure in the audit trail")


def install_error_handlers(app: FastAPI) -> None:
    from carevault.api.failures import install_failure_handlers

    install_failure_handlers(app)  # database down, timed out or full: 503 with Retry-After

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(
            error_body(exc.code, exc.message, exc.details),
            status_code=exc.status_code,
            headers=exc.headers,
        )

    @app.exception_handler(DomainError)
    async def domain_error(request: Request, exc: DomainError) -> JSONResponse:
        # The same body an ApiError of that status and code gives.
        return JSONResponse(
            error_body(exc.code, exc.message, exc.details), status_code=http_status(exc)
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _STATUS_CODES.get(exc.status_code, "error")
        return JSONResponse(
            error_body(code, str(exc.detail)), status_code=exc.status_code, headers=exc.headers
        )

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        if any(e.get("type") == "json_invalid" for e in exc.errors()):
            # Unreadable bytes are not a field's fault: no byte offset posing as a field name.
            return JSONResponse(
                error_body("bad_request", "the request body is not valid JSON"), status_code=400
            )
        fields = [{"field": field_path(e["loc"]), "message": e["msg"]} for e in exc.errors()]
        return JSONResponse(
            error_body("validation_error", "the request is not valid", fields), status_code=422
        )

    @app.exception_handler(UnicodeEncodeError)
    async def unencodable_text(request: Request, exc: UnicodeEncodeError) -> JSONResponse:
        # JSON can carry lone surrogates ("\ud800") that no UTF-8 column or cipher accepts.
        return JSONResponse(
            error_body("validation_error", "text contains unpaired surrogate characters"),
            status_code=422,
        )

    @app.exception_handler(DecryptionError)
    async def decryption_error(request: Request, exc: DecryptionError) -> JSONResponse:
        # The message names the failure kind only; it never contains PHI or key bytes.
        route = route_template(request.scope)
        log.error(
            "PHI decryption failed",
            extra={"method": request.method, "route": route, "reason": str(exc)},
        )
        await _record_decryption_failure(request, route, str(exc))
        return JSONResponse(
            error_body(
                "phi_decryption_failed",
                "a protected field could not be decrypted; the incident was logged",
            ),
            status_code=500,
        )
