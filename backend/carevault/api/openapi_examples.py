"""Examples in the OpenAPI document: of every error code, under each response that can carry
it, and the nulls of the body examples, which FastAPI's encoding of the document drops.

A route names the codes particular to it (`error_responses(404, codes=("version_conflict",))`);
`add_error_examples` adds the ones that follow from how an operation is called: its
credentials and token scope, a JSON body, path and query parameters, `Idempotency-Key`, an
owner-only or re-authenticated dependency. The shared examples live once, under
`components/examples`, and operations refer to them. A unit test checks every code against
the error-code table (tools/error_codes.py), so an example cannot name a code the API never
answers with.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, iter_route_contexts
from starlette.routing import BaseRoute

from carevault.api.errors import describe
from carevault.auth.permissions import Operation, operation_of

ERROR_REF = "#/components/schemas/ErrorResponse"


@dataclass(frozen=True)
class ErrorExample:
    status: int
    code: str
    message: str
    details: Any = None

    def value(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details is not None:
            error["details"] = self.details
        return {"error": error}


_NOTE_ID = "00000000-0000-4000-8000-0000000000d1"

EXAMPLES: dict[str, ErrorExample] = {
    example.code: example
    for example in (
        ErrorExample(400, "bad_request", "the request body is not valid JSON"),
        ErrorExample(
            400,
            "invalid_idempotency_key",
            "Idempotency-Key must be 1 to 255 printable ASCII characters",
            {"field": "header.idempotency-key"},
        ),
        ErrorExample(400, "not_a_login_session", "API tokens are revoked, not logged out"),
        ErrorExample(
            400,
            "search_in_body",
            "search with POST /api/v1/clients/search; never in the URL",
        ),
        ErrorExample(
            400,
            "unknown_parameter",
            "unknown query parameter 'clientid'; this endpoint accepts: client_id, page, page_size",
            {
                "field": "query.clientid",
                "unknown": ["clientid"],
                "allowed": ["client_id", "page", "page_size"],
            },
        ),
        ErrorExample(401, "invalid_credentials", "wrong email or password"),
        ErrorExample(401, "invalid_token", "the API token is not valid"),
        ErrorExample(401, "not_authenticated", "sign in or send an API token"),
        ErrorExample(401, "session_ended", "this session has ended; sign in again"),
        ErrorExample(401, "session_expired", "this session has expired; sign in again"),
        ErrorExample(401, "session_idle_timeout", "signed out after inactivity"),
        ErrorExample(401, "token_expired", "the API token has expired"),
        ErrorExample(401, "token_revoked", "the API token has been revoked"),
        ErrorExample(401, "user_disabled", "this account is disabled"),
        ErrorExample(403, "cosign_by_author", "the note's author cannot co-sign it"),
        ErrorExample(403, "csrf_failed", "cookie-authenticated changes need X-CSRF-Token"),
        ErrorExample(
            403,
            "insufficient_scope",
            "this API token lacks the notes:read scope",
            {"required_scope": "notes:read", "required_scopes": ["notes:read"]},
        ),
        ErrorExample(
            403,
            "login_session_required",
            "API tokens cannot do this; use a signed-in session",
        ),
        ErrorExample(
            403,
            "not_a_supervisor",
            "only an owner or the author's supervisor can co-sign this note",
        ),
        ErrorExample(403, "not_the_author", "only the note's author can sign it"),
        ErrorExample(403, "owner_required", "only workspace owners can do this"),
        ErrorExample(
            403,
            "chart_access_denied",
            "this client is outside your care team; to open the chart, state a reason with "
            "POST /api/v1/clients/{client_id}/break-the-glass",
            {"break_the_glass": True},
        ),
        ErrorExample(
            403,
            "break_the_glass_disabled",
            "this practice does not allow opening charts outside your care team",
        ),
        ErrorExample(
            403,
            "password_change_required",
            "this account has a temporary password: choose a new one first",
        ),
        ErrorExample(
            403,
            "reauthentication_required",
            "enter your password again (POST /auth/reauth); sensitive changes need it within "
            "the last 5 minutes",
        ),
        ErrorExample(404, "not_found", "session note not found"),
        ErrorExample(
            409,
            "account_conflict",
            "the practice must keep at least one active owner",
        ),
        ErrorExample(
            409,
            "already_finalized",
            "the note is already signed; change it with PATCH and a reason to amend it",
            {"current_version": 4},
        ),
        ErrorExample(
            409,
            "appointment_conflict",
            "the time overlaps other appointments of the same clinician and of the same "
            "client; send allow_overlap to book it anyway",
            {
                "conflicting_ids": [
                    "00000000-0000-4000-8000-0000000000e2",
                    "00000000-0000-4000-8000-0000000000e3",
                ],
                "conflicts": [
                    {"id": "00000000-0000-4000-8000-0000000000e2", "shares": ["clinician"]},
                    {"id": "00000000-0000-4000-8000-0000000000e3", "shares": ["client"]},
                ],
            },
        ),
        ErrorExample(409, "chart_access_not_needed", "you already see this client's chart"),
        ErrorExample(
            409,
            "idempotency_key_reused",
            "this Idempotency-Key was used with a different request",
        ),
        ErrorExample(
            409,
            "not_awaiting_cosign",
            "the note does not await a co-signature (a draft, not a trainee's, or co-signed)",
            {"current_version": 4},
        ),
        ErrorExample(
            409,
            "not_signed",
            "the note is a draft: save it without a reason (only signed notes are amended)",
            {"current_version": 4},
        ),
        ErrorExample(
            409,
            "user_exists",
            "a user with email new.clinician@example.org already exists in this workspace",
        ),
        ErrorExample(
            409,
            "version_conflict",
            "the note has changed since you loaded it; reload it and apply your change again",
            {"current_version": 4},
        ),
        ErrorExample(410, "workspace_shredded", "this practice's data was shredded"),
        ErrorExample(413, "payload_too_large", "request bodies here are limited to 1048576 bytes"),
        ErrorExample(415, "unsupported_media_type", "send text/csv or application/x-ndjson"),
        ErrorExample(
            422,
            "appointment_client_mismatch",
            "the appointment belongs to another client",
            [
                {
                    "field": "body.appointment_id",
                    "message": "the appointment belongs to another client",
                }
            ],
        ),
        ErrorExample(
            422,
            "attestation_outdated",
            "attest the current statement (version 2, GET /sessions/attestations) to sign",
            [
                {
                    "field": "body.attestation_version",
                    "message": "attest the current statement (version 2, "
                    "GET /sessions/attestations) to sign",
                }
            ],
        ),
        ErrorExample(
            422,
            "client_archived",
            "the client is archived; restore them first",
            [{"field": "body.client_id", "message": "the client is archived; restore them first"}],
        ),
        ErrorExample(
            422,
            "empty_note",
            "write at least one SOAP section before finalizing",
            [
                {
                    "field": f"body.{name}",
                    "message": "write at least one SOAP section before finalizing",
                }
                for name in ("subjective", "objective", "assessment", "plan")
            ],
        ),
        ErrorExample(
            422,
            "finalized_field_locked",
            "this field of a finalized note cannot change",
            [
                {
                    "field": "body.session_date",
                    "message": "this field of a finalized note cannot change",
                }
            ],
        ),
        ErrorExample(
            422,
            "import_rejected",
            "2 problem(s); nothing was imported",
            [
                {"line": 3, "field": "email", "message": "not an email address"},
                {"line": 7, "field": "last_name", "message": "Field required"},
            ],
        ),
        ErrorExample(
            422,
            "invalid_clinician",
            "the clinician must be an active user of your practice",
            [
                {
                    "field": "body.clinician_id",
                    "message": "the clinician must be an active user of your practice",
                }
            ],
        ),
        ErrorExample(
            422,
            "invalid_date_range",
            "`since` is after `until`: the range is inverted; swap the dates",
            [
                {
                    "field": f"query.{name}",
                    "message": "`since` is after `until`: the range is inverted; swap the dates",
                }
                for name in ("since", "until")
            ],
        ),
        ErrorExample(422, "no_changes", "send at least one field to change"),
        ErrorExample(422, "not_in_series", "the appointment is not part of a recurring series"),
        ErrorExample(
            422,
            "reason_required",
            "the note is signed: an amendment needs a reason (why the signed note changes)",
            [
                {
                    "field": "body.reason",
                    "message": "the note is signed: an amendment needs a reason (why the "
                    "signed note changes)",
                }
            ],
        ),
        ErrorExample(
            422,
            "too_many_events",
            "more than 50000 events match; export a shorter date range",
            [
                {
                    "field": f"query.{name}",
                    "message": "more than 50000 events match; export a shorter date range",
                }
                for name in ("since", "until")
            ],
        ),
        ErrorExample(
            422,
            "unknown_clinician",
            "clinician_ids names users who are not active users of this practice",
            [{"field": "body.clinician_ids.0", "message": "not an active user of the practice"}],
        ),
        ErrorExample(
            422,
            "validation_error",
            "the request is not valid",
            [{"field": "body.plan", "message": "String should have at most 5000 characters"}],
        ),
        ErrorExample(
            429,
            "rate_limited",
            "more than 600 requests a minute with this credential; slow down",
        ),
        ErrorExample(
            503,
            "database_timeout",
            "the database did not answer in time; nothing was changed, retry shortly",
        ),
        ErrorExample(503, "database_unavailable", "the database is unavailable; retry shortly"),
        ErrorExample(
            503, "storage_full", "the database is out of storage space; nothing was changed"
        ),
    )
}

SIGN_IN_RATE_LIMITED = ErrorExample(
    429, "rate_limited", "too many failed password checks; try again later"
)
# The answers every authenticated operation can give before it runs, by status.
_NOT_AUTHENTICATED = (
    "not_authenticated",
    "invalid_token",
    "token_expired",
    "token_revoked",
    "session_ended",
    "session_expired",
    "session_idle_timeout",
    "user_disabled",
)
_DATABASE_TROUBLE = ("database_unavailable", "database_timeout", "storage_full")
# The one code of a status, wherever that status is declared.
_ONLY_CODE = {
    404: "not_found",
    410: "workspace_shredded",
    413: "payload_too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
}
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def examples_for(codes: Iterable[str | ErrorExample]) -> dict[int, dict[str, Any]]:
    """Example objects by status for `error_responses`: a code names the shared example, an
    `ErrorExample` is written out (a message particular to the route)."""
    by_status: dict[int, dict[str, Any]] = {}
    for code in codes:
        example = EXAMPLES[code] if isinstance(code, str) else code
        by_status.setdefault(example.status, {})[example.code] = _entry(example)
    return by_status


def _entry(example: ErrorExample) -> dict[str, Any]:
    if EXAMPLES.get(example.code) == example:
        return {"$ref": f"#/components/examples/{example.code}"}
    return {"summary": example.code, "value": example.value()}


def _dependants(routes: Iterable[BaseRoute]) -> dict[tuple[str, str], Dependant]:
    """Each operation's dependency tree, by (lower-case method, path template)."""
    return {
        (method.lower(), context.path_format): context.dependant
        for context in iter_route_contexts(list(routes))
        if isinstance(context.original_route, APIRoute) and context.path_format is not None
        for method in context.methods or ()
    }


