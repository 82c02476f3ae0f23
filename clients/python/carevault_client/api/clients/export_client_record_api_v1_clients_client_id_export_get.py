from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_response import ErrorResponse
from ...models.export_client_record_api_v1_clients_client_id_export_get_format import (
    ExportClientRecordApiV1ClientsClientIdExportGetFormat,
)
from ...models.export_client_record_api_v1_clients_client_id_export_get_response_200 import (
    ExportClientRecordApiV1ClientsClientIdExportGetResponse200,
)
from ...types import UNSET, Response, Unset


def _get_kwargs(
    client_id: UUID,
    *,
    format_: ExportClientRecordApiV1ClientsClientIdExportGetFormat
    | Unset = ExportClientRecordApiV1ClientsClientIdExportGetFormat.PDF,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_format_: str | Unset = UNSET
    if not isinstance(format_, Unset):
        json_format_ = format_.value

    params["format"] = json_format_

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/clients/{client_id}/export".format(
            client_id=quote(str(client_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorResponse | ExportClientRecordApiV1ClientsClientIdExportGetResponse200 | None:
    if response.status_code == 200:
        response_200 = ExportClientRecordApiV1ClientsClientIdExportGetResponse200.from_dict(response.json())

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
) -> Response[ErrorResponse | ExportClientRecordApiV1ClientsClientIdExportGetResponse200]:
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
    format_: ExportClientRecordApiV1ClientsClientIdExportGetFormat
    | Unset = ExportClientRecordApiV1ClientsClientIdExportGetFormat.PDF,
) -> Response[ErrorResponse | ExportClientRecordApiV1ClientsClientIdExportGetResponse200]:
    """Export Client Record

     The client's whole record, for the client (HIPAA right of access): demographics,
    appointments, every note with each version it went through, amendments and signatures.
    Notes marked as psychotherapy notes are left out, and the export says how many. Chart
    access as for `GET /clients/{client_id}`; a token needs the clients, notes and
    appointments read scopes. Audited (`client.export`, `session.export`,
    `appointment.export`). The file is named by the client's id, never their name. With a
    read replica the record is read there (the audit events go to the primary).

    Args:
        client_id (UUID):
        format_ (ExportClientRecordApiV1ClientsClientIdExportGetFormat | Unset): pdf: a readable
            document; fhir: a FHIR R4 Bundle ($everything) Default:
            ExportClientRecordApiV1ClientsClientIdExportGetFormat.PDF.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | ExportClientRecordApiV1ClientsClientIdExportGetResponse200]
    """

    kwargs = _get_kwargs(
        client_id=client_id,
        format_=format_,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    client_id: UUID,
    *,
    client: AuthenticatedClient,
    format_: ExportClientRecordApiV1ClientsClientIdExportGetFormat
    | Unset = ExportClientRecordApiV1ClientsClientIdExportGetFormat.PDF,
) -> ErrorResponse | ExportClientRecordApiV1ClientsClientIdExportGetResponse200 | None:
    """Export Client Record

     The client's whole record, for the client (HIPAA right of access): demographics,
    appointments, every note with each version it went through, amendments and signatures.
    Notes marked as psychotherapy notes are left out, and the export says how many. Chart
    access as for `GET /clients/{client_id}`; a token needs the clients, notes and
    appointments read scopes. Audited (`client.export`, `session.export`,
    `appointment.export`). The file is named by the client's id, never their name. With a
    read replica the record is read there (the audit events go to the primary).

    Args:
        client_id (UUID):
        format_ (ExportClientRecordApiV1ClientsClientIdExportGetFormat | Unset): pdf: a readable
            document; fhir: a FHIR R4 Bundle ($everything) Default:
            ExportClientRecordApiV1ClientsClientIdExportGetFormat.PDF.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | ExportClientRecordApiV1ClientsClientIdExportGetResponse200
    """

    return sync_detailed(
        client_id=client_id,
        client=client,
        format_=format_,
    ).parsed


async def asyncio_detailed(
    client_id: UUID,
    *,
    client: AuthenticatedClient,
    format_: ExportClientRecordApiV1ClientsClientIdExportGetFormat
    | Unset = ExportClientRecordApiV1ClientsClientIdExportGetFormat.PDF,
) -> Response[ErrorResponse | ExportClientRecordApiV1ClientsClientIdExportGetResponse200]:
    """Export Client Record

     The client's whole record, for the client (HIPAA right of access): demographics,
    appointments, every note with each version it went through, amendments and signatures.
    Notes marked as psychotherapy notes are left out, and the export says how many. Chart
    access as for `GET /clients/{client_id}`; a token needs the clients, notes and
    appointments read scopes. Audited (`client.export`, `session.export`,
    `appointment.export`). The file is named by the client's id, never their name. With a
    read replica the record is read there (the audit events go to the primary).

    Args:
        client_id (UUID):
        format_ (ExportClientRecordApiV1ClientsClientIdExportGetFormat | Unset): pdf: a readable
            document; fhir: a FHIR R4 Bundle ($everything) Default:
            ExportClientRecordApiV1ClientsClientIdExportGetFormat.PDF.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | ExportClientRecordApiV1ClientsClientIdExportGetResponse200]
    """

    kwargs = _get_kwargs(
        client_id=client_id,
        format_=format_,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    client_id: UUID,
    *,
    client: AuthenticatedClient,
    format_: ExportClientRecordApiV1ClientsClientIdExportGetFormat
    | Unset = ExportClientRecordApiV1ClientsClientIdExportGetFormat.PDF,
) -> ErrorResponse | ExportClientRecordApiV1ClientsClientIdExportGetResponse200 | None:
    """Export Client Record

     The client's whole record, for the client (HIPAA right of access): demographics,
    appointments, every note with each version it went through, amendments and signatures.
    Notes marked as psychotherapy notes are left out, and the export says how many. Chart
    access as for `GET /clients/{client_id}`; a token needs the clients, notes and
    appointments read scopes. Audited (`client.export`, `session.export`,
    `appointment.export`). The file is named by the client's id, never their name. With a
    read replica the record is read there (the audit events go to the primary).

    Args:
        client_id (UUID):
        format_ (ExportClientRecordApiV1ClientsClientIdExportGetFormat | Unset): pdf: a readable
            document; fhir: a FHIR R4 Bundle ($everything) Default:
            ExportClientRecordApiV1ClientsClientIdExportGetFormat.PDF.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | ExportClientRecordApiV1ClientsClientIdExportGetResponse200
    """

    return (
        await asyncio_detailed(
            client_id=client_id,
            client=client,
            format_=format_,
        )
    ).parsed
