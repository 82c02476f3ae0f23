from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_response import ErrorResponse
from ...models.session_note_read import SessionNoteRead
from ...types import UNSET, Response, Unset


def _get_kwargs(
    note_id: UUID,
    *,
    if_match: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/sessions/{note_id}/restore".format(
            note_id=quote(str(note_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorResponse | SessionNoteRead | None:
    if response.status_code == 200:
        response_200 = SessionNoteRead.from_dict(response.json())

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorResponse | SessionNoteRead]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    note_id: UUID,
    *,
    client: AuthenticatedClient,
    if_match: None | str | Unset = UNSET,
) -> Response[ErrorResponse | SessionNoteRead]:
    """Restore Session Note

     Bring back a soft-deleted note.

    Args:
        note_id (UUID):
        if_match (None | str | Unset): Change only if the record is still at this `ETag` (else 412
            `precondition_failed`); optional

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | SessionNoteRead]
    """

    kwargs = _get_kwargs(
        note_id=note_id,
        if_match=if_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    note_id: UUID,
    *,
    client: AuthenticatedClient,
    if_match: None | str | Unset = UNSET,
) -> ErrorResponse | SessionNoteRead | None:
    """Restore Session Note

     Bring back a soft-deleted note.

    Args:
        note_id (UUID):
        if_match (None | str | Unset): Change only if the record is still at this `ETag` (else 412
            `precondition_failed`); optional

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | SessionNoteRead
    """

    return sync_detailed(
        note_id=note_id,
        client=client,
        if_match=if_match,
    ).parsed


async def asyncio_detailed(
    note_id: UUID,
    *,
    client: AuthenticatedClient,
    if_match: None | str | Unset = UNSET,
) -> Response[ErrorResponse | SessionNoteRead]:
    """Restore Session Note

     Bring back a soft-deleted note.

    Args:
        note_id (UUID):
        if_match (None | str | Unset): Change only if the record is still at this `ETag` (else 412
            `precondition_failed`); optional

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | SessionNoteRead]
    """

    kwargs = _get_kwargs(
        note_id=note_id,
        if_match=if_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    note_id: UUID,
    *,
    client: AuthenticatedClient,
    if_match: None | str | Unset = UNSET,
) -> ErrorResponse | SessionNoteRead | None:
    """Restore Session Note

     Bring back a soft-deleted note.

    Args:
        note_id (UUID):
        if_match (None | str | Unset): Change only if the record is still at this `ETag` (else 412
            `precondition_failed`); optional

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | SessionNoteRead
    """

    return (
        await asyncio_detailed(
            note_id=note_id,
            client=client,
            if_match=if_match,
        )
    ).parsed