def declared_operations(routes: Iterable[BaseRoute]) -> dict[tuple[str, str], Operation | None]:
    """Each operation's declaration (carevault.auth.permissions), by (lower-case method,
    path template); None for a route that declares nothing."""
    return {
        (method.lower(), context.path_format): operation_of(context.original_route.endpoint)
        for context in iter_route_contexts(list(routes))
        if isinstance(context.original_route, APIRoute) and context.path_format is not None
        for method in context.methods or ()
    }


def authenticated_operations(routes: Iterable[BaseRoute]) -> set[tuple[str, str]]:
    """(method, path) of every operation that resolves a principal: those the document
    gives credentials. Read from the dependency tree, not from security-scheme dependencies,
    which would cost every request two dependencies that only describe it."""
    from carevault.auth.dependencies import current_principal

    return {
        operation
        for operation, dependant in _dependants(routes).items()
        if current_principal in _dependency_calls(dependant)
    }


def add_error_examples(document: dict[str, Any], routes: Iterable[BaseRoute]) -> None:
    """Give every error response of every operation examples of the codes it can carry, and
    drop a `403` or `422` that nothing in the operation can cause (`AUTHENTICATED` declares
    both for every signed-in operation, FastAPI a 422 wherever there are parameters)."""
    dependants = _dependants(routes)
    for path, operations in document.get("paths", {}).items():
        for method, operation in operations.items():
            dependant = dependants.get((method, path))
            # FastAPI and openapi_document share response objects between operations.
            responses = operation["responses"] = {
                status: copy.deepcopy(response)
                for status, response in operation.get("responses", {}).items()
            }
            implied = list(_implied_codes(method.upper(), path, operation, dependant))
            implied += [_ONLY_CODE[int(s)] for s in responses if int(s) in _ONLY_CODE]
            for code in implied:
                example = EXAMPLES[code]
                response = responses.setdefault(
                    str(example.status),
                    {
                        "description": describe(example.status),
                        "content": {"application/json": {"schema": {"$ref": ERROR_REF}}},
                    },
                )
                media = response.setdefault("content", {}).setdefault("application/json", {})
                if media.get("schema") != {"$ref": ERROR_REF}:
                    continue  # a readiness report, not an error
                media.setdefault("examples", {}).setdefault(code, _entry(example))
            for status in ("403", "422"):
                media = responses.get(status, {}).get("content", {}).get("application/json", {})
                if status in responses and not media.get("examples"):
                    del responses[status]
            invalid = responses.get("422", {}).get("content", {}).get("application/json", {})
            shared = _entry(EXAMPLES["validation_error"])
            if invalid.get("examples", {}).get("validation_error") == shared:
                invalid["examples"]["validation_error"] = _validation_example(operation, document)
    document.setdefault("components", {})["examples"] = {
        code: {"summary": code, "value": example.value()}
        for code, example in sorted(EXAMPLES.items())
    }


