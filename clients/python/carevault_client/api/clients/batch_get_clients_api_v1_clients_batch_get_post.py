from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.batch_client_read import BatchClientRead
from ...models.batch_get import BatchGet
from ...models.error_response import ErrorResponse
from ...types import Response


def _get_kwargs(
    *,
    body: BatchGet,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/clients/batch-get",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> BatchClientRead | ErrorResponse | None:
    if response.status_code == 200:
        response_200 = BatchClientRead.from_dict(response.json())

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
) -> Response[BatchClientRead | ErrorResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: BatchGet,
) -> Response[BatchClientRead | ErrorResponse]:
    """Batch Get Clients

     Up to 100 clients by id in one request, as `GET /clients/{client_id}` reads each
    (archived ones included), in the order asked; one audit event names every client
    returned. Ids you may not read (unknown, another practice, outside your care team) are in
    `not_found`, never told apart. A POST so the ids travel in the body; reads nothing else.

    Args:
        body (BatchGet):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BatchClientRead | ErrorResponse]
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
    body: BatchGet,
) -> BatchClientRead | ErrorResponse | None:
    """Batch Get Clients

     Up to 100 clients by id in one request, as `GET /clients/{client_id}` reads each
    (archived ones included), in the order asked; one audit event names every client
    returned. Ids you may not read (unknown, another practice, outside your care team) are in
    `not_found`, never told apart. A POST so the ids travel in the body; reads nothing else.

    Args:
        body (BatchGet):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BatchClientRead | ErrorResponse
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: BatchGet,
) -> Response[BatchClientRead | ErrorResponse]:
    """Batch Get Clients

     Up to 100 clients by id in one request, as `GET /clients/{client_id}` reads each
    (archived ones included), in the order asked; one audit event names every client
    returned. Ids you may not read (unknown, another practice, outside your care team) are in
    `not_found`, never told apart. A POST so the ids travel in the body; reads nothing else.

    Args:
        body (BatchGet):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BatchClientRead | ErrorResponse]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: BatchGet,
) -> BatchClientRead | ErrorResponse | None:
    """Batch Get Clients

     Up to 100 clients by id in one request, as `GET /clients/{client_id}` reads each
    (archived ones included), in the order asked; one audit event names every client
    returned. Ids you may not read (unknown, another practice, outside your care team) are in
    `not_found`, never told apart. A POST so the ids travel in the body; reads nothing else.

    Args:
        body (BatchGet):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BatchClientRead | ErrorResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
