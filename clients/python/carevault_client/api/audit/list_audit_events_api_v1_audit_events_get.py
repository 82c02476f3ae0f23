import datetime
from http import HTTPStatus
from typing import Any
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_response import ErrorResponse
from ...models.list_audit_events_api_v1_audit_events_get_actor_kind_type_0_item import (
    ListAuditEventsApiV1AuditEventsGetActorKindType0Item,
)
from ...models.page_audit_event_read import PageAuditEventRead
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    user_id: None | Unset | UUID = UNSET,
    action: None | str | Unset = UNSET,
    resource_type: None | str | Unset = UNSET,
    resource_id: None | Unset | UUID = UNSET,
    since: datetime.datetime | None | Unset = UNSET,
    until: datetime.datetime | None | Unset = UNSET,
    actor_kind: list[ListAuditEventsApiV1AuditEventsGetActorKindType0Item] | None | Unset = UNSET,
    page: int | Unset = 1,
    page_size: int | Unset = 20,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_user_id: None | str | Unset
    if isinstance(user_id, Unset):
        json_user_id = UNSET
    elif isinstance(user_id, UUID):
        json_user_id = str(user_id)
    else:
        json_user_id = user_id
    params["user_id"] = json_user_id

    json_action: None | str | Unset
    if isinstance(action, Unset):
        json_action = UNSET
    else:
        json_action = action
    params["action"] = json_action

    json_resource_type: None | str | Unset
    if isinstance(resource_type, Unset):
        json_resource_type = UNSET
    else:
        json_resource_type = resource_type
    params["resource_type"] = json_resource_type

    json_resource_id: None | str | Unset
    if isinstance(resource_id, Unset):
        json_resource_id = UNSET
    elif isinstance(resource_id, UUID):
        json_resource_id = str(resource_id)
    else:
        json_resource_id = resource_id
    params["resource_id"] = json_resource_id

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

    json_actor_kind: list[str] | None | Unset
    if isinstance(actor_kind, Unset):
        json_actor_kind = UNSET
    elif isinstance(actor_kind, list):
        json_actor_kind = []
        for actor_kind_type_0_item_data in actor_kind:
            actor_kind_type_0_item = actor_kind_type_0_item_data.value
            json_actor_kind.append(actor_kind_type_0_item)

    else:
        json_actor_kind = actor_kind
    params["actor_kind"] = json_actor_kind

    params["page"] = page

    params["page_size"] = page_size

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/audit-events",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorResponse | PageAuditEventRead | None:
    if response.status_code == 200:
        response_200 = PageAuditEventRead.from_dict(response.json())

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
) -> Response[ErrorResponse | PageAuditEventRead]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    user_id: None | Unset | UUID = UNSET,
    action: None | str | Unset = UNSET,
    resource_type: None | str | Unset = UNSET,
    resource_id: None | Unset | UUID = UNSET,
    since: datetime.datetime | None | Unset = UNSET,
    until: datetime.datetime | None | Unset = UNSET,
    actor_kind: list[ListAuditEventsApiV1AuditEventsGetActorKindType0Item] | None | Unset = UNSET,
    page: int | Unset = 1,
    page_size: int | Unset = 20,
) -> Response[ErrorResponse | PageAuditEventRead]:
    """List Audit Events

     The workspace's audit trail, newest first, each event with its actor's name and role
    and its token's name. `since` after `until` is a 422 `invalid_date_range`. Owners only.

    Args:
        user_id (None | Unset | UUID): Actor
        action (None | str | Unset):
        resource_type (None | str | Unset):
        resource_id (None | Unset | UUID): Named among resource_ids
        since (datetime.datetime | None | Unset): Inclusive, ISO 8601
        until (datetime.datetime | None | Unset): Exclusive, ISO 8601
        actor_kind (list[ListAuditEventsApiV1AuditEventsGetActorKindType0Item] | None | Unset):
            Only events of these actor kinds (repeat the parameter):
            `actor_kind=service_account&actor_kind=token` shows integration traffic,
            `actor_kind=session` hides it. Unset: every kind
        page (int | Unset): 1-based page number Default: 1.
        page_size (int | Unset): items per page Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | PageAuditEventRead]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        action=action,
        resource_type=resource_type,
        resource_id=resource_id,
        since=since,
        until=until,
        actor_kind=actor_kind,
        page=page,
        page_size=page_size,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    user_id: None | Unset | UUID = UNSET,
    action: None | str | Unset = UNSET,
    resource_type: None | str | Unset = UNSET,
    resource_id: None | Unset | UUID = UNSET,
    since: datetime.datetime | None | Unset = UNSET,
    until: datetime.datetime | None | Unset = UNSET,
    actor_kind: list[ListAuditEventsApiV1AuditEventsGetActorKindType0Item] | None | Unset = UNSET,
    page: int | Unset = 1,
    page_size: int | Unset = 20,
) -> ErrorResponse | PageAuditEventRead | None:
    """List Audit Events

     The workspace's audit trail, newest first, each event with its actor's name and role
    and its token's name. `since` after `until` is a 422 `invalid_date_range`. Owners only.

    Args:
        user_id (None | Unset | UUID): Actor
        action (None | str | Unset):
        resource_type (None | str | Unset):
        resource_id (None | Unset | UUID): Named among resource_ids
        since (datetime.datetime | None | Unset): Inclusive, ISO 8601
        until (datetime.datetime | None | Unset): Exclusive, ISO 8601
        actor_kind (list[ListAuditEventsApiV1AuditEventsGetActorKindType0Item] | None | Unset):
            Only events of these actor kinds (repeat the parameter):
            `actor_kind=service_account&actor_kind=token` shows integration traffic,
            `actor_kind=session` hides it. Unset: every kind
        page (int | Unset): 1-based page number Default: 1.
        page_size (int | Unset): items per page Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | PageAuditEventRead
    """

    return sync_detailed(
        client=client,
        user_id=user_id,
        action=action,
        resource_type=resource_type,
        resource_id=resource_id,
        since=since,
        until=until,
        actor_kind=actor_kind,
        page=page,
        page_size=page_size,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    user_id: None | Unset | UUID = UNSET,
    action: None | str | Unset = UNSET,
    resource_type: None | str | Unset = UNSET,
    resource_id: None | Unset | UUID = UNSET,
    since: datetime.datetime | None | Unset = UNSET,
    until: datetime.datetime | None | Unset = UNSET,
    actor_kind: list[ListAuditEventsApiV1AuditEventsGetActorKindType0Item] | None | Unset = UNSET,
    page: int | Unset = 1,
    page_size: int | Unset = 20,
) -> Response[ErrorResponse | PageAuditEventRead]:
    """List Audit Events

     The workspace's audit trail, newest first, each event with its actor's name and role
    and its token's name. `since` after `until` is a 422 `invalid_date_range`. Owners only.

    Args:
        user_id (None | Unset | UUID): Actor
        action (None | str | Unset):
        resource_type (None | str | Unset):
        resource_id (None | Unset | UUID): Named among resource_ids
        since (datetime.datetime | None | Unset): Inclusive, ISO 8601
        until (datetime.datetime | None | Unset): Exclusive, ISO 8601
        actor_kind (list[ListAuditEventsApiV1AuditEventsGetActorKindType0Item] | None | Unset):
            Only events of these actor kinds (repeat the parameter):
            `actor_kind=service_account&actor_kind=token` shows integration traffic,
            `actor_kind=session` hides it. Unset: every kind
        page (int | Unset): 1-based page number Default: 1.
        page_size (int | Unset): items per page Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorResponse | PageAuditEventRead]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        action=action,
        resource_type=resource_type,
        resource_id=resource_id,
        since=since,
        until=until,
        actor_kind=actor_kind,
        page=page,
        page_size=page_size,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    user_id: None | Unset | UUID = UNSET,
    action: None | str | Unset = UNSET,
    resource_type: None | str | Unset = UNSET,
    resource_id: None | Unset | UUID = UNSET,
    since: datetime.datetime | None | Unset = UNSET,
    until: datetime.datetime | None | Unset = UNSET,
    actor_kind: list[ListAuditEventsApiV1AuditEventsGetActorKindType0Item] | None | Unset = UNSET,
    page: int | Unset = 1,
    page_size: int | Unset = 20,
) -> ErrorResponse | PageAuditEventRead | None:
    """List Audit Events

     The workspace's audit trail, newest first, each event with its actor's name and role
    and its token's name. `since` after `until` is a 422 `invalid_date_range`. Owners only.

    Args:
        user_id (None | Unset | UUID): Actor
        action (None | str | Unset):
        resource_type (None | str | Unset):
        resource_id (None | Unset | UUID): Named among resource_ids
        since (datetime.datetime | None | Unset): Inclusive, ISO 8601
        until (datetime.datetime | None | Unset): Exclusive, ISO 8601
        actor_kind (list[ListAuditEventsApiV1AuditEventsGetActorKindType0Item] | None | Unset):
            Only events of these actor kinds (repeat the parameter):
            `actor_kind=service_account&actor_kind=token` shows integration traffic,
            `actor_kind=session` hides it. Unset: every kind
        page (int | Unset): 1-based page number Default: 1.
        page_size (int | Unset): items per page Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorResponse | PageAuditEventRead
    """

    return (
        await asyncio_detailed(
            client=client,
            user_id=user_id,
            action=action,
            resource_type=resource_type,
            resource_id=resource_id,
            since=since,
            until=until,
            actor_kind=actor_kind,
            page=page,
            page_size=page_size,
        )
    ).parsed