def _implied_codes(
    method: str, path: str, operation: dict[str, Any], dependant: Dependant | None
) -> Iterable[str]:
    from carevault.api.idempotency import HEADER as IDEMPOTENCY_HEADER
    from carevault.auth.dependencies import (
        PATHS_DURING_PASSWORD_CHANGE,
        current_owner,
        recent_owner,
        recent_password,
    )

    if not path.startswith("/api/"):
        return
    yield "unknown_parameter"
    yield from _DATABASE_TROUBLE
    body = operation.get("requestBody", {}).get("content", {})
    if "application/json" in body:
        yield from ("bad_request", "payload_too_large", "validation_error")
    elif body:
        yield "payload_too_large"
    parameters = operation.get("parameters", [])
    if any(parameter["in"] in ("path", "query") for parameter in parameters):
        yield "validation_error"
    if any(
        parameter["in"] == "header" and parameter["name"] == IDEMPOTENCY_HEADER
        for parameter in parameters
    ):
        yield from ("invalid_idempotency_key", "idempotency_key_reused")
    if "security" not in operation:
        return
    yield from _NOT_AUTHENTICATED
    yield from ("workspace_shredded", "rate_limited")
    if method not in _SAFE_METHODS:
        yield "csrf_failed"
    if path not in PATHS_DURING_PASSWORD_CHANGE:
        yield "password_change_required"
    if operation["security"] == [{"sessionCookie": []}]:
        yield "login_session_required"  # an API token is refused
    elif operation.get("x-token-scopes"):
        yield "insufficient_scope"
    calls = _dependency_calls(dependant) if dependant is not None else set()
    if calls & {current_owner, recent_owner}:
        yield "owner_required"
    if calls & {recent_owner, recent_password}:
        yield from ("reauthentication_required", "login_session_required")


