import datetime
from http import HTTPStatus
from typing import Any, Literal
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_response import ErrorResponse
from ...models.note_status import NoteStatus
from ...models.page_session_note_read import PageSessionNoteRead
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    client_id: None | Unset | UUID = UNSET,
    appointment_id: None | Unset | UUID = UNSET,
    include_deleted: bool | Unset = False,
    status: None | NoteStatus | Unset = UNSET,
    author_id: None | Unset | UUID = UNSET,
    external_id: None | str | Unset = UNSET,
    page: int | Unset = 1,
    page_size: int | Unset = 20,
    updated_since: datetime.datetime | None | Unset = UNSET,
    sort: Literal["updated_at"] | None | Unset = UNSET,
    after_id: None | Unset | UUID = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_client_id: None | str | Unset
    if isinstance(client_id, Unset):
        json_client_id = UNSET
    elif isinstance(client_id, UUID):
        json_client_id = str(client_id)
    else:
        json_client_id = client_id
    params["client_id"] = json_client_id

    json_appointment_id: None | str | Unset
    if isinstance(appointment_id, Unset):
        json_appointment_id = UNSET
    elif isinstance(appointment_id, UUID):
        json_appointment_id = str(appointment_id)
    else:
        json_appointment_id = appointment_id
    params["appointment_id"] = json_appointment_id

    params["include_deleted"] = include_deleted

    json_status: None | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    elif isinstance(status, NoteStatus):
        json_status = status.value
    else:
        json_status = status
    params["status"] = json_status

    json_author_id: None | str | Unset
    if isinstance(author_id, Unset):
        json_author_id = UNSET
    elif isinstance(author_id, UUID):
        json_author_id = str(author_id)
    else:
        json_author_id = author_id
    params["author_id"] = json_author_id

    json_external_id: None | str | Unset
    if isinstance(external_id, Unset):
        json_external_id = UNSET
    else:
        json_external_id = external_id
    params["external_id"] = json_external_id

    params["page"] = page

    params["page_size"] = page_size

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
        "url": "/api/v1/sessions",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorResponse | PageSessionNoteRead | None:
    if response.status_code == 200:
        response_200 = PageSessionNoteRead.from_dict(response.json())

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
) -> Response[ErrorResponse | PageSessionNoteRead]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    client_id: None | Unset | UUID = UNSET,
    appointment_id: None | Unset | UUID = UNSET,
    include_deleted: bool | Unset = False,
    status: None | NoteStatus | Unset = UNSET,
    author_id: None | Unset | UUID = UNSET,
    external_id: None | str | Unset = UNSET,
    page: int | Unset = 1,
    page_size: int | Unset = 20,
    updated_since: datetime.datetime | None | Unset = UNSET,
    sort: Literal["updated_at"] | None | Unset = UNSET,
    after_id: None | Unset | UUID = UNSET,
) -> Response[ErrorResponse | PageSessionNoteRead]:
    """List Session Notes

     Notes of your workspace, newest session first. To sync: `updated_since`,
    `sort=updated_at` and the keyset cursor `after_id` (docs/how-to/keep-in-sync.md); with
    `include_deleted=true` to see deletions.

    Args:
        client_id (None | Unset | UUID): Only this client's notes
        appointment_id (None | Unset | UUID): Only the note(s) of this appointment
        include_deleted (bool | Unset): Include soft-deleted notes Default: False.
        status (None | NoteStatus | Unset): Only drafts (unsigned) or only finalized (signed)
            notes
        author_id (None | Unset | UUID): Only this user's notes (your unsigned notes:
            `status=draft` and your id)
        external_id (None | str | Unset): Only the note with this external id of yours (exact)
        page (int | Unset): 1-based page number Default: 1.
        page_size (int | Unset): items per page Default: 20.
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
        Response[ErrorResponse | PageSessionNoteRead]
    """

    kwargs = _get_kwargs(
        client_id=client_id,
        appointment_id=appointment_id,
        include_deleted=include_deleted,
        status=status,
        author_id=author_id,
        external_id=external_id,
        page=page,
        page_size=page_size,
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
    client_id: None | Unset | UUID = UNSET,
    appointment_id: None | Unset | UUID = UNSET,
    include_deleted: bool | Unset = False,
    status: None | NoteStatus | Unset = UNSET,
    author_id: None | Unset | UUID = UNSET,
    external_id: None | str | Unset = UNSET,
    page: int | Unset = 1,
    page_size: int | Unset = 20,
    updated_since: datetime.datetime | None | Unset = UNSET,
    sort: Literal["updated_at"] | None | Unset = UNSET,
    after_id: None | Unset | UUID = UNSET,
) -> ErrorResponse | PageSessionNoteRead | None:
    """List Session Notes

     Notes of your workspace, newest session first. To sync: `updated_since`,
    `sort=updated_at` and the keyset cursor `after_id` (docs/how-to/keep-in-sync.md); with
    `include_deleted=true` to see deletions.

    Args:
        client_id (None | Unset | UUID): Only this client's notes
        appointment_id (None | Unset | UUID): Only the note(s) of this appointment
        include_deleted (bool | Unset): Include soft-deleted notes Default: False.
        status (None | NoteStatus | Unset): Only drafts (unsigned) or only finalized (signed)
            notes
        author_id (None | Unset | UUID): Only this user's notes (your unsigned notes:
            `status=draft` and your id)
        external_id (None | str | Unset): Only the note with this external id of yours (exact)
        page (int | Unset): 1-based page number Default: 1.
        page_size (int | Unset): items per page Default: 20.
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
        ErrorResponse | PageSessionNoteRead
    """

    return sync_detailed(
        client=client,
        client_id=client_id,
        appointment_id=appointment_id,
        include_deleted=include_deleted,
        status=status,
        author_id=author_id,
        external_id=external_id,
        page=page,
        page_size=page_size,
        updated_since=updated_since,
        sort=sort,
        after_id=after_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    client_id: None | Unset | UUID = UNSET,
    appointment_id: None | Unset | UUID = UNSET,
    include_deleted: bool | Unset = False,
    status: None | NoteStatus | Unset = UNSET,
    author_id: None | Unset | UUID = UNSET,
    external_id: None | str | Unset = UNSET,
    page: int | Unset = 1,
    page_size: int | Unset = 20,
    updated_since: datetime.datetime | None | Unset = UNSET,
    sort: Literal["updated_at"] | None | Unset = UNSET,
    after_id: None | Unset | UUID = UNSET,
) -> Response[ErrorResponse | PageSessionNoteRead]:
    """List Session Notes

     Notes of your workspace, newest session first. To sync: `updated_since`,
    `sort=updated_at` and the keyset cursor `after_id` (docs/how-to/keep-in-sync.md); with
    `include_deleted=true` to see deletions.

    Args:
        client_id (None | Unset | UUID): Only this client's notes
        appointment_id (None | Unset | UUID): Only the note(s) of this appointment
        include_deleted (bool | Unset): Include soft-deleted notes Default: False.
        status (None | NoteStatus | Unset): Only drafts (unsigned) or only finalized (signed)
            notes
        author_id (None | Unset | UUID): Only this user's notes (your unsigned notes:
            `status=draft` and your id)
        external_id (None | str | Unset): Only the note with this external id of yours (exact)
        page (int | Unset): 1-based page number Default: 1.
        page_size (int | Unset): items per page Default: 20.
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
        Response[ErrorResponse | PageSessionNoteRead]
    """

    kwargs = _get_kwargs(
        client_id=client_id,
        appointment_id=appointment_id,
        include_deleted=include_deleted,
        status=status,
        author_id=author_id,
        external_id=external_id,
        page=page,
        page_size=page_size,
        updated_since=updated_since,
        sort=sort,
        after_id=after_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    client_id: None | Unset | UUID = UNSET,
    appointment_id: None | Unset | UUID = UNSET,
    include_deleted: bool | Unset = False,
    status: None | NoteStatus | Unset = UNSET,
    author_id: None | Unset | UUID = UNSET,
    external_id: None | str | Unset = UNSET,
    page: int | Unset = 1,
    page_size: int | Unset = 20,
    updated_since: datetime.datetime | None | Unset = UNSET,
    sort: Literal["updated_at"] | None | Unset = UNSET,
    after_id: None | Unset | UUID = UNSET,
) -> ErrorResponse | PageSessionNoteRead | None:
    """List Session Notes

     Notes of your workspace, newest session first. To sync: `updated_since`,
    `sort=updated_at` and the keyset cursor `after_id` (docs/how-to/keep-in-sync.md); with
    `include_deleted=true` to see deletions.

    Args:
        client_id (None | Unset | UUID): Only this client's notes
        appointment_id (None | Unset | UUID): Only the note(s) of this appointment
        include_deleted (bool | Unset): Include soft-deleted notes Default: False.
        status (None | NoteStatus | Unset): Only drafts (unsigned) or only finalized (signed)
            notes
        author_id (None | Unset | UUID): Only this user's notes (your unsigned notes:
            `status=draft` and your id)
        external_id (None | str | Unset): Only the note with this external id of yours (exact)
        page (int | Unset): 1-based page number Default: 1.
        page_size (int | Unset): items per page Default: 20.
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
        ErrorResponse | PageSessionNoteRead
    """

    return (
        await asyncio_detailed(
            client=client,
            client_id=client_id,
            appointment_id=appointment_id,
            include_deleted=include_deleted,
            status=status,
            author_id=author_id,
            external_id=external_id,
            page=page,
            page_size=page_size,
            updated_since=updated_since,
            sort=sort,
            after_id=after_id,
        )
    ).parsed
