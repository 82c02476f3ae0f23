import datetime
from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_response import ErrorResponse
from ...models.page_access_log_entry import PageAccessLogEntry
from ...models.read_access_log_api_v1_clients_client_id_access_log_get_format_type_0 import (
    ReadAccessLogApiV1ClientsClientIdAccessLogGetFormatType0,
)
from ...models.read_access_log_api_v1_clients_client_id_access_log_get_kind_type_0 import (
    ReadAccessLogApiV1ClientsClientIdAccessLogGetKindType0,
)
from ...types import UNSET, Response, Unset


def _get_kwargs(
    client_id: UUID,
    *,
    since: datetime.datetime | None | Unset = UNSET,
    until: datetime.datetime | None | Unset = UNSET,
    kind: None | ReadAccessLogApiV1ClientsClientIdAccessLogGetKindType0 | Unset = UNSET,
    actor_user_id: None | Unset | UUID = UNSET,
    format_: None | ReadAccessLogApiV1ClientsClientIdAccessLogGetFormatType0 | Unset = UNSET,
    page: int | Unset = 1,
    page_size: int | Unset = 20,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_since: None | str | Unset
    if isinstance(since, Unset):
        json_since = UNSET
    elif isinstance(since, datetime.datetime):
        json_since = since.isoformat()
    else:
        json_since = since
    params["since"] = json_since

    json_until: None | str | Unset
    if isinstance(until, Unset):
        json_until = UNSET
    elif isinstance(until, datetime.datetime):
        json_until = until.isoformat()
    else:
        json_until = until
    params["until"] = json_until

    json_kind: None | str | Unset
    if isinstance(kind, Unset):
        json_kind = UNSET
    elif isinstance(kind, ReadAccessLogApiV1ClientsClientIdAccessLogGetKindType0):
        json_kind = kind.value
    else:
        json_kind = kind
    params["kind"] = json_kind

    json_actor_user_id: None | str | Unset
    if isinstance(actor_user_id, Unset):
        json_actor_user_id = UNSET
    elif isinstance(actor_user_id, UUID):
        json_actor_user_id = str(actor_user_id)
    else:
        json_actor_user_id = actor_user_id
    params["actor_user_id"] = json_actor_user_id

    json_format_: None | str | Unset
    if isinstance(format_, Unset):
        json_format_ = UNSET
    elif isinstance(format_, ReadAccessLogApiV1ClientsClientIdAccessLogGetFormatType0):
        json_format_ = format_.value
    else:
        json_format_ = format_
    params["format"] = json_format_

    params["page"] = page

    params["page_size"] = page_size

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/clients/{client_id}/access-log".format(
            client_id=quote(str(client_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorResponse | PageAccessLogEntry | None:
    if response.status_code == 200:
        response_200 = PageAccessLogEntry.from_dict(response.json())

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
) -> Response[ErrorResponse | PageAccessLogEntry]:
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
    since: datetime.datetime | None | Unset = UNSET,
    until: datetime.datetime | None | Unset = UNSET,
    kind: None | ReadAccessLogApiV1ClientsClientIdAccessLogGetKindType0 | Unset = UNSET,
    actor_user_id: None | Unset | UUID = UNSET,
    format_: None | ReadAccessLogApiV1ClientsClientIdAccessLogGetFormatType0 | Unset = UNSET,
    page: int | Unset = 1,
    page_size: int | Unset = 20,
) -> Response[ErrorResponse | PageAccessLogEntry]:
    """Read Access Log

     Owners: who saw or changed this client's records (the client, their notes and
    appointments), newest first: who (name and role, or token name), what (`kind`), when,
    from where (`via`, address). Filter by time (`since` after `until` is a 422), kind and
    user. `?format=csv` or `Accept: text/csv` exports every matching event (up to 50,000; no
    paging) as CSV, cells neutralised against spreadsheet formulas. Each read is audited
    (`client.access_log`) and shows in the history.

    Args:
        client_id (UUID):
        since (datetime.datetime | None | Unset): Inclusive, ISO 8601
        until (datetime.datetime | None | Unset): Exclusive, ISO 8601
        kind (None | ReadAccessLogApiV1ClientsClientIdAccessLogGetKindType0 | Unset): Only this
            kind
        actor_user_id (None | Unset | UUID): Only this user
        format_ (None | ReadAccessLogApiV1ClientsClientIdAccessLogGetFormatType0 | Unset): csv:
            the whole filtered history as a file (so does Accept: text/csv)
        page (int | Unset): 1-based page number Default: 1.
        page_size (int | Unset): items per page Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | PageAccessLogEntry]
    """

    kwargs = _get_kwargs(
        client_id=client_id,
        since=since,
        until=until,
        kind=kind,
        actor_user_id=actor_user_id,
        format_=format_,
        page=page,
        page_size=page_size,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    client_id: UUID,
    *,
    client: AuthenticatedClient,
    since: datetime.datetime | None | Unset = UNSET,
    until: datetime.datetime | None | Unset = UNSET,
    kind: None | ReadAccessLogApiV1ClientsClientIdAccessLogGetKindType0 | Unset = UNSET,
    actor_user_id: None | Unset | UUID = UNSET,
    format_: None | ReadAccessLogApiV1ClientsClientIdAccessLogGetFormatType0 | Unset = UNSET,
    page: int | Unset = 1,
    page_size: int | Unset = 20,
) -> ErrorResponse | PageAccessLogEntry | None:
    """Read Access Log

     Owners: who saw or changed this client's records (the client, their notes and
    appointments), newest first: who (name and role, or token name), what (`kind`), when,
    from where (`via`, address). Filter by time (`since` after `until` is a 422), kind and
    user. `?format=csv` or `Accept: text/csv` exports every matching event (up to 50,000; no
    paging) as CSV, cells neutralised against spreadsheet formulas. Each read is audited
    (`client.access_log`) and shows in the history.

    Args:
        client_id (UUID):
        since (datetime.datetime | None | Unset): Inclusive, ISO 8601
        until (datetime.datetime | None | Unset): Exclusive, ISO 8601
        kind (None | ReadAccessLogApiV1ClientsClientIdAccessLogGetKindType0 | Unset): Only this
            kind
        actor_user_id (None | Unset | UUID): Only this user
        format_ (None | ReadAccessLogApiV1ClientsClientIdAccessLogGetFormatType0 | Unset): csv:
            the whole filtered history as a file (so does Accept: text/csv)
        page (int | Unset): 1-based page number Default: 1.
        page_size (int | Unset): items per page Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | PageAccessLogEntry
    """

    return sync_detailed(
        client_id=client_id,
        client=client,
        since=since,
        until=until,
        kind=kind,
        actor_user_id=actor_user_id,
        format_=format_,
        page=page,
        page_size=page_size,
    ).parsed


async def asyncio_detailed(
    client_id: UUID,
    *,
    client: AuthenticatedClient,
    since: datetime.datetime | None | Unset = UNSET,
    until: datetime.datetime | None | Unset = UNSET,
    kind: None | ReadAccessLogApiV1ClientsClientIdAccessLogGetKindType0 | Unset = UNSET,
    actor_user_id: None | Unset | UUID = UNSET,
    format_: None | ReadAccessLogApiV1ClientsClientIdAccessLogGetFormatType0 | Unset = UNSET,
    page: int | Unset = 1,
    page_size: int | Unset = 20,
) -> Response[ErrorResponse | PageAccessLogEntry]:
    """Read Access Log

     Owners: who saw or changed this client's records (the client, their notes and
    appointments), newest first: who (name and role, or token name), what (`kind`), when,
    from where (`via`, address). Filter by time (`since` after `until` is a 422), kind and
    user. `?format=csv` or `Accept: text/csv` exports every matching event (up to 50,000; no
    paging) as CSV, cells neutralised against spreadsheet formulas. Each read is audited
    (`client.access_log`) and shows in the history.

    Args:
        client_id (UUID):
        since (datetime.datetime | None | Unset): Inclusive, ISO 8601
        until (datetime.datetime | None | Unset): Exclusive, ISO 8601
        kind (None | ReadAccessLogApiV1ClientsClientIdAccessLogGetKindType0 | Unset): Only this
            kind
        actor_user_id (None | Unset | UUID): Only this user
        format_ (None | ReadAccessLogApiV1ClientsClientIdAccessLogGetFormatType0 | Unset): csv:
            the whole filtered history as a file (so does Accept: text/csv)
        page (int | Unset): 1-based page number Default: 1.
        page_size (int | Unset): items per page Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | PageAccessLogEntry]
    """

    kwargs = _get_kwargs(
        client_id=client_id,
        since=since,
        until=until,
        kind=kind,
        actor_user_id=actor_user_id,
        format_=format_,
        page=page,
        page_size=page_size,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    client_id: UUID,
    *,
    client: AuthenticatedClient,
    since: datetime.datetime | None | Unset = UNSET,
    until: datetime.datetime | None | Unset = UNSET,
    kind: None | ReadAccessLogApiV1ClientsClientIdAccessLogGetKindType0 | Unset = UNSET,
    actor_user_id: None | Unset | UUID = UNSET,
    format_: None | ReadAccessLogApiV1ClientsClientIdAccessLogGetFormatType0 | Unset = UNSET,
    page: int | Unset = 1,
    page_size: int | Unset = 20,
) -> ErrorResponse | PageAccessLogEntry | None:
    """Read Access Log

     Owners: who saw or changed this client's records (the client, their notes and
    appointments), newest first: who (name and role, or token name), what (`kind`), when,
    from where (`via`, address). Filter by time (`since` after `until` is a 422), kind and
    user. `?format=csv` or `Accept: text/csv` exports every matching event (up to 50,000; no
    paging) as CSV, cells neutralised against spreadsheet formulas. Each read is audited
    (`client.access_log`) and shows in the history.

    Args:
        client_id (UUID):
        since (datetime.datetime | None | Unset): Inclusive, ISO 8601
        until (datetime.datetime | None | Unset): Exclusive, ISO 8601
        kind (None | ReadAccessLogApiV1ClientsClientIdAccessLogGetKindType0 | Unset): Only this
            kind
        actor_user_id (None | Unset | UUID): Only this user
        format_ (None | ReadAccessLogApiV1ClientsClientIdAccessLogGetFormatType0 | Unset): csv:
            the whole filtered history as a file (so does Accept: text/csv)
        page (int | Unset): 1-based page number Default: 1.
        page_size (int | Unset): items per page Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | PageAccessLogEntry
    """

    return (
        await asyncio_detailed(
            client_id=client_id,
            client=client,
            since=since,
            until=until,
            kind=kind,
            actor_user_id=actor_user_id,
            format_=format_,
            page=page,
            page_size=page_size,
        )
    ).parsed