def _dependency_calls(dependant: Dependant) -> set[Any]:
    calls = {dependant.call}
    for sub in dependant.dependencies:
        calls |= _dependency_calls(sub)
    return calls


# Messages pydantic gives for a value of the wrong kind, by JSON schema type (and format).
_WRONG_KIND = {
    ("string", "uuid"): "Input should be a valid UUID, invalid length: expected length 32 for "
    "simple format, found 6",
    ("string", "date-time"): "Input should be a valid datetime or date, input is too short",
    ("integer", None): "Input should be a valid integer, unable to parse string as an integer",
    ("boolean", None): "Input should be a valid boolean, unable to interpret input",
}


def _validation_example(operation: dict[str, Any], document: dict[str, Any]) -> dict[str, Any]:
    """`validation_error` naming a field this operation really takes: a path id, a missing
    required body field, an unknown body field, or a query parameter of the wrong kind."""
    detail: dict[str, str] | None = None
    parameters = [p for p in operation.get("parameters", []) if p["in"] in ("path", "query")]
    body = operation.get("requestBody", {}).get("content", {}).get("application/json")
    path_ids = [p for p in parameters if p["in"] == "path"]
    if path_ids:
        detail = _wrong_kind(path_ids[0])
    elif body is not None:
        schema = _resolve(body.get("schema", {}), document)
        required = schema.get("required", [])
        if required:
            detail = {"field": f"body.{required[0]}", "message": "Field required"}
        else:
            detail = {"field": "body.colour", "message": "Extra inputs are not permitted"}
    else:
        detail = next(filter(None, (_wrong_kind(p) for p in parameters)), None)
    if detail is None:
        return _entry(EXAMPLES["validation_error"])
    value = ErrorExample(422, "validation_error", "the request is not valid", [detail])
    return {"summary": "validation_error", "value": value.value()}


