from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.access_log_entry_kind import AccessLogEntryKind
from ..models.access_log_entry_via import AccessLogEntryVia

T = TypeVar("T", bound="AccessLogEntry")


@_attrs_define
class AccessLogEntry:
    """One access to a client's records: who, what, when, from where. Staff and token names
    are not client PHI; nothing of the client is in it.

        Attributes:
            action (str): The audit action, e.g. `client.read`
            actor_name (None | str): The user's display name, or sign-in address; for a service account's token, the service
                account's name
            actor_role (None | str):
            actor_user_id (None | UUID):
            id (int): The audit event's id
            ip_address (None | str):
            kind (AccessLogEntryKind): chart_read: the record was read; list_appearance: the client (or their note or
                appointment) was in a list or search, as a summary; change; export: data left as a file; access_log: this
                history was read; other
            occurred_at (datetime.datetime):
            resource_type (None | str): client, session (a note) or appointment
            token_name (None | str): The API token's name, when one was used
            via (AccessLogEntryVia): ui: a signed-in session; token: an API token; system: a server command
    """

    action: str
    actor_name: None | str
    actor_role: None | str
    actor_user_id: None | UUID
    id: int
    ip_address: None | str
    kind: AccessLogEntryKind
    occurred_at: datetime.datetime
    resource_type: None | str
    token_name: None | str
    via: AccessLogEntryVia
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        action = self.action

        actor_name: None | str
        actor_name = self.actor_name

        actor_role: None | str
        actor_role = self.actor_role

        actor_user_id: None | str
        if isinstance(self.actor_user_id, UUID):
            actor_user_id = str(self.actor_user_id)
        else:
            actor_user_id = self.actor_user_id

        id = self.id

        ip_address: None | str
        ip_address = self.ip_address

        kind = self.kind.value

        occurred_at = self.occurred_at.isoformat()

        resource_type: None | str
        resource_type = self.resource_type

        token_name: None | str
        token_name = self.token_name

        via = self.via.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "actor_name": actor_name,
                "actor_role": actor_role,
                "actor_user_id": actor_user_id,
                "id": id,
                "ip_address": ip_address,
                "kind": kind,
                "occurred_at": occurred_at,
                "resource_type": resource_type,
                "token_name": token_name,
                "via": via,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = d.pop("action")

        def _parse_actor_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        actor_name = _parse_actor_name(d.pop("actor_name"))

        def _parse_actor_role(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        actor_role = _parse_actor_role(d.pop("actor_role"))

        def _parse_actor_user_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                actor_user_id_type_0 = UUID(data)

                return actor_user_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        actor_user_id = _parse_actor_user_id(d.pop("actor_user_id"))

        id = d.pop("id")

        def _parse_ip_address(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        ip_address = _parse_ip_address(d.pop("ip_address"))

        kind = AccessLogEntryKind(d.pop("kind"))

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurred_at"))

        def _parse_resource_type(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        resource_type = _parse_resource_type(d.pop("resource_type"))

        def _parse_token_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        token_name = _parse_token_name(d.pop("token_name"))

        via = AccessLogEntryVia(d.pop("via"))

        access_log_entry = cls(
            action=action,
            actor_name=actor_name,
            actor_role=actor_role,
            actor_user_id=actor_user_id,
            id=id,
            ip_address=ip_address,
            kind=kind,
            occurred_at=occurred_at,
            resource_type=resource_type,
            token_name=token_name,
            via=via,
        )

        access_log_entry.additional_properties = d
        return access_log_entry

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
