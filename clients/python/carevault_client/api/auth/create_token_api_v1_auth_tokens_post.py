from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_response import ErrorResponse
from ...models.token_create import TokenCreate
from ...models.token_created import TokenCreated
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: TokenCreate,
    idempotency_key: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/auth/tokens",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorResponse | TokenCreated | None:
    if response.status_code == 201:
        response_201 = TokenCreated.from_dict(response.json())

        return response_201

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
) -> Response[ErrorResponse | TokenCreated]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: TokenCreate,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[ErrorResponse | TokenCreated]:
    """Create Token

     Create an API token for the signed-in user, limited to `scopes`. The token is in this
    response only. Needs a session whose password was proved in the last 5 minutes.

    Args:
        idempotency_key (None | str | Unset): Retry this create safely: the same key and body
            within 24 hours answer with the first response (see docs/reference/api.md)
        body (TokenCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | TokenCreated]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: TokenCreate,
    idempotency_key: None | str | Unset = UNSET,
) -> ErrorResponse | TokenCreated | None:
    """Create Token

     Create an API token for the signed-in user, limited to `scopes`. The token is in this
    response only. Needs a session whose password was proved in the last 5 minutes.

    Args:
        idempotency_key (None | str | Unset): Retry this create safely: the same key and body
            within 24 hours answer with the first response (see docs/reference/api.md)
        body (TokenCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | TokenCreated
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: TokenCreate,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[ErrorResponse | TokenCreated]:
    """Create Token

     Create an API token for the signed-in user, limited to `scopes`. The token is in this
    response only. Needs a session whose password was proved in the last 5 minutes.

    Args:
        idempotency_key (None | str | Unset): Retry this create safely: the same key and body
            within 24 hours answer with the first response (see docs/reference/api.md)
        body (TokenCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | TokenCreated]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: TokenCreate,
    idempotency_key: None | str | Unset = UNSET,
) -> ErrorResponse | TokenCreated | None:
    """Create Token

     Create an API token for the signed-in user, limited to `scopes`. The token is in this
    response only. Needs a session whose password was proved in the last 5 minutes.

    Args:
        idempotency_key (None | str | Unset): Retry this create safely: the same key and body
            within 24 hours answer with the first response (see docs/reference/api.md)
        body (TokenCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | TokenCreated
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