def _wrong_kind(parameter: dict[str, Any]) -> dict[str, str] | None:
    schema = parameter.get("schema", {})
    kinds = [schema, *schema.get("anyOf", [])]
    for kind in kinds:
        message = _WRONG_KIND.get((kind.get("type"), kind.get("format")))
        if message is not None:
            return {"field": f"{parameter['in']}.{parameter['name']}", "message": message}
    return None


def _resolve(schema: dict[str, Any], document: dict[str, Any]) -> dict[str, Any]:
    reference = schema.get("$ref")
    if not isinstance(reference, str):
        return schema
    resolved: dict[str, Any] = document
    for part in reference.removeprefix("#/").split("/"):
        resolved = resolved[part]
    return resolved


def restore_example_nulls(document: dict[str, Any]) -> None:
    """FastAPI writes the document with `exclude_none`, which also takes the nulls out of
    the examples, so `"revoked_at": null` vanishes and the example no longer fits a schema
    that requires the property. Put back a null for every required property an example
    lacks whose schema allows null."""
    for schema in document.get("components", {}).get("schemas", {}).values():
        for example in schema.get("examples", []):
            _restore_nulls(example, schema, document)
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            media_types = [*operation.get("requestBody", {}).get("content", {}).values()]
            for response in operation.get("responses", {}).values():
                media_types += response.get("content", {}).values()
            for media in media_types:
                if "example" in media:
                    _restore_nulls(media["example"], media.get("schema", {}), document)


def _restore_nulls(example: Any, schema: dict[str, Any], document: dict[str, Any]) -> None:
    schema = _resolve(schema, document)
    variants = [_resolve(v, document) for v in schema.get("anyOf", [])] or [schema]
    for variant in variants:
        if isinstance(example, dict) and variant.get("type") == "object":
            properties = variant.get("properties", {})
            for name in variant.get("required", []):
                if name not in example and _allows_null(properties.get(name, {}), document):
                    example[name] = None
            for name, value in example.items():
                if name in properties:
                    _restore_nulls(value, properties[name], document)
        elif isinstance(example, list) and variant.get("type") == "array":
            for item in example:
                _restore_nulls(item, variant.get("items", {}), document)


def _allows_null(schema: dict[str, Any], document: dict[str, Any]) -> bool:
    schema = _resolve(schema, document)
    return schema.get("type") == "null" or any(
        _allows_null(variant, document) for variant in schema.get("anyOf", [])
    )
