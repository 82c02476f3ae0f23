from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_response import ErrorResponse
from ...types import Response


def _get_kwargs(
    job_id: UUID,
    resource_type: str,
    part: int,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/fhir/R4/$export-file/{job_id}/{resource_type}/{part}".format(
            job_id=quote(str(job_id), safe=""),
            resource_type=quote(str(resource_type), safe=""),
            part=quote(str(part), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorResponse | None:
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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    job_id: UUID,
    resource_type: str,
    part: int,
    *,
    client: AuthenticatedClient,
) -> Response[ErrorResponse]:
    """Download Bulk Export File

     A file of a completed export, streamed (opened chunk by chunk from its sealed form).
    Audited per download (`export.download`, with the type and the record count).

    Args:
        job_id (UUID):
        resource_type (str):
        part (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse]
    """

    kwargs = _get_kwargs(
        job_id=job_id,
        resource_type=resource_type,
        part=part,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    job_id: UUID,
    resource_type: str,
    part: int,
    *,
    client: AuthenticatedClient,
) -> ErrorResponse | None:
    """Download Bulk Export File

     A file of a completed export, streamed (opened chunk by chunk from its sealed form).
    Audited per download (`export.download`, with the type and the record count).

    Args:
        job_id (UUID):
        resource_type (str):
        part (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse
    """

    return sync_detailed(
        job_id=job_id,
        resource_type=resource_type,
        part=part,
        client=client,
    ).parsed


async def asyncio_detailed(
    job_id: UUID,
    resource_type: str,
    part: int,
    *,
    client: AuthenticatedClient,
) -> Response[ErrorResponse]:
    """Download Bulk Export File

     A file of a completed export, streamed (opened chunk by chunk from its sealed form).
    Audited per download (`export.download`, with the type and the record count).

    Args:
        job_id (UUID):
        resource_type (str):
        part (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse]
    """

    kwargs = _get_kwargs(
        job_id=job_id,
        resource_type=resource_type,
        part=part,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    job_id: UUID,
    resource_type: str,
    part: int,
    *,
    client: AuthenticatedClient,
) -> ErrorResponse | None:
    """Download Bulk Export File

     A file of a completed export, streamed (opened chunk by chunk from its sealed form).
    Audited per download (`export.download`, with the type and the record count).

    Args:
        job_id (UUID):
        resource_type (str):
        part (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse
    """

    return (
        await asyncio_detailed(
            job_id=job_id,
            resource_type=resource_type,
            part=part,
            client=client,
        )
    ).parsed
