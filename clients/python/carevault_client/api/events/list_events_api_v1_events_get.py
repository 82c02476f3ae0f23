from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_response import ErrorResponse
from ...models.event_page import EventPage
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 100,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_after: None | str | Unset
    if isinstance(after, Unset):
        json_after = UNSET
    else:
        json_after = after
    params["after"] = json_after

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/events",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorResponse | EventPage | None:
    if response.status_code == 200:
        response_200 = EventPage.from_dict(response.json())

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
) -> Response[ErrorResponse | EventPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 100,
) -> Response[ErrorResponse | EventPage]:
    """List Events

     The practice's change feed: every change to a client, appointment, session note or
    user, oldest first, ids and types only (no PHI, so polls are not audited). Follow
    `next_cursor`; an event is never skipped or repeated. 422 `invalid_cursor` for a cursor
    this feed did not issue, 410 `cursor_expired` when events after it were past retention.
    Owners only (token scope `events:read`).

    Args:
        after (None | str | Unset): A `next_cursor` or event `id` as received; none: from the
            oldest kept
        limit (int | Unset): events per page Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | EventPage]
    """

    kwargs = _get_kwargs(
        after=after,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 100,
) -> ErrorResponse | EventPage | None:
    """List Events

     The practice's change feed: every change to a client, appointment, session note or
    user, oldest first, ids and types only (no PHI, so polls are not audited). Follow
    `next_cursor`; an event is never skipped or repeated. 422 `invalid_cursor` for a cursor
    this feed did not issue, 410 `cursor_expired` when events after it were past retention.
    Owners only (token scope `events:read`).

    Args:
        after (None | str | Unset): A `next_cursor` or event `id` as received; none: from the
            oldest kept
        limit (int | Unset): events per page Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | EventPage
    """

    return sync_detailed(
        client=client,
        after=after,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 100,
) -> Response[ErrorResponse | EventPage]:
    """List Events

     The practice's change feed: every change to a client, appointment, session note or
    user, oldest first, ids and types only (no PHI, so polls are not audited). Follow
    `next_cursor`; an event is never skipped or repeated. 422 `invalid_cursor` for a cursor
    this feed did not issue, 410 `cursor_expired` when events after it were past retention.
    Owners only (token scope `events:read`).

    Args:
        after (None | str | Unset): A `next_cursor` or event `id` as received; none: from the
            oldest kept
        limit (int | Unset): events per page Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | EventPage]
    """

    kwargs = _get_kwargs(
        after=after,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    after: None | str | Unset = UNSET,
    limit: int | Unset = 100,
) -> ErrorResponse | EventPage | None:
    """List Events

     The practice's change feed: every change to a client, appointment, session note or
    user, oldest first, ids and types only (no PHI, so polls are not audited). Follow
    `next_cursor`; an event is never skipped or repeated. 422 `invalid_cursor` for a cursor
    this feed did not issue, 410 `cursor_expired` when events after it were past retention.
    Owners only (token scope `events:read`).

    Args:
        after (None | str | Unset): A `next_cursor` or event `id` as received; none: from the
            oldest kept
        limit (int | Unset): events per page Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | EventPage
    """

    return (
        await asyncio_detailed(
            client=client,
            after=after,
            limit=limit,
        )
    ).parsed
