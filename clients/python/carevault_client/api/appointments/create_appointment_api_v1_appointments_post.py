from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.appointment_create import AppointmentCreate
from ...models.appointment_read import AppointmentRead
from ...models.error_response import ErrorResponse
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: AppointmentCreate,
    idempotency_key: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/appointments",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AppointmentRead | ErrorResponse | None:
    if response.status_code == 201:
        response_201 = AppointmentRead.from_dict(response.json())

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
) -> Response[AppointmentRead | ErrorResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: AppointmentCreate,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[AppointmentRead | ErrorResponse]:
    """Create Appointment

     Book a client of your workspace (404 for any other client; 422 `client_archived` for
    an archived one) on a clinician's calendar: `clinician_id`, an active user of your
    workspace (422 `invalid_clinician` otherwise), or you when omitted. An overlap with an
    appointment that is not cancelled and has the same clinician, the same client or the
    same room is 409 `appointment_conflict` with `details.conflicting_ids` and, per conflict,
    what it shares (`details.conflicts[].shares`), unless `allow_overlap` is true.

    Args:
        idempotency_key (None | str | Unset): Retry this create safely: the same key and body
            within 24 hours answer with the first response (see docs/reference/api.md)
        body (AppointmentCreate): A new calendar entry for a client of your workspace. Times need
            a UTC offset.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AppointmentRead | ErrorResponse]
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
    body: AppointmentCreate,
    idempotency_key: None | str | Unset = UNSET,
) -> AppointmentRead | ErrorResponse | None:
    """Create Appointment

     Book a client of your workspace (404 for any other client; 422 `client_archived` for
    an archived one) on a clinician's calendar: `clinician_id`, an active user of your
    workspace (422 `invalid_clinician` otherwise), or you when omitted. An overlap with an
    appointment that is not cancelled and has the same clinician, the same client or the
    same room is 409 `appointment_conflict` with `details.conflicting_ids` and, per conflict,
    what it shares (`details.conflicts[].shares`), unless `allow_overlap` is true.

    Args:
        idempotency_key (None | str | Unset): Retry this create safely: the same key and body
            within 24 hours answer with the first response (see docs/reference/api.md)
        body (AppointmentCreate): A new calendar entry for a client of your workspace. Times need
            a UTC offset.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AppointmentRead | ErrorResponse
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: AppointmentCreate,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[AppointmentRead | ErrorResponse]:
    """Create Appointment

     Book a client of your workspace (404 for any other client; 422 `client_archived` for
    an archived one) on a clinician's calendar: `clinician_id`, an active user of your
    workspace (422 `invalid_clinician` otherwise), or you when omitted. An overlap with an
    appointment that is not cancelled and has the same clinician, the same client or the
    same room is 409 `appointment_conflict` with `details.conflicting_ids` and, per conflict,
    what it shares (`details.conflicts[].shares`), unless `allow_overlap` is true.

    Args:
        idempotency_key (None | str | Unset): Retry this create safely: the same key and body
            within 24 hours answer with the first response (see docs/reference/api.md)
        body (AppointmentCreate): A new calendar entry for a client of your workspace. Times need
            a UTC offset.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AppointmentRead | ErrorResponse]
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
    body: AppointmentCreate,
    idempotency_key: None | str | Unset = UNSET,
) -> AppointmentRead | ErrorResponse | None:
    """Create Appointment

     Book a client of your workspace (404 for any other client; 422 `client_archived` for
    an archived one) on a clinician's calendar: `clinician_id`, an active user of your
    workspace (422 `invalid_clinician` otherwise), or you when omitted. An overlap with an
    appointment that is not cancelled and has the same clinician, the same client or the
    same room is 409 `appointment_conflict` with `details.conflicting_ids` and, per conflict,
    what it shares (`details.conflicts[].shares`), unless `allow_overlap` is true.

    Args:
        idempotency_key (None | str | Unset): Retry this create safely: the same key and body
            within 24 hours answer with the first response (see docs/reference/api.md)
        body (AppointmentCreate): A new calendar entry for a client of your workspace. Times need
            a UTC offset.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AppointmentRead | ErrorResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
