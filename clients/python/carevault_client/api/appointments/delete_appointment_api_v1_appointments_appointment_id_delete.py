from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_response import ErrorResponse
from ...types import UNSET, Response, Unset


def _get_kwargs(
    appointment_id: UUID,
    *,
    if_match: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/api/v1/appointments/{appointment_id}".format(
            appointment_id=quote(str(appointment_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | ErrorResponse | None:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

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

    if response.status_code == 412:
        response_412 = ErrorResponse.from_dict(response.json())

        return response_412

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | ErrorResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    appointment_id: UUID,
    *,
    client: AuthenticatedClient,
    if_match: None | str | Unset = UNSET,
) -> Response[Any | ErrorResponse]:
    """Delete Appointment

     Remove the appointment for good (to keep it on the calendar, set status `cancelled`).
    A session note tied to it stays, without the link.

    Args:
        appointment_id (UUID):
        if_match (None | str | Unset): Change only if the record is still at this `ETag` (else 412
            `precondition_failed`); optional

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorResponse]
    """

    kwargs = _get_kwargs(
        appointment_id=appointment_id,
        if_match=if_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    appointment_id: UUID,
    *,
    client: AuthenticatedClient,
    if_match: None | str | Unset = UNSET,
) -> Any | ErrorResponse | None:
    """Delete Appointment

     Remove the appointment for good (to keep it on the calendar, set status `cancelled`).
    A session note tied to it stays, without the link.

    Args:
        appointment_id (UUID):
        if_match (None | str | Unset): Change only if the record is still at this `ETag` (else 412
            `precondition_failed`); optional

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorResponse
    """

    return sync_detailed(
        appointment_id=appointment_id,
        client=client,
        if_match=if_match,
    ).parsed


async def asyncio_detailed(
    appointment_id: UUID,
    *,
    client: AuthenticatedClient,
    if_match: None | str | Unset = UNSET,
) -> Response[Any | ErrorResponse]:
    """Delete Appointment

     Remove the appointment for good (to keep it on the calendar, set status `cancelled`).
    A session note tied to it stays, without the link.

    Args:
        appointment_id (UUID):
        if_match (None | str | Unset): Change only if the record is still at this `ETag` (else 412
            `precondition_failed`); optional

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorResponse]
    """

    kwargs = _get_kwargs(
        appointment_id=appointment_id,
        if_match=if_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    appointment_id: UUID,
    *,
    client: AuthenticatedClient,
    if_match: None | str | Unset = UNSET,
) -> Any | ErrorResponse | None:
    """Delete Appointment

     Remove the appointment for good (to keep it on the calendar, set status `cancelled`).
    A session note tied to it stays, without the link.

    Args:
        appointment_id (UUID):
        if_match (None | str | Unset): Change only if the record is still at this `ETag` (else 412
            `precondition_failed`); optional

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorResponse
    """

    return (
        await asyncio_detailed(
            appointment_id=appointment_id,
            client=client,
            if_match=if_match,
        )
    ).parsed
