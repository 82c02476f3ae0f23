from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.appointment_series_create import AppointmentSeriesCreate
from ...models.appointment_series_read import AppointmentSeriesRead
from ...models.error_response import ErrorResponse
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: AppointmentSeriesCreate,
    idempotency_key: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/appointments/series",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AppointmentSeriesRead | ErrorResponse | None:
    if response.status_code == 201:
        response_201 = AppointmentSeriesRead.from_dict(response.json())

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
) -> Response[AppointmentSeriesRead | ErrorResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: AppointmentSeriesCreate,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[AppointmentSeriesRead | ErrorResponse]:
    """Book a recurring appointment: one appointment per occurrence, all or none

     As `POST /appointments`, repeated by `recurrence` (every N weeks at the same local
    time in the practice's time zone, until a date or `count` times, at most 100). Every
    occurrence is checked for overlaps; any conflict refuses the whole series with one 409
    whose `details.conflicts` name each conflicting appointment, what it shares and the
    `occurrence_starts_at` it clashes with.

    Args:
        idempotency_key (None | str | Unset): Retry this create safely: the same key and body
            within 24 hours answer with the first response (see docs/reference/api.md)
        body (AppointmentSeriesCreate): A recurring booking: the appointment as for `POST
            /appointments` (its times are the
            first occurrence's) and how it repeats. Each occurrence becomes an appointment of its
            own, sharing a `series_id`; all are booked or none.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AppointmentSeriesRead | ErrorResponse]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: AppointmentSeriesCreate,
    idempotency_key: None | str | Unset = UNSET,
) -> AppointmentSeriesRead | ErrorResponse | None:
    """Book a recurring appointment: one appointment per occurrence, all or none

     As `POST /appointments`, repeated by `recurrence` (every N weeks at the same local
    time in the practice's time zone, until a date or `count` times, at most 100). Every
    occurrence is checked for overlaps; any conflict refuses the whole series with one 409
    whose `details.conflicts` name each conflicting appointment, what it shares and the
    `occurrence_starts_at` it clashes with.

    Args:
        idempotency_key (None | str | Unset): Retry this create safely: the same key and body
            within 24 hours answer with the first response (see docs/reference/api.md)
        body (AppointmentSeriesCreate): A recurring booking: the appointment as for `POST
            /appointments` (its times are the
            first occurrence's) and how it repeats. Each occurrence becomes an appointment of its
            own, sharing a `series_id`; all are booked or none.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AppointmentSeriesRead | ErrorResponse
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: AppointmentSeriesCreate,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[AppointmentSeriesRead | ErrorResponse]:
    """Book a recurring appointment: one appointment per occurrence, all or none

     As `POST /appointments`, repeated by `recurrence` (every N weeks at the same local
    time in the practice's time zone, until a date or `count` times, at most 100). Every
    occurrence is checked for overlaps; any conflict refuses the whole series with one 409
    whose `details.conflicts` name each conflicting appointment, what it shares and the
    `occurrence_starts_at` it clashes with.

    Args:
        idempotency_key (None | str | Unset): Retry this create safely: the same key and body
            within 24 hours answer with the first response (see docs/reference/api.md)
        body (AppointmentSeriesCreate): A recurring booking: the appointment as for `POST
            /appointments` (its times are the
            first occurrence's) and how it repeats. Each occurrence becomes an appointment of its
            own, sharing a `series_id`; all are booked or none.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AppointmentSeriesRead | ErrorResponse]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: AppointmentSeriesCreate,
    idempotency_key: None | str | Unset = UNSET,
) -> AppointmentSeriesRead | ErrorResponse | None:
    """Book a recurring appointment: one appointment per occurrence, all or none

     As `POST /appointments`, repeated by `recurrence` (every N weeks at the same local
    time in the practice's time zone, until a date or `count` times, at most 100). Every
    occurrence is checked for overlaps; any conflict refuses the whole series with one 409
    whose `details.conflicts` name each conflicting appointment, what it shares and the
    `occurrence_starts_at` it clashes with.

    Args:
        idempotency_key (None | str | Unset): Retry this create safely: the same key and body
            within 24 hours answer with the first response (see docs/reference/api.md)
        body (AppointmentSeriesCreate): A recurring booking: the appointment as for `POST
            /appointments` (its times are the
            first occurrence's) and how it repeats. Each occurrence becomes an appointment of its
            own, sharing a `series_id`; all are booked or none.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AppointmentSeriesRead | ErrorResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
