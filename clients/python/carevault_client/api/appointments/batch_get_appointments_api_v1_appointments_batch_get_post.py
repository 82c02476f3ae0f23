from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.batch_appointment_read import BatchAppointmentRead
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
        "url": "/api/v1/appointments/batch-get",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> BatchAppointmentRead | ErrorResponse | None:
    if response.status_code == 200:
        response_200 = BatchAppointmentRead.from_dict(response.json())

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
) -> Response[BatchAppointmentRead | ErrorResponse]:
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
) -> Response[BatchAppointmentRead | ErrorResponse]:
    """Batch Get Appointments

     Up to 100 appointments by id in one request, as `GET /appointments/{appointment_id}`
    reads each, in the order asked; one audit event names every appointment returned. Ids you
    may not read are in `not_found`, never told apart.

    Args:
        body (BatchGet):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BatchAppointmentRead | ErrorResponse]
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
) -> BatchAppointmentRead | ErrorResponse | None:
    """Batch Get Appointments

     Up to 100 appointments by id in one request, as `GET /appointments/{appointment_id}`
    reads each, in the order asked; one audit event names every appointment returned. Ids you
    may not read are in `not_found`, never told apart.

    Args:
        body (BatchGet):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BatchAppointmentRead | ErrorResponse
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: BatchGet,
) -> Response[BatchAppointmentRead | ErrorResponse]:
    """Batch Get Appointments

     Up to 100 appointments by id in one request, as `GET /appointments/{appointment_id}`
    reads each, in the order asked; one audit event names every appointment returned. Ids you
    may not read are in `not_found`, never told apart.

    Args:
        body (BatchGet):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BatchAppointmentRead | ErrorResponse]
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
) -> BatchAppointmentRead | ErrorResponse | None:
    """Batch Get Appointments

     Up to 100 appointments by id in one request, as `GET /appointments/{appointment_id}`
    reads each, in the order asked; one audit event names every appointment returned. Ids you
    may not read are in `not_found`, never told apart.

    Args:
        body (BatchGet):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BatchAppointmentRead | ErrorResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
