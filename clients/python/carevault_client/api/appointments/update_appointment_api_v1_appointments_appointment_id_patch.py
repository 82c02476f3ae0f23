from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.appointment_read import AppointmentRead
from ...models.appointment_update import AppointmentUpdate
from ...models.error_response import ErrorResponse
from ...types import UNSET, Response, Unset


def _get_kwargs(
    appointment_id: UUID,
    *,
    body: AppointmentUpdate,
    if_match: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/v1/appointments/{appointment_id}".format(
            appointment_id=quote(str(appointment_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AppointmentRead | ErrorResponse | None:
    if response.status_code == 200:
        response_200 = AppointmentRead.from_dict(response.json())

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
) -> Response[AppointmentRead | ErrorResponse]:
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
    body: AppointmentUpdate,
    if_match: None | str | Unset = UNSET,
) -> Response[AppointmentRead | ErrorResponse]:
    """Update Appointment

     Reschedule (drag: new `starts_at` and `ends_at`), hand it to another clinician, change
    the room, status, location or notes; only the fields sent change. Moving an appointment
    in time, to another clinician or room, or un-cancelling one, is checked for overlaps like
    a booking.

    Args:
        appointment_id (UUID):
        if_match (None | str | Unset): Change only if the record is still at this `ETag` (else 412
            `precondition_failed`); optional
        body (AppointmentUpdate): Send only what changes: reschedule (move or resize), hand it to
            another clinician,
            change the room, status, location or notes. Room, location and notes sent as null are
            cleared.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AppointmentRead | ErrorResponse]
    """

    kwargs = _get_kwargs(
        appointment_id=appointment_id,
        body=body,
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
    body: AppointmentUpdate,
    if_match: None | str | Unset = UNSET,
) -> AppointmentRead | ErrorResponse | None:
    """Update Appointment

     Reschedule (drag: new `starts_at` and `ends_at`), hand it to another clinician, change
    the room, status, location or notes; only the fields sent change. Moving an appointment
    in time, to another clinician or room, or un-cancelling one, is checked for overlaps like
    a booking.

    Args:
        appointment_id (UUID):
        if_match (None | str | Unset): Change only if the record is still at this `ETag` (else 412
            `precondition_failed`); optional
        body (AppointmentUpdate): Send only what changes: reschedule (move or resize), hand it to
            another clinician,
            change the room, status, location or notes. Room, location and notes sent as null are
            cleared.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AppointmentRead | ErrorResponse
    """

    return sync_detailed(
        appointment_id=appointment_id,
        client=client,
        body=body,
        if_match=if_match,
    ).parsed


async def asyncio_detailed(
    appointment_id: UUID,
    *,
    client: AuthenticatedClient,
    body: AppointmentUpdate,
    if_match: None | str | Unset = UNSET,
) -> Response[AppointmentRead | ErrorResponse]:
    """Update Appointment

     Reschedule (drag: new `starts_at` and `ends_at`), hand it to another clinician, change
    the room, status, location or notes; only the fields sent change. Moving an appointment
    in time, to another clinician or room, or un-cancelling one, is checked for overlaps like
    a booking.

    Args:
        appointment_id (UUID):
        if_match (None | str | Unset): Change only if the record is still at this `ETag` (else 412
            `precondition_failed`); optional
        body (AppointmentUpdate): Send only what changes: reschedule (move or resize), hand it to
            another clinician,
            change the room, status, location or notes. Room, location and notes sent as null are
            cleared.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AppointmentRead | ErrorResponse]
    """

    kwargs = _get_kwargs(
        appointment_id=appointment_id,
        body=body,
        if_match=if_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    appointment_id: UUID,
    *,
    client: AuthenticatedClient,
    body: AppointmentUpdate,
    if_match: None | str | Unset = UNSET,
) -> AppointmentRead | ErrorResponse | None:
    """Update Appointment

     Reschedule (drag: new `starts_at` and `ends_at`), hand it to another clinician, change
    the room, status, location or notes; only the fields sent change. Moving an appointment
    in time, to another clinician or room, or un-cancelling one, is checked for overlaps like
    a booking.

    Args:
        appointment_id (UUID):
        if_match (None | str | Unset): Change only if the record is still at this `ETag` (else 412
            `precondition_failed`); optional
        body (AppointmentUpdate): Send only what changes: reschedule (move or resize), hand it to
            another clinician,
            change the room, status, location or notes. Room, location and notes sent as null are
            cleared.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AppointmentRead | ErrorResponse
    """

    return (
        await asyncio_detailed(
            appointment_id=appointment_id,
            client=client,
            body=body,
            if_match=if_match,
        )
    ).parsed
