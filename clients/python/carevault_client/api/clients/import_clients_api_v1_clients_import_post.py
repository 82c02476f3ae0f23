"""`POST /api/v1/clients/import`: owners import clients from CSV or JSON lines.

Written by hand (tools/client_templates/extra in the CareVault repository) and copied into
the package by `make client`: openapi-python-client generates JSON, form and single binary
bodies only, and this operation takes one of two text formats. It has the generated
modules' four functions and answers the same way: `ClientImportResult` for 201, an
`ErrorResponse` for every status the OpenAPI document declares (422 `import_rejected` lists
`{line, field, message}` per bad row; nothing was imported), `None` otherwise. The answer
lists each row's line, client id, `external_id` and action; `upsert=True` updates the client
that already has a row's `external_id` instead of refusing the file.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any, Literal

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.client_import_result import ClientImportResult
from ...models.error_response import ErrorResponse
from ...types import Response

ContentType = Literal["text/csv", "application/x-ndjson"]

# The error statuses the OpenAPI document declares for the operation (a test in the CareVault
# repository compares them).
ERROR_STATUSES = frozenset({400, 401, 403, 409, 410, 413, 415, 422, 429, 503})


def _get_kwargs(
    *,
    body: bytes | str,
    content_type: ContentType,
    idempotency_key: str | None,
    upsert: bool = False,
) -> dict[str, Any]:
    headers: dict[str, str] = {"Content-Type": content_type}
    if idempotency_key is not None:
        headers["Idempotency-Key"] = idempotency_key
    kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/clients/import",
        "content": body.encode() if isinstance(body, str) else body,
        "headers": headers,
    }
    if upsert:
        kwargs["params"] = {"upsert": "true"}
    return kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ClientImportResult | ErrorResponse | None:
    if response.status_code == 201:
        return ClientImportResult.from_dict(response.json())
    if response.status_code in ERROR_STATUSES:
        return ErrorResponse.from_dict(response.json())
    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ClientImportResult | ErrorResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: bytes | str,
    content_type: ContentType = "text/csv",
    idempotency_key: str | None = None,
    upsert: bool = False,
) -> Response[ClientImportResult | ErrorResponse]:
    """Import clients: all rows or none.

    Args:
        body: the file, UTF-8: CSV with a header row (`first_name,last_name,email,…`), or one
            JSON object per line for `application/x-ndjson`. At most 32 MiB.
        content_type: `text/csv` (the default) or `application/x-ndjson`.
        idempotency_key: send a fresh UUID per import and the same one when you retry it.
        upsert: a row whose `external_id` a client already has updates that client.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and
            Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.
    """
    kwargs = _get_kwargs(body=body, content_type=content_type, idempotency_key=idempotency_key, upsert=upsert)
    response = client.get_httpx_client().request(**kwargs)
    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: bytes | str,
    content_type: ContentType = "text/csv",
    idempotency_key: str | None = None,
    upsert: bool = False,
) -> ClientImportResult | ErrorResponse | None:
    """Import clients: the parsed answer of `sync_detailed`."""
    return sync_detailed(
        client=client,
        body=body,
        content_type=content_type,
        idempotency_key=idempotency_key,
        upsert=upsert,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: bytes | str,
    content_type: ContentType = "text/csv",
    idempotency_key: str | None = None,
    upsert: bool = False,
) -> Response[ClientImportResult | ErrorResponse]:
    """Import clients, with the client's `httpx.AsyncClient` (see `sync_detailed`)."""
    kwargs = _get_kwargs(body=body, content_type=content_type, idempotency_key=idempotency_key, upsert=upsert)
    response = await client.get_async_httpx_client().request(**kwargs)
    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: bytes | str,
    content_type: ContentType = "text/csv",
    idempotency_key: str | None = None,
    upsert: bool = False,
) -> ClientImportResult | ErrorResponse | None:
    """Import clients: the parsed answer of `asyncio_detailed`."""
    answer = await asyncio_detailed(
        client=client,
        body=body,
        content_type=content_type,
        idempotency_key=idempotency_key,
        upsert=upsert,
    )
    return answer.parsed
