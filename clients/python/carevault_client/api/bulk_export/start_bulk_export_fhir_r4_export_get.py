from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_response import ErrorResponse
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    field_type_: None | str | Unset = UNSET,
    field_output_format: None | str | Unset = UNSET,
    prefer: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(prefer, Unset):
        headers["prefer"] = prefer

    params: dict[str, Any] = {}

    json_field_type_: None | str | Unset
    if isinstance(field_type_, Unset):
        json_field_type_ = UNSET
    else:
        json_field_type_ = field_type_
    params["_type"] = json_field_type_

    json_field_output_format: None | str | Unset
    if isinstance(field_output_format, Unset):
        json_field_output_format = UNSET
    else:
        json_field_output_format = field_output_format
    params["_outputFormat"] = json_field_output_format

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/fhir/R4/$export",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | ErrorResponse | None:
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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | ErrorResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    field_type_: None | str | Unset = UNSET,
    field_output_format: None | str | Unset = UNSET,
    prefer: None | str | Unset = UNSET,
) -> Response[Any | ErrorResponse]:
    """Start Bulk Export

     Owners: export the whole practice as NDJSON files per resource type (FHIR Bulk Data
    system-level export), to move to another system. Answers 202 with the status URL in
    `Content-Location`; poll it. One export per practice at a time. Psychotherapy notes are
    included, labelled (`meta.security` PSYTHPN). A token needs the clients, notes and
    appointments read scopes, and an owner's. Audited (`export.start`).

    Args:
        field_type_ (None | str | Unset): Comma-separated resource types; default: all
        field_output_format (None | str | Unset): application/fhir+ndjson
        prefer (None | str | Unset): Must be `respond-async`

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorResponse]
    """

    kwargs = _get_kwargs(
        field_type_=field_type_,
        field_output_format=field_output_format,
        prefer=prefer,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    field_type_: None | str | Unset = UNSET,
    field_output_format: None | str | Unset = UNSET,
    prefer: None | str | Unset = UNSET,
) -> Any | ErrorResponse | None:
    """Start Bulk Export

     Owners: export the whole practice as NDJSON files per resource type (FHIR Bulk Data
    system-level export), to move to another system. Answers 202 with the status URL in
    `Content-Location`; poll it. One export per practice at a time. Psychotherapy notes are
    included, labelled (`meta.security` PSYTHPN). A token needs the clients, notes and
    appointments read scopes, and an owner's. Audited (`export.start`).

    Args:
        field_type_ (None | str | Unset): Comma-separated resource types; default: all
        field_output_format (None | str | Unset): application/fhir+ndjson
        prefer (None | str | Unset): Must be `respond-async`

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorResponse
    """

    return sync_detailed(
        client=client,
        field_type_=field_type_,
        field_output_format=field_output_format,
        prefer=prefer,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    field_type_: None | str | Unset = UNSET,
    field_output_format: None | str | Unset = UNSET,
    prefer: None | str | Unset = UNSET,
) -> Response[Any | ErrorResponse]:
    """Start Bulk Export

     Owners: export the whole practice as NDJSON files per resource type (FHIR Bulk Data
    system-level export), to move to another system. Answers 202 with the status URL in
    `Content-Location`; poll it. One export per practice at a time. Psychotherapy notes are
    included, labelled (`meta.security` PSYTHPN). A token needs the clients, notes and
    appointments read scopes, and an owner's. Audited (`export.start`).

    Args:
        field_type_ (None | str | Unset): Comma-separated resource types; default: all
        field_output_format (None | str | Unset): application/fhir+ndjson
        prefer (None | str | Unset): Must be `respond-async`

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorResponse]
    """

    kwargs = _get_kwargs(
        field_type_=field_type_,
        field_output_format=field_output_format,
        prefer=prefer,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    field_type_: None | str | Unset = UNSET,
    field_output_format: None | str | Unset = UNSET,
    prefer: None | str | Unset = UNSET,
) -> Any | ErrorResponse | None:
    """Start Bulk Export

     Owners: export the whole practice as NDJSON files per resource type (FHIR Bulk Data
    system-level export), to move to another system. Answers 202 with the status URL in
    `Content-Location`; poll it. One export per practice at a time. Psychotherapy notes are
    included, labelled (`meta.security` PSYTHPN). A token needs the clients, notes and
    appointments read scopes, and an owner's. Audited (`export.start`).

    Args:
        field_type_ (None | str | Unset): Comma-separated resource types; default: all
        field_output_format (None | str | Unset): application/fhir+ndjson
        prefer (None | str | Unset): Must be `respond-async`

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            field_type_=field_type_,
            field_output_format=field_output_format,
            prefer=prefer,
        )
    ).parsed
