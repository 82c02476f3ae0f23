"""Errors under /fhir as OperationOutcome, from the API's own handlers.

Each of the app's exception handlers still decides the status, code, headers and audit (a
decryption failure is recorded as anywhere else); for a /fhir path its `{"error": …}` body
is re-rendered as an OperationOutcome carrying the same code (carevault.fhir.mapping).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from starlette.responses import Response

from carevault.fhir import mapping

FHIR_PATHS = "/fhir/"
Handler = Callable[[Request, Exception], Awaitable[Response] | Response]


def as_operation_outcome(response: Response) -> Response:
    """The same answer, its standard error body as an OperationOutcome."""
    try:
        error = json.loads(bytes(response.body))["error"]
    except (ValueError, KeyError, TypeError):
        return response
    expression = _expressions(error.get("details"))
    outcome = mapping.operation_outcome(
        response.status_code, error["code"], error["message"], expression=expression
    )
    headers = {
        name: value
        for name, value in response.headers.items()
        if name.lower() not in ("content-length", "content-type")
    }
    return Response(
        json.dumps(outcome, separators=(",", ":")).encode(),
        status_code=response.status_code,
        media_type=mapping.MEDIA_TYPE,
        headers=headers,
    )


def _expressions(details: Any) -> list[str]:
    found: list[Any] = []
    if isinstance(details, list):
        found = [d["field"] for d in details if isinstance(d, dict) and d.get("field")]
    elif isinstance(details, dict) and isinstance(details.get("parameters"), list):
        found = details["parameters"]
    # FHIR strings are never empty (a parameter sent without a name: `?=x`).
    return [str(name) for name in found if str(name).strip()]


def install_fhir_errors(app: FastAPI) -> None:
    """Wrap every exception handler installed so far (call it after them)."""
    for kind, handler in list(app.exception_handlers.items()):
        app.exception_handlers[kind] = _for_fhir(handler)


def _for_fhir(handler: Handler) -> Handler:
    async def answer(request: Request, exc: Exception) -> Response:
        response = handler(request, exc)
        if not isinstance(response, Response):
            response = await response
        if request.url.path.startswith(FHIR_PATHS):
            return as_operation_outcome(response)
        return response

    return answer
