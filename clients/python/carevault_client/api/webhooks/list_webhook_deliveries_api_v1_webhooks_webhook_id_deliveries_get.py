from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_response import ErrorResponse
from ...models.page_webhook_delivery_read import PageWebhookDeliveryRead
from ...types import UNSET, Response, Unset


def _get_kwargs(
    webhook_id: UUID,
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
        "url": "/api/v1/webhooks/{webhook_id}/deliveries".format(
            webhook_id=quote(str(webhook_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorResponse | PageWebhookDeliveryRead | None:
    if response.status_code == 200:
        response_200 = PageWebhookDeliveryRead.from_dict(response.json())

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
) -> Response[ErrorResponse | PageWebhookDeliveryRead]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    webhook_id: UUID,
    *,
    client: AuthenticatedClient,
    page: int | Unset = 1,
    page_size: int | Unset = 20,
) -> Response[ErrorResponse | PageWebhookDeliveryRead]:
    """List Webhook Deliveries

     The endpoint's deliveries, newest first, each with its latest attempts (status code,
    duration, error class; never what the receiver answered).

    Args:
        webhook_id (UUID):
        page (int | Unset): 1-based page number Default: 1.
        page_size (int | Unset): items per page Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | PageWebhookDeliveryRead]
    """

    kwargs = _get_kwargs(
        webhook_id=webhook_id,
        page=page,
        page_size=page_size,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    webhook_id: UUID,
    *,
    client: AuthenticatedClient,
    page: int | Unset = 1,
    page_size: int | Unset = 20,
) -> ErrorResponse | PageWebhookDeliveryRead | None:
    """List Webhook Deliveries

     The endpoint's deliveries, newest first, each with its latest attempts (status code,
    duration, error class; never what the receiver answered).

    Args:
        webhook_id (UUID):
        page (int | Unset): 1-based page number Default: 1.
        page_size (int | Unset): items per page Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | PageWebhookDeliveryRead
    """

    return sync_detailed(
        webhook_id=webhook_id,
        client=client,
        page=page,
        page_size=page_size,
    ).parsed


async def asyncio_detailed(
    webhook_id: UUID,
    *,
    client: AuthenticatedClient,
    page: int | Unset = 1,
    page_size: int | Unset = 20,
) -> Response[ErrorResponse | PageWebhookDeliveryRead]:
    """List Webhook Deliveries

     The endpoint's deliveries, newest first, each with its latest attempts (status code,
    duration, error class; never what the receiver answered).

    Args:
        webhook_id (UUID):
        page (int | Unset): 1-based page number Default: 1.
        page_size (int | Unset): items per page Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | PageWebhookDeliveryRead]
    """

    kwargs = _get_kwargs(
        webhook_id=webhook_id,
        page=page,
        page_size=page_size,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    webhook_id: UUID,
    *,
    client: AuthenticatedClient,
    page: int | Unset = 1,
    page_size: int | Unset = 20,
) -> ErrorResponse | PageWebhookDeliveryRead | None:
    """List Webhook Deliveries

     The endpoint's deliveries, newest first, each with its latest attempts (status code,
    duration, error class; never what the receiver answered).

    Args:
        webhook_id (UUID):
        page (int | Unset): 1-based page number Default: 1.
        page_size (int | Unset): items per page Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | PageWebhookDeliveryRead
    """

    return (
        await asyncio_detailed(
            webhook_id=webhook_id,
            client=client,
            page=page,
            page_size=page_size,
        )
    ).parsed
