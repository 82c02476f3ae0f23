from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_response import ErrorResponse
from ...models.practice_key_read import PracticeKeyRead
from ...models.practice_key_update import PracticeKeyUpdate
from ...types import Response


def _get_kwargs(
    *,
    body: PracticeKeyUpdate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/api/v1/workspace/encryption-key",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorResponse | PracticeKeyRead | None:
    if response.status_code == 200:
        response_200 = PracticeKeyRead.from_dict(response.json())

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
) -> Response[ErrorResponse | PracticeKeyRead]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PracticeKeyUpdate,
) -> Response[ErrorResponse | PracticeKeyRead]:
    """Set Practice Key Route

     Owners (after entering their password again): move the practice onto its own AWS
    KMS key (bring your own key), or back to the installation's (`null`). The practice's
    data keys are re-wrapped by KMS; no value is re-encrypted. Disabling the key later cuts
    CareVault off the practice's data; enabling it restores access.

    Args:
        body (PracticeKeyUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | PracticeKeyRead]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: PracticeKeyUpdate,
) -> ErrorResponse | PracticeKeyRead | None:
    """Set Practice Key Route

     Owners (after entering their password again): move the practice onto its own AWS
    KMS key (bring your own key), or back to the installation's (`null`). The practice's
    data keys are re-wrapped by KMS; no value is re-encrypted. Disabling the key later cuts
    CareVault off the practice's data; enabling it restores access.

    Args:
        body (PracticeKeyUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | PracticeKeyRead
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PracticeKeyUpdate,
) -> Response[ErrorResponse | PracticeKeyRead]:
    """Set Practice Key Route

     Owners (after entering their password again): move the practice onto its own AWS
    KMS key (bring your own key), or back to the installation's (`null`). The practice's
    data keys are re-wrapped by KMS; no value is re-encrypted. Disabling the key later cuts
    CareVault off the practice's data; enabling it restores access.

    Args:
        body (PracticeKeyUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | PracticeKeyRead]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: PracticeKeyUpdate,
) -> ErrorResponse | PracticeKeyRead | None:
    """Set Practice Key Route

     Owners (after entering their password again): move the practice onto its own AWS
    KMS key (bring your own key), or back to the installation's (`null`). The practice's
    data keys are re-wrapped by KMS; no value is re-encrypted. Disabling the key later cuts
    CareVault off the practice's data; enabling it restores access.

    Args:
        body (PracticeKeyUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | PracticeKeyRead
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
