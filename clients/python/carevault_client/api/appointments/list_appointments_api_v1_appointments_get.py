import datetime
from http import HTTPStatus
from typing import Any, Literal
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.appointment_read import AppointmentRead
from ...models.error_response import ErrorResponse
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    start: datetime.datetime | None | Unset = UNSET,
    end: datetime.datetime | None | Unset = UNSET,
    clinician_id: list[UUID] | None | Unset = UNSET,
    client_id: None | Unset | UUID = UNSET,
    limit: int | None | Unset = UNSET,
    external_id: None | str | Unset = UNSET,
    updated_since: datetime.datetime | None | Unset = UNSET,
    sort: Literal["updated_at"] | None | Unset = UNSET,
    after_id: None | Unset | UUID = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_start: None | str | Unset
    if isinstance(start, Unset):
        json_start = UNSET
    elif isinstance(start, datetime.datetime):
        json_start = start.isoformat()
    else:
        json_start = start
    params["start"] = json_start

    json_end: None | str | Unset
    if isinstance(end, Unset):
        json_end = UNSET
    elif isinstance(end, datetime.datetime):
        json_end = end.isoformat()
    else:
        json_end = end
    params["end"] = json_end

    json_clinician_id: list[str] | None | Unset
    if isinstance(clinician_id, Unset):
        json_clinician_id = UNSET
    elif isinstance(clinician_id, list):
        json_clinician_id = []
        for clinician_id_type_0_item_data in clinician_id:
            clinician_id_type_0_item = str(clinician_id_type_0_item_data)
            json_clinician_id.append(clinician_id_type_0_item)

    else:
        json_clinician_id = clinician_id
    params["clinician_id"] = json_clinician_id

    json_client_id: None | str | Unset
    if isinstance(client_id, Unset):
        json_client_id = UNSET
    elif isinstance(client_id, UUID):
        json_client_id = str(client_id)
    else:
        json_client_id = client_id
    params["client_id"] = json_client_id

    json_limit: int | None | Unset
    if isinstance(limit, Unset):
        json_limit = UNSET
    else:
        json_limit = limit
    params["limit"] = json_limit

    json_external_id: None | str | Unset
    if isinstance(external_id, Unset):
        json_external_id = UNSET
    else:
        json_external_id = external_id
    params["external_id"] = json_external_id

    json_updated_since: None | str | Unset
    if isinstance(updated_since, Unset):
        json_updated_since = UNSET
    elif isinstance(updated_since, datetime.datetime):
        json_updated_since = updated_since.isoformat()
    else:
        json_updated_since = updated_since
    params["updated_since"] = json_updated_since

    json_sort: Literal["updated_at"] | None | Unset
    if isinstance(sort, Unset):
        json_sort = UNSET
    else:
        json_sort = sort
    params["sort"] = json_sort

    json_after_id: None | str | Unset
    if isinstance(after_id, Unset):
        json_after_id = UNSET
    elif isinstance(after_id, UUID):
        json_after_id = str(after_id)
    else:
        json_after_id = after_id
    params["after_id"] = json_after_id

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/appointments",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorResponse | list[AppointmentRead] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in _response_200:
            response_200_item = AppointmentRead.from_dict(response_200_item_data)

            response_200.append(response_200_item)

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
) -> Response[ErrorResponse | list[AppointmentRead]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    start: datetime.datetime | None | Unset = UNSET,
    end: datetime.datetime | None | Unset = UNSET,
    clinician_id: list[UUID] | None | Unset = UNSET,
    client_id: None | Unset | UUID = UNSET,
    limit: int | None | Unset = UNSET,
    external_id: None | str | Unset = UNSET,
    updated_since: datetime.datetime | None | Unset = UNSET,
    sort: Literal["updated_at"] | None | Unset = UNSET,
    after_id: None | Unset | UUID = UNSET,
) -> Response[ErrorResponse | list[AppointmentRead]]:
    """The calendar: every appointment overlapping [start, end), as a plain list

     Ordered by start time, cancelled ones included. Not paginated: the range is at most
    62 days, so the whole range comes in one response. Each appointment carries its
    clinician's display name and its client's names (`client`; null for an API token
    without `clients:read`), so no client list is needed to draw the calendar.

    To sync (docs/how-to/keep-in-sync.md): `updated_since` and/or `sort=updated_at`
    instead of `start` and `end`: appointments of any date changed since then, at most
    `limit`; the next page is `updated_since` = the last item's `updated_at` and `after_id` =
    its `id`. Deletions are only in the change feed (GET /events).

    Args:
        start (datetime.datetime | None | Unset): Inclusive, ISO 8601 with a UTC offset (required
            unless syncing by `updated_since` or `sort=updated_at`)
        end (datetime.datetime | None | Unset): Exclusive; after start and at most 62 days later
            (required with `start`)
        clinician_id (list[UUID] | None | Unset): Only these clinicians' appointments; repeat for
            several (side-by-side calendars)
        client_id (None | Unset | UUID): Only this client's
        limit (int | None | Unset): Syncing only: at most this many (default 100)
        external_id (None | str | Unset): Only the appointment with this external id of yours
            (exact)
        updated_since (datetime.datetime | None | Unset): Only records updated at or after this
            time (ISO 8601 with a UTC offset, microseconds kept)
        sort (Literal['updated_at'] | None | Unset): `updated_at`: by (updated_at, id), oldest
            first; omitted: the list's usual order
        after_id (None | Unset | UUID): With `sort=updated_at` and `updated_since`: the keyset
            cursor. Send the last item's `updated_at` as `updated_since` and its `id` as `after_id` to
            read what follows, stable while records change

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | list[AppointmentRead]]
    """

    kwargs = _get_kwargs(
        start=start,
        end=end,
        clinician_id=clinician_id,
        client_id=client_id,
        limit=limit,
        external_id=external_id,
        updated_since=updated_since,
        sort=sort,
        after_id=after_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    start: datetime.datetime | None | Unset = UNSET,
    end: datetime.datetime | None | Unset = UNSET,
    clinician_id: list[UUID] | None | Unset = UNSET,
    client_id: None | Unset | UUID = UNSET,
    limit: int | None | Unset = UNSET,
    external_id: None | str | Unset = UNSET,
    updated_since: datetime.datetime | None | Unset = UNSET,
    sort: Literal["updated_at"] | None | Unset = UNSET,
    after_id: None | Unset | UUID = UNSET,
) -> ErrorResponse | list[AppointmentRead] | None:
    """The calendar: every appointment overlapping [start, end), as a plain list

     Ordered by start time, cancelled ones included. Not paginated: the range is at most
    62 days, so the whole range comes in one response. Each appointment carries its
    clinician's display name and its client's names (`client`; null for an API token
    without `clients:read`), so no client list is needed to draw the calendar.

    To sync (docs/how-to/keep-in-sync.md): `updated_since` and/or `sort=updated_at`
    instead of `start` and `end`: appointments of any date changed since then, at most
    `limit`; the next page is `updated_since` = the last item's `updated_at` and `after_id` =
    its `id`. Deletions are only in the change feed (GET /events).

    Args:
        start (datetime.datetime | None | Unset): Inclusive, ISO 8601 with a UTC offset (required
            unless syncing by `updated_since` or `sort=updated_at`)
        end (datetime.datetime | None | Unset): Exclusive; after start and at most 62 days later
            (required with `start`)
        clinician_id (list[UUID] | None | Unset): Only these clinicians' appointments; repeat for
            several (side-by-side calendars)
        client_id (None | Unset | UUID): Only this client's
        limit (int | None | Unset): Syncing only: at most this many (default 100)
        external_id (None | str | Unset): Only the appointment with this external id of yours
            (exact)
        updated_since (datetime.datetime | None | Unset): Only records updated at or after this
            time (ISO 8601 with a UTC offset, microseconds kept)
        sort (Literal['updated_at'] | None | Unset): `updated_at`: by (updated_at, id), oldest
            first; omitted: the list's usual order
        after_id (None | Unset | UUID): With `sort=updated_at` and `updated_since`: the keyset
            cursor. Send the last item's `updated_at` as `updated_since` and its `id` as `after_id` to
            read what follows, stable while records change

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | list[AppointmentRead]
    """

    return sync_detailed(
        client=client,
        start=start,
        end=end,
        clinician_id=clinician_id,
        client_id=client_id,
        limit=limit,
        external_id=external_id,
        updated_since=updated_since,
        sort=sort,
        after_id=after_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    start: datetime.datetime | None | Unset = UNSET,
    end: datetime.datetime | None | Unset = UNSET,
    clinician_id: list[UUID] | None | Unset = UNSET,
    client_id: None | Unset | UUID = UNSET,
    limit: int | None | Unset = UNSET,
    external_id: None | str | Unset = UNSET,
    updated_since: datetime.datetime | None | Unset = UNSET,
    sort: Literal["updated_at"] | None | Unset = UNSET,
    after_id: None | Unset | UUID = UNSET,
) -> Response[ErrorResponse | list[AppointmentRead]]:
    """The calendar: every appointment overlapping [start, end), as a plain list

     Ordered by start time, cancelled ones included. Not paginated: the range is at most
    62 days, so the whole range comes in one response. Each appointment carries its
    clinician's display name and its client's names (`client`; null for an API token
    without `clients:read`), so no client list is needed to draw the calendar.

    To sync (docs/how-to/keep-in-sync.md): `updated_since` and/or `sort=updated_at`
    instead of `start` and `end`: appointments of any date changed since then, at most
    `limit`; the next page is `updated_since` = the last item's `updated_at` and `after_id` =
    its `id`. Deletions are only in the change feed (GET /events).

    Args:
        start (datetime.datetime | None | Unset): Inclusive, ISO 8601 with a UTC offset (required
            unless syncing by `updated_since` or `sort=updated_at`)
        end (datetime.datetime | None | Unset): Exclusive; after start and at most 62 days later
            (required with `start`)
        clinician_id (list[UUID] | None | Unset): Only these clinicians' appointments; repeat for
            several (side-by-side calendars)
        client_id (None | Unset | UUID): Only this client's
        limit (int | None | Unset): Syncing only: at most this many (default 100)
        external_id (None | str | Unset): Only the appointment with this external id of yours
            (exact)
        updated_since (datetime.datetime | None | Unset): Only records updated at or after this
            time (ISO 8601 with a UTC offset, microseconds kept)
        sort (Literal['updated_at'] | None | Unset): `updated_at`: by (updated_at, id), oldest
            first; omitted: the list's usual order
        after_id (None | Unset | UUID): With `sort=updated_at` and `updated_since`: the keyset
            cursor. Send the last item's `updated_at` as `updated_since` and its `id` as `after_id` to
            read what follows, stable while records change

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | list[AppointmentRead]]
    """

    kwargs = _get_kwargs(
        start=start,
        end=end,
        clinician_id=clinician_id,
        client_id=client_id,
        limit=limit,
        external_id=external_id,
        updated_since=updated_since,
        sort=sort,
        after_id=after_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    start: datetime.datetime | None | Unset = UNSET,
    end: datetime.datetime | None | Unset = UNSET,
    clinician_id: list[UUID] | None | Unset = UNSET,
    client_id: None | Unset | UUID = UNSET,
    limit: int | None | Unset = UNSET,
    external_id: None | str | Unset = UNSET,
    updated_since: datetime.datetime | None | Unset = UNSET,
    sort: Literal["updated_at"] | None | Unset = UNSET,
    after_id: None | Unset | UUID = UNSET,
) -> ErrorResponse | list[AppointmentRead] | None:
    """The calendar: every appointment overlapping [start, end), as a plain list

     Ordered by start time, cancelled ones included. Not paginated: the range is at most
    62 days, so the whole range comes in one response. Each appointment carries its
    clinician's display name and its client's names (`client`; null for an API token
    without `clients:read`), so no client list is needed to draw the calendar.

    To sync (docs/how-to/keep-in-sync.md): `updated_since` and/or `sort=updated_at`
    instead of `start` and `end`: appointments of any date changed since then, at most
    `limit`; the next page is `updated_since` = the last item's `updated_at` and `after_id` =
    its `id`. Deletions are only in the change feed (GET /events).

    Args:
        start (datetime.datetime | None | Unset): Inclusive, ISO 8601 with a UTC offset (required
            unless syncing by `updated_since` or `sort=updated_at`)
        end (datetime.datetime | None | Unset): Exclusive; after start and at most 62 days later
            (required with `start`)
        clinician_id (list[UUID] | None | Unset): Only these clinicians' appointments; repeat for
            several (side-by-side calendars)
        client_id (None | Unset | UUID): Only this client's
        limit (int | None | Unset): Syncing only: at most this many (default 100)
        external_id (None | str | Unset): Only the appointment with this external id of yours
            (exact)
        updated_since (datetime.datetime | None | Unset): Only records updated at or after this
            time (ISO 8601 with a UTC offset, microseconds kept)
        sort (Literal['updated_at'] | None | Unset): `updated_at`: by (updated_at, id), oldest
            first; omitted: the list's usual order
        after_id (None | Unset | UUID): With `sort=updated_at` and `updated_since`: the keyset
            cursor. Send the last item's `updated_at` as `updated_since` and its `id` as `after_id` to
            read what follows, stable while records change

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | list[AppointmentRead]
    """

    return (
        await asyncio_detailed(
            client=client,
            start=start,
            end=end,
            clinician_id=clinician_id,
            client_id=client_id,
            limit=limit,
            external_id=external_id,
            updated_since=updated_since,
            sort=sort,
            after_id=after_id,
        )
    ).parsed
