from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_response import ErrorResponse
from ...models.workspace_read import WorkspaceRead
from ...models.workspace_update import WorkspaceUpdate
from ...types import Response


def _get_kwargs(
    *,
    body: WorkspaceUpdate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/v1/workspace",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorResponse | WorkspaceRead | None:
    if response.status_code == 200:
        response_200 = WorkspaceRead.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ErrorResponse.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorResponse.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorResponse.from_dict(response.json())

        return response_403

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
) -> Response[ErrorResponse | WorkspaceRead]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: WorkspaceUpdate,
) -> Response[ErrorResponse | WorkspaceRead]:
    """Update Workspace

     Owners: set the practice's IANA time zone, which decides what "today" is for it, its
    phone region, which decides how a phone number without a country code is read,
    `late_entry_hours`, after which a signed note is flagged as a late entry, and its chart
    access (`chart_access`, `break_the_glass`).

    Args:
        body (WorkspaceUpdate): Send the settings that change (at least one).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | WorkspaceRead]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: WorkspaceUpdate,
) -> ErrorResponse | WorkspaceRead | None:
    """Update Workspace

     Owners: set the practice's IANA time zone, which decides what "today" is for it, its
    phone region, which decides how a phone number without a country code is read,
    `late_entry_hours`, after which a signed note is flagged as a late entry, and its chart
    access (`chart_access`, `break_the_glass`).

    Args:
        body (WorkspaceUpdate): Send the settings that change (at least one).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | WorkspaceRead
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: WorkspaceUpdate,
) -> Response[ErrorResponse | WorkspaceRead]:
    """Update Workspace

     Owners: set the practice's IANA time zone, which decides what "today" is for it, its
    phone region, which decides how a phone number without a country code is read,
    `late_entry_hours`, after which a signed note is flagged as a late entry, and its chart
    access (`chart_access`, `break_the_glass`).

    Args:
        body (WorkspaceUpdate): Send the settings that change (at least one).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | WorkspaceRead]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: WorkspaceUpdate,
) -> ErrorResponse | WorkspaceRead | None:
    """Update Workspace

     Owners: set the practice's IANA time zone, which decides what "today" is for it, its
    phone region, which decides how a phone number without a country code is read,
    `late_entry_hours`, after which a signed note is flagged as a late entry, and its chart
    access (`chart_access`, `break_the_glass`).

    Args:
        body (WorkspaceUpdate): Send the settings that change (at least one).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | WorkspaceRead
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
