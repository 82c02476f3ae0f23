from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_response import ErrorResponse
from ...models.page_service_account_token_read import PageServiceAccountTokenRead
from ...types import UNSET, Response, Unset


def _get_kwargs(
    service_account_id: UUID,
    *,
    page: int | Unset = 1,
    page_size: int | Unset = 20,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["page"] = page

    params["page_size"] = page_size

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/service-accounts/{service_account_id}/tokens".format(
            service_account_id=quote(str(service_account_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorResponse | PageServiceAccountTokenRead | None:
    if response.status_code == 200:
        response_200 = PageServiceAccountTokenRead.from_dict(response.json())

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

    if response.status_code == 404:
        response_404 = ErrorResponse.from_dict(response.json())

        return response_404

    if response.status_code == 410:
        response_410 = ErrorResponse.from_dict(response.json())

        return response_410

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
) -> Response[ErrorResponse | PageServiceAccountTokenRead]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    service_account_id: UUID,
    *,
    client: AuthenticatedClient,
    page: int | Unset = 1,
    page_size: int | Unset = 20,
) -> Response[ErrorResponse | PageServiceAccountTokenRead]:
    """List Service Account Tokens

    Args:
        service_account_id (UUID):
        page (int | Unset): 1-based page number Default: 1.
        page_size (int | Unset): items per page Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | PageServiceAccountTokenRead]
    """

    kwargs = _get_kwargs(
        service_account_id=service_account_id,
        page=page,
        page_size=page_size,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    service_account_id: UUID,
    *,
    client: AuthenticatedClient,
    page: int | Unset = 1,
    page_size: int | Unset = 20,
) -> ErrorResponse | PageServiceAccountTokenRead | None:
    """List Service Account Tokens

    Args:
        service_account_id (UUID):
        page (int | Unset): 1-based page number Default: 1.
        page_size (int | Unset): items per page Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | PageServiceAccountTokenRead
    """

    return sync_detailed(
        service_account_id=service_account_id,
        client=client,
        page=page,
        page_size=page_size,
    ).parsed


async def asyncio_detailed(
    service_account_id: UUID,
    *,
    client: AuthenticatedClient,
    page: int | Unset = 1,
    page_size: int | Unset = 20,
) -> Response[ErrorResponse | PageServiceAccountTokenRead]:
    """List Service Account Tokens

    Args:
        service_account_id (UUID):
        page (int | Unset): 1-based page number Default: 1.
        page_size (int | Unset): items per page Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | PageServiceAccountTokenRead]
    """

    kwargs = _get_kwargs(
        service_account_id=service_account_id,
        page=page,
        page_size=page_size,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    service_account_id: UUID,
    *,
    client: AuthenticatedClient,
    page: int | Unset = 1,
    page_size: int | Unset = 20,
) -> ErrorResponse | PageServiceAccountTokenRead | None:
    """List Service Account Tokens

    Args:
        service_account_id (UUID):
        page (int | Unset): 1-based page number Default: 1.
        page_size (int | Unset): items per page Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | PageServiceAccountTokenRead
    """

    return (
        await asyncio_detailed(
            service_account_id=service_account_id,
            client=client,
            page=page,
            page_size=page_size,
        )
    ).parsed
