"""Examples in the OpenAPI document: of every error code, under each response that can carry
it, and the nulls of the body examples, which FastAPI's encoding of the document drops.

A route names the codes particular to it (`error_responses(404, codes=("version_conflict",))`);
`add_error_examples` adds the ones that follow from how an operation is called: its
credentials and token scope, a JSON body, path and query parameters, `Idempotency-Key`, an
owner-only or re-authenticated dependency. The shared examples (the catalogue in
carevault.api.error_examples) live once, under `components/examples`, and operations refer
to them.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, iter_route_contexts
from starlette.routing import BaseRoute

from carevault.api.error_examples import EXAMPLES, ErrorExample, example_entry
from carevault.api.errors import describe
from carevault.auth.permissions import Operation, operation_of

ERROR_REF = "#/components/schemas/ErrorResponse"

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
    "service_account_disabled",
)
_DATABASE_TROUBLE = ("database_unavailable", "database_timeout", "storage_full")
# With CAREVAULT_KEY_PROVIDER=kms, a practice's keys may be refused or unreachable.
_KEY_SERVICE_TROUBLE = (
    "kms_unavailable",
    "kms_key_disabled",
    "kms_key_pending_deletion",
    "kms_key_not_found",
    "kms_access_denied",
)
# The one code of a status, wherever that status is declared.
_ONLY_CODE = {
    404: "not_found",
    410: "workspace_shredded",
    413: "payload_too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
}
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


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
                media.setdefault("examples", {}).setdefault(code, example_entry(example))
            for status in ("403", "422"):
                media = responses.get(status, {}).get("content", {}).get("application/json", {})
                if status in responses and not media.get("examples"):
                    del responses[status]
            invalid = responses.get("422", {}).get("content", {}).get("application/json", {})
            shared = example_entry(EXAMPLES["validation_error"])
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
    if any(
        parameter["in"] == "header" and parameter["name"] == "If-Match" for parameter in parameters
    ):
        yield "precondition_failed"
    if "security" not in operation:
        return
    yield from _NOT_AUTHENTICATED
    yield from ("workspace_shredded", "rate_limited")
    yield from _KEY_SERVICE_TROUBLE
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
        return example_entry(EXAMPLES["validation_error"])
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
