from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.break_the_glass import BreakTheGlass
from ...models.chart_access_grant_read import ChartAccessGrantRead
from ...models.error_response import ErrorResponse
from ...types import Response


def _get_kwargs(
    client_id: UUID,
    *,
    body: BreakTheGlass,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/clients/{client_id}/break-the-glass".format(
            client_id=quote(str(client_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ChartAccessGrantRead | ErrorResponse | None:
    if response.status_code == 201:
        response_201 = ChartAccessGrantRead.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = ErrorResponse.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorResponse.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorResponse.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = ErrorResponse.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = ErrorResponse.from_dict(response.json())

        return response_409

    if response.status_code == 410:
        response_410 = ErrorResponse.from_dict(response.json())

        return response_410

    if response.status_code == 413:
        response_413 = ErrorResponse.from_dict(response.json())

        return response_413

    if response.status_code == 422:
        response_422 = ErrorResponse.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = ErrorResponse.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = ErrorResponse.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ChartAccessGrantRead | ErrorResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    client_id: UUID,
    *,
    client: AuthenticatedClient,
    body: BreakTheGlass,
) -> Response[ChartAccessGrantRead | ErrorResponse]:
    """Break The Glass

     Open a chart outside your care team, stating why (in the body: a reason can hold PHI,
    so never in a URL). Only when the practice allows break-the-glass (else 403
    `break_the_glass_disabled`); grants you the chart, its appointments and notes for 60
    minutes, and is flagged `break_the_glass` in the audit trail (the reason is kept sealed,
    not in the audit event). Then read the chart with `GET /clients/{client_id}`.

    Args:
        client_id (UUID):
        body (BreakTheGlass): Why you must open a chart outside your care team. Kept sealed like
            PHI and shown to
            the practice's owners; never written to the audit trail or logs.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChartAccessGrantRead | ErrorResponse]
    """

    kwargs = _get_kwargs(
        client_id=client_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    client_id: UUID,
    *,
    client: AuthenticatedClient,
    body: BreakTheGlass,
) -> ChartAccessGrantRead | ErrorResponse | None:
    """Break The Glass

     Open a chart outside your care team, stating why (in the body: a reason can hold PHI,
    so never in a URL). Only when the practice allows break-the-glass (else 403
    `break_the_glass_disabled`); grants you the chart, its appointments and notes for 60
    minutes, and is flagged `break_the_glass` in the audit trail (the reason is kept sealed,
    not in the audit event). Then read the chart with `GET /clients/{client_id}`.

    Args:
        client_id (UUID):
        body (BreakTheGlass): Why you must open a chart outside your care team. Kept sealed like
            PHI and shown to
            the practice's owners; never written to the audit trail or logs.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChartAccessGrantRead | ErrorResponse
    """

    return sync_detailed(
        client_id=client_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    client_id: UUID,
    *,
    client: AuthenticatedClient,
    body: BreakTheGlass,
) -> Response[ChartAccessGrantRead | ErrorResponse]:
    """Break The Glass

     Open a chart outside your care team, stating why (in the body: a reason can hold PHI,
    so never in a URL). Only when the practice allows break-the-glass (else 403
    `break_the_glass_disabled`); grants you the chart, its appointments and notes for 60
    minutes, and is flagged `break_the_glass` in the audit trail (the reason is kept sealed,
    not in the audit event). Then read the chart with `GET /clients/{client_id}`.

    Args:
        client_id (UUID):
        body (BreakTheGlass): Why you must open a chart outside your care team. Kept sealed like
            PHI and shown to
            the practice's owners; never written to the audit trail or logs.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChartAccessGrantRead | ErrorResponse]
    """

    kwargs = _get_kwargs(
        client_id=client_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    client_id: UUID,
    *,
    client: AuthenticatedClient,
    body: BreakTheGlass,
) -> ChartAccessGrantRead | ErrorResponse | None:
    """Break The Glass

     Open a chart outside your care team, stating why (in the body: a reason can hold PHI,
    so never in a URL). Only when the practice allows break-the-glass (else 403
    `break_the_glass_disabled`); grants you the chart, its appointments and notes for 60
    minutes, and is flagged `break_the_glass` in the audit trail (the reason is kept sealed,
    not in the audit event). Then read the chart with `GET /clients/{client_id}`.

    Args:
        client_id (UUID):
        body (BreakTheGlass): Why you must open a chart outside your care team. Kept sealed like
            PHI and shown to
            the practice's owners; never written to the audit trail or logs.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChartAccessGrantRead | ErrorResponse
    """

    return (
        await asyncio_detailed(
            client_id=client_id,
            client=client,
            body=body,
        )
    ).parsed
