from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.client_read import ClientRead
from ...models.client_update import ClientUpdate
from ...models.error_response import ErrorResponse
from ...types import UNSET, Response, Unset


def _get_kwargs(
    client_id: UUID,
    *,
    body: ClientUpdate,
    if_match: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/v1/clients/{client_id}".format(
            client_id=quote(str(client_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ClientRead | ErrorResponse | None:
    if response.status_code == 200:
        response_200 = ClientRead.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = ErrorResponse.from_dict(response.json())

        return response_409

    if response.status_code == 410:
        response_410 = ErrorResponse.from_dict(response.json())

        return response_410

    if response.status_code == 412:
        response_412 = ErrorResponse.from_dict(response.json())

        return response_412

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
) -> Response[ClientRead | ErrorResponse]:
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
    body: ClientUpdate,
    if_match: None | str | Unset = UNSET,
) -> Response[ClientRead | ErrorResponse]:
    """Update Client

     Change the fields sent and only those (422 `no_changes` for an empty body). With
    `If-Match`, only if the client is still at that `ETag` (412 `precondition_failed`).

    Args:
        client_id (UUID):
        if_match (None | str | Unset): Change only if the record is still at this `ETag` (else 412
            `precondition_failed`); optional
        body (ClientUpdate): Send only the fields that change. An optional field sent as null (or
            blank) is
            cleared; first and last name can change but never be cleared.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ClientRead | ErrorResponse]
    """

    kwargs = _get_kwargs(
        client_id=client_id,
        body=body,
        if_match=if_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    client_id: UUID,
    *,
    client: AuthenticatedClient,
    body: ClientUpdate,
    if_match: None | str | Unset = UNSET,
) -> ClientRead | ErrorResponse | None:
    """Update Client

     Change the fields sent and only those (422 `no_changes` for an empty body). With
    `If-Match`, only if the client is still at that `ETag` (412 `precondition_failed`).

    Args:
        client_id (UUID):
        if_match (None | str | Unset): Change only if the record is still at this `ETag` (else 412
            `precondition_failed`); optional
        body (ClientUpdate): Send only the fields that change. An optional field sent as null (or
            blank) is
            cleared; first and last name can change but never be cleared.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ClientRead | ErrorResponse
    """

    return sync_detailed(
        client_id=client_id,
        client=client,
        body=body,
        if_match=if_match,
    ).parsed


async def asyncio_detailed(
    client_id: UUID,
    *,
    client: AuthenticatedClient,
    body: ClientUpdate,
    if_match: None | str | Unset = UNSET,
) -> Response[ClientRead | ErrorResponse]:
    """Update Client

     Change the fields sent and only those (422 `no_changes` for an empty body). With
    `If-Match`, only if the client is still at that `ETag` (412 `precondition_failed`).

    Args:
        client_id (UUID):
        if_match (None | str | Unset): Change only if the record is still at this `ETag` (else 412
            `precondition_failed`); optional
        body (ClientUpdate): Send only the fields that change. An optional field sent as null (or
            blank) is
            cleared; first and last name can change but never be cleared.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ClientRead | ErrorResponse]
    """

    kwargs = _get_kwargs(
        client_id=client_id,
        body=body,
        if_match=if_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    client_id: UUID,
    *,
    client: AuthenticatedClient,
    body: ClientUpdate,
    if_match: None | str | Unset = UNSET,
) -> ClientRead | ErrorResponse | None:
    """Update Client

     Change the fields sent and only those (422 `no_changes` for an empty body). With
    `If-Match`, only if the client is still at that `ETag` (412 `precondition_failed`).

    Args:
        client_id (UUID):
        if_match (None | str | Unset): Change only if the record is still at this `ETag` (else 412
            `precondition_failed`); optional
        body (ClientUpdate): Send only the fields that change. An optional field sent as null (or
            blank) is
            cleared; first and last name can change but never be cleared.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ClientRead | ErrorResponse
    """

    return (
        await asyncio_detailed(
            client_id=client_id,
            client=client,
            body=body,
            if_match=if_match,
        )
    ).parsed
