from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_response import ErrorResponse
from ...models.read_bulk_export_status_fhir_r4_export_status_job_id_get_response_200 import (
    ReadBulkExportStatusFhirR4ExportStatusJobIdGetResponse200,
)
from ...types import Response


def _get_kwargs(
    job_id: UUID,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/fhir/R4/$export-status/{job_id}".format(
            job_id=quote(str(job_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | ErrorResponse | ReadBulkExportStatusFhirR4ExportStatusJobIdGetResponse200 | None:
    if response.status_code == 200:
        response_200 = ReadBulkExportStatusFhirR4ExportStatusJobIdGetResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 202:
        response_202 = cast(Any, None)
        return response_202

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
) -> Response[Any | ErrorResponse | ReadBulkExportStatusFhirR4ExportStatusJobIdGetResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    job_id: UUID,
    *,
    client: AuthenticatedClient,
) -> Response[Any | ErrorResponse | ReadBulkExportStatusFhirR4ExportStatusJobIdGetResponse200]:
    """Read Bulk Export Status

     202 with `X-Progress` (records written per type) and `Retry-After` while it runs;
    200 with the manifest (one URL per file, with its record count) when complete. A job
    whose worker stopped (a restart) is resumed by this poll, after its last finished file.

    Args:
        job_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorResponse | ReadBulkExportStatusFhirR4ExportStatusJobIdGetResponse200]
    """

    kwargs = _get_kwargs(
        job_id=job_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    job_id: UUID,
    *,
    client: AuthenticatedClient,
) -> Any | ErrorResponse | ReadBulkExportStatusFhirR4ExportStatusJobIdGetResponse200 | None:
    """Read Bulk Export Status

     202 with `X-Progress` (records written per type) and `Retry-After` while it runs;
    200 with the manifest (one URL per file, with its record count) when complete. A job
    whose worker stopped (a restart) is resumed by this poll, after its last finished file.

    Args:
        job_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorResponse | ReadBulkExportStatusFhirR4ExportStatusJobIdGetResponse200
    """

    return sync_detailed(
        job_id=job_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    job_id: UUID,
    *,
    client: AuthenticatedClient,
) -> Response[Any | ErrorResponse | ReadBulkExportStatusFhirR4ExportStatusJobIdGetResponse200]:
    """Read Bulk Export Status

     202 with `X-Progress` (records written per type) and `Retry-After` while it runs;
    200 with the manifest (one URL per file, with its record count) when complete. A job
    whose worker stopped (a restart) is resumed by this poll, after its last finished file.

    Args:
        job_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorResponse | ReadBulkExportStatusFhirR4ExportStatusJobIdGetResponse200]
    """

    kwargs = _get_kwargs(
        job_id=job_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    job_id: UUID,
    *,
    client: AuthenticatedClient,
) -> Any | ErrorResponse | ReadBulkExportStatusFhirR4ExportStatusJobIdGetResponse200 | None:
    """Read Bulk Export Status

     202 with `X-Progress` (records written per type) and `Retry-After` while it runs;
    200 with the manifest (one URL per file, with its record count) when complete. A job
    whose worker stopped (a restart) is resumed by this poll, after its last finished file.

    Args:
        job_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorResponse | ReadBulkExportStatusFhirR4ExportStatusJobIdGetResponse200
    """

    return (
        await asyncio_detailed(
            job_id=job_id,
            client=client,
        )
    ).parsed
